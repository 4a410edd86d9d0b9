//! perft tables of Gladiator and Brawl: `fixtures/perft/gladiator.perft` and
//! `fixtures/perft/brawl.perft`, each count compared with [`Game::perft`]. The expected numbers
//! come from the independent Python reference `tests/reference/gladiator_ref.py` (see the header
//! of each file), never from the engine under test; every mismatch is reported, not only the
//! first.
//!
//! `tests/perft.rs` checks only the Apocalypse tables; should it come to read every table under
//! `fixtures/perft/`, this file can go.
//!
//! The format is shakmaty's: blocks separated by blank lines, each an `id NAME` line, a
//! `fen FEN` line and `perft DEPTH NODES` lines; `#` starts a comment line.

mod common;

use common::{PerftChecks, check_perft_variant};

/// The start and at least 6 other positions, every count as expected.
const CHECKS: PerftChecks = PerftChecks {
    min_positions: 7,
    start_first: false,
    fen_reads_back: false,
};

#[test]
fn gladiator_perft() {
    check_perft_variant("gladiator", CHECKS);
}

#[test]
fn brawl_perft() {
    check_perft_variant("brawl", CHECKS);
}

#[test]
fn the_parser_reads_blocks() {
    common::check_the_parser_reads_blocks("8/8/8/8/8/8/8/8");
}
