//! How the alternating search sees Gladiator and Brawl: candidate turns are the pawn moves
//! (with one chosen placement of a displaced supporter); the supporter move is a pruned
//! sub-decision (a turn can have over a thousand spellings) offered as a refinement, generated
//! only when the search reaches it. Captures of pawns are the noisy turns, and the evaluation
//! weighs material, pawn power and mobility.

use super::gladiator::{BORDER, Kind, Position, Rules, Turn, reach};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN};
use crate::variant::Side;

/// Supporter moves kept per pawn move, besides making none.
const SUPPORT_CHOICES: usize = 2;
const NONE: u8 = u8::MAX;
/// The placement of a candidate turn that displaces a supporter, before it is chosen (see
/// `Searchable::settle`): not a square.
const OPEN: u8 = NONE - 1;

/// The weights of the evaluation, in centipawns (a pawn is 100); `quill tune` fits them to
/// the results of self-play games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// What a supporter of each kind (indexed by `Kind`; the pawn's entry is unused) is worth
    /// to the pawn it powers (its borrowed power): the best one counts.
    pub(crate) power: [i32; 6],
    /// Each pawn that no supporter powers.
    pub(crate) unpowered: i32,
    /// Each square a pawn can move to.
    pub(crate) target: i32,
    /// Each enemy pawn a pawn can capture.
    pub(crate) attack: i32,
    /// A side's material when it has 1, 2 or 3 pawns, beyond their 100 each (losing them all
    /// loses).
    pub(crate) last_pawns: [i32; 3],
    /// The side to move's bonus.
    pub tempo: i32,
}

/// The evaluation's weights.
pub const WEIGHTS: EvalWeights = EvalWeights {
    power: [0, 11, 8, 13, 15, 5],
    unpowered: -15,
    target: 3,
    attack: 5,
    last_pawns: [-200, -80, -20],
    tempo: 10,
};

/// How many weights [`EvalWeights::to_array`] lists.
pub const EVAL_TERMS: usize = 11;

impl EvalWeights {
    /// The names of the weights, in the order of [`EvalWeights::to_array`].
    pub const NAMES: [&'static str; EVAL_TERMS] = [
        "power.knight",
        "power.bishop",
        "power.rook",
        "power.queen",
        "power.king",
        "unpowered",
        "target",
        "attack",
        "last_pawns.1",
        "last_pawns.2",
        "last_pawns.3",
    ];

    /// The weights as a list (the tempo aside, which the evaluation adds to every position
    /// alike and self-play results cannot separate from the first move's advantage).
    pub fn to_array(&self) -> [i32; EVAL_TERMS] {
        let p = self.power;
        let l = self.last_pawns;
        [
            p[1],
            p[2],
            p[3],
            p[4],
            p[5],
            self.unpowered,
            self.target,
            self.attack,
            l[0],
            l[1],
            l[2],
        ]
    }

    /// The weights from a list in the order of [`EvalWeights::to_array`], with this tempo.
    pub fn from_array(w: [i32; EVAL_TERMS], tempo: i32) -> EvalWeights {
        EvalWeights {
            power: [0, w[0], w[1], w[2], w[3], w[4]],
            unpowered: w[5],
            target: w[6],
            attack: w[7],
            last_pawns: [w[8], w[9], w[10]],
            tempo,
        }
    }
}

const KINDS: [Kind; 6] = [
    Kind::Pawn,
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
    Kind::King,
];

impl Position {
    /// Sum of the pawn moves (targets) of a side's pawns.
    #[inline(always)]
    pub(crate) fn pawn_mobility(&self, side: Side) -> u32 {
        let occupied = self.occupied();
        let mut pawns = self.pieces(side, Kind::Pawn);
        let mut total = 0;
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            total += self.targets_of(side.index(), from, occupied).count_ones();
        }
        total
    }

    /// Squares from which a supporter would power one of `side`'s pawns: the empty squares
    /// of each pawn's diagonals up to the first piece.
    fn powering_squares(&self, side: Side) -> u64 {
        let occupied = self.occupied();
        let mut pawns = self.pieces(side, Kind::Pawn);
        let mut out = 0;
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            out |= reach(Kind::Bishop, from, occupied);
        }
        out & !occupied
    }

    /// The evaluation ([`Searchable::evaluate`]): material, pawn power and mobility, for the
    /// side to move.
    #[inline(always)]
    fn static_score(&self) -> i32 {
        let me = self.side_to_move();
        let them = me.opponent();
        let pawns = |s| self.pieces(s, Kind::Pawn).count_ones();
        material(pawns(me)) - material(pawns(them)) + self.activity(me) - self.activity(them)
            + WEIGHTS.tempo
    }

    /// One side's share of the evaluation: pawn power and mobility.
    #[inline(always)]
    fn activity(&self, side: Side) -> i32 {
        let mut score = 0;
        self.activity_terms(side, &WEIGHTS, |best, targets, attacks| {
            score += best.map_or(WEIGHTS.unpowered, |k| WEIGHTS.power[k])
                + WEIGHTS.target * targets
                + WEIGHTS.attack * attacks;
        });
        score
    }

    /// Calls `each(best, targets, attacks)` for every pawn of `side`: the kind (as an index)
    /// of its powering supporter of the highest weight under `w` (the first such kind on a
    /// tie; `None` when no supporter powers it), its target squares and the enemy pawns among
    /// them.
    #[inline(always)]
    fn activity_terms(
        &self,
        side: Side,
        w: &EvalWeights,
        mut each: impl FnMut(Option<usize>, i32, i32),
    ) {
        let s = side.index();
        let occupied = self.occupied();
        let supporters = self.supporters(s);
        let enemy_pawns = self.pieces(side.opponent(), Kind::Pawn);
        let mut pawns = self.pieces(side, Kind::Pawn);
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let diagonals = reach(Kind::Bishop, from, occupied);
            let powering = diagonals & supporters;
            // The first kind of the highest weight among the powering supporters.
            let mut best = None::<usize>;
            for kind in &KINDS[1..] {
                let k = *kind as usize;
                if powering & self.pieces(side, *kind) != 0
                    && best.is_none_or(|b| w.power[k] > w.power[b])
                {
                    best = Some(k);
                }
            }
            let targets =
                self.allowed_targets(s, self.borrowed(from, powering, diagonals, occupied));
            each(
                best,
                targets.count_ones() as i32,
                (targets & enemy_pawns).count_ones() as i32,
            );
        }
    }

    /// The evaluation's terms for the side to move, its own minus its opponent's, in the order
    /// of [`EvalWeights::to_array`]: the evaluation under weights `w` is their dot product
    /// with `w.to_array()`, plus `100·(pawn difference)` and `w.tempo`. The supporter that
    /// powers a pawn best is chosen under `w` (call it again after changing their order).
    pub fn eval_terms(&self, w: &EvalWeights) -> [i32; EVAL_TERMS] {
        let me = self.side_to_move();
        let mut terms = [0; EVAL_TERMS];
        for (side, sign) in [(me, 1), (me.opponent(), -1)] {
            self.activity_terms(side, w, |best, targets, attacks| {
                match best {
                    Some(k) => terms[k - 1] += sign,
                    None => terms[5] += sign,
                }
                terms[6] += sign * targets;
                terms[7] += sign * attacks;
            });
            let pawns = self.pieces(side, Kind::Pawn).count_ones();
            if (1..=3).contains(&pawns) {
                terms[7 + pawns as usize] += sign;
            }
        }
        terms
    }

    /// The pawns of the side to move minus those of its opponent.
    pub fn pawn_difference(&self) -> i32 {
        let me = self.side_to_move();
        let pawns = |s| self.pieces(s, Kind::Pawn).count_ones() as i32;
        pawns(me) - pawns(me.opponent())
    }
}

/// Defines a function that calls `$body` (an `#[inline(always)]` function, and so is what it
/// calls) compiled with the hardware bit count (`popcnt`) when the CPU has one, and plainly
/// elsewhere: the build targets baseline x86-64, where `count_ones` is a dozen instructions,
/// and the evaluation and the supporter choices count bits at every node. The check is one
/// cached load (std keeps the detected features).
macro_rules! with_popcnt {
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $body:path;) => {
        $(#[$m])*
        fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("popcnt") {
                #[target_feature(enable = "popcnt")]
                fn fast($($arg: $ty),*) $(-> $ret)? {
                    $body($($arg),*)
                }
                // SAFETY: the CPU has popcnt (detected just above).
                return unsafe { fast($($arg),*) };
            }
            $body($($arg),*)
        }
    };
}

with_popcnt! {
    /// [`Position::static_score`], with hardware popcount where there is one.
    fn static_score(pos: &Position) -> i32 = Position::static_score;
}

with_popcnt! {
    /// [`Position::best_supports`], with hardware popcount where there is one.
    fn best_supports(
        pos: &Position,
        after: &Position,
        busy: u64,
        base: Turn,
        out: &mut Vec<Turn>,
    ) = Position::best_supports;
}

with_popcnt! {
    /// [`best_placement_by`], with hardware popcount where there is one.
    fn best_placement(after: &Position, kind: Kind) -> u8 = best_placement_by;
}

/// Material: every pawn is worth 100, and the last ones more (losing them all loses).
fn material(pawns: u32) -> i32 {
    100 * pawns as i32
        + match pawns {
            1..=3 => WEIGHTS.last_pawns[pawns as usize - 1],
            _ => 0,
        }
}

impl Searchable for Position {
    type Move = Turn;

    fn candidates(&self, out: &mut Vec<Turn>) {
        out.clear();
        let s = self.side_to_move().index();
        let occupied = self.occupied();
        let mut pawns = self.pieces(self.side_to_move(), Kind::Pawn);
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let mut targets = self.targets_of(s, from, occupied);
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                // Where a displaced supporter goes is chosen only if the turn is searched.
                let place = if self.displaced(to).is_some() {
                    OPEN
                } else {
                    NONE
                };
                out.push(Turn {
                    pawn: (from, to),
                    place,
                    support: (NONE, NONE),
                });
            }
        }
        if out.is_empty() {
            out.extend(
                self.forced_supporter_moves()
                    .into_iter()
                    .map(|support| Turn {
                        pawn: (NONE, NONE),
                        place: NONE,
                        support,
                    }),
            );
        }
    }

    /// The supporter moves worth trying after a pawn move (see `best_supports`).
    fn refinements(&self, mv: Turn, out: &mut Vec<Turn>) {
        if !mv.moves_pawn() || mv.support.0 != NONE {
            return;
        }
        let mv = self.settle(mv);
        let (mut after, displaced) = self.after_pawn(mv.pawn.0, mv.pawn.1);
        if let Some(kind) = displaced {
            after.place(kind, mv.place);
        }
        // Supporters powering a pawn now (judged before the pawn moves: close enough).
        let occupied = self.occupied();
        let mut busy = 0;
        let mut pawns = self.pieces(self.side_to_move(), Kind::Pawn);
        while pawns != 0 {
            busy |= reach(Kind::Bishop, pawns.trailing_zeros() as u8, occupied);
            pawns &= pawns - 1;
        }
        best_supports(self, &after, busy, mv, out);
    }

    /// Chooses the placement of a displaced supporter (see `best_placement_by`).
    fn settle(&self, mv: Turn) -> Turn {
        if mv.place != OPEN {
            return mv;
        }
        let (after, displaced) = self.after_pawn(mv.pawn.0, mv.pawn.1);
        let kind = displaced.expect("an open placement displaces a supporter");
        Turn {
            place: best_placement(&after, kind),
            ..mv
        }
    }

    fn same(&self, mv: Turn, done: Turn) -> bool {
        if mv.place == OPEN {
            // Choosing the placement only when the rest already matches.
            mv.pawn == done.pawn && mv.support == done.support && self.settle(mv) == done
        } else {
            mv == done
        }
    }

    fn has_code(&self, mv: Turn, code: u64) -> bool {
        if mv.place == OPEN {
            // Byte 2 is the placement.
            let rest = |c: u64| c & !(0xff << 16);
            rest(Self::code(mv)) == rest(code) && Self::code(self.settle(mv)) == code
        } else {
            Self::code(mv) == code
        }
    }

    fn base_code(code: u64) -> u64 {
        // The supporter move is in bytes 3 and 4.
        code | 0xffff << 24
    }

    fn noisy(&self, out: &mut Vec<Turn>) {
        out.clear();
        let me = self.side_to_move();
        let occupied = self.occupied();
        let victims = self.pieces(me.opponent(), Kind::Pawn);
        let mut pawns = self.pieces(me, Kind::Pawn);
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let mut targets = self.targets_of(me.index(), from, occupied) & victims;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push(Turn {
                    pawn: (from, to),
                    place: NONE,
                    support: (NONE, NONE),
                });
            }
        }
    }

    fn after(&self, mv: Turn) -> Position {
        self.play(self.settle(mv))
    }

    fn over(&self) -> Option<i32> {
        let mine = self.pieces(self.side_to_move(), Kind::Pawn) != 0;
        let theirs = self.pieces(self.side_to_move().opponent(), Kind::Pawn) != 0;
        match (mine, theirs) {
            (false, false) => Some(0),
            (false, true) => Some(-WIN),
            (true, false) => Some(WIN),
            (true, true) => (self.quiet() >= 4).then_some(0),
        }
    }

    fn stuck(&self) -> i32 {
        0
    }

    fn evaluate(&self) -> i32 {
        static_score(self)
    }

    fn key(&self) -> u64 {
        self.zobrist()
    }

    fn key_after(&self, mv: Turn) -> Option<u64> {
        Position::key_after(self, mv)
    }

    fn code(mv: Turn) -> u64 {
        u64::from_le_bytes([
            mv.pawn.0,
            mv.pawn.1,
            mv.place,
            mv.support.0,
            mv.support.1,
            0,
            0,
            0,
        ])
    }

    fn capture_order(&self, mv: Turn) -> Option<i32> {
        let them = self.side_to_move().opponent();
        (mv.moves_pawn() && self.pieces(them, Kind::Pawn) >> mv.pawn.1 & 1 == 1).then_some(100)
    }

    fn history_index(&self, mv: Turn) -> usize {
        if mv.moves_pawn() {
            usize::from(mv.pawn.0) * 64 + usize::from(mv.pawn.1)
        } else {
            4096 + usize::from(mv.support.0) * 64 + usize::from(mv.support.1)
        }
    }

    fn wire(&self, mv: Turn) -> WireMove {
        self.settle(mv).to_wire()
    }

    fn read_wire(&self, mv: &WireMove) -> Option<Turn> {
        self.parse_turn(mv).ok()
    }
}

/// New pawn moves a supporter of each kind would give, per powered pawn, computed on demand.
struct Gains {
    current: [u64; 64],
    known: u64,
    gain: [[u8; 64]; 6],
    gain_known: [u64; 6],
}

impl Gains {
    fn new() -> Gains {
        Gains {
            current: [0; 64],
            known: 0,
            gain: [[0; 64]; 6],
            gain_known: [0; 6],
        }
    }

    /// New targets the pawn on `p` gets from a supporter of `kind` powering it.
    #[inline(always)]
    fn of(&mut self, pos: &Position, s: usize, kind: Kind, p: u8) -> u32 {
        let k = kind as usize;
        if self.gain_known[k] >> p & 1 == 0 {
            let occupied = pos.occupied();
            if self.known >> p & 1 == 0 {
                self.current[usize::from(p)] = pos.targets_of(s, p, occupied);
                self.known |= 1 << p;
            }
            let new =
                pos.allowed_targets(s, reach(kind, p, occupied)) & !self.current[usize::from(p)];
            self.gain[k][usize::from(p)] = new.count_ones() as u8;
            self.gain_known[k] |= 1 << p;
        }
        u32::from(self.gain[k][usize::from(p)])
    }
}

impl Position {
    /// The kind of the enemy supporter a pawn landing on `to` displaces (Brawl), if any.
    fn displaced(&self, to: u8) -> Option<Kind> {
        let them = self.side_to_move().opponent().index();
        if self.supporters(them) >> to & 1 == 0 {
            return None;
        }
        self.kind_at(to)
    }

    /// Adds the few most promising supporter moves after the pawn part `base` (position
    /// `after`): a supporter that lands where it powers our pawns, scored by the new moves
    /// those pawns gain. In Gladiator any supporter of a kind can jump anywhere, so only one
    /// of each kind is tried: one that powers no pawn now, if there is one.
    #[inline(always)]
    fn best_supports(&self, after: &Position, busy: u64, base: Turn, out: &mut Vec<Turn>) {
        let me = self.side_to_move();
        let s = me.index();
        let occupied = after.occupied();
        let mut landing = after.powering_squares(me);
        if self.rules() == Rules::Gladiator {
            landing &= BORDER;
        }
        if landing == 0 {
            return;
        }
        let pawns = after.pieces(me, Kind::Pawn);
        let supporters = after.supporters(s);
        let mut gains = Gains::new();
        let mut best: [(u32, Turn); SUPPORT_CHOICES] = [(0, base); SUPPORT_CHOICES];
        let mut consider = |gain: u32, sf: u8, st: u8| {
            if let Some(i) = best.iter().position(|(g, _)| gain > *g) {
                best[i..].rotate_right(1);
                best[i] = (
                    gain,
                    Turn {
                        support: (sf, st),
                        ..base
                    },
                );
            }
        };
        let mut gain_of = |kind: Kind, powered: u64| {
            let mut powered = powered;
            let mut gain = 0;
            while powered != 0 {
                let p = powered.trailing_zeros() as u8;
                powered &= powered - 1;
                gain += gains.of(after, s, kind, p);
            }
            gain
        };
        match self.rules() {
            Rules::Gladiator => {
                // One supporter per kind: one that powers no pawn now, if there is one.
                let mut movers = [NONE; 6];
                for kind in &KINDS[1..] {
                    let all = supporters & after.pieces(me, *kind);
                    if let Some(b) = [all & !busy, all].into_iter().find(|&b| b != 0) {
                        movers[*kind as usize] = b.trailing_zeros() as u8;
                    }
                }
                let mut dest = landing;
                while dest != 0 {
                    let st = dest.trailing_zeros() as u8;
                    dest &= dest - 1;
                    let powered = reach(Kind::Bishop, st, occupied) & pawns;
                    for kind in &KINDS[1..] {
                        let sf = movers[*kind as usize];
                        if sf != NONE {
                            consider(gain_of(*kind, powered), sf, st);
                        }
                    }
                }
            }
            Rules::Brawl => {
                let mut sup = supporters;
                while sup != 0 {
                    let sf = sup.trailing_zeros() as u8;
                    sup &= sup - 1;
                    let kind = after.kind_at(sf).expect("a supporter");
                    let mut dest = reach(kind, sf, occupied) & !occupied & landing;
                    while dest != 0 {
                        let st = dest.trailing_zeros() as u8;
                        dest &= dest - 1;
                        let powered = reach(Kind::Bishop, st, occupied) & pawns;
                        consider(gain_of(kind, powered), sf, st);
                    }
                }
            }
        }
        out.extend(best.iter().filter(|(g, _)| *g > 0).map(|(_, t)| *t));
    }
}

/// Where to put an enemy supporter a pawn landed on (Brawl): the vacant square that leaves
/// the enemy the fewest pawn moves (the lowest such square). Only a square on an enemy pawn's
/// diagonal run or among its targets can change its moves; every other square leaves them as
/// they are without the piece.
#[inline(always)]
fn best_placement_by(after: &Position, kind: Kind) -> u8 {
    let them = after.side_to_move().opponent();
    let occupied = after.occupied();
    let vacant = !occupied;
    let mut touching = after.powering_squares(them);
    let mut pawns = after.pieces(them, Kind::Pawn);
    while pawns != 0 {
        touching |= after.targets_of(them.index(), pawns.trailing_zeros() as u8, occupied);
        pawns &= pawns - 1;
    }
    touching &= vacant;
    let neutral = vacant & !touching;
    let mut best = if neutral != 0 {
        (after.pawn_mobility(them), neutral.trailing_zeros() as u8)
    } else {
        (u32::MAX, NONE)
    };
    let mut squares = touching;
    while squares != 0 {
        let q = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let mut placed = after.clone();
        placed.place(kind, q);
        let mobility = placed.pawn_mobility(them);
        if mobility < best.0 || mobility == best.0 && q < best.1 {
            best = (mobility, q);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The evaluation is linear in its weights: the terms `quill tune` fits give it back
    /// exactly, on positions of random games of both rule sets.
    #[test]
    fn the_terms_give_the_evaluation_back() {
        let mut rng = Rng::new(0x7e55);
        let mut checked = 0;
        for rules in [Rules::Gladiator, Rules::Brawl] {
            for _ in 0..40 {
                let mut p = Position::start(rules);
                for _ in 0..60 {
                    if p.end().is_some() {
                        break;
                    }
                    let terms = p.eval_terms(&WEIGHTS);
                    let dot: i32 = terms
                        .iter()
                        .zip(WEIGHTS.to_array())
                        .map(|(t, w)| t * w)
                        .sum();
                    assert_eq!(
                        100 * p.pawn_difference() + WEIGHTS.tempo + dot,
                        p.evaluate(),
                        "{}",
                        p.fen()
                    );
                    checked += 1;
                    let turns = p.turns();
                    p = p.play(turns[rng.below(turns.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        let round_trip = EvalWeights::from_array(WEIGHTS.to_array(), WEIGHTS.tempo);
        assert_eq!(round_trip, WEIGHTS);
    }
}
