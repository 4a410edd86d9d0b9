//! Tests of the simultaneous search, its solver use and the endgame solver.

use std::sync::atomic::AtomicBool;

use super::endgame::Endgame;
use super::*;
use crate::rng::Rng;
use crate::solver::Solver;
use crate::variants::apocalypse::Rules;

fn seed(fen: &str) -> Position {
    Position::from_fen(Rules::Seed, fen).unwrap()
}

const POSITIONS: &[(Rules, &str)] = &[
    (Rules::Seed, "npppn/p3p/5/P3P/NPPPN"),
    (Rules::Seed, "n1p1n/p1p1p/1P3/P3P/N2PN"),
    (Rules::Seed, "4n/1p3/5/2P2/N4"),
    (Rules::Seed, "2n2/3p1/5/1P3/5"),
    (Rules::Classic, "n3n/1P1P1/5/1p1p1/N3N"),
    (Rules::Seed, "n4/2p2/5/2P2/4N w - - 0 1 1/0"),
];

fn positions() -> impl Iterator<Item = Position> {
    POSITIONS
        .iter()
        .map(|&(rules, fen)| Position::from_fen(rules, fen).unwrap())
}

/// Plain backward induction: every cell of every matrix, no bounds, no table.
fn full_matrix(pos: &Position, depth: u32, solver: &mut Solver) -> f64 {
    if let Some(v) = eval::terminal(pos) {
        return v;
    }
    if depth == 0 {
        return eval::heuristic(pos);
    }
    let (mut white, mut black) = (Vec::new(), Vec::new());
    pos.legal_moves(Side::White, &mut white);
    pos.legal_moves(Side::Black, &mut black);
    let mut payoff = Vec::new();
    for &w in &white {
        for &b in &black {
            payoff.push(full_matrix(&pos.resolve(Ok(w), Ok(b)), depth - 1, solver));
        }
    }
    solver.solve(&payoff, white.len(), black.len()).value
}

mod endgames;
mod generic;
mod hard;
mod matrix;
mod root;
