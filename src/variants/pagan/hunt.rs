//! The mate of a dead king by two Pagans, solved exactly: a small retrograde table that
//! guides the evaluation through a hunt far longer than the search's horizon (up to 23 plies).
//!
//! The table holds every position of a king on the dead board against two enemy Pagans that
//! stand on the dead board or on frame ranks 7–8 (next to the bridge), nothing else moving:
//! how many plies the Pagans need to mate. The defender draws by taking a Pagan (it leaves the
//! game: one Pagan cannot mate) or by stalemate. With the attacker to move, 10,290 of the
//! 10,560 positions are won; every mate is on rank 4, next to the bridge, where a live Pagan
//! reaches from rank 7. `tests/reference/pagan_hunt_ref.py` computes the same table
//! independently. Other pieces are ignored, so in play it is a guide, not a proof.
//!
//! A second table is the same hunt when the defender has a spare move elsewhere (another
//! piece that can move): its king, when not attacked, may stay where it is instead of
//! stepping, and is never stalemated. Then only a true mate wins, from 1,800 of the 10,560
//! positions, in at most 9 plies (`pagan_hunt_ref.py --pass defender`). The attacker's own
//! spare moves change nothing: passing wins no position more (`--pass attacker`).

use std::sync::OnceLock;

use super::{NO, PAGAN_STEP, SQUARES, STEP, is_dead};

/// The table's Pagan squares: the dead board and frame ranks 7–8, in frame order.
const REGION: usize = 34;
/// Plies to mate that mean "not won".
const UNKNOWN: u8 = u8::MAX;

/// Frame square of each region index, and the region index of each frame square.
struct Region {
    square: [u8; REGION],
    index: [u8; SQUARES],
}

const fn region() -> Region {
    let mut r = Region {
        square: [0; REGION],
        index: [NO; SQUARES],
    };
    let mut n = 0;
    let mut sq = 0;
    while sq < 56 {
        let mut d = 0;
        let mut exists = false;
        while d < 8 {
            exists |= STEP[sq][d] != NO;
            d += 1;
        }
        if exists {
            r.square[n] = sq as u8;
            r.index[sq] = n as u8;
            n += 1;
        }
        sq += 1;
    }
    assert!(n == REGION, "34 squares: the dead board and ranks 7-8");
    r
}

const REGION_SQUARES: Region = region();

/// The two tables: plies to mate with the Pagans' side to move, and with the king's.
struct Tables {
    attacker: Vec<u8>,
    defender: Vec<u8>,
}

fn slot(king: usize, a: usize, b: usize) -> usize {
    (king * REGION + a) * REGION + b
}

/// A Pagan's step in the table's world: across the bridge, but not beyond rank 8.
fn step(sq: u8, d: usize) -> u8 {
    let to = PAGAN_STEP[usize::from(sq)][d];
    if to != NO && usize::from(to) < 56 {
        to
    } else {
        NO
    }
}

/// Whether a king on `king` is attacked by Pagans on `a` and `b` (frame squares).
fn attacked(king: u8, a: u8, b: u8) -> bool {
    (0..8).any(|d| {
        let p = step(king, d);
        if p == NO || (p != a && p != b) {
            return false;
        }
        let away = step(p, d);
        away != NO && away != king && away != a && away != b
    })
}

/// The squares a Pagan on `from` can move to, the other pieces on `x` and `y`.
fn pagan_targets(from: u8, x: u8, y: u8, out: &mut Vec<u8>) {
    out.clear();
    let free = |q: u8| q != NO && q != x && q != y && q != from;
    for d in 0..8 {
        let one = step(from, d);
        if !free(one) {
            continue;
        }
        out.push(one);
        let two = step(one, d);
        if free(two) {
            out.push(two);
        }
    }
}

/// The dead-board squares a king can stand on, in frame order.
fn king_squares() -> impl Iterator<Item = u8> {
    (0..28u8).filter(|&q| STEP[usize::from(q)].iter().any(|&s| s != NO))
}

/// What the king to move can do in a position: `None` when it draws (a safe capture of a
/// Pagan, or stalemate), else its moves as table slots (none: mated). With `pass`, its side
/// has a spare move elsewhere: out of check it may stay (its own slot `here` is a move).
fn king_moves(
    kings: &[u8],
    (king, a, b): (u8, u8, u8),
    pass: Option<usize>,
    out: &mut Vec<usize>,
) -> Option<()> {
    let r = &REGION_SQUARES;
    out.clear();
    for &t in &STEP[usize::from(king)] {
        if t == NO {
            continue;
        }
        if t == a || t == b {
            let rest = if t == a { b } else { a };
            if !attacked(t, rest, rest) {
                return None;
            }
        } else if !attacked(t, a, b) {
            let ti = kings
                .iter()
                .position(|&k| k == t)
                .expect("a dead-board square");
            out.push(slot(
                ti,
                usize::from(r.index[usize::from(a)]),
                usize::from(r.index[usize::from(b)]),
            ));
        }
    }
    if let Some(here) = pass
        && !attacked(king, a, b)
    {
        out.push(here);
    }
    (!out.is_empty() || attacked(king, a, b)).then_some(())
}

/// Solves the table ply by ply: at odd plies the Pagans' positions with a move to a lost
/// king, at even plies the king's positions whose every move reaches a won one. With
/// `pass`, the defender has a spare move elsewhere.
fn solve(pass: bool) -> Tables {
    let r = &REGION_SQUARES;
    let kings: Vec<u8> = king_squares().collect();
    let n = kings.len() * REGION * REGION;
    let mut attacker = vec![UNKNOWN; n];
    let mut defender = vec![UNKNOWN; n];
    let mut positions = Vec::new();
    for (ki, &king) in kings.iter().enumerate() {
        for ai in 0..REGION {
            for bi in 0..REGION {
                let (a, b) = (r.square[ai], r.square[bi]);
                if a != b && a != king && b != king {
                    positions.push((slot(ki, ai, bi), ki, king, a, b));
                }
            }
        }
    }
    let mut moves = Vec::new();
    let mut targets = Vec::new();
    let mut ply = 0u8;
    let mut idle = 0;
    while idle < 2 && ply < UNKNOWN - 1 {
        let mut found = false;
        for &(s, ki, king, a, b) in &positions {
            if !ply.is_multiple_of(2) && attacker[s] == UNKNOWN {
                let mut won = false;
                for (p, q) in [(a, b), (b, a)] {
                    pagan_targets(p, king, q, &mut targets);
                    won |= targets.iter().any(|&t| {
                        let next = slot(
                            ki,
                            usize::from(r.index[usize::from(t)]),
                            usize::from(r.index[usize::from(q)]),
                        );
                        defender[next] == ply - 1
                    });
                }
                if won {
                    attacker[s] = ply;
                    found = true;
                }
            } else if ply.is_multiple_of(2)
                && defender[s] == UNKNOWN
                && king_moves(&kings, (king, a, b), pass.then_some(s), &mut moves).is_some()
                && moves.iter().all(|&m| attacker[m] < ply)
            {
                defender[s] = ply;
                found = true;
            }
        }
        idle = if found { 0 } else { idle + 1 };
        ply += 1;
    }
    Tables { attacker, defender }
}

/// The tables without and with the defender's spare move.
fn tables(pass: bool) -> &'static Tables {
    static TABLES: [OnceLock<Tables>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[usize::from(pass)].get_or_init(|| solve(pass))
}

/// Plies to mate a dead king on `king` with Pagans on `a` and `b` (frame squares), the
/// Pagans' side to move or not, when the table holds the position and it is won; with
/// `spare`, the defender has a spare move elsewhere (the second table).
pub(crate) fn plies_to_mate(
    king: u8,
    a: u8,
    b: u8,
    pagans_to_move: bool,
    spare: bool,
) -> Option<u8> {
    let r = &REGION_SQUARES;
    let (ai, bi) = (r.index[usize::from(a)], r.index[usize::from(b)]);
    if !is_dead(king) || ai == NO || bi == NO || a == b || a == king || b == king {
        return None;
    }
    let ki = king_squares().take_while(|&q| q < king).count();
    let t = tables(spare);
    let table = if pagans_to_move {
        &t.attacker
    } else {
        &t.defender
    };
    let v = table[slot(ki, usize::from(ai), usize::from(bi))];
    (v != UNKNOWN).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of `tests/reference/pagan_hunt_ref.py`, an independent solver.
    #[test]
    fn the_tables_match_the_reference_solver() {
        // Each unordered pair of Pagan squares is stored twice.
        let counts = |t: &Tables| {
            let won = t.attacker.iter().filter(|&&v| v != UNKNOWN).count() / 2;
            let lost = t.defender.iter().filter(|&&v| v != UNKNOWN).count() / 2;
            let longest = t.attacker.iter().filter(|&&v| v != UNKNOWN).max().copied();
            (won, lost, longest)
        };
        // `pagan_hunt_ref.py`, then `pagan_hunt_ref.py --pass defender`.
        assert_eq!(counts(tables(false)), (10_290, 6_843, Some(23)));
        assert_eq!(counts(tables(true)), (1_800, 224, Some(9)));
    }

    #[test]
    fn plies_to_mate_agree_with_the_search() {
        // Frame squares: index (rank - 1) * 7 + file.
        let sq = |file: u8, rank: u8| (rank - 1) * 7 + file;
        // Pagans d3 and c2, Pagans to move: a king on e4 is mated in 2 moves (3 plies), one
        // on e1 in 5 (9 plies), as a full search finds (`go depth 10`: `score mate 5`).
        assert_eq!(
            plies_to_mate(sq(4, 4), sq(3, 3), sq(2, 2), true, false),
            Some(3)
        );
        assert_eq!(
            plies_to_mate(sq(4, 1), sq(3, 3), sq(2, 2), true, false),
            Some(9)
        );
        // Pagans outside the table (rank 11) are not looked up.
        assert_eq!(
            plies_to_mate(sq(4, 1), sq(3, 11), sq(4, 11), true, false),
            None
        );
    }
}
