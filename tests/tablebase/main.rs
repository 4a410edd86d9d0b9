//! The Apocalypse tablebase (`protocol-docs/tablebase.md`): 3-piece tables of both rule sets,
//! built here, against the independent Python solver `tests/reference/tablebase_ref.py` on a
//! random sample of positions (every position reachable from each is compared); the search's
//! root strategy inside the table against the project's exploitability measure
//! (`quill::simsearch::endgame`); and refused files.
//!
//! Without `python3` the comparison prints a note and passes (under `CI=true` it fails).

use std::io::Write;
use std::process::{Command, Stdio};

use quill::tablebase::{Tablebase, build, index::Signature};
use quill::variant::Side;
use quill::variants::apocalypse::{Position, Rules};

mod files;
mod probe;
mod python;

fn table(rules: Rules) -> Tablebase {
    build::build(rules, 3, build::MAX_SWEEPS, None, &mut |_| {})
        .expect("a 3-piece table builds")
        .table
}

fn rules_name(r: Rules) -> &'static str {
    match r {
        Rules::Seed => "apocalypse",
        Rules::Classic => "apocalypse-classic",
    }
}

/// A small deterministic generator (SplitMix64), so the sample is the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// Positions of the table whose one-turn strategy is mixed (the hard ones), then random ones.
fn sample(t: &Tablebase, rng: &mut Rng, mixed: usize, random: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let sigs: Vec<Signature> = t.signatures().to_vec();
    let mut tries = 0;
    while out.len() < mixed && tries < 200_000 {
        tries += 1;
        let s = sigs[rng.below(sigs.len() as u64) as usize];
        let n = t.signature_values(s).unwrap().len() as u64;
        let pos = t.position(s, rng.below(n)).unwrap();
        let (mut w, mut b) = (Vec::new(), Vec::new());
        pos.legal_moves(Side::White, &mut w);
        pos.legal_moves(Side::Black, &mut b);
        if let Some(sol) = t.solve_root(&pos, &w, &b)
            && sol.rows.iter().filter(|p| **p > 0.0).count() > 1
        {
            out.push(pos);
        }
    }
    assert!(
        out.len() == mixed,
        "found only {} mixed positions",
        out.len()
    );
    while out.len() < mixed + random {
        let s = sigs[rng.below(sigs.len() as u64) as usize];
        let n = t.signature_values(s).unwrap().len() as u64;
        let pos = t.position(s, rng.below(n)).unwrap();
        if pos.end().is_none() {
            out.push(pos);
        }
    }
    out
}

/// The FEN of a position with random penalty points (0 or 1 each): the table must give every
/// penalty state the same value, and the Python solver keeps them in its positions.
fn with_penalties(pos: &Position, rng: &mut Rng) -> String {
    let fen = pos.fen();
    let board = fen.split(' ').next().unwrap();
    format!("{board} w - - 0 1 {}/{}", rng.below(2), rng.below(2))
}

/// The output of `tests/reference/tablebase_ref.py ARGS` fed `input`; `None` (a note) without
/// `python3`, which under `CI=true` fails the test instead.
fn python(args: &[&str], input: &str) -> Option<String> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/tablebase_ref.py"
    );
    let child = Command::new("python3")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "python3 is not available ({e}) and CI=true: the comparison cannot be skipped"
            );
            eprintln!("note: python3 is not available ({e}); tablebase comparison skipped");
            return None;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the Python solver failed");
    Some(String::from_utf8(out.stdout).unwrap())
}
