//! perft tables (`fixtures/perft/VARIANT.perft`).
//!
//! The format is shakmaty's: blocks separated by blank lines, each block an `id NAME` line, a
//! `fen FEN` line and `perft DEPTH NODES` lines. `#` starts a comment line.

use super::*;

use std::path::{Path, PathBuf};

use quill::game::Game;
use quill::variant::Variant;

/// One position of a perft table.
#[allow(dead_code)]
#[derive(Debug, Default, PartialEq)]
pub struct Block {
    pub id: String,
    pub fen: String,
    /// (line number, depth, expected nodes)
    pub counts: Vec<(usize, u32, u64)>,
    /// The line the block starts on.
    pub line: usize,
}

/// Parses a perft table; a malformed line (a second `id` or `fen` in one block included) is an
/// error naming its line.
#[allow(dead_code)]
pub fn parse_perft(text: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut current: Option<Block> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            blocks.extend(current.take());
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        let block = current.get_or_insert_with(|| Block {
            line: n,
            ..Block::default()
        });
        match key {
            "id" if block.id.is_empty() => block.id = value.to_string(),
            "fen" if block.fen.is_empty() => block.fen = value.to_string(),
            "id" | "fen" => return Err(format!("line {n}: a second '{key}' in one block")),
            "perft" => {
                let mut parts = value.split_whitespace();
                let (Some(d), Some(c), None) = (parts.next(), parts.next(), parts.next()) else {
                    return Err(format!("line {n}: expected `perft DEPTH NODES`"));
                };
                let depth = d
                    .parse()
                    .map_err(|_| format!("line {n}: bad depth '{d}'"))?;
                let nodes = c
                    .parse()
                    .map_err(|_| format!("line {n}: bad count '{c}'"))?;
                block.counts.push((n, depth, nodes));
            }
            _ => return Err(format!("line {n}: unknown key '{key}'")),
        }
    }
    blocks.extend(current);
    for b in &blocks {
        if b.id.is_empty() || b.fen.is_empty() || b.counts.is_empty() {
            return Err(format!(
                "line {}: a block needs an id, a fen and at least one perft line",
                b.line
            ));
        }
    }
    Ok(blocks)
}

/// The parser test of every perft test file, with `fen` as the first block's FEN.
#[allow(dead_code)]
pub fn check_the_parser_reads_blocks(fen: &str) {
    let text =
        format!("# header\nid a\nfen {fen}\nperft 1 0\n\nid b\nfen x\nperft 1 2\nperft 2 3\n");
    let blocks = parse_perft(&text).unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].id, "a");
    assert_eq!(blocks[0].fen, fen);
    assert_eq!(blocks[1].fen, "x");
    assert_eq!(blocks[1].counts, vec![(8, 1, 2), (9, 2, 3)]);
    assert!(parse_perft("id a\nfen x\nperft one 2\n").is_err());
    assert!(parse_perft("id a\nfen x\nperft 1\n").is_err());
    assert!(parse_perft("id a\nfen x\n").is_err());
    assert!(parse_perft("id a\nid b\nfen x\nperft 1 1\n").is_err());
    assert!(parse_perft("bogus line\n").is_err());
}

/// `fixtures/perft/{name}.perft`.
#[allow(dead_code)]
pub fn perft_table(name: &str) -> PathBuf {
    root().join("fixtures/perft").join(format!("{name}.perft"))
}

/// What [`check_perft_file`] requires of a table besides its counts.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug)]
pub struct PerftChecks {
    /// The fewest positions the table must hold: 1, or the start and at least `n - 1` others.
    pub min_positions: usize,
    /// The first block must have the id `start`.
    pub start_first: bool,
    /// Every block's FEN must read back unchanged from [`Game::from_fen`].
    pub fen_reads_back: bool,
}

/// [`check_perft_file`] on the table of the variant `name`; the number of counts checked.
#[allow(dead_code)]
pub fn check_perft_variant(name: &str, checks: PerftChecks) -> usize {
    let variant = Variant::from_name(name).unwrap_or_else(|| panic!("no variant {name}"));
    check_perft_file(&perft_table(name), variant, checks)
}

/// Reads the perft table at `path`, checks it with `checks` and compares each of its counts
/// with [`Game::perft`] in `variant`; panics listing every mismatch, not only the first.
/// Returns the number of counts checked.
#[allow(dead_code)]
pub fn check_perft_file(path: &Path, variant: Variant, checks: PerftChecks) -> usize {
    let shown = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{shown}: {e}"));
    let blocks = parse_perft(&text).unwrap_or_else(|e| panic!("{shown}: {e}"));
    if checks.min_positions <= 1 {
        assert!(!blocks.is_empty(), "{shown}: no positions");
    } else {
        assert!(
            blocks.len() >= checks.min_positions,
            "{shown}: the start and at least {} other positions",
            checks.min_positions - 1
        );
    }
    if checks.start_first {
        assert_eq!(blocks[0].id, "start", "{shown}: the start comes first");
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for block in &blocks {
        let game = match Game::from_fen(variant, &block.fen) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{shown}:{}: {} refused: {e}", block.line, block.id));
                continue;
            }
        };
        if checks.fen_reads_back && game.fen() != block.fen {
            failures.push(format!(
                "{shown}:{}: {} reads back as {}",
                block.line,
                block.id,
                game.fen()
            ));
        }
        for &(line, depth, expected) in &block.counts {
            checked += 1;
            let got = game.perft(depth);
            if got != expected {
                failures.push(format!(
                    "{shown}:{line}: {} ({}) perft {depth}: expected {expected}, got {got}",
                    block.id, block.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} perft counts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked
}
