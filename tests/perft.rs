//! perft tables: every `fixtures/perft/VARIANT.perft` file is read and each of its counts is
//! compared with [`Game::perft`]. The expected numbers come from an independent implementation
//! (see the header of each file); every mismatch is reported, not only the first.
//!
//! The format is shakmaty's: blocks separated by blank lines, each block an `id NAME` line, a
//! `fen FEN` line and `perft DEPTH NODES` lines. `#` starts a comment line.

mod common;

use common::{PerftChecks, check_perft_variant};

/// At least one position, every count as expected.
const CHECKS: PerftChecks = PerftChecks {
    min_positions: 1,
    start_first: false,
    fen_reads_back: false,
};

fn check_variant(name: &str) {
    let checked = check_perft_variant(name, CHECKS);
    assert!(checked > 0);
}

#[test]
fn apocalypse_perft() {
    check_variant("apocalypse");
}

#[test]
fn apocalypse_classic_perft() {
    check_variant("apocalypse-classic");
}

#[test]
fn the_parser_reads_blocks() {
    common::check_the_parser_reads_blocks("5/5/p4/P4/5");
}
