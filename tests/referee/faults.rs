//! Engines that misbehave, through the test double: each fault forfeits the game (or, for an
//! illegal sealed move, costs a penalty) with its reason, and the match goes on; the referee
//! stays unblocked and its memory bounded whatever an engine sends.

use super::*;

use std::fs;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use quill::referee::results::{GameRecord, read_all};

#[test]
fn crash_forfeits_in_both_dialects() {
    for proto in ["uci", "cecp"] {
        bad_lost_both(&fault_match("gladiator", proto, "crash", 2), "exited");
    }
}

#[test]
fn a_match_of_forfeits_says_so_in_its_summary() {
    let dir = scratch("forfeit-summary");
    let d = double();
    let out = quill_match(
        &dir,
        &[
            "--variant",
            "gladiator",
            "--games",
            "2",
            "--engine",
            &format!("cmd=\"{d} crash --at 2\" name=bad tc=0.6+0"),
            "--engine",
            &format!("cmd=\"{d} good\" name=good tc=0.6+0"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Ends: forfeit: crash 2\n"),
        "{}",
        text(&out)
    );
    assert!(
        stdout.contains("WARNING: 2 of 2 games were forfeits"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_seat_that_cannot_start_stops_the_match_before_any_game() {
    let dir = scratch("no-engine");
    let out = quill_match(
        &dir,
        &[
            "--engine",
            "cmd=/no/such/engine name=ghost",
            "--engine",
            &format!("cmd={QUILL} name=q"),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("seat ghost is not fit to play, so no game was started")
            && stderr.contains("no such command: /no/such/engine"),
        "{}",
        text(&out)
    );
    assert!(
        !dir.join("match-results.txt").exists(),
        "no results file: {}",
        text(&out)
    );
}

#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    for proto in ["uci", "cecp"] {
        let dir = scratch("bad-option");
        let out = quill_match(
            &dir,
            &[
                "--engine",
                &format!("cmd={QUILL} name=typo proto={proto} option.Hsh=16"),
                "--engine",
                &format!("cmd={QUILL} name=q"),
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{proto}: {}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("typo refused an option") && stderr.contains("Hsh"),
            "{proto}: {}",
            text(&out)
        );
    }
}

#[test]
fn hang_forfeits_on_time_and_the_hung_engine_is_killed() {
    for proto in ["uci", "cecp"] {
        let start = Instant::now();
        bad_lost_both(
            &fault_match("pagan", proto, "hang", 1),
            "did not move within",
        );
        // Two games of 0.6 s clocks: the referee neither waits forever nor for the hung process.
        assert!(start.elapsed() < Duration::from_secs(30));
    }
}

#[test]
fn garbage_forfeits() {
    for proto in ["uci", "cecp"] {
        bad_lost_both(&fault_match("gladiator", proto, "garbage", 2), "garbage");
    }
}

#[test]
fn illegal_move_forfeits_in_alternating_games() {
    for proto in ["uci", "cecp"] {
        bad_lost_both(&fault_match("brawl", proto, "illegal", 2), "illegal move");
    }
}

#[test]
fn false_claim_forfeits() {
    bad_lost_both(
        &fault_match("gladiator", "cecp", "false-claim", 2),
        "false claim",
    );
}

#[test]
fn moving_out_of_turn_forfeits() {
    for proto in ["uci", "cecp"] {
        bad_lost_both(&fault_match("gladiator", proto, "early", 2), "out of turn");
    }
}

#[test]
fn sealed_faults_forfeit_but_an_illegal_sealed_move_is_a_penalty() {
    for proto in ["uci", "cecp"] {
        bad_lost_both(&fault_match("apocalypse", proto, "crash", 2), "exited");
        bad_lost_both(
            &fault_match("apocalypse", proto, "hang", 1),
            "did not move within",
        );
        bad_lost_both(&fault_match("apocalypse", proto, "garbage", 1), "garbage");
    }
    // An illegal sealed move is void and costs a penalty point (protocol-docs/rules.md); two of them lose.
    let dir = scratch("sealed-illegal");
    let d = double();
    let out = quill_match(
        &dir,
        &[
            "--games",
            "1",
            "--opening-turns",
            "0",
            "--engine",
            &format!("cmd=\"{d} illegal --at 1\" name=bad tc=5+0"),
            "--engine",
            &format!("cmd=\"{d} good\" name=good tc=5+0"),
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let pgn = fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert!(
        pgn.contains("{penalty white "),
        "no penalty comment:\n{pgn}"
    );
    let records = read_all(&dir.join("match-results.txt")).unwrap();
    assert!(
        !records[0].reason.contains("forfeit") && !records[0].reason.contains("illegal move"),
        "an illegal sealed move is not a forfeit: {:?}",
        records[0]
    );
    assert!(records[0].plies > 1, "the game went on: {:?}", records[0]);
}

#[test]
fn output_faults_forfeit_with_their_reason_and_the_match_goes_on() {
    for proto in ["uci", "cecp"] {
        for (fault, why) in [
            ("flood-start", "flooded: more than 20000 lines in a second"),
            ("flood", "flooded: more than 20000 lines in a second"),
            ("long-line", "sent a line longer than 65536 bytes"),
            ("empty-move", "sent garbage for a move: ''"),
            // More unknown lines while thinking than the referee takes (MAX_GARBAGE).
            ("babble", "printed garbage: xyzzy"),
            // Lines within the bounds keep coming: the move's deadline still holds.
            ("chatter", "did not move within"),
            ("trickle", "did not move within"),
        ] {
            bad_lost_both(&fault_match("gladiator", proto, fault, 2), why);
        }
    }
}

#[test]
#[cfg(target_os = "linux")]
fn an_engine_that_stops_reading_cannot_block_the_referee() {
    // A 100 kB option line fills the pipe of an engine that reads no more: writing it must not
    // block the referee, which then waits for `readyok` / `pong` with its usual deadline (two
    // games of a 10 s start timeout; `watched_match` fails after a minute).
    let d = double();
    let option = format!("option.Junk={}", "x".repeat(100_000));
    thread::scope(|s| {
        for proto in ["uci", "cecp"] {
            let words = format!("cmd=\"{d} deaf\" proto={proto} {option}");
            s.spawn(move || {
                let records = watched_match(&words, proto);
                assert_eq!(records.len(), 2, "{proto}: the match goes on");
                bad_lost_both(&records, "did not answer in time");
            });
        }
    });
}

/// The peak resident memory (`VmHWM`, in kB) of a running process, if it still runs.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs a match of `bad` against a good double, watching the referee's peak memory: it fails
/// as soon as the peak passes `MAX_KB` or the match outlives a minute. Returns the records.
fn watched_match(bad: &str, proto: &str) -> Vec<GameRecord> {
    const MAX_KB: u64 = 200 * 1024;
    let dir = scratch("watched");
    let d = double();
    let mut child = Command::new(QUILL)
        .args([
            "match",
            "--variant",
            "gladiator",
            "--games",
            "2",
            "--engine",
            &format!("{bad} name=bad tc=1+0"),
            "--engine",
            &format!("cmd=\"{d} good\" name=good tc=1+0 proto={proto}"),
        ])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut peak = 0;
    let status = loop {
        if let Some(kb) = peak_kb(child.id()) {
            peak = peak.max(kb);
        }
        if peak > MAX_KB || start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "{}: the referee reached {peak} kB after {:?}",
                &bad[..bad.len().min(200)],
                start.elapsed()
            );
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        thread::sleep(Duration::from_millis(5));
    };
    assert!(status.success(), "{bad}: {status}");
    assert!(peak > 0, "{bad}: the referee's memory was never read");
    read_all(&dir.join("match-results.txt")).unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn the_referees_memory_stays_bounded_whatever_an_engine_sends() {
    let d = double();
    for (bad, why) in [
        ("cmd='yes info string flood'", "flooded"),
        (&format!("cmd=\"{d} flood-start\""), "flooded"),
        (&format!("cmd=\"{d} flood --at 2\""), "flooded"),
        (
            &format!("cmd=\"{d} long-line --at 2\""),
            "longer than 65536 bytes",
        ),
        (
            &format!("cmd=\"{d} long-line --at 2\" proto=cecp"),
            "longer than 65536 bytes",
        ),
        (
            &format!("cmd=\"{d} chatter --at 2\""),
            "did not move within",
        ),
    ] {
        let proto = if bad.contains("proto=cecp") {
            "cecp"
        } else {
            "uci"
        };
        let records = watched_match(bad, proto);
        assert_eq!(records.len(), 2, "{bad}: the match goes on");
        bad_lost_both(&records, why);
    }
}
