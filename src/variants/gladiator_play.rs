//! How the alternating search sees Gladiator and Brawl: candidate turns are the pawn moves
//! (with one chosen placement of a displaced supporter); the supporter move is a pruned
//! sub-decision (a turn can have over a thousand spellings) offered as a refinement, generated
//! only when the search reaches it. Captures of pawns are the noisy turns, and the evaluation
//! weighs material, pawn power and mobility.

use super::gladiator::{BORDER, KINDS, Kind, KindSet, Position, Rules, Turn, borrowed_by, reach};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN};
use crate::variant::Side;

mod eval;
mod supports;

pub use self::eval::{BRAWL_WEIGHTS, EVAL_TERMS, EvalWeights, WEIGHTS, weights};
use self::supports::*;

/// Supporter moves kept per pawn move, besides making none. The gain that ranks them (new
/// pawn targets) does not weigh what else a supporter's move changes (which enemy pawns it
/// blocks; in Brawl, where it can be displaced to), so the search is given ten of them. At
/// equal time (`quill match --sprt 0:20:0.05:0.05`, `st=0.02`, 8 random opening turns), in
/// Brawl 10 against 6 scored +65 ± 36 Elo, 6 against 3 +159 ± 73, 3 against 2 +184 ± 77; in
/// Gladiator 10 against 2 +76 ± 98 and, again on other openings, +140 ± 65. Twenty were
/// not shown better: in Brawl 20 against 10 undecided after 98 games, then −55.7 ± 41.5 (44
/// games, H0); in Gladiator +19.7 ± 14.6 (316 games, H1) and then, on other openings, +1.9 ±
/// 14.3 (366 games, H0).
const SUPPORT_CHOICES: usize = 10;
const NONE: u8 = u8::MAX;
/// The placement of a candidate turn that displaces a supporter, before it is chosen (see
/// `Searchable::settle`): not a square.
const OPEN: u8 = NONE - 1;

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
        let mut after = self.clone();
        after.play_pawn_part(mv);
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
        let mut after = self.clone();
        let displaced = after.move_pawn(mv.pawn.0, mv.pawn.1);
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

    // The evaluation reads the pieces and the side to move, which the key holds (and the
    // rules, which do not change within a search).
    const CACHE_EVALUATION: bool = true;

    fn key(&self) -> u64 {
        self.zobrist()
    }

    fn reversible_plies(&self) -> u32 {
        Position::reversible_plies(self)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The order in which a pawn's powering supporters count: by power, ties by kind.
    #[test]
    fn the_strongest_powering_kind_counts_first() {
        // Knight 11, bishop 8, rook 13, queen 15, king 5.
        assert_eq!(eval::power_order(&WEIGHTS), [4, 3, 1, 2, 5]);
        let tied = EvalWeights {
            power: [0, 7, 9, 7, 9, 1],
            ..WEIGHTS
        };
        assert_eq!(eval::power_order(&tied), [2, 4, 1, 3, 5]);
    }

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
                    let w = weights(rules);
                    let terms = p.eval_terms(w);
                    let dot: i32 = terms.iter().zip(w.to_array()).map(|(t, w)| t * w).sum();
                    assert_eq!(
                        100 * p.pawn_difference() + w.tempo + dot,
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
