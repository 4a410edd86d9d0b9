//! How the alternating search sees Gladiator and Brawl: candidate turns with the supporter
//! move treated as a pruned sub-decision (a turn can have over a thousand spellings), and a
//! simple evaluation (material and pawn power).

use super::gladiator::{Kind, Position, Rules, Turn, BORDER};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN};
use crate::variant::Side;

/// Supporter moves kept per pawn move, besides making none.
const SUPPORT_CHOICES: usize = 2;
const NONE: u8 = u8::MAX;

impl Position {
    /// Sum of the pawn moves (targets) of a side's pawns.
    pub fn pawn_mobility(&self, side: Side) -> u32 {
        let mut pawns = self.pieces(side, Kind::Pawn);
        let mut total = 0;
        while pawns != 0 {
            total += self.pawn_targets(pawns.trailing_zeros() as u8).count_ones();
            pawns &= pawns - 1;
        }
        total
    }

    /// Squares from which a supporter would power one of `side`'s pawns: the first empty-run
    /// end of each diagonal from each pawn.
    fn powering_squares(&self, side: Side) -> u64 {
        let occupied = self.side_pieces(Side::White) | self.side_pieces(Side::Black);
        let mut pawns = self.pieces(side, Kind::Pawn);
        let mut out = 0;
        while pawns != 0 {
            let from = pawns.trailing_zeros() as i8;
            pawns &= pawns - 1;
            for (df, dr) in [(1i8, 1i8), (-1, 1), (-1, -1), (1, -1)] {
                let (mut f, mut r) = (from % 8 + df, from / 8 + dr);
                while (0..8).contains(&f) && (0..8).contains(&r) {
                    let sq = (r * 8 + f) as u64;
                    out |= 1 << sq;
                    if occupied >> sq & 1 == 1 {
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        out & !occupied
    }
}

impl Searchable for Position {
    type Move = Turn;

    fn candidates(&self, out: &mut Vec<Turn>) {
        out.clear();
        let me = self.side_to_move();
        let mut forced = Vec::new();
        let mut any_pawn = false;
        let mut best_support: Vec<(u32, Turn)> = Vec::new();
        let mut last_pawn = (NONE, NONE, NONE);
        let mut powering = 0u64;
        self.for_each_turn(|turn| {
            if !turn.moves_pawn() {
                forced.push(turn);
                return;
            }
            any_pawn = true;
            let key = (turn.pawn.0, turn.pawn.1, turn.place);
            if key != last_pawn {
                flush(&mut best_support, out);
                last_pawn = key;
                // Where a supporter would power one of our pawns once this pawn has moved.
                let after_pawn = self.play(Turn { support: (NONE, NONE), ..turn });
                powering = after_pawn.powering_squares(me);
                if self.rules() == Rules::Gladiator {
                    powering &= BORDER;
                }
            }
            if turn.support.0 == NONE {
                out.push(turn);
                return;
            }
            // Keep only supporter moves that land where they power a pawn, best first.
            if powering >> turn.support.1 & 1 == 1 {
                let score = self.play(turn).pawn_mobility(me);
                best_support.push((score, turn));
            }
        });
        flush(&mut best_support, out);
        if !any_pawn {
            out.extend(forced);
        }
        // Captures first: they end games and shrink trees.
        out.sort_by_key(|t| std::cmp::Reverse(self.captures(*t)));
    }

    fn after(&self, mv: Turn) -> Position {
        self.play(mv)
    }

    fn terminal(&self) -> Option<i32> {
        self.end().map(|end| match end {
            super::gladiator::End::Win(side, _) if side == self.side_to_move() => WIN,
            super::gladiator::End::Win(..) => -WIN,
            super::gladiator::End::Draw(_) => 0,
        })
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let them = me.opponent();
        let pawns = |s| self.pieces(s, Kind::Pawn).count_ones() as i32;
        100 * (pawns(me) - pawns(them))
            + 4 * (self.pawn_mobility(me) as i32 - self.pawn_mobility(them) as i32)
    }

    fn wire(&self, mv: Turn) -> WireMove {
        mv.to_wire()
    }

    fn from_wire(&self, mv: &WireMove) -> Option<Turn> {
        self.parse_turn(mv).ok()
    }
}

impl Position {
    /// 1 when the turn's pawn takes an enemy pawn.
    fn captures(&self, turn: Turn) -> u8 {
        let them = self.side_to_move().opponent();
        u8::from(turn.moves_pawn() && self.pieces(them, Kind::Pawn) >> turn.pawn.1 & 1 == 1)
    }
}

/// Moves the best few supporter choices gathered for one pawn move into `out`.
fn flush(best: &mut Vec<(u32, Turn)>, out: &mut Vec<Turn>) {
    best.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    out.extend(best.iter().take(SUPPORT_CHOICES).map(|(_, t)| *t));
    best.clear();
}
