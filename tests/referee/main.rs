//! `quill match` as users run it: matches between Quill processes and misbehaving test doubles
//! (`examples/misbehave.rs`), checked through the results file and the PGN it writes; a match
//! killed with SIGKILL and resumed; shards merged; a person playing through the terminal.

#[path = "../common/mod.rs"]
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use quill::referee::results::{GameRecord, GameResult, read_all};

mod arguments;
mod faults;
mod human;
mod matches;
mod resume;

const QUILL: &str = env!("CARGO_BIN_EXE_quill");

/// The test double (`examples/misbehave.rs`).
fn double() -> String {
    common::misbehave_path().display().to_string()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "quill-referee-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn quill_match(dir: &Path, args: &[&str]) -> Output {
    Command::new(QUILL)
        .arg("match")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("quill match runs")
}

fn text(o: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs a two-game match of a double with `fault` (seat `bad`) against a good double (seat
/// `good`) and returns the records.
fn fault_match(variant: &str, proto: &str, fault: &str, at: u32) -> Vec<GameRecord> {
    let dir = scratch(fault);
    let d = double();
    let out = quill_match(
        &dir,
        &[
            "--variant",
            variant,
            "--games",
            "2",
            "--engine",
            &format!("cmd=\"{d} {fault} --at {at}\" name=bad proto={proto} tc=0.6+0"),
            "--engine",
            &format!("cmd=\"{d} good\" name=good proto={proto} tc=0.6+0"),
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let records = read_all(&dir.join("match-results.txt")).unwrap();
    assert_eq!(
        records.len(),
        2,
        "the match goes on after a forfeit: {}",
        text(&out)
    );
    records
}

/// Both games were lost by `bad` with a reason containing `why`.
fn bad_lost_both(records: &[GameRecord], why: &str) {
    for r in records {
        let bad_won = (r.white == "bad" && r.result == GameResult::WhiteWins)
            || (r.black == "bad" && r.result == GameResult::BlackWins);
        let lost = (r.white == "bad" && r.result == GameResult::BlackWins)
            || (r.black == "bad" && r.result == GameResult::WhiteWins);
        assert!(lost && !bad_won, "game {}: {r:?}", r.game);
        assert!(
            r.reason.contains(why),
            "game {}: reason '{}' does not say '{why}'",
            r.game,
            r.reason
        );
    }
}
