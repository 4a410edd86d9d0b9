//! How the alternating search sees Pagan Chess: every legal move, captures (by landing or by
//! withdrawal) as the noisy ones, and an evaluation of material (live, dead, and a dead Pagan
//! that may come back), the safety of a dead king, and where a captured king would reincarnate.

use super::pagan::{Move, Piece, Position, SQUARES, kind_key};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN};

/// Keys: `(side * 5 + kind) * 77 + square`, then the side to move: the reference for the key
/// `Position` keeps (`Position::key_from_scratch`).
#[cfg(test)]
const KEYS: [u64; 10 * SQUARES + 1] = crate::search::zobrist_keys(0x7061_6761_6e5f_6b65);
#[cfg(test)]
const SIDE_KEY: usize = 10 * SQUARES;

mod eval;
mod weights;

pub use eval::{DRAWISH, EvalTerms, THIN};
use eval::{value, victim_value};
pub use weights::{TERMS, WEIGHTS, Weights};

impl Searchable for Position {
    type Move = Move;

    fn candidates(&self, out: &mut Vec<Move>) {
        self.legal_moves(out);
    }

    fn noisy(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.bare_kings() {
            return;
        }
        // Once the enemy king is dead, checks are noisy too, so that quiescence sees the
        // mates (found by `over`) that end the hunt.
        if self.dead_king(self.side_to_move().opponent()).is_some() {
            self.pseudo_moves(out);
            out.retain(|&mv| (self.victim(mv).is_some() || self.checks(mv)) && self.is_legal(mv));
        } else {
            self.pseudo_captures(out);
            out.retain(|&mv| self.is_legal(mv));
        }
    }

    fn after(&self, mv: Move) -> Position {
        self.play(mv)
    }

    fn over(&self) -> Option<i32> {
        if self.bare_kings() {
            return Some(0);
        }
        // A king in check with no way out is mated: seen here, and not only where the
        // search generates every move, so that quiescence's checks find mates.
        (self.in_check() && !self.has_legal_move()).then_some(-WIN)
    }

    fn stuck(&self) -> i32 {
        if self.in_check() { -WIN } else { 0 }
    }

    fn evaluate(&self) -> i32 {
        // The build targets baseline x86-64, where `count_ones` is a dozen instructions, and
        // the evaluation (all of it inlined into `Position::score`) counts bits many times:
        // it is compiled a second time with the hardware bit count, for the CPUs that have
        // one. The check is one cached load (std keeps the detected features).
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            #[target_feature(enable = "popcnt")]
            fn fast(pos: &Position) -> i32 {
                pos.score()
            }
            // SAFETY: the CPU has popcnt (detected just above).
            return unsafe { fast(self) };
        }
        self.score()
    }

    fn reversible_plies(&self) -> u32 {
        Position::reversible_plies(self)
    }

    // The evaluation reads the pieces and the side to move, which the key holds (not the
    // move counters, which it leaves out).
    const CACHE_EVALUATION: bool = true;

    fn key(&self) -> u64 {
        self.zobrist()
    }

    fn code(mv: Move) -> u64 {
        u64::from(mv.from) | u64::from(mv.to) << 8 | (mv.promotion.map_or(0, kind_key) as u64) << 16
    }

    fn capture_order(&self, mv: Move) -> Option<i32> {
        let (victim, sq) = self.victim(mv)?;
        let attacker = self.at(mv.from).map_or(0, |p| value(p.kind));
        Some(16 * victim_value(victim, sq) - attacker / 16)
    }

    fn history_index(&self, mv: Move) -> usize {
        usize::from(mv.from) * SQUARES + usize::from(mv.to)
    }

    fn wire(&self, mv: Move) -> WireMove {
        mv.to_wire()
    }

    fn read_wire(&self, mv: &WireMove) -> Option<Move> {
        self.parse_move(mv).ok()
    }
}

impl Position {
    /// The Zobrist key computed from scratch: what the kept key (`Searchable::key`) must equal.
    #[cfg(test)]
    fn key_from_scratch(&self) -> u64 {
        use super::pagan::Kind;
        use crate::variant::Side;
        let mut key = 0;
        for side in [Side::White, Side::Black] {
            for kind in [
                Kind::King,
                Kind::Wazir,
                Kind::Alchemist,
                Kind::Pagan,
                Kind::Pawn,
            ] {
                let base = (side.index() * 5 + kind_key(kind)) * SQUARES;
                let mut b = self.pieces(side, kind);
                while b != 0 {
                    key ^= KEYS[base + b.trailing_zeros() as usize];
                    b &= b - 1;
                }
            }
        }
        if self.side_to_move() == Side::Black {
            key ^= KEYS[SIDE_KEY];
        }
        key
    }

    /// Whether a move of the side to move attacks the enemy king on the dead board.
    fn checks(&self, mv: Move) -> bool {
        let them = self.side_to_move().opponent();
        let next = self.play(mv);
        next.dead_king(them)
            .is_some_and(|king| next.attacked(king, them))
    }

    /// The piece a move captures (by landing or by withdrawal) and its square.
    fn victim(&self, mv: Move) -> Option<(Piece, u8)> {
        if let Some(p) = self.at(mv.to) {
            return Some((p, mv.to));
        }
        let sq = self.withdrawal_victim(mv)?;
        Some((self.at(sq)?, sq))
    }
}

#[cfg(test)]
mod guarded;
#[cfg(test)]
mod tests;
