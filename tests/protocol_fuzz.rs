//! A protocol fuzzer over the whole engine: the real binary, both dialects, every variant, with
//! commands mutated and cut, random bytes, lines past the input bound, and commands that arrive
//! while a search or perft runs. After every batch the test synchronises (`isready`, `ping`) and
//! checks what the engine promises (`protocol-docs/README.md`, "Bounds"; `uci.md`, "Every go
//! ends in exactly one bestmove"):
//!
//! - it is alive and answers the synchronisation;
//! - every line it printed is clean: not empty, no control character, at most 4096 bytes;
//! - in UCI, every `go` got exactly one `bestmove` (a `go … perft` none).
//!
//! The run is deterministic for a seed. `QUILL_FUZZ_LINES` (default 30,000 a dialect) and
//! `QUILL_FUZZ_SEED` set its size and seed; a person runs a long campaign with, say,
//! `QUILL_FUZZ_LINES=10000000 cargo test --release --test protocol_fuzz -- --nocapture`.

mod common;

use std::io::Write;
use std::time::{Duration, Instant};

use quill::rng::Rng;
use quill::session::{MAX_INPUT_LINE, MAX_OUTPUT_LINE};

const VARIANTS: [&str; 5] = [
    "apocalypse",
    "apocalypse-classic",
    "gladiator",
    "brawl",
    "pagan",
];

/// Commands that reach deep into each dialect; `{v}` stands for a variant.
const UCI: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption name UCI_Variant value {v}",
    "setoption name SealedCommit value true",
    "setoption name SealedCommit value false",
    "setoption name Seed value 7",
    "setoption name Hash value 1",
    "setoption name Threads value 1",
    "setoption name MultiPV value 2",
    "setoption name Clear Hash",
    "position startpos",
    "position startpos moves a2a3|e4e3 b1c3|d5c3",
    "position startpos moves c2c7,h1h2 f7f2,a8h8",
    "position startpos moves g10f10 a8b8",
    "position fen 5/2p2/5/1P3/N4 w - - 0 1",
    "position fen 2N2/5/4p/2NnP/2n2 w - - 0 19 0/0",
    "position fen 7/7/7/7/7/*******/*******/*5*/*5*/*2W2*/*k1K1A* w - - 0 1",
    "go",
    "go depth 1",
    "go depth 2",
    "go movetime 5",
    "go nodes 500",
    "go mate 1",
    "go infinite",
    "go ponder",
    "go wtime 100 btime 100 winc 5 binc 5",
    "go wtime 18446744073709551615 btime 1 movestogo 1 depth 1",
    "go sealed w depth 1",
    "go sealed b depth 2",
    "go sealed w movetime 5",
    "go sealed b infinite",
    "go sealed w mate 2",
    "go perft 2",
    "go perft 40",
    "go searchmoves a2a3 depth 1",
    "stop",
    "ponderhit",
    "opponent a2a3",
    "opponent 0000",
    "d",
    "debug on",
];

const CECP: &[&str] = &[
    "protover 2",
    "accepted sealed",
    "rejected sealed",
    "accepted turns",
    "new",
    "variant {v}",
    "force",
    "go",
    "playother",
    "sealed white",
    "sealed black",
    "reveal a2a3 e4e3",
    "usermove a2a3|e4e3",
    "usermove c2c7",
    "usermove @@@@",
    "usermove h1h2",
    "usermove c2c7,h1h2",
    "usermove g10f10",
    "usermove N@h3",
    "setboard 5/2p2/5/1P3/N4 w - - 0 1",
    "setboard 7/7/7/7/7/*******/*******/*5*/*5*/*2W2*/*k1K1A* w - - 0 1",
    "undo",
    "remove",
    "?",
    "post",
    "nopost",
    "analyze",
    ".",
    "exit",
    "hint",
    "sd 2",
    "st 0.01",
    "level 0 0:01 0",
    "time 100",
    "otim 100",
    "time 99999999999999999",
    "memory 1",
    "option SealedCommit=1",
    "option SealedCommit=0",
    "option Seed=3",
    "opponent a2a3",
    "lift b1",
    "lift c2",
    "put c3",
    "exclude all",
    "include all",
    "perft 2",
    "perft 40",
    "result 1-0 {x}",
    "d",
];

/// One fuzz line from a dialect's command list: as is, mutated, or noise.
fn line(rng: &mut Rng, commands: &[&str]) -> Vec<u8> {
    fn pick<'a>(rng: &mut Rng, list: &[&'a str]) -> &'a str {
        list[rng.below(list.len() as u64) as usize]
    }
    let variant = pick(rng, &VARIANTS);
    let command = pick(rng, commands).replace("{v}", variant);
    let mut bytes = command.into_bytes();
    match rng.below(20) {
        0..=9 => {}
        10 => bytes.truncate(rng.below(bytes.len() as u64 + 1) as usize),
        11 => {
            // Another command's words appended.
            bytes.push(b' ');
            bytes.extend_from_slice(pick(rng, commands).as_bytes());
        }
        12 => {
            let i = rng.below(bytes.len() as u64 + 1) as usize;
            bytes.insert(i, rng.below(256) as u8);
        }
        13 => {
            let at = rng.below(bytes.len().max(1) as u64) as usize;
            if let Some(b) = bytes.get_mut(at) {
                *b ^= 1 << rng.below(8);
            }
        }
        14 => bytes = (0..rng.below(40)).map(|_| rng.below(256) as u8).collect(),
        15 => {
            // A number at the edge of every integer type.
            let edges = [
                "0",
                "-1",
                "4294967296",
                "18446744073709551616",
                "1e308",
                "NaN",
            ];
            bytes.push(b' ');
            bytes.extend_from_slice(pick(rng, &edges).as_bytes());
        }
        16 => bytes.extend(std::iter::repeat_n(b'x', rng.below(5000) as usize)),
        17 => bytes = "\u{feff}é\u{200b}ß漢\u{fffd}".as_bytes().to_vec(),
        18 if rng.below(50) == 0 => {
            // Past the input bound (rarely: it is big).
            bytes.extend(std::iter::repeat_n(b'y', MAX_INPUT_LINE + 10));
        }
        _ => bytes.extend_from_slice(b" \t  "),
    }
    // Embedded newlines split the line, as they would on the wire.
    bytes
}

/// Whether a line sent in UCI is a `go` that must end in one bestmove, read the way the
/// engine reads it (whitespace-separated words after a trim).
fn wants_bestmove(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    text.lines().any(|l| {
        let mut words = l.split_whitespace();
        words.next() == Some("go") && !words.any(|w| w == "perft")
    })
}

/// How many `readyok`s a line sent in UCI asks for.
fn readies(line: &[u8]) -> usize {
    String::from_utf8_lossy(line)
        .lines()
        .filter(|l| l.split_whitespace().eq(["isready"]))
        .count()
}

/// Whether a line would end the session.
fn quits(line: &[u8]) -> bool {
    String::from_utf8_lossy(line)
        .lines()
        .any(|l| l.split_whitespace().next() == Some("quit"))
}

type Engine = common::Quill;

/// What a run found.
#[derive(Default)]
struct Tally {
    lines_sent: u64,
    lines_read: u64,
    worst_sync: Duration,
}

/// Reads until `marker` (a whole line) has come `times` times, checking each line on the way; returns the count of
/// `bestmove` lines seen, and the lines.
fn drain_until(
    engine: &Engine,
    (marker, mut times): (&str, usize),
    tally: &mut Tally,
    context: &str,
) -> (u64, Vec<String>) {
    let started = Instant::now();
    let mut bestmoves = 0;
    let mut seen = Vec::new();
    loop {
        let line = engine
            .lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no '{marker}' within 60 s after {context}"));
        tally.lines_read += 1;
        let line = line
            .strip_suffix('\n')
            .unwrap_or_else(|| panic!("a line without its newline: {line:?}"));
        assert!(!line.trim().is_empty(), "a blank line after {context}");
        assert!(
            !line.chars().any(char::is_control),
            "a control character in {line:?} after {context}"
        );
        assert!(
            line.len() <= MAX_OUTPUT_LINE,
            "a line of {} bytes after {context}",
            line.len()
        );
        if line.starts_with("bestmove ") {
            bestmoves += 1;
        }
        seen.push(line.chars().take(100).collect());
        if line == marker {
            times -= 1;
        }
        if times == 0 {
            tally.worst_sync = tally.worst_sync.max(started.elapsed());
            return (bestmoves, seen);
        }
    }
}

fn fuzz(cecp: bool, seed: u64, count: u64) -> Tally {
    let mut rng = Rng::new(seed);
    let mut engine = common::spawn_quill(&[]);
    let mut tally = Tally::default();
    let commands = if cecp { CECP } else { UCI };
    let first: &[u8] = if cecp { b"xboard\n" } else { b"uci\n" };
    engine.stdin.write_all(first).unwrap();
    let mut pending_go = 0u64;
    let mut isready = 0usize;
    let mut batch = Vec::new();
    let mut sync = 0u64;
    while tally.lines_sent < count {
        batch.clear();
        let mut recent = Vec::new();
        for _ in 0..rng.below(40) + 1 {
            let line = line(&mut rng, commands);
            if quits(&line) {
                continue;
            }
            // A line past the bound is dropped unread: it asks for nothing.
            let read = line.len() < MAX_INPUT_LINE;
            if !cecp && read && wants_bestmove(&line) {
                pending_go += 1;
            }
            if !cecp && read {
                isready += readies(&line);
            }
            batch.extend_from_slice(&line);
            batch.push(b'\n');
            recent.push(
                String::from_utf8_lossy(&line)
                    .chars()
                    .take(80)
                    .collect::<String>(),
            );
            tally.lines_sent += 1;
        }
        sync += 1;
        let context = format!("the batch {recent:?}");
        if cecp {
            batch.extend_from_slice(format!("ping {sync}\n").as_bytes());
        } else {
            // `stop` releases a held bestmove, `opponent` opens a commitment (else it is an
            // error), and isready comes after both.
            batch.extend_from_slice(b"stop\nopponent 0000\nisready\n");
        }
        engine
            .stdin
            .write_all(&batch)
            .unwrap_or_else(|e| panic!("the engine stopped reading ({e}) after {context}"));
        engine.stdin.flush().unwrap();
        let marker = if cecp {
            format!("pong {sync}")
        } else {
            "readyok".to_string()
        };
        let times = if cecp {
            1
        } else {
            std::mem::take(&mut isready) + 1
        };
        let (bestmoves, seen) = drain_until(&engine, (&marker, times), &mut tally, &context);
        if !cecp {
            assert_eq!(
                bestmoves, pending_go,
                "{pending_go} go commands but {bestmoves} bestmoves after {context}; the engine \
                 said {seen:#?}"
            );
            pending_go = 0;
        }
    }
    engine.stdin.write_all(b"quit\n").unwrap();
    let status = engine.child.wait().unwrap();
    assert!(status.success(), "exit status {status}");
    tally
}

fn settings() -> (u64, u64) {
    let count = std::env::var("QUILL_FUZZ_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30_000);
    let seed = std::env::var("QUILL_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20261201);
    (count, seed)
}

#[test]
fn uci_survives_the_fuzzer_and_answers_every_go() {
    let (count, seed) = settings();
    let t = fuzz(false, seed, count);
    eprintln!(
        "uci fuzz: {} lines sent, {} read, slowest sync {:?}",
        t.lines_sent, t.lines_read, t.worst_sync
    );
}

#[test]
fn cecp_survives_the_fuzzer() {
    let (count, seed) = settings();
    let t = fuzz(true, seed ^ 0x5eed, count);
    eprintln!(
        "cecp fuzz: {} lines sent, {} read, slowest sync {:?}",
        t.lines_sent, t.lines_read, t.worst_sync
    );
}

#[test]
fn the_go_counter_reads_lines_as_the_engine_does() {
    assert!(wants_bestmove(b"go depth 1"));
    assert!(wants_bestmove(b"  go\t"));
    assert!(wants_bestmove(b"go depth x"));
    assert!(!wants_bestmove(b"go perft 2"));
    assert!(!wants_bestmove(b"go depth 1 perft 2"));
    assert!(!wants_bestmove(b"gox"));
    assert!(!wants_bestmove(b"position startpos go"));
    assert_eq!(readies(b" isready "), 1);
    assert_eq!(readies(b"isready -1"), 0);
    assert!(quits(b"quit"));
    assert!(quits(b" quit now"));
    assert!(!quits(b"quitter"));
}
