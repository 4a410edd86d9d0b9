//! Choosing the supporter moves and placements the search tries: the pruned sub-decisions
//! of a Gladiator or Brawl turn.

use super::*;

/// What a supporter move would give one side's pawns in a position: each pawn's diagonal
/// reach (all computed at once: they also say which squares power which pawns), and, on
/// demand, its rook reach, its targets now and the new targets a supporter of each kind
/// powering it would add.
pub(super) struct Gains<'a> {
    pos: &'a Position,
    side: Side,
    s: usize,
    occupied: u64,
    /// The squares the pawns may end on ([`Position::target_mask`]).
    allowed: u64,
    /// The squares from which a supporter would power one of the pawns (the empty ones on
    /// their diagonals, within the area asked for).
    landing: u64,
    diagonal: [u64; 64],
    /// The pawns a supporter on each landing square would power.
    powered: [u64; 64],
    rook: [u64; 64],
    rook_known: u64,
    current: [u64; 64],
    known: u64,
    gain: [[u8; 64]; 6],
    gain_known: [u64; 6],
}

impl<'a> Gains<'a> {
    /// What a supporter landing in `area` would give `side`'s pawns in `pos`.
    #[inline(always)]
    pub(super) fn new(pos: &'a Position, side: Side, area: u64) -> Gains<'a> {
        let occupied = pos.occupied();
        let pawns = pos.pieces(side, Kind::Pawn);
        let mut gains = Gains {
            pos,
            side,
            s: side.index(),
            occupied,
            allowed: pos.target_mask(side.index()),
            landing: 0,
            diagonal: [0; 64],
            powered: [0; 64],
            rook: [0; 64],
            rook_known: 0,
            current: [0; 64],
            known: 0,
            gain: [[0; 64]; 6],
            gain_known: [0; 6],
        };
        let mut left = pawns;
        while left != 0 {
            let p = left.trailing_zeros() as usize;
            left &= left - 1;
            gains.diagonal[p] = reach(Kind::Bishop, p as u8, occupied);
            // A supporter on an empty square powers the pawns whose diagonals reach it (a
            // diagonal reach is symmetric).
            let mut on = gains.diagonal[p] & !occupied & area;
            gains.landing |= on;
            while on != 0 {
                gains.powered[on.trailing_zeros() as usize] |= 1 << p;
                on &= on - 1;
            }
        }
        gains
    }

    #[inline(always)]
    fn rook_of(&mut self, p: usize) -> u64 {
        if self.rook_known >> p & 1 == 0 {
            self.rook[p] = reach(Kind::Rook, p as u8, self.occupied);
            self.rook_known |= 1 << p;
        }
        self.rook[p]
    }

    /// The targets of the pawn on `p` now.
    #[inline(always)]
    fn current_of(&mut self, p: usize) -> u64 {
        if self.known >> p & 1 == 0 {
            let diagonals = self.diagonal[p];
            let powering = diagonals & self.pos.supporters(self.s);
            let needs_rook = powering & (self.pos.of_kind(3) | self.pos.of_kind(4)) != 0;
            let rook = if needs_rook { self.rook_of(p) } else { 0 };
            let borrowed = self.pos.borrowed(p as u8, powering, diagonals, || rook);
            self.current[p] = borrowed & self.allowed;
            self.known |= 1 << p;
        }
        self.current[p]
    }

    /// New targets the pawn on `p` gets from a supporter of `kind` powering it.
    #[inline(always)]
    fn of(&mut self, kind: Kind, p: usize) -> u32 {
        let k = kind as usize;
        if self.gain_known[k] >> p & 1 == 0 {
            let current = self.current_of(p);
            let reach = match kind {
                Kind::Bishop => self.diagonal[p],
                Kind::Rook => self.rook_of(p),
                Kind::Queen => self.diagonal[p] | self.rook_of(p),
                Kind::Pawn | Kind::Knight | Kind::King => reach(kind, p as u8, self.occupied),
            };
            let new = reach & self.allowed & !current;
            self.gain[k][p] = new.count_ones() as u8;
            self.gain_known[k] |= 1 << p;
        }
        u32::from(self.gain[k][p])
    }

    /// New targets a supporter of `kind` on the landing square `st` gives the pawns.
    #[inline(always)]
    fn landing_on(&mut self, kind: Kind, st: u8) -> u32 {
        let mut powered = self.powered[usize::from(st)];
        let mut gain = 0;
        while powered != 0 {
            let p = powered.trailing_zeros() as usize;
            powered &= powered - 1;
            gain += self.of(kind, p);
        }
        gain
    }
}

/// The [`SUPPORT_CHOICES`] supporter moves of the highest gain so far, each added to `base`:
/// the earlier one first among equal gains; none of gain 0.
struct Choices {
    base: Turn,
    best: [(u32, Turn); SUPPORT_CHOICES],
}

impl Choices {
    fn new(base: Turn) -> Choices {
        Choices {
            base,
            best: [(0, base); SUPPORT_CHOICES],
        }
    }

    #[inline(always)]
    fn consider(&mut self, gain: u32, sf: u8, st: u8) {
        if let Some(i) = self.best.iter().position(|(g, _)| gain > *g) {
            self.best[i..].rotate_right(1);
            self.best[i] = (
                gain,
                Turn {
                    support: (sf, st),
                    ..self.base
                },
            );
        }
    }

    fn emit(&self, out: &mut Vec<Turn>) {
        out.extend(self.best.iter().filter(|(g, _)| *g > 0).map(|(_, t)| *t));
    }
}

impl Position {
    /// The kind of the enemy supporter a pawn landing on `to` displaces (Brawl), if any.
    pub(super) fn displaced(&self, to: u8) -> Option<Kind> {
        let them = self.side_to_move().opponent().index();
        if self.supporters(them) >> to & 1 == 0 {
            return None;
        }
        self.kind_at(to)
    }

    /// Adds the few most promising supporter moves after the pawn part `base` (position
    /// `after`): a supporter that lands where it powers our pawns, scored by the new moves
    /// those pawns gain. In Gladiator any supporter of a kind can jump anywhere, so only one
    /// of each kind is tried: one that powers no pawn now (not in `busy`), if there is one.
    #[inline(always)]
    pub(super) fn best_supports(
        &self,
        after: &Position,
        busy: u64,
        base: Turn,
        out: &mut Vec<Turn>,
    ) {
        let area = match self.rules() {
            Rules::Gladiator => BORDER,
            Rules::Brawl => !0,
        };
        let mut gains = Gains::new(after, self.side_to_move(), area);
        if gains.landing == 0 {
            return;
        }
        let mut choices = Choices::new(base);
        match self.rules() {
            Rules::Gladiator => gladiator_supports(&mut gains, busy, &mut choices),
            Rules::Brawl => brawl_supports(&mut gains, &mut choices),
        }
        choices.emit(out);
    }
}

/// Gladiator: a jump of one supporter per kind (one not in `busy`, if there is one) to every
/// landing square, in square order, then kind order.
#[inline(always)]
fn gladiator_supports(gains: &mut Gains, busy: u64, choices: &mut Choices) {
    let supporters = gains.pos.supporters(gains.s);
    let mut movers = [NONE; 6];
    for kind in &KINDS[1..] {
        let all = supporters & gains.pos.pieces(gains.side, *kind);
        if let Some(b) = [all & !busy, all].into_iter().find(|&b| b != 0) {
            movers[*kind as usize] = b.trailing_zeros() as u8;
        }
    }
    let mut dest = gains.landing;
    while dest != 0 {
        let st = dest.trailing_zeros() as u8;
        dest &= dest - 1;
        for kind in &KINDS[1..] {
            let sf = movers[*kind as usize];
            if sf != NONE {
                choices.consider(gains.landing_on(*kind, st), sf, st);
            }
        }
    }
}

/// Brawl: every quiet move of every supporter to a landing square, in supporter order, then
/// square order.
#[inline(always)]
fn brawl_supports(gains: &mut Gains, choices: &mut Choices) {
    let mut sup = gains.pos.supporters(gains.s);
    while sup != 0 {
        let sf = sup.trailing_zeros() as u8;
        sup &= sup - 1;
        let kind = gains.pos.kind_at(sf).expect("a supporter");
        let mut dest = reach(kind, sf, gains.occupied) & !gains.occupied & gains.landing;
        while dest != 0 {
            let st = dest.trailing_zeros() as u8;
            dest &= dest - 1;
            choices.consider(gains.landing_on(kind, st), sf, st);
        }
    }
}

/// Where to put an enemy supporter a pawn landed on (Brawl): the vacant square that leaves
/// the enemy the fewest pawn moves (the lowest such square). Only a square on an enemy pawn's
/// diagonal run or among its targets can change its moves; every other square leaves them as
/// they are without the piece.
#[inline(always)]
pub(super) fn best_placement_by(after: &Position, kind: Kind) -> u8 {
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
