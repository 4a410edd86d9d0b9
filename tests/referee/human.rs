//! A person playing through the terminal: refused input asked again, a takeback, and a sealed
//! engine's commitment shown before the person types.

use super::*;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use quill::referee::results::{GameRecord, read_all};

/// A one-game `quill match` in `dir` with a person (`human name=me`) in the first seat and
/// `args` after it (the variant and the other seat), with the person's terminal piped.
fn person_at_terminal(dir: &Path, args: &[&str]) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(QUILL)
        .args(["match", "--games", "1", "--engine", "human name=me"])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdin, stdout)
}

/// Plays as a person: waits for the prompt, types the first legal move shown (after a line of
/// garbage and an illegal move at the first prompt, which must be refused and asked again).
fn human_game(variant: &str, engine_words: &str) -> (String, Vec<GameRecord>) {
    let dir = scratch(&format!("human-{variant}"));
    let (mut child, mut stdin, stdout) = person_at_terminal(
        &dir,
        &[
            "--variant",
            variant,
            "--max-turns",
            "3",
            "--engine",
            engine_words,
        ],
    );
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
    let engine = format!("cmd={QUILL} name=quill depth=1");
    let (mut child, mut stdin, stdout) =
        person_at_terminal(&dir, &["--variant", "gladiator", "--engine", &engine]);
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
