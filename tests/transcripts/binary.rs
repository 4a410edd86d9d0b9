//! The real binary: replaying a fixture externally, `--log` and its replay, bad bytes, the
//! `replay` subcommand's report and exit code, and a quiet stderr.

use super::*;

use std::io::Write;
use std::process::{Command, Stdio};

use quill::transcript::{self, External, InProcess};

fn quill() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quill"))
}

#[test]
fn the_binary_replays_a_fixture_externally() {
    for fixture in ["quit.txt", "eof.txt", "empty.txt", "doc-example.txt"] {
        let path = root().join("fixtures/selftest").join(fixture);
        let t = transcript::load(&path).unwrap();
        let mut engine = External::new(quill()).unwrap();
        transcript::run(&t, &mut engine).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn external_failures_are_reported() {
    let t = transcript::parse("t.txt", "# timeout: 5\n@ eof\n< something\n").unwrap();
    let mut engine = External::new(quill()).unwrap();
    let failure = transcript::run(&t, &mut engine).unwrap_err();
    assert_eq!((failure.line, failure.got.as_str()), (3, "end of output"));

    let t = transcript::parse("t.txt", "> x\n@ exit\n").unwrap();
    let mut engine = External::spawn("read line; exit 3").unwrap();
    let failure = transcript::run(&t, &mut engine).unwrap_err();
    assert_eq!(failure.line, 2);
    assert!(failure.got.contains("exit status: 3"), "{failure}");

    let t = transcript::parse("t.txt", "> x\n> y\n< y\n").unwrap();
    let mut engine = External::spawn("cat").unwrap();
    let failure = transcript::run(&t, &mut engine).unwrap_err();
    assert_eq!((failure.line, failure.got.as_str()), (3, "`< x`"));
    let t = transcript::parse("t.txt", "> x\n> y\n<* x\n< y\n").unwrap();
    let mut engine = External::spawn("cat").unwrap();
    transcript::run(&t, &mut engine).unwrap();
}

/// Runs the engine with `--log`, feeding it `input`; returns the log.
fn logged_run(name: &str, input: &[u8]) -> String {
    let log = scratch(name);
    let mut child = quill()
        .arg("--log")
        .arg(&log)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{:?}", output.status);
    std::fs::read_to_string(&log).unwrap()
}

#[test]
fn the_log_replays() {
    let text = logged_run("quit.log", b"quit\n");
    assert_eq!(
        text,
        format!("{}\n> quit\n@ exit\n", transcript::LOG_HEADER)
    );
    let t = transcript::parse("quit.log", &text).unwrap();
    transcript::run(&t, &mut InProcess::new()).unwrap_or_else(|e| panic!("{e}"));
    let mut engine = External::new(quill()).unwrap();
    transcript::run(&t, &mut engine).unwrap_or_else(|e| panic!("{e}"));

    let text = logged_run("eof.log", b"");
    assert_eq!(text, format!("{}\n@ eof\n@ exit\n", transcript::LOG_HEADER));
}

#[test]
fn bad_bytes_and_crlf_are_read_and_logged() {
    // Whatever the engine answers to a line of garbage, it must not crash, and the log of the
    // dialogue must replay.
    let text = logged_run("garbage.log", b"\xff\xfe garbage\r\nquit\r\n");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "> \u{fffd}\u{fffd} garbage");
    assert!(lines.contains(&"> quit"), "{text}");
    assert_eq!(lines.last(), Some(&"@ exit"));
    let t = transcript::parse("garbage.log", &text).unwrap();
    transcript::run(&t, &mut InProcess::new()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_replay_subcommand_reports_and_sets_its_exit_code() {
    let output = quill()
        .current_dir(root())
        .args(["replay", "fixtures/selftest"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    let count = transcript::find_transcripts(&root().join("fixtures/selftest"))
        .unwrap()
        .len();
    assert!(
        stdout.contains("ok   - fixtures/selftest/doc-example.txt\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!("{count} passed, 0 failed\n")),
        "{stdout}"
    );

    let bad = scratch("bad.txt");
    std::fs::write(&bad, "@ eof\n< never\n").unwrap();
    let malformed = scratch("malformed.txt");
    std::fs::write(&malformed, "hello\n").unwrap();
    let engine = format!("'{}'", env!("CARGO_BIN_EXE_quill"));
    let output = quill()
        .current_dir(root())
        .args(["replay", "--timeout", "5", "--engine", &engine])
        .arg("fixtures/selftest/quit.txt")
        .arg(&bad)
        .arg(&malformed)
        .arg("fixtures/no-such-file.txt")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with("ok   - fixtures/selftest/quit.txt\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "FAIL - {}\n    {}:2: expected `< never`",
            bad.display(),
            bad.display()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{}:1: cannot read line", malformed.display())),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAIL - fixtures/no-such-file.txt\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 3 failed\n"), "{stdout}");
}

#[test]
fn engine_mode_prints_nothing_on_stderr_by_default() {
    let output = quill()
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
