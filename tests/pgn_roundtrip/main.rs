//! The PGN that `quill match` writes reads back into the same games: a parser of the format
//! that `protocol-docs/pgn.md` specifies (written here from the document, not from the writer)
//! reads every game of short matches in each variant, sealed included; the turns it reads are
//! the turns the referee sent the engines (taken from the dialogue logs), and replayed through
//! Quill's rules they reach the same final position and the result that the PGN and the results
//! file record.

#[path = "../common/mod.rs"]
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use quill::notation::parse_turn;
use quill::referee::results::read_all;
use quill::variant::Side;

mod parser;

use parser::{Record, parse, start};

const QUILL: &str = env!("CARGO_BIN_EXE_quill");

/// The turns the referee sent, from a UCI dialogue log: the `moves` of the last `position`
/// line, then the answers that came after it (one in an alternating game; White's and Black's,
/// seats 0 and 1 of the log in White's and Black's colours, in a sealed one).
fn logged_turns(log: &str, sealed: bool, white_seat: char) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    let last = lines
        .iter()
        .rposition(|l| l.contains(" > position "))
        .expect("a position line");
    let mut turns: Vec<String> = lines[last]
        .split_once(" moves ")
        .map(|(_, m)| m.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let answers: Vec<(char, String)> = lines[last..]
        .iter()
        .filter_map(|l| {
            let seat = l.chars().next()?;
            let mv = l.split_once(" < bestmove ")?.1.split_whitespace().next()?;
            Some((seat, mv.to_string()))
        })
        .collect();
    if sealed {
        let of = |white: bool| {
            answers
                .iter()
                .find(|(s, _)| (*s == white_seat) == white)
                .map(|(_, m)| m.clone())
        };
        if let (Some(w), Some(b)) = (of(true), of(false)) {
            turns.push(format!("{w}|{b}"));
        }
    } else if let Some((_, m)) = answers.first() {
        turns.push(m.clone());
    }
    turns
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quill-pgn-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays a match and checks its PGN game by game; returns how many games and turns it read.
fn check_match(name: &str, variant: &str, engines: [String; 2], args: &[&str]) -> (usize, usize) {
    let dir = scratch(name);
    let out = Command::new(QUILL)
        .arg("match")
        .args([
            "--variant",
            variant,
            "--pgn",
            "games.pgn",
            "--log-dir",
            "logs",
        ])
        .args(["--engine", &engines[0], "--engine", &engines[1]])
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("quill match runs");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(dir.join("games.pgn")).unwrap();
    let games = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let records = read_all(&dir.join("match-results.txt")).unwrap();
    assert_eq!(games.len(), records.len(), "{name}: a PGN game per record");
    let mut turns = 0;
    for (g, r) in games.iter().zip(&records) {
        let what = format!("{name} game {}", r.game);
        check_game(&dir, &what, g, r.game, r.result.as_str());
        turns += g.turns.len();
    }
    fs::remove_dir_all(&dir).unwrap();
    (games.len(), turns)
}

fn check_game(dir: &Path, what: &str, g: &Record, index: u32, recorded: &str) {
    // The headers: the Seven Tag Roster first and in order, then the rest.
    let names: Vec<&str> = g.tags.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names[..7],
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
        "{what}"
    );
    assert_eq!(
        g.tag("Round"),
        Some((index + 1).to_string().as_str()),
        "{what}"
    );
    assert_eq!(g.tag("Result"), Some(g.result.as_str()), "{what}");
    assert_eq!(
        g.result, recorded,
        "{what}: the PGN's result is the results file's"
    );
    let (variant, mut game, ..) = start(g).unwrap();
    let plies = g.turns.len() * if variant.is_sealed() { 2 } else { 1 };
    assert_eq!(
        g.tag("PlyCount"),
        Some(plies.to_string().as_str()),
        "{what}"
    );
    // The turns are those the engines were sent.
    let log = fs::read_to_string(dir.join(format!("logs/game-{index}.log"))).unwrap();
    // The log's seat 0 is White.
    let white_seat = '0';
    let read: Vec<String> = g.turns.iter().map(|t| t.turn.to_string()).collect();
    assert_eq!(
        read,
        logged_turns(&log, variant.is_sealed(), white_seat),
        "{what}: the PGN's turns are the game's"
    );
    // Replayed, they reach the position the engines were last sent (plus its last turn), and
    // the penalties are the comments.
    for t in &g.turns {
        assert!(game.outcome().is_none(), "{what}: a turn after the end");
        let side = if t.black { Side::Black } else { Side::White };
        if !variant.is_sealed() {
            assert_eq!(game.side_to_move(), Some(side), "{what}: {}", t.number);
        }
        let penalties = game
            .play(&t.turn)
            .unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let expected: Vec<String> = penalties
            .iter()
            .map(|p| format!("penalty {} {} ({})", p.side.word(), p.mv, p.reason))
            .collect();
        let written: Vec<String> = t
            .comments
            .iter()
            .filter(|c| c.starts_with("penalty "))
            .flat_map(|c| c.split("; ").map(str::to_string))
            .collect();
        assert_eq!(written, expected, "{what}: penalties at {}", t.number);
    }
    match game.outcome() {
        Some(o) => {
            assert_eq!(o.result(), g.result, "{what}: the rules' result");
            assert_eq!(o.reason, g.reason, "{what}");
            assert_eq!(g.tag("Termination"), Some("normal"), "{what}");
        }
        None => assert_eq!(g.tag("Termination"), Some("adjudication"), "{what}"),
    }
    let mut again = start(g).unwrap().1;
    for t in logged_turns(&log, variant.is_sealed(), white_seat) {
        again.play(&parse_turn(&t).unwrap()).unwrap();
    }
    assert_eq!(game.fen(), again.fen(), "{what}: the final position");
}

fn quill(depth: u32) -> String {
    format!("cmd={QUILL} depth={depth}")
}

#[test]
fn every_variant_reads_back_into_the_same_games() {
    let mut total = (0, 0);
    let runs: &[(&str, &str, &[&str])] = &[
        // From the start position (no FEN), sealed.
        (
            "apocalypse-start",
            "apocalypse",
            &["--games", "2", "--opening-turns", "0", "--max-turns", "12"],
        ),
        // FEN openings: the move numbers start at the FEN's.
        (
            "classic",
            "apocalypse-classic",
            &["--games", "2", "--max-turns", "10"],
        ),
        (
            "gladiator",
            "gladiator",
            &["--games", "2", "--max-turns", "9"],
        ),
        // One opening turn: Black moves first (`1...`).
        (
            "brawl-black",
            "brawl",
            &["--games", "2", "--opening-turns", "1", "--max-turns", "9"],
        ),
        // Three opening turns: `2...`.
        (
            "pagan",
            "pagan",
            &["--games", "2", "--opening-turns", "3", "--max-turns", "12"],
        ),
    ];
    for (name, variant, args) in runs {
        let (g, t) = check_match(name, variant, [quill(1), quill(2)], args);
        total.0 += g;
        total.1 += t;
    }
    // Penalties, and a sealed game the rules end: the test double's illegal moves.
    let d = common::misbehave_path().display().to_string();
    let (g, t) = check_match(
        "penalties",
        "apocalypse",
        [
            format!("cmd=\"{d} illegal --at 1\" name=bad"),
            format!("cmd=\"{d} good\" name=good"),
        ],
        &["--games", "2", "--opening-turns", "0"],
    );
    total.0 += g;
    total.1 += t;
    eprintln!("read {} games, {} turns", total.0, total.1);
    assert_eq!(total.0, 12);
}
