//! Where Gladiator's pieces reach on the 8x8 board: leap tables and branchless rays.

use super::Kind;

pub(super) use crate::geometry::KNIGHT_STEPS;
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Squares a leaper with these steps reaches from every square.
const fn leaps(steps: &[(i8, i8); 8]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 {
            let (f, r) = ((sq % 8) as i8 + steps[i].0, (sq / 8) as i8 + steps[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                out[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// The squares from each square to the edge in each of the eight [`KING_STEPS`] directions.
const fn rays() -> [[u64; 64]; 8] {
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
            loop {
                f += KING_STEPS[d].0;
                r += KING_STEPS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                out[d][sq] |= 1u64 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    out
}

pub(super) const KNIGHT_REACH: [u64; 64] = leaps(&KNIGHT_STEPS);
pub(super) const KING_REACH: [u64; 64] = leaps(&KING_STEPS);
const RAYS: [[u64; 64]; 8] = rays();

/// The squares a slider reaches along direction `d` (first occupied square included),
/// without a branch: the nearest blocker is found among the blockers and a sentinel square
/// from which the ray is empty (h8 for the directions toward higher squares, 0 to 3 of
/// [`KING_STEPS`], a1 for the others).
#[inline(always)]
fn ray(d: usize, sq: u8, occupied: u64) -> u64 {
    let ray = RAYS[d][usize::from(sq)];
    let blockers = ray & occupied;
    let first = if d < 4 {
        (blockers | 1 << 63).trailing_zeros()
    } else {
        63 - (blockers | 1).leading_zeros()
    };
    ray ^ RAYS[d][first as usize]
}

/// The squares a bishop on `sq` reaches (see [`reach`]).
#[inline]
pub(super) fn bishop_reach(sq: u8, occupied: u64) -> u64 {
    ray(1, sq, occupied) | ray(3, sq, occupied) | ray(5, sq, occupied) | ray(7, sq, occupied)
}

/// The squares a rook on `sq` reaches (see [`reach`]).
#[inline]
pub(super) fn rook_reach(sq: u8, occupied: u64) -> u64 {
    ray(0, sq, occupied) | ray(2, sq, occupied) | ray(4, sq, occupied) | ray(6, sq, occupied)
}

/// Squares a piece of `kind` on `sq` reaches, as in FIDE chess with no captures implied:
/// sliders stop on (and include) the first occupied square.
#[inline]
pub(crate) fn reach(kind: Kind, sq: u8, occupied: u64) -> u64 {
    match kind {
        Kind::Knight => KNIGHT_REACH[usize::from(sq)],
        Kind::King => KING_REACH[usize::from(sq)],
        Kind::Pawn => 0,
        Kind::Bishop => bishop_reach(sq, occupied),
        Kind::Rook => rook_reach(sq, occupied),
        Kind::Queen => bishop_reach(sq, occupied) | rook_reach(sq, occupied),
    }
}
