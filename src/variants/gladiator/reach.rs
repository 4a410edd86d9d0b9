//! Where Gladiator's pieces reach on the 8x8 board: leap tables, and sliders by line
//! arithmetic (a byte swap per diagonal or file) and a rank table.

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

/// The squares from each square to the edge in each of the eight [`KING_STEPS`] directions
/// (to build [`LINES`]).
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

/// The lines through each square, the square left out: its diagonal (a1-h8 way), its
/// anti-diagonal (a8-h1 way) and its file. Each meets every rank at most once.
const LINES: [[u64; 64]; 3] = {
    let rays = rays();
    let mut out = [[0u64; 64]; 3];
    let mut sq = 0;
    while sq < 64 {
        out[0][sq] = rays[1][sq] | rays[5][sq];
        out[1][sq] = rays[3][sq] | rays[7][sq];
        out[2][sq] = rays[2][sq] | rays[6][sq];
        sq += 1;
    }
    out
};

/// What a slider on a rank reaches along it, by its file and the occupancy of the rank's six
/// inner squares (the end squares never block anything beyond them): a bit per file.
const RANK_REACH: [[u8; 64]; 8] = {
    let mut out = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occupied = (inner << 1) as u8;
            let mut reach = 0u8;
            let mut f = file + 1;
            while f < 8 {
                reach |= 1 << f;
                if occupied >> f & 1 == 1 {
                    break;
                }
                f += 1;
            }
            let mut f = file;
            while f > 0 {
                f -= 1;
                reach |= 1 << f;
                if occupied >> f & 1 == 1 {
                    break;
                }
            }
            out[file][inner] = reach;
            inner += 1;
        }
        file += 1;
    }
    out
};

/// The squares a slider on `sq` reaches along a line of [`LINES`] (the first occupied square
/// each way included), without a branch or a loop: the nearest blocker above is found by
/// subtracting the slider's bit from the line's blockers, and the one below the same way on
/// the board mirrored rank for rank (a byte swap; the line meets each rank once).
#[inline(always)]
fn line(l: usize, sq: u8, occupied: u64) -> u64 {
    let mask = LINES[l][usize::from(sq)];
    let slider = 1u64 << sq;
    let blockers = occupied & mask;
    let up = blockers.wrapping_sub(slider.wrapping_mul(2));
    let down = blockers
        .swap_bytes()
        .wrapping_sub(slider.swap_bytes().wrapping_mul(2))
        .swap_bytes();
    (up ^ down) & mask
}

/// The squares a slider on `sq` reaches along its rank.
#[inline(always)]
fn rank(sq: u8, occupied: u64) -> u64 {
    let shift = sq & !7;
    let inner = (occupied >> (shift + 1)) & 63;
    u64::from(RANK_REACH[usize::from(sq & 7)][inner as usize]) << shift
}

/// The squares a bishop on `sq` reaches (see [`reach`]).
#[inline]
pub(super) fn bishop_reach(sq: u8, occupied: u64) -> u64 {
    line(0, sq, occupied) | line(1, sq, occupied)
}

/// The squares a rook on `sq` reaches (see [`reach`]).
#[inline]
pub(super) fn rook_reach(sq: u8, occupied: u64) -> u64 {
    line(2, sq, occupied) | rank(sq, occupied)
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
