//! How the alternating search sees Pagan Chess: every legal move, captures (by landing or by
//! withdrawal) as the noisy ones, and an evaluation of material (live, dead, and a dead Pagan
//! that may come back), the safety of a dead king, and where a captured king would reincarnate.

use super::pagan::{Kind, Move, Piece, Position, SQUARES, STEP, is_dead};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN, zobrist_keys};
use crate::variant::Side;

/// Keys: `(side * 5 + kind) * 77 + square`, then the side to move.
const KEYS: [u64; 10 * SQUARES + 1] = zobrist_keys(0x7061_6761_6e5f_6b65);
const SIDE_KEY: usize = 10 * SQUARES;

fn value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Wazir => 300,
        Kind::Alchemist => 300,
        Kind::Pagan => 550,
        Kind::Pawn => 100,
    }
}

fn kind_index(kind: Kind) -> usize {
    match kind {
        Kind::King => 0,
        Kind::Wazir => 1,
        Kind::Alchemist => 2,
        Kind::Pagan => 3,
        Kind::Pawn => 4,
    }
}

/// What taking a piece on `sq` is worth: a live piece goes to the dead board (it keeps some
/// use there; a king is exposed to mate), a dead one leaves the game.
fn victim_value(piece: Piece, sq: u8) -> i32 {
    match (piece.kind, is_dead(sq)) {
        (Kind::King, _) => 400,
        (kind, false) => value(kind) * 3 / 5,
        (kind, true) => value(kind) * 2 / 5,
    }
}

/// Chebyshev distance between two frame squares (files and frame ranks).
fn distance(a: u8, b: u8) -> i32 {
    let (fa, ra) = (i32::from(a % 7), i32::from(a / 7));
    let (fb, rb) = (i32::from(b % 7), i32::from(b / 7));
    (fa - fb).abs().max((ra - rb).abs())
}

/// Chebyshev distance for a Pagan, for which the bridge has zero width.
fn pagan_distance(a: u8, b: u8) -> i32 {
    let rank = |sq: u8| {
        let r = i32::from(sq / 7);
        if r >= 6 { r - 2 } else { r }
    };
    let (fa, fb) = (i32::from(a % 7), i32::from(b % 7));
    (fa - fb).abs().max((rank(a) - rank(b)).abs())
}

/// The bonus of a live pawn by how far it has stepped toward promotion.
const PAWN_ADVANCE: [i32; 7] = [0, 0, 8, 18, 32, 55, 55];

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
        self.pseudo_moves(out);
        out.retain(|&mv| self.victim(mv).is_some() && self.is_legal(mv));
    }

    fn after(&self, mv: Move) -> Position {
        self.play(mv)
    }

    fn over(&self) -> Option<i32> {
        self.bare_kings().then_some(0)
    }

    fn stuck(&self) -> i32 {
        if self.in_check() { -WIN } else { 0 }
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let mut totals = [0i32; 2];
        let mut kings = [None; 2];
        let mut dead = [[0u8; 8]; 2];
        let mut dead_count = [0usize; 2];
        for sq in 0..SQUARES as u8 {
            let Some(p) = self.at(sq) else { continue };
            let s = p.side.index();
            let v = value(p.kind);
            totals[s] += if !is_dead(sq) {
                let file = i32::from(sq % 7);
                match (p.kind, p.side) {
                    (Kind::Pawn, Side::White) => v + PAWN_ADVANCE[(6 - file) as usize],
                    (Kind::Pawn, Side::Black) => v + PAWN_ADVANCE[file as usize],
                    _ => v,
                }
            } else if p.kind == Kind::Pagan {
                v * 3 / 5
            } else {
                v * 2 / 5
            };
            if p.kind == Kind::King {
                kings[s] = Some(sq);
            } else if is_dead(sq) && dead_count[s] < 8 {
                dead[s][dead_count[s]] = sq;
                dead_count[s] += 1;
            }
        }
        let mut scratch = Vec::with_capacity(64);
        for side in [Side::White, Side::Black] {
            let s = side.index();
            totals[s] += 4 * self.mobility(side, &mut scratch);
            // Pressure on the enemy king: a live one by pieces around it, a dead one by the
            // Pagan, the one live piece that can cross over to help mate it.
            let Some(target) = kings[1 - s] else { continue };
            for sq in 0..SQUARES as u8 {
                let Some(p) = self.at(sq) else { continue };
                if p.side != side || p.kind == Kind::King {
                    continue;
                }
                if is_dead(target) {
                    if p.kind == Kind::Pagan {
                        totals[s] += 25 * (5 - pagan_distance(sq, target)).max(0);
                    } else if is_dead(sq) {
                        totals[s] += 12 * (4 - distance(sq, target)).max(0);
                    }
                } else if !is_dead(sq) {
                    totals[s] += 5 * (3 - distance(sq, target)).max(0);
                }
            }
        }
        for side in [Side::White, Side::Black] {
            let s = side.index();
            let o = 1 - s;
            let near = |sq: u8, reach: i32| {
                dead[o][..dead_count[o]]
                    .iter()
                    .filter(|&&d| distance(d, sq) <= reach)
                    .count() as i32
            };
            let Some(king) = kings[s] else { continue };
            if is_dead(king) {
                // Royal on the dead board: mate loses. Enemy pieces near it and few free
                // squares around it make mate likely.
                let free = STEP[usize::from(king)]
                    .iter()
                    .filter(|&&q| q != u8::MAX && self.at(q).is_none())
                    .count() as i32;
                let checked = if self.attacked(king, side) { 60 } else { 0 };
                totals[s] -= 150 + 30 * near(king, 2) + 10 * (8 - free) + checked;
            } else {
                // Where it would reincarnate if taken, and whether it can be taken now.
                let danger = self.next_slot(side).map_or(0, |slot| near(slot, 2));
                let attacked = self.attacked(king, side);
                totals[s] -= 8 * danger + if attacked { 40 + 20 * danger } else { 0 };
            }
        }
        totals[me.index()] - totals[me.opponent().index()] + 10
    }

    fn key(&self) -> u64 {
        let mut key = 0;
        for sq in 0..SQUARES as u8 {
            if let Some(p) = self.at(sq) {
                key ^= KEYS[(p.side.index() * 5 + kind_index(p.kind)) * SQUARES + usize::from(sq)];
            }
        }
        if self.side_to_move() == Side::Black {
            key ^= KEYS[SIDE_KEY];
        }
        key
    }

    fn code(mv: Move) -> u64 {
        u64::from(mv.from)
            | u64::from(mv.to) << 8
            | (mv.promotion.map_or(0, kind_index) as u64) << 16
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
    /// The piece a move captures (by landing or by withdrawal) and its square.
    fn victim(&self, mv: Move) -> Option<(Piece, u8)> {
        if let Some(p) = self.at(mv.to) {
            return Some((p, mv.to));
        }
        let sq = self.withdrawal_victim(mv)?;
        Some((self.at(sq)?, sq))
    }
}
