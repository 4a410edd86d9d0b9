//! Whole matches: sealed games between Quill processes in both dialects, shards merged into
//! one summary, and SPRT stopping a lopsided match early.

use super::*;

use std::fs;
use std::process::Command;

use quill::referee::results::read_all;

/// A sealed Apocalypse match between two Quill processes in one dialect, one of them
/// committing to its moves. The seats are depth-limited, not clocked: the test is about the
/// protocol, and a loaded machine must not turn it into a time forfeit.
fn quill_sealed_match(proto: &str) {
    let dir = scratch(&format!("sealed-{proto}"));
    let out = quill_match(
        &dir,
        &[
            "--games",
            "2",
            "--max-turns",
            "60",
            "--engine",
            &format!("cmd={QUILL} name=q1 proto={proto} option.SealedCommit=true depth=2"),
            "--engine",
            &format!("cmd={QUILL} name=q2 proto={proto} depth=2"),
            "--pgn",
            "games.pgn",
            "--log-dir",
            "logs",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let records = read_all(&dir.join("match-results.txt")).unwrap();
    assert_eq!(records.len(), 2);
    for r in &records {
        assert!(
            !r.reason.contains("forfeit")
                && !r.reason.contains("did not")
                && !r.reason.contains("garbage")
                && !r.reason.contains("broke"),
            "{proto}: an honest game ended by a fault: {r:?}"
        );
        assert!(r.plies > 0);
    }
    let pgn = fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert!(pgn.contains("[Variant \"apocalypse\"]"));
    // Each turn is a comment after its move number (protocol-docs/pgn.md): a joint token.
    assert!(
        pgn.lines().any(|l| l.contains(". {") && l.contains('|')),
        "sealed turns are joint tokens after their move numbers: {pgn}"
    );
    let log = fs::read_to_string(dir.join("logs/game-0.log")).unwrap();
    assert!(
        log.contains("> opponent "),
        "the committing engine was told the other move"
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("Score of q1 vs q2"), "{summary}");
}

#[test]
fn sealed_match_between_quill_processes_in_uci() {
    quill_sealed_match("uci");
}

#[test]
fn sealed_match_between_quill_processes_in_cecp() {
    quill_sealed_match("cecp");
}

#[test]
fn shards_merge_into_one_summary() {
    let dir = scratch("shards");
    let d = double();
    for shard in ["0/2", "1/2"] {
        let out = quill_match(
            &dir,
            &[
                "--variant",
                "pagan",
                "--games",
                "8",
                "--max-turns",
                "6",
                "--shard",
                shard,
                "--results",
                &format!("r{}.txt", &shard[..1]),
                "--engine",
                &format!("cmd=\"{d} good\" name=a"),
                "--engine",
                &format!("cmd=\"{d} crash --at 2\" name=b"),
            ],
        );
        assert!(out.status.success(), "{}", text(&out));
    }
    let r0 = read_all(&dir.join("r0.txt")).unwrap();
    let r1 = read_all(&dir.join("r1.txt")).unwrap();
    assert_eq!(r0.len() + r1.len(), 8);
    let merged = Command::new(QUILL)
        .args([
            "merge", "r0.txt", "r1.txt", "--engine", "a", "--out", "all.txt",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", text(&merged));
    let all = read_all(&dir.join("all.txt")).unwrap();
    assert_eq!(
        all.iter().map(|r| r.game).collect::<Vec<_>>(),
        (0..8).collect::<Vec<_>>()
    );
    let stdout = String::from_utf8_lossy(&merged.stdout);
    // b crashes at its second move in every game that lasts that long; a never loses.
    let wins = all.iter().filter(|r| r.score_for("a") == Some(1.0)).count();
    let draws = all.iter().filter(|r| r.score_for("a") == Some(0.5)).count();
    assert!(wins > 0);
    assert!(
        stdout.contains(&format!("Score of a vs b: {wins} - 0 - {draws}")),
        "{stdout}"
    );
    // The same game recorded differently in two files is refused.
    fs::write(
        dir.join("bad.txt"),
        fs::read_to_string(dir.join("r0.txt"))
            .unwrap()
            .replace("result=1-0", "result=0-1")
            .replace("result=1/2-1/2", "result=0-1"),
    )
    .unwrap();
    let conflict = Command::new(QUILL)
        .args(["merge", "r0.txt", "bad.txt"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(conflict.status.code(), Some(2), "{}", text(&conflict));
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let dir = scratch("sprt");
    let d = double();
    let out = quill_match(
        &dir,
        &[
            "--variant",
            "gladiator",
            "--games",
            "200",
            "--sprt",
            "0:100:0.05:0.05",
            "--engine",
            &format!("cmd=\"{d} good\" name=a"),
            "--engine",
            &format!("cmd=\"{d} crash --at 1\" name=b"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let records = read_all(&dir.join("match-results.txt")).unwrap();
    assert!(records.len() < 200, "the SPRT stopped nothing");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("The SPRT stopped the match after"),
        "{}",
        text(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("H1 accepted"),
        "{}",
        text(&out)
    );
}
