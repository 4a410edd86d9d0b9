//! perft table of Pagan Chess: `fixtures/perft/pagan.perft`, each count compared with
//! [`Game::perft`]. The expected numbers come from the independent Python reference
//! `tests/reference/pagan_ref.py` (see the header of the file), never from the engine under
//! test; every mismatch is reported, not only the first.
//!
//! The format is shakmaty's: blocks separated by blank lines, each an `id NAME` line, a
//! `fen FEN` line and `perft DEPTH NODES` lines; `#` starts a comment line.
//!
//! (`tests/perft.rs` reads only the tables it names, so this file checks the Pagan one.)

mod common;

use quill::game::Game;
use quill::variant::Variant;

use common::{PerftChecks, check_perft_file, parse_perft, perft_table};

#[test]
fn pagan_perft() {
    let variant = Variant::from_name("pagan").expect("the variant pagan");
    let checks = PerftChecks {
        min_positions: 7,
        start_first: true,
        fen_reads_back: true,
    };
    check_perft_file(&perft_table("pagan"), variant, checks);
}

#[test]
fn the_start_block_is_the_start_position() {
    let text = std::fs::read_to_string(perft_table("pagan")).unwrap();
    let blocks = parse_perft(&text).unwrap();
    assert_eq!(blocks[0].fen, Game::start(Variant::Pagan).fen());
    let depths: Vec<u32> = blocks[0].counts.iter().map(|c| c.1).collect();
    assert_eq!(depths, [1, 2, 3, 4]);
}

#[test]
fn the_parser_reads_blocks() {
    common::check_the_parser_reads_blocks("7/7");
}
