//! Input that is not a command at all, sent to the real binary: a byte-order mark, control
//! characters, invalid UTF-8, lines far beyond the bound, and floods. The engine must answer
//! each with a clean line (no control character, no echo longer than the documented bound),
//! keep its memory flat, and go on (`protocol-docs/README.md`, "Bounds").

mod common;

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;
use std::thread;
use std::time::Duration;

use quill::session::{MAX_INPUT_LINE, MAX_OUTPUT_LINE};

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let common::Quill {
            child,
            stdin,
            lines,
        } = common::spawn_quill_lines(&[]);
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that equals `last`.
    fn until(&mut self, last: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no '{last}' after {seen:?}"));
            let done = line == last;
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// The engine's peak resident memory so far, in KiB (Linux).
    fn peak_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    fn quit(mut self) {
        self.write(b"quit\n");
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

fn assert_clean(lines: &[String]) {
    for line in lines {
        assert!(
            !line.chars().any(char::is_control),
            "a control character in {line:?}"
        );
        assert!(
            line.len() <= MAX_OUTPUT_LINE,
            "a line of {} bytes",
            line.len()
        );
    }
}

#[test]
fn a_byte_order_mark_before_the_first_command_is_ignored() {
    let mut uci = Engine::start();
    uci.write("\u{feff}uci\n".as_bytes());
    let lines = uci.until("uciok");
    assert!(lines[0].starts_with("id name Quill"), "{lines:?}");
    uci.quit();

    let mut cecp = Engine::start();
    cecp.write("\u{feff}xboard\nprotover 2\nping 7\n".as_bytes());
    let lines = cecp.until("pong 7");
    assert!(
        lines.iter().any(|l| l == "feature done=1"),
        "the BOM hid 'xboard': {lines:?}"
    );
    cecp.quit();
}

#[test]
fn control_characters_and_bad_bytes_are_never_echoed_raw() {
    let mut e = Engine::start();
    e.write(b"uci\n");
    e.until("uciok");
    e.write(b"foo\x1b[31mbar\x00\x07\n");
    e.write(b"setoption name Seed value \x1b]0;x\x07\n");
    let mut bad = vec![0xffu8; 1_000_000];
    bad.push(b'\n');
    e.write(&bad);
    e.write(b"isready\n");
    let lines = e.until("readyok");
    assert_clean(&lines);
    assert_eq!(
        lines[0], "info string error: unknown command 'foo\\x1b[31mbar\\x00\\x07'",
        "{lines:?}"
    );
    assert!(lines[1].contains("\\x1b]0;x\\x07"), "{lines:?}");
    assert!(
        lines[2].ends_with(" bytes cut]"),
        "the long echo is cut: {}",
        &lines[2][..80]
    );
    e.quit();

    let mut x = Engine::start();
    x.write(b"xboard\nprotover 2\n\x1b[2Jhello\nping 1\n");
    let lines = x.until("pong 1");
    assert_clean(&lines);
    assert!(
        lines
            .iter()
            .any(|l| l == "Error (unknown command): \\x1b[2Jhello"),
        "{lines:?}"
    );
    x.quit();
}

#[test]
fn a_line_beyond_the_bound_is_dropped_unread_and_memory_stays_flat() {
    let mut e = Engine::start();
    e.write(b"uci\n");
    e.until("uciok");
    let before = e.peak_kib();
    // 100 MB without a newline until the end: the engine must not hold it.
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..100 {
        e.write(&chunk);
    }
    e.write(b"\nisready\n");
    let lines = e.until("readyok");
    assert_eq!(
        lines[0],
        format!(
            "info string error: a line of {} bytes is longer than the maximum {MAX_INPUT_LINE}; ignored",
            100 * (1 << 20) + 1
        )
    );
    // A line just within the bound is read as a command (and refused as one).
    let mut long = b"position fen ".to_vec();
    long.resize(MAX_INPUT_LINE - 1, b'x');
    long.push(b'\n');
    e.write(&long);
    e.write(b"isready\n");
    let lines = e.until("readyok");
    assert!(
        lines[0].starts_with("info string error: position refused: bad FEN"),
        "{}",
        &lines[0][..80.min(lines[0].len())]
    );
    if let (Some(before), Some(after)) = (before, e.peak_kib()) {
        assert!(
            after < before + 64 * 1024,
            "peak memory grew from {before} KiB to {after} KiB"
        );
    }
    e.quit();
}

#[test]
fn a_flood_of_short_lines_keeps_memory_flat() {
    let mut e = Engine::start();
    e.write(b"uci\n");
    e.until("uciok");
    let before = e.peak_kib();
    // Written from another thread while this one drains the answers, as a real pipe would.
    let mut stdin = e.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        let flood = b"foo\n".repeat(250_000);
        for _ in 0..4 {
            stdin.write_all(&flood).unwrap();
        }
        stdin.write_all(b"isready\n").unwrap();
        stdin
    });
    let mut count = 0;
    loop {
        let line = e
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("answers");
        if line == "readyok" {
            break;
        }
        assert_eq!(line, "info string error: unknown command 'foo'");
        count += 1;
    }
    assert_eq!(count, 1_000_000, "every line is answered, none lost");
    e.stdin = Some(writer.join().unwrap());
    if let (Some(before), Some(after)) = (before, e.peak_kib()) {
        assert!(
            after < before + 64 * 1024,
            "peak memory grew from {before} KiB to {after} KiB"
        );
    }
    e.quit();
}
