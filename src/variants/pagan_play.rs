//! How the alternating search sees Pagan Chess: every legal move, and a simple evaluation
//! (material, worth less on the dead board, and the dead king's freedom).

use super::pagan::{Kind, Move, Position, SQUARES, is_dead};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN};
use crate::variant::Side;

fn value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Wazir => 300,
        Kind::Alchemist => 300,
        Kind::Pagan => 600,
        Kind::Pawn => 100,
    }
}

impl Searchable for Position {
    type Move = Move;

    fn candidates(&self, out: &mut Vec<Move>) {
        self.legal_moves(out);
        // Captures first (a landing on a piece, or a withdrawal).
        out.sort_by_key(|m| std::cmp::Reverse(self.play(*m).material_swing(self.side_to_move())));
    }

    fn after(&self, mv: Move) -> Position {
        self.play(mv)
    }

    fn terminal(&self) -> Option<i32> {
        self.end().map(|end| match end {
            super::pagan::End::Win(side, _) if side == self.side_to_move() => WIN,
            super::pagan::End::Win(..) => -WIN,
            super::pagan::End::Draw(_) => 0,
        })
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        self.score(me) - self.score(me.opponent())
    }

    fn wire(&self, mv: Move) -> WireMove {
        mv.to_wire()
    }

    fn read_wire(&self, mv: &WireMove) -> Option<Move> {
        self.parse_move(mv).ok()
    }
}

impl Position {
    /// Material of a side: live pieces at full value, dead ones at 40 %, minus a penalty for
    /// a dead king hemmed in.
    fn score(&self, side: Side) -> i32 {
        let mut total = 0;
        for sq in 0..SQUARES as u8 {
            if let Some(p) = self.at(sq).filter(|p| p.side == side) {
                let v = value(p.kind);
                total += if is_dead(sq) { v * 2 / 5 } else { v };
                if p.kind == Kind::King && is_dead(sq) && self.attacked(sq, side) {
                    total -= 50;
                }
            }
        }
        total
    }

    /// How much the mover gained in the move that led here (for ordering captures first).
    fn material_swing(&self, mover: Side) -> i32 {
        -self.score(mover.opponent())
    }
}
