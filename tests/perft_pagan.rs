//! perft table of Pagan Chess: `fixtures/perft/pagan.perft`, each count compared with
//! [`Game::perft`]. The expected numbers come from the independent Python reference
//! `tests/reference/pagan_ref.py` (see the header of the file), never from the engine under
//! test; every mismatch is reported, not only the first.
//!
//! The format is shakmaty's: blocks separated by blank lines, each an `id NAME` line, a
//! `fen FEN` line and `perft DEPTH NODES` lines; `#` starts a comment line.
//!
//! (`tests/perft.rs` reads only the tables it names, so this file checks the Pagan one.)

use std::path::PathBuf;

use quill::game::Game;
use quill::variant::Variant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One position of a perft table.
#[derive(Debug, Default, PartialEq)]
struct Block {
    id: String,
    fen: String,
    /// (line number, depth, expected nodes)
    counts: Vec<(usize, u32, u64)>,
    /// The line the block starts on.
    line: usize,
}

/// Parses a perft table; a malformed line is an error naming its line.
fn parse(text: &str) -> Result<Vec<Block>, String> {
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

#[test]
fn pagan_perft() {
    let variant = Variant::from_name("pagan").expect("the variant pagan");
    let shown = "fixtures/perft/pagan.perft";
    let text =
        std::fs::read_to_string(root().join(shown)).unwrap_or_else(|e| panic!("{shown}: {e}"));
    let blocks = parse(&text).unwrap_or_else(|e| panic!("{shown}: {e}"));
    assert!(
        blocks.len() >= 7,
        "{shown}: the start and at least 6 other positions"
    );
    assert_eq!(blocks[0].id, "start", "{shown}: the start comes first");
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
        if game.fen() != block.fen {
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
}

#[test]
fn the_start_block_is_the_start_position() {
    let text = std::fs::read_to_string(root().join("fixtures/perft/pagan.perft")).unwrap();
    let blocks = parse(&text).unwrap();
    assert_eq!(blocks[0].fen, Game::start(Variant::Pagan).fen());
    let depths: Vec<u32> = blocks[0].counts.iter().map(|c| c.1).collect();
    assert_eq!(depths, [1, 2, 3, 4]);
}

#[test]
fn the_parser_reads_blocks() {
    let text = "# header\nid a\nfen 7/7\nperft 1 0\n\nid b\nfen x\nperft 1 2\nperft 2 3\n";
    let blocks = parse(text).unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].id, "a");
    assert_eq!(blocks[1].fen, "x");
    assert_eq!(blocks[1].counts, vec![(8, 1, 2), (9, 2, 3)]);
    assert!(parse("id a\nfen x\nperft one 2\n").is_err());
    assert!(parse("id a\nfen x\nperft 1\n").is_err());
    assert!(parse("id a\nfen x\n").is_err());
    assert!(parse("id a\nid b\nfen x\nperft 1 1\n").is_err());
    assert!(parse("bogus line\n").is_err());
}
