//! `quill match` as users run it: matches between Quill processes and misbehaving test doubles
//! (`examples/misbehave.rs`), checked through the results file and the PGN it writes; a match
//! killed with SIGKILL and resumed; shards merged; a person playing through the terminal.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use quill::referee::results::{GameRecord, GameResult, read_all};

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

/// Plays as a person: waits for the prompt, types the first legal move shown (after a line of
/// garbage and an illegal move at the first prompt, which must be refused and asked again).
fn human_game(variant: &str, engine_words: &str) -> (String, Vec<GameRecord>) {
    let dir = scratch(&format!("human-{variant}"));
    let mut child = Command::new(QUILL)
        .args([
            "match",
            "--variant",
            variant,
            "--games",
            "1",
            "--max-turns",
            "3",
            "--engine",
            "human name=me",
            "--engine",
            engine_words,
        ])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let mut legal: Vec<String> = Vec::new();
    let mut first = true;
    let mut fresh = false;
    for line in stdout.lines() {
        let line = line.unwrap();
        seen.push_str(&line);
        seen.push('\n');
        if let Some(list) = line.strip_prefix("legal moves") {
            let list = list.rsplit(": ").next().unwrap();
            legal = list.split(' ').map(str::to_string).collect();
            fresh = true;
        }
        // One move per position shown: the prompts after a refusal or a command ask again.
        if line.ends_with("your move ('help' for the commands):") && fresh {
            if first {
                writeln!(stdin, "hello").unwrap();
                writeln!(stdin, "a1a1").unwrap();
                writeln!(stdin, "help").unwrap();
                writeln!(stdin, "moves {}", &legal[0][..2]).unwrap();
                first = false;
            }
            // Moves are read whatever their case.
            writeln!(stdin, "{}", legal[0].to_uppercase()).unwrap();
            fresh = false;
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}: {seen}");
    let records = read_all(&dir.join("match-results.txt")).unwrap();
    (seen, records)
}

#[test]
fn a_person_plays_an_alternating_game_at_the_terminal() {
    let (seen, records) = human_game("gladiator", &format!("cmd={QUILL} name=quill depth=1"));
    assert!(
        seen.contains("'hello' is neither a move nor a command ('help' lists them)"),
        "{seen}"
    );
    // The rules' own reason, not a bare "not legal".
    assert!(
        seen.contains("'a1a1' is refused: illegal move a1a1: "),
        "{seen}"
    );
    assert!(seen.contains("  moves [START]"), "help is shown: {seen}");
    assert!(
        seen.lines()
            .any(|l| l.contains(" legal moves starting with '")),
        "moves lists the turns of a start: {seen}"
    );
    assert!(
        seen.contains(" a  b  c  d  e  f  g  h"),
        "a diagram is shown: {seen}"
    );
    assert!(
        seen.contains("Pieces (White upper case"),
        "a legend: {seen}"
    );
    assert!(
        seen.contains("WireTurn 1 · you are White · your time "),
        "{seen}"
    );
    // The start position, not a random opening: the README's first move is legal.
    assert!(
        seen.contains("FEN: rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w"),
        "{seen}"
    );
    // The engine's reply is told in words and marked on the next board.
    let told = seen
        .lines()
        .find(|l| l.starts_with("quill played "))
        .unwrap_or_else(|| panic!("the engine's move is not told: {seen}"));
    assert!(told.contains(" (pawn "), "{told}");
    assert!(seen.contains("[p]"), "the moved pawn is marked: {seen}");
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].white, "me");
    assert!(records[0].reason.contains("turn cap"), "{:?}", records[0]);
}

/// Runs a human game of Gladiator where the person types `script` (one line per prompt, in
/// turn) and returns what the person was shown.
fn scripted_human_game(script: &[&str]) -> String {
    let dir = scratch("human-script");
    let mut child = Command::new(QUILL)
        .args([
            "match",
            "--variant",
            "gladiator",
            "--games",
            "1",
            "--engine",
            "human name=me",
            "--engine",
            &format!("cmd={QUILL} name=quill depth=1"),
        ])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let mut script = script.iter();
    for line in stdout.lines() {
        let line = line.unwrap();
        seen.push_str(&line);
        seen.push('\n');
        if line.ends_with("your move ('help' for the commands):") {
            let typed = script.next().copied().unwrap_or("resign");
            writeln!(stdin, "{typed}").unwrap();
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success(), "{seen}");
    seen
}

#[test]
fn a_person_takes_back_a_move_and_the_engine_reply() {
    let seen = scripted_human_game(&["undo", "C2C7,H1H2", "undo", "draw", "resign"]);
    assert!(
        seen.contains("no undo: you have not moved yet in this game"),
        "{seen}"
    );
    let after = seen
        .split("took back your last move and the engine's reply")
        .nth(1)
        .unwrap_or_else(|| panic!("no undo: {seen}"));
    // Back at the start position, turn 1, nothing marked.
    assert!(after.contains("WireTurn 1 · you are White"), "{after}");
    assert!(
        after.contains("FEN: rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w"),
        "{after}"
    );
    assert!(seen.contains("cannot accept a draw offer"), "{seen}");
    assert!(seen.contains("game over: 0-1 {me resigned}"), "{seen}");
}

#[test]
fn a_person_sees_the_engine_commitment_before_typing_and_its_proof_after() {
    let (seen, records) = human_game("apocalypse", &format!("cmd={QUILL} name=quill depth=1"));
    let commit = seen
        .lines()
        .find_map(|l| l.strip_prefix("quill has sealed its move; commitment "))
        .unwrap_or_else(|| panic!("no commitment shown: {seen}"));
    assert_eq!(commit.len(), 64);
    let proof = seen
        .lines()
        .find(|l| l.starts_with("quill played "))
        .unwrap_or_else(|| panic!("no verification shown: {seen}"));
    assert!(proof.ends_with(commit), "{proof} vs {commit}");
    assert!(
        seen.find(commit).unwrap() < seen.find("quill played ").unwrap(),
        "the commitment comes first"
    );
    assert_eq!(records.len(), 1);
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

/// Values that once made an argument panic, or that no argument may take.
const EXTREME: [&str; 9] = [
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "-1",
    "1e400",
    "1e19",
    "NaN",
    "inf",
    "",
];

#[test]
fn no_numeric_argument_makes_any_subcommand_panic() {
    let dir = scratch("argfuzz");
    let seats = [
        "--engine",
        "cmd=false name=a",
        "--engine",
        "cmd=false name=b",
    ];
    let mut cases: Vec<Vec<String>> = Vec::new();
    let owned = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<String>>();
    for (n, v) in EXTREME.iter().enumerate() {
        for option in [
            "games",
            "concurrency",
            "seed",
            "opening-turns",
            "max-turns",
            "repetitions",
            "margin-ms",
            "move-timeout",
        ] {
            let mut c = owned(&["match", &format!("--{option}={v}")]);
            c.extend(owned(&seats));
            c.extend(owned(&["--results", &format!("r-{option}-{n}.txt")]));
            cases.push(c);
        }
        for (option, form) in [
            ("resign", format!("{v}:3")),
            ("resign", format!("300:{v}")),
            ("draw", format!("{v}:10:3")),
            ("draw", format!("10:{v}:3")),
            ("sprt", format!("0:{v}:0.05:0.05")),
            ("sprt", format!("{v}:5:0.05:0.05")),
            ("shard", format!("{v}/2")),
            ("shard", format!("0/{v}")),
        ] {
            let mut c = owned(&["match", &format!("--{option}={form}")]);
            c.extend(owned(&seats));
            c.extend(owned(&["--results", &format!("r-{option}-{n}.txt")]));
            cases.push(c);
        }
        for word in [
            "tc={v}",
            "tc=1/{v}",
            "tc=10+{v}",
            "tc={v}:00",
            "st={v}",
            "depth={v}",
            "nodes={v}",
        ] {
            let word = word.replace("{v}", v);
            cases.push(owned(&[
                "match",
                "--engine",
                &format!("cmd=false name=a {word}"),
                "--engine",
                "cmd=false name=b",
                "--results",
                &format!("r-word-{n}.txt"),
            ]));
        }
        cases.push(owned(&[
            "merge",
            "none.txt",
            &format!("--sprt=0:{v}:0.05:0.05"),
        ]));
        cases.push(owned(&["perft", &format!("--depth={v}")]));
        cases.push(owned(&["perft", "--", v]));
        cases.push(owned(&["bench", "--", v]));
        cases.push(owned(&["exploit", &format!("--movetime={v}")]));
        cases.push(owned(&["exploit", &format!("--depth={v}")]));
        cases.push(owned(&["replay", "none.txt", &format!("--timeout={v}")]));
    }
    for case in &cases {
        let mut child = Command::new(QUILL)
            .args(case)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > until {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("{case:?} still runs after 20 s");
            }
            thread::sleep(Duration::from_millis(5));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(
            status.code().is_some_and(|c| c != 101),
            "{case:?}: {status}\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{case:?}: {stderr}");
    }
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
