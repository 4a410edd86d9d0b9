//! A match resumed: after SIGKILL without losing or repeating a game, refusing records from
//! outside the match, and reconciling a PGN of any bytes.

use super::*;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use quill::referee::results::read_all;

#[test]
fn a_match_killed_with_sigkill_resumes_without_losing_or_repeating_a_game() {
    let dir = scratch("resume");
    let d = double();
    let args = |resume: bool| {
        let mut v: Vec<String> = [
            "match",
            "--variant",
            "gladiator",
            "--games",
            "8",
            "--max-turns",
            "6",
            "--engine",
            &format!("cmd=\"{d} slow --delay 40\" name=a tc=10+0"),
            "--engine",
            &format!("cmd=\"{d} good\" name=b tc=10+0"),
            "--pgn",
            "games.pgn",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        if resume {
            v.push("--resume".into());
        }
        v
    };
    let mut child = Command::new(QUILL)
        .args(args(false))
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let results = dir.join("match-results.txt");
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let lines = fs::read_to_string(&results).map_or(0, |t| t.lines().count());
        if lines >= 3 {
            break;
        }
        assert!(Instant::now() < until, "the match never recorded two games");
        thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = read_all(&results).unwrap();
    assert!(
        before.len() >= 2 && before.len() < 8,
        "{} games",
        before.len()
    );
    let out = Command::new(QUILL)
        .args(args(true))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let after = read_all(&results).unwrap();
    let games: BTreeSet<u32> = after.iter().map(|r| r.game).collect();
    assert_eq!(after.len(), 8, "no game lost or repeated: {after:?}");
    assert_eq!(games, (0..8).collect());
    for r in &before {
        assert!(after.contains(r), "a recorded game changed: {r:?}");
    }
    let pgn = fs::read_to_string(dir.join("games.pgn")).unwrap();
    let rounds: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[Round ")).collect();
    let unique: BTreeSet<&&str> = rounds.iter().collect();
    assert_eq!(rounds.len(), 8, "one PGN game per recorded game");
    assert_eq!(unique.len(), 8);
    // Resuming a finished match plays nothing more; another match's file is refused.
    let again = Command::new(QUILL)
        .args(args(true))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(again.status.success());
    assert_eq!(read_all(&results).unwrap().len(), 8);
    let mut other = args(true);
    other[4] = "10".into();
    let refused = Command::new(QUILL)
        .args(other)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("another match"));
}

/// Plays a finished two-game match in `dir` (fast: the second seat crashes at once) and returns
/// its arguments, for resuming.
fn finished_match(dir: &Path) -> Vec<String> {
    let d = double();
    let args: Vec<String> = [
        "match",
        "--variant",
        "gladiator",
        "--games",
        "2",
        "--max-turns",
        "6",
        "--engine",
        &format!("cmd=\"{d} good\" name=a"),
        "--engine",
        &format!("cmd=\"{d} crash --at 2\" name=b"),
        "--pgn",
        "games.pgn",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    let out = Command::new(QUILL)
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    args
}

fn resume(dir: &Path, args: &[String]) -> Output {
    Command::new(QUILL)
        .args(args)
        .arg("--resume")
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn resume_refuses_records_from_outside_the_match() {
    let dir = scratch("foreign");
    let args = finished_match(&dir);
    let results = dir.join("match-results.txt");
    let good = fs::read_to_string(&results).unwrap();
    let second = good.lines().nth(2).unwrap().to_string();
    for (foreign, says) in [
        (
            second.replacen("game=1 ", "game=7 ", 1),
            "game 7 is not among the 2 games",
        ),
        (
            second.replacen("game=1 ", "game=4294967295 ", 1),
            "game 4294967295 is not among",
        ),
        (
            second.replacen("white=b", "white=c", 1),
            "not b (White) and a (Black)",
        ),
    ] {
        let without_second: String = good.lines().take(2).map(|l| format!("{l}\n")).collect();
        fs::write(&results, format!("{without_second}{foreign}\n")).unwrap();
        let out = resume(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{foreign}: {}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{foreign}: {stderr}");
        assert!(stderr.contains("match-results.txt:3: refused"), "{stderr}");
    }
}

#[test]
fn resume_reconciles_a_pgn_of_any_bytes_and_reads_crlf_and_torn_headers() {
    let dir = scratch("reconcile");
    let args = finished_match(&dir);
    let results = dir.join("match-results.txt");
    let pgn = dir.join("games.pgn");
    let rounds = |pgn: &Path| -> Vec<String> {
        let bytes = fs::read(pgn).unwrap();
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| l.starts_with("[Round "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(rounds(&pgn), ["[Round \"1\"]", "[Round \"2\"]"]);
    // A kill between the PGN write of game 2 and its results line, with a byte that is not
    // UTF-8 in the PGN: game 2 is played again and recorded once.
    let recorded = fs::read_to_string(&results).unwrap();
    let first_two: String = recorded.lines().take(2).map(|l| format!("{l}\n")).collect();
    fs::write(&results, &first_two).unwrap();
    let mut bytes = fs::read(&pgn).unwrap();
    let at = bytes.windows(7).position(|w| w == b"[Event ").unwrap() + 8;
    bytes.insert(at, 0xff);
    fs::write(&pgn, &bytes).unwrap();
    let out = resume(&dir, &args);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(read_all(&results).unwrap().len(), 2);
    assert_eq!(rounds(&pgn), ["[Round \"1\"]", "[Round \"2\"]"]);

    // CRLF endings: the same match, nothing more to play.
    let crlf = fs::read_to_string(&results).unwrap().replace('\n', "\r\n");
    fs::write(&results, crlf).unwrap();
    let out = resume(&dir, &args);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("2 games"),
        "{}",
        text(&out)
    );

    // An empty file, then a torn header: refused without --resume with a message saying what
    // to do, started over with it.
    for cut in [0, 20] {
        let header = fs::read_to_string(&results).unwrap();
        fs::write(&results, &header.as_bytes()[..cut]).unwrap();
        let out = Command::new(QUILL)
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--resume"),
            "{}",
            text(&out)
        );
        let out = resume(&dir, &args);
        assert!(out.status.success(), "{cut}: {}", text(&out));
        assert_eq!(read_all(&results).unwrap().len(), 2);
        assert_eq!(rounds(&pgn), ["[Round \"1\"]", "[Round \"2\"]"]);
    }
}
