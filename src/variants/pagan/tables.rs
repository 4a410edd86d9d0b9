//! The frame's geometry as tables: steps in each direction (the Pagan's across the bridge),
//! the squares each piece reaches, the dead board, the reincarnation orders and the
//! promotion squares.

use super::SQUARES;
use crate::variant::Side;

/// The eight directions; `DIRS[d]` and `DIRS[7 - d]` are opposite.
pub(super) const DIRS: [(i8, i8); 8] = [
    (1, 1),
    (0, 1),
    (-1, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];
pub(super) const ORTHOGONAL: [usize; 4] = [1, 3, 4, 6];
pub(super) const DIAGONAL: [usize; 4] = [0, 2, 5, 7];

pub(super) const fn exists(file: i8, rank: i8) -> bool {
    file >= 0
        && file < 7
        && rank >= 1
        && rank <= 11
        && rank != 5
        && rank != 6
        && !(rank <= 4 && (file == 0 || file == 6))
}

pub(super) const fn index(file: i8, rank: i8) -> u8 {
    ((rank - 1) * 7 + file) as u8
}

pub(crate) const NO: u8 = u8::MAX;

/// One step from a square in a direction for every piece but the Pagan (`NO` when the step
/// leaves the board or enters a hole).
const fn step_table(pagan: bool) -> [[u8; 8]; SQUARES] {
    let mut table = [[NO; 8]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 7) as i8, (sq / 7) as i8 + 1);
        let mut d = 0;
        while d < 8 {
            let (nf, nr) = (f + DIRS[d].0, r + DIRS[d].1);
            if exists(f, r) {
                if exists(nf, nr) {
                    table[sq][d] = index(nf, nr);
                } else if pagan && f >= 1 && f <= 5 && nf >= 1 && nf <= 5 {
                    // The bridge has zero width for the Pagan: rank 7 and rank 4 touch.
                    if r == 7 && DIRS[d].1 == -1 {
                        table[sq][d] = index(nf, 4);
                    } else if r == 4 && DIRS[d].1 == 1 {
                        table[sq][d] = index(nf, 7);
                    }
                }
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Steps of every piece but the Pagan.
pub(crate) const STEP: [[u8; 8]; SQUARES] = step_table(false);
/// Steps of the Pagan, across the bridge.
pub(crate) const PAGAN_STEP: [[u8; 8]; SQUARES] = step_table(true);

/// The bit of a frame square in a [`u128`] bitboard.
pub(crate) const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// Bitboards of the squares a king (0), an alchemist (1) and a wazir's single step (2)
/// reach from each square, holes and the bridge left out.
const fn reach_table(which: u8) -> [u128; SQUARES] {
    let mut table = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 7) as i8, (sq / 7) as i8 + 1);
        if exists(f, r) {
            let mut d = 0;
            while d < 8 {
                let (df, dr) = DIRS[d];
                let diagonal = df != 0 && dr != 0;
                let one = STEP[sq][d];
                let wanted = match which {
                    0 => true,
                    1 => diagonal,
                    _ => !diagonal,
                };
                if wanted && one != NO {
                    table[sq] |= bit(one);
                }
                if which == 1 && diagonal && exists(f + 2 * df, r + 2 * dr) {
                    table[sq] |= bit(index(f + 2 * df, r + 2 * dr));
                }
                d += 1;
            }
        }
        sq += 1;
    }
    table
}

/// Bitboards of the squares a pawn on each square captures on: one step sideways, along
/// the file, either way (`STEP` directions 1 and 6), whichever its side.
const fn pawn_reach_table() -> [u128; SQUARES] {
    let mut table = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (up, down) = (STEP[sq][1], STEP[sq][6]);
        if up != NO {
            table[sq] |= bit(up);
        }
        if down != NO {
            table[sq] |= bit(down);
        }
        sq += 1;
    }
    table
}

/// For each square and each of the 8 directions (`dirs`, for the Wazir the 4 orthogonal ones),
/// the bits of the square one step away and of the square two steps away through it, in
/// `steps` (`STEP` or `PAGAN_STEP`); 0 for a step that does not exist. So a piece's slides of
/// two are counted with bitboards, without following the step table square by square.
const fn path_table<const N: usize>(
    steps: &[[u8; 8]; SQUARES],
    dirs: [usize; N],
) -> [[(u128, u128); N]; SQUARES] {
    let mut table = [[(0u128, 0u128); N]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut i = 0;
        while i < N {
            let d = dirs[i];
            let one = steps[sq][d];
            if one != NO {
                let two = steps[one as usize][d];
                table[sq][i] = (bit(one), if two != NO { bit(two) } else { 0 });
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// For a Pagan's slide from one square to another (`[from][to]`, one or two steps in a
/// direction, across the bridge), the square one step the other way, which it withdraws from;
/// `NO` where there is none or the two squares are no slide apart. (Each slide has one
/// direction: the table refuses to build otherwise.)
const fn behind_table() -> [[u8; SQUARES]; SQUARES] {
    let mut table = [[NO; SQUARES]; SQUARES];
    // Whether a slide was seen, apart from whether it has a square behind.
    let mut seen = [[false; SQUARES]; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut d = 0;
        while d < 8 {
            let behind = PAGAN_STEP[from][7 - d];
            let one = PAGAN_STEP[from][d];
            if one != NO {
                let two = PAGAN_STEP[one as usize][d];
                let to = [one, two];
                let mut k = 0;
                while k < 2 {
                    if to[k] != NO {
                        let t = to[k] as usize;
                        assert!(!seen[from][t], "a slide in two directions");
                        seen[from][t] = true;
                        table[from][t] = behind;
                    }
                    k += 1;
                }
            }
            d += 1;
        }
        from += 1;
    }
    table
}

/// [`behind_table`]: the square a Pagan's slide withdraws from.
pub(super) const PAGAN_BEHIND: [[u8; SQUARES]; SQUARES] = behind_table();

/// The Pagan's one and two steps from each square, in every direction, across the bridge.
pub(super) static PAGAN_PATHS: [[(u128, u128); 8]; SQUARES] =
    path_table(&PAGAN_STEP, [0, 1, 2, 3, 4, 5, 6, 7]);
/// The Wazir's one and two steps from each square, orthogonally.
pub(super) const WAZIR_PATHS: [[(u128, u128); 4]; SQUARES] = path_table(&STEP, ORTHOGONAL);

pub(super) const PAWN_REACH: [u128; SQUARES] = pawn_reach_table();

/// The bit of the square a pawn on each square steps to (`STEP` direction 4 for White, 3 for
/// Black, by side index), 0 where it cannot step.
pub(super) const PAWN_FORWARD: [[u128; SQUARES]; 2] = {
    let mut table = [[0u128; SQUARES]; 2];
    let mut sq = 0;
    while sq < SQUARES {
        let (white, black) = (STEP[sq][4], STEP[sq][3]);
        if white != NO {
            table[0][sq] = bit(white);
        }
        if black != NO {
            table[1][sq] = bit(black);
        }
        sq += 1;
    }
    table
};
pub(super) const KING_REACH: [u128; SQUARES] = reach_table(0);
pub(super) const ALCHEMIST_REACH: [u128; SQUARES] = reach_table(1);
pub(super) const WAZIR_STEPS: [u128; SQUARES] = reach_table(2);

/// Whether a frame square is on the dead board.
pub(crate) const fn is_dead(sq: u8) -> bool {
    sq < 28
}

/// The dead-board squares in the order a side's captured pieces fill them.
const fn reincarnation_order(side: Side) -> [u8; 20] {
    // White: f4 f3 e4 e3 d4 d3 c4 c3 b4 b3, then f2 f1 e2 e1 … b2 b1; Black mirrored (b first).
    let mut out = [0u8; 20];
    let mut i = 0;
    let mut half = 0;
    while half < 2 {
        let mut col = 0;
        while col < 5 {
            let file = match side {
                Side::White => 5 - col,
                Side::Black => 1 + col,
            };
            let top = 4 - 2 * half;
            out[i] = index(file as i8, top as i8);
            out[i + 1] = index(file as i8, (top - 1) as i8);
            i += 2;
            col += 1;
        }
        half += 1;
    }
    out
}

pub(super) const ORDER: [[u8; 20]; 2] = [
    reincarnation_order(Side::White),
    reincarnation_order(Side::Black),
];

/// Squares where a side's pawn must promote: the enemy's original K/A/G/W squares.
pub(super) const fn promotion_square(side: Side, sq: u8) -> bool {
    let (f, r) = (sq % 7, sq / 7 + 1);
    match side {
        Side::White => f == 0 && r >= 8 && r <= 11,
        Side::Black => f == 6 && r >= 7 && r <= 10,
    }
}
