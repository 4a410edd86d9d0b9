//! The tables in play: the search's root strategy inside a table is unexploitable, and a
//! partial table (`--family`) is written, read back and probed.

use super::*;

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use quill::search::Limits;
use quill::simsearch::endgame::Endgame;
use quill::tablebase::format::ReadError;
use quill::tablebase::{Tables, build, format, index::Signature};
use quill::variant::Side;
use quill::variants::apocalypse::{Position, Rules};
use sha2::Digest;

#[test]
fn the_root_strategy_inside_the_table_is_unexploitable() {
    let mut rng = Rng(7);
    let t = table(Rules::Seed);
    let positions = sample(&t, &mut rng, 6, 2);
    let mut tables = Tables::default();
    tables.add(t);
    let _held = ACTIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    quill::tablebase::set_active(tables);
    unexploitable_at_the_root(&positions);
}

/// Held while a test has made its tables the active ones (one global for every test thread).
static ACTIVE: Mutex<()> = Mutex::new(());

/// The search's root strategy at each position, with the active tables, against the
/// exploitability measure of `quill exploit`: at most 1e-9 for both sides.
fn unexploitable_at_the_root(positions: &[Position]) {
    let limits = Limits {
        depth: Some(2),
        time: None,
        nodes: None,
        exact: false,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    for pos in positions {
        let eg = Endgame::solve(pos, 1_000_000, 1e-12, 50_000_000).unwrap();
        let a = quill::simsearch::analyse(pos, &[], &[], limits, &stop, &mut |_| {}).unwrap();
        for side in [Side::White, Side::Black] {
            let e = eg.exploitability(pos, side, a.strategy(side)).unwrap();
            assert!(
                e.exploitability <= 1e-9,
                "{}: {side:?} exploitable by {} ({:?})",
                pos.fen(),
                e.exploitability,
                a.strategy(side)
            );
        }
    }
}

/// A partial table (`--family`): every position of fewer pieces and the family of one
/// signature. It reads back with its signatures, answers inside them only, replaces a whole
/// table of fewer pieces in [`Tables`], plays the equilibrium at a root inside it, and a
/// partial file that lacks a signature its others reach is refused.
#[test]
fn a_partial_table_is_written_read_and_probed() {
    let target = Signature {
        wf: 3,
        wh: 0,
        bf: 1,
        bh: 0,
    };
    let t = build::build_family(Rules::Seed, &[target], 200, None, &mut |_| {})
        .expect("the family builds")
        .table;
    let whole3 = table(Rules::Seed);
    // 3010 reaches 2110 and 1210 among the 4-piece signatures (a footman promotes), and
    // 3-piece ones, which the 3-piece part holds already.
    assert_eq!(t.signatures().len(), whole3.signatures().len() + 3);
    let bytes = format::encode(&t);
    assert_eq!(bytes[13], 3, "flags: mirror folded, partial");
    let back = format::decode(&bytes).expect("a partial table reads back");
    assert_eq!(back.signatures(), t.signatures());
    for s in t.signatures() {
        assert_eq!(back.signature_values(*s), t.signature_values(*s));
    }
    for s in whole3.signatures() {
        assert_eq!(back.signature_values(*s), whole3.signature_values(*s));
    }
    let inside = Position::from_fen(Rules::Seed, "5/2p2/5/PP1P1/5 w - - 0 1 0/0").unwrap();
    let outside = Position::from_fen(Rules::Seed, "4n/1p3/5/1P3/N4 w - - 0 1 0/0").unwrap();
    assert!(back.value(&inside).is_some());
    assert_eq!(back.value(&outside), None, "1111 is not in the table");
    // Drop 2010 from the list (and its positions), fix the header and the checksum: refused.
    let sigs = t.signatures();
    let k = sigs
        .iter()
        .position(|s| (s.wf, s.wh, s.bf, s.bh) == (2, 0, 1, 0))
        .unwrap();
    let before: u64 = sigs[..k]
        .iter()
        .map(|s| t.signature_values(*s).unwrap().len() as u64)
        .sum();
    let n = t.signature_values(sigs[k]).unwrap().len();
    let list = 40 + 8 * sigs.len();
    let mut cut = Vec::new();
    cut.extend_from_slice(&bytes[..40 + 8 * k]);
    cut.extend_from_slice(&bytes[40 + 8 * (k + 1)..list]);
    let values = list + 4 * before as usize;
    cut.extend_from_slice(&bytes[list..values]);
    cut.extend_from_slice(&bytes[values + 4 * n..bytes.len() - 32]);
    cut[16..20].copy_from_slice(&(sigs.len() as u32 - 1).to_le_bytes());
    cut[32..40].copy_from_slice(&((t.len() - n) as u64).to_le_bytes());
    let sum = sha2::Sha256::digest(&cut);
    cut.extend_from_slice(&sum);
    let e = format::decode(&cut).err().expect("refused");
    assert!(
        matches!(e, ReadError::NotClosed { missing, .. } if missing == sigs[k]),
        "{e}"
    );
    // The same bytes without the partial flag are a whole table's and refused as such.
    let mut whole = bytes.clone();
    whole[13] = 1;
    assert!(format::decode(&whole).is_err());
    // In the search: the partial 4-piece table replaces the whole 3-piece one.
    let mut tables = Tables::default();
    tables.add(whole3);
    tables.add(back);
    // Unfinished roots among the table's 4-piece positions (these signatures have no mixed
    // roots: the root test of the 3-piece table above covers mixed strategies).
    let mut positions = Vec::new();
    for &s in t.signatures().iter().filter(|s| s.pieces() == 4) {
        let n = t.signature_values(s).unwrap().len() as u64;
        for i in (0..n).step_by(997) {
            let pos = t.position(s, i).unwrap();
            let (mut w, mut b) = (Vec::new(), Vec::new());
            pos.legal_moves(Side::White, &mut w);
            pos.legal_moves(Side::Black, &mut b);
            if positions.len() < 3 && t.solve_root(&pos, &w, &b).is_some() {
                positions.push(pos);
            }
        }
    }
    assert_eq!(
        positions.len(),
        3,
        "no unfinished 4-piece roots in the table"
    );
    let _held = ACTIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    quill::tablebase::set_active(tables);
    unexploitable_at_the_root(&positions);
}

/// The built-in 4-piece tables, asked for by `Limits::builtin_tables` (a session's
/// `BuiltinTablebase`): the root strategy of 4-piece positions is unexploitable at depth 1;
/// without them the same search is exploitable there.
#[test]
fn the_built_in_tables_make_four_piece_roots_unexploitable() {
    let _held = ACTIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    quill::tablebase::set_active(Tables::default());
    let stop = AtomicBool::new(false);
    for (fen, rules) in [
        ("1N3/5/p4/4P/n4", Rules::Seed),
        ("1N3/5/p4/4P/n4", Rules::Classic),
    ] {
        let pos = Position::from_fen(rules, fen).unwrap();
        let eg = Endgame::solve(&pos, 1_000_000, 1e-10, 50_000_000).unwrap();
        let worst = |builtin_tables: bool| {
            let limits = Limits {
                depth: Some(1),
                builtin_tables,
                ..Limits::default()
            };
            let a = quill::simsearch::analyse(&pos, &[], &[], limits, &stop, &mut |_| {})
                .expect("an unfinished root");
            [Side::White, Side::Black]
                .map(|side| eg.exploitability(&pos, side, a.strategy(side)).unwrap())
                .iter()
                .map(|e| e.exploitability)
                .fold(0.0, f64::max)
        };
        assert!(worst(true) <= 1e-8, "{fen} {rules:?}: {}", worst(true));
        if rules == Rules::Seed {
            assert!(
                worst(false) > 1e-3,
                "{fen}: the test needs an exploitable search"
            );
        }
    }
}
