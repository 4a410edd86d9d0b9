//! Transcript tests: every fixture and every documented example replayed against the engine,
//! the runner itself checked against a scripted fake engine, and the real binary's stdin/stdout
//! loop, `--log` and `replay` exercised as processes.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use quill::transcript::{
    self, Action, External, Failure, FormatError, InProcess, Logger, Options, Transport,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `path` relative to the crate root, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("transcripts");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Panics with every message in `failures`, if any.
fn report(what: &str, count: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of {count} {what} failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Fixtures and documentation
// ---------------------------------------------------------------------------------------------

#[test]
fn every_fixture_replays_in_process() {
    let files = transcript::find_transcripts(&root().join("fixtures")).unwrap();
    assert!(!files.is_empty(), "no transcripts under fixtures/");
    let mut failures = Vec::new();
    for file in &files {
        let name = shown(file);
        let text = std::fs::read_to_string(file).unwrap();
        let result = transcript::parse(&name, &text)
            .map_err(|e| e.to_string())
            .and_then(|t| transcript::run(&t, &mut InProcess::new()).map_err(|e| e.to_string()));
        if let Err(message) = result {
            failures.push(format!("FAIL - {name}\n{message}"));
        }
    }
    report("fixtures", files.len(), &failures);
}

/// Every Markdown file under `dir`, recursively, sorted.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_doc_transcript_replays_and_matches_its_fixture() {
    let mut failures = Vec::new();
    let mut count = 0;
    let mut documents = markdown_files(&root().join("protocol-docs"));
    // The README's sessions are checked like the specification's.
    documents.push(root().join("README.md"));
    for file in documents {
        let name = shown(&file);
        let markdown = std::fs::read_to_string(&file).unwrap();
        let blocks = match transcript::doc_blocks(&name, &markdown) {
            Ok(blocks) => blocks,
            Err(e) => {
                failures.push(e.to_string());
                continue;
            }
        };
        for block in blocks {
            count += 1;
            let at = format!("{name}:{}", block.line - 1);
            if let Some(fixture) = &block.info {
                let path = root().join("fixtures").join(fixture);
                match std::fs::read_to_string(&path) {
                    Ok(text) if text == block.text => {}
                    Ok(_) => failures.push(format!(
                        "{at}: the block differs from fixtures/{fixture}; make them equal"
                    )),
                    Err(e) => failures.push(format!("{at}: cannot read fixtures/{fixture}: {e}")),
                }
            }
            let result = transcript::parse_at(&name, &block.text, block.line)
                .map_err(|e| e.to_string())
                .and_then(|t| {
                    transcript::run(&t, &mut InProcess::new()).map_err(|e| e.to_string())
                });
            if let Err(message) = result {
                failures.push(format!("{at}: the block fails:\n{message}"));
            }
        }
    }
    assert!(count > 0, "no ```transcript blocks in protocol-docs/");
    report("documented transcripts", count, &failures);
}

#[test]
fn doc_blocks_are_extracted_with_line_numbers() {
    let markdown = "# Title\n\
                    ```transcript\n\
                    > quit\n\
                    @ exit\n\
                    ```\n\
                    ```text\n\
                    > not a transcript\n\
                    ```\n\
                    ```transcripts\n\
                    ```\n\
                    \x20 ```transcript  selftest/x.txt \n\
                    \x20 > a\n\
                    \x20   < b\n\
                    \x20 ```\n";
    let blocks = transcript::doc_blocks("d.md", markdown).unwrap();
    assert_eq!(blocks.len(), 2, "{blocks:?}");
    assert_eq!(blocks[0].line, 3);
    assert_eq!(blocks[0].info, None);
    assert_eq!(blocks[0].text, "> quit\n@ exit\n");
    assert_eq!(blocks[1].line, 12);
    assert_eq!(blocks[1].info.as_deref(), Some("selftest/x.txt"));
    assert_eq!(blocks[1].text, "> a\n  < b\n");

    let error = transcript::doc_blocks("d.md", "text\n```transcript\n> a\n").unwrap_err();
    assert_eq!((error.name.as_str(), error.line), ("d.md", 2));
}

// ---------------------------------------------------------------------------------------------
// The runner, against a scripted fake engine
// ---------------------------------------------------------------------------------------------

/// A fake engine: answers each line it is sent from a script, and records what it was asked.
#[derive(Default)]
struct Script {
    replies: Vec<(&'static str, Vec<&'static str>)>,
    on_eof: Vec<&'static str>,
    quits_on: Option<&'static str>,
    ignores_eof: bool,
    queue: VecDeque<String>,
    exited: bool,
    sent: Vec<String>,
    waits: Vec<Duration>,
}

impl Script {
    fn new() -> Script {
        Script {
            quits_on: Some("quit"),
            ..Script::default()
        }
    }

    fn reply(mut self, line: &'static str, lines: &[&'static str]) -> Script {
        self.replies.push((line, lines.to_vec()));
        self
    }

    fn prints(mut self, lines: &[&'static str]) -> Script {
        self.queue.extend(lines.iter().map(|s| s.to_string()));
        self
    }

    fn run(&mut self, text: &str) -> Result<(), Failure> {
        let t = transcript::parse("t.txt", text).unwrap_or_else(|e| panic!("{e}"));
        transcript::run(&t, self)
    }
}

impl Transport for Script {
    fn send(&mut self, line: &str) -> io::Result<()> {
        self.sent.push(line.to_string());
        if self.exited {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "exited"));
        }
        if let Some((_, lines)) = self.replies.iter().find(|(l, _)| *l == line) {
            self.queue.extend(lines.iter().map(|s| s.to_string()));
        }
        if self.quits_on == Some(line) {
            self.exited = true;
        }
        Ok(())
    }

    fn close_input(&mut self) -> io::Result<()> {
        self.queue.extend(self.on_eof.iter().map(|s| s.to_string()));
        if !self.ignores_eof {
            self.exited = true;
        }
        Ok(())
    }

    fn recv(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        self.waits.push(timeout);
        Ok(self.queue.pop_front())
    }

    fn exited(&mut self, _timeout: Duration) -> io::Result<bool> {
        Ok(self.exited)
    }
}

#[test]
fn exact_expectations_pass() {
    let mut engine = Script::new()
        .reply("uci", &["id name X", "uciok"])
        .reply("isready", &["readyok"]);
    engine
        .run("# a comment\n\n> uci\n< id name X\n< uciok\n> isready\n< readyok\n> quit\n@ exit\n")
        .unwrap();
    assert_eq!(engine.sent, ["uci", "isready", "quit"]);
}

#[test]
fn a_wrong_line_fails_at_its_line() {
    let mut engine = Script::new().reply("isready", &["readyok"]);
    let failure = engine
        .run("# comment\n> isready\n\n< readyOK\n")
        .unwrap_err();
    assert_eq!(failure.name, "t.txt");
    assert_eq!(failure.line, 4);
    assert_eq!(failure.expected, "`< readyOK`");
    assert_eq!(failure.got, "`< readyok`");
    assert_eq!(failure.dialogue, ["> isready", "< readyok"]);
    let message = failure.to_string();
    assert!(
        message.starts_with("t.txt:4: expected `< readyOK`\n"),
        "{message}"
    );
    assert!(message.contains("got `< readyok`"), "{message}");
    assert!(
        message.contains("    > isready\n    < readyok"),
        "{message}"
    );
}

#[test]
fn the_dialogue_keeps_the_last_lines() {
    let mut engine = Script::new().reply("ping", &["pong"]);
    let mut text = String::new();
    for _ in 0..30 {
        text.push_str("> ping\n< pong\n");
    }
    text.push_str("> ping\n< pang\n");
    let failure = engine.run(&text).unwrap_err();
    assert_eq!(failure.line, 62);
    assert_eq!(failure.dialogue.len(), transcript::DIALOGUE_LINES);
    assert_eq!(failure.dialogue.last().unwrap(), "< pong");
}

#[test]
fn regex_expectations_match_whole_lines() {
    let mut engine = Script::new().reply("go", &["info depth 12 score cp 30", "bestmove e2e4"]);
    engine
        .run("> go\n<~ info depth \\d+ score cp -?\\d+\n<~ bestmove [a-h][1-8][a-h][1-8]\n")
        .unwrap();

    let mut engine = Script::new().reply("go", &["info depth 12"]);
    let failure = engine.run("> go\n<~ info depth\n").unwrap_err();
    assert_eq!(failure.line, 2);
    assert_eq!(failure.got, "`< info depth 12`");

    let mut engine = Script::new().reply("go", &["bestmove e2e4"]);
    let failure = engine.run("> go\n<~ e2e4|bestmove\n").unwrap_err();
    assert_eq!(failure.line, 2, "alternation must be anchored as a group");
}

#[test]
fn skips_allow_any_number_of_matching_lines() {
    let text = "> go\n<* info .*\n<~ bestmove \\S+\n";
    Script::new()
        .reply(
            "go",
            &[
                "info depth 1",
                "info depth 2",
                "info depth 3",
                "bestmove e2e4",
            ],
        )
        .run(text)
        .unwrap();
    Script::new()
        .reply("go", &["bestmove e2e4"])
        .run(text)
        .unwrap();

    let failure = Script::new()
        .reply("go", &["info depth 1", "junk", "bestmove e2e4"])
        .run(text)
        .unwrap_err();
    assert_eq!(failure.line, 3);
    assert_eq!(failure.got, "`< junk`");
    assert!(
        failure.expected.contains("`<* info .*`"),
        "{}",
        failure.expected
    );
}

#[test]
fn a_line_matching_the_expectation_ends_a_skip() {
    // The expectation is tried before the skip pattern, so it is not swallowed.
    Script::new()
        .reply("go", &["info depth 1", "info string done", "info depth 2"])
        .run("> go\n<* info .*\n< info string done\n<~ info depth 2\n")
        .unwrap();
    // Once an expectation has matched, the skip is over.
    let failure = Script::new()
        .reply("go", &["info string done", "info depth 2", "bestmove a1a2"])
        .run("> go\n<* info .*\n< info string done\n<~ bestmove .*\n")
        .unwrap_err();
    assert_eq!(
        (failure.line, failure.got.as_str()),
        (4, "`< info depth 2`")
    );
}

#[test]
fn skips_carry_across_sends_and_to_the_end() {
    Script::new()
        .reply("go infinite", &["info depth 1", "info depth 2"])
        .reply("stop", &["info depth 3", "bestmove e2e4"])
        .reply("ping", &["info late"])
        .run("> go infinite\n<* info .*\n> stop\n<~ bestmove .*\n<* info .*\n> ping\n@ quiet\n")
        .unwrap();
}

#[test]
fn silence_fails_after_the_timeout() {
    let mut engine = Script::new();
    let failure = engine.run("> isready\n< readyok\n").unwrap_err();
    assert_eq!(failure.line, 2);
    assert_eq!(failure.got, "no output within 10s");
    assert_eq!(engine.waits, [transcript::DEFAULT_TIMEOUT]);

    let mut engine = Script::new();
    engine
        .run("# timeout: 30\n> isready\n< readyok\n")
        .unwrap_err();
    assert_eq!(engine.waits, [Duration::from_secs(30)]);

    let mut engine = Script::new();
    let t = transcript::parse("t.txt", "> isready\n< readyok\n").unwrap();
    let options = Options {
        timeout: Duration::from_millis(1500),
        ..Options::default()
    };
    transcript::run_with(&t, &mut engine, &options).unwrap_err();
    assert_eq!(engine.waits, [Duration::from_millis(1500)]);
}

#[test]
fn an_idle_session_fails_an_expectation_at_once() {
    // A real session that is idle has nothing to say: waiting would be pointless.
    let t = transcript::parse("t.txt", "< anything\n").unwrap();
    let start = std::time::Instant::now();
    let failure = transcript::run(&t, &mut InProcess::new()).unwrap_err();
    assert_eq!(failure.line, 1);
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn leftover_output_fails_at_the_end() {
    let failure = Script::new()
        .reply("isready", &["readyok", "extra"])
        .run("> isready\n< readyok\n# the end\n")
        .unwrap_err();
    assert_eq!(failure.line, 3, "reported at the last line");
    assert_eq!(failure.got, "`< extra`");

    let mut engine = Script::new();
    engine.on_eof = vec!["bye"];
    let failure = engine.run("> hello\n").unwrap_err();
    assert_eq!(failure.got, "`< bye`");
    assert_eq!(failure.dialogue, ["> hello", "@ eof", "@ exit", "< bye"]);

    let mut engine = Script::new().reply("quit", &["bye"]);
    let failure = engine.run("> quit\n@ exit\n").unwrap_err();
    assert_eq!((failure.line, failure.got.as_str()), (2, "`< bye`"));
    // ... unless the transcript reads it.
    Script::new()
        .reply("quit", &["bye"])
        .run("> quit\n@ exit\n< bye\n")
        .unwrap();
}

#[test]
fn quiet_fails_on_output() {
    let failure = Script::new()
        .prints(&["hello"])
        .run("@ quiet\n> quit\n")
        .unwrap_err();
    assert_eq!((failure.line, failure.got.as_str()), (1, "`< hello`"));
    Script::new()
        .run("@ quiet\n> quit\n@ exit\n@ quiet\n")
        .unwrap();
}

#[test]
fn exit_is_checked() {
    let mut engine = Script::new();
    engine.quits_on = None;
    let failure = engine.run("> quit\n@ exit\n").unwrap_err();
    assert_eq!(failure.line, 2);
    assert!(failure.got.contains("still running"), "{}", failure.got);

    let mut engine = Script::new();
    engine.ignores_eof = true;
    let failure = engine.run("> isready\n\n").unwrap_err();
    assert_eq!(failure.line, 2);
    assert_eq!(
        failure.expected,
        "the engine to exit at the end of the transcript"
    );

    let mut engine = Script::new();
    engine.run("@ eof\n@ exit\n").unwrap();
    assert!(engine.sent.is_empty());
}

#[test]
fn format_errors_name_their_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("> a\nfoo\n", 2, "cannot read line `foo`"),
        (
            "# c\n\n<~ (unclosed\n",
            3,
            "bad regular expression `(unclosed`",
        ),
        ("<* [z-a]\n", 1, "bad regular expression"),
        ("@ stop\n", 1, "unknown directive `@ stop`"),
        ("@eof\n", 1, "cannot read line"),
        (">\tx\n", 1, "cannot read line"),
        ("# timeout: soon\n", 1, "bad timeout `soon`"),
        ("# timeout: 0\n", 1, "bad timeout"),
        ("# timeout: 5\n# timeout: 6\n", 2, "second `# timeout:`"),
        ("> a\n# timeout: 5\n", 2, "before the first step"),
        ("@ eof\n> a\n", 2, "after `@ eof`"),
        ("> quit\n@ exit\n> a\n", 3, "after `@ exit`"),
        ("@ eof\n@ eof\n", 2, "second `@ eof`"),
    ];
    for &(text, line, fragment) in cases {
        let error: FormatError = transcript::parse("bad.txt", text).unwrap_err();
        assert_eq!(error.line, line, "{text:?}: {error}");
        assert!(
            error.message.to_string().contains(fragment),
            "{text:?}: {error}"
        );
        assert!(
            error.to_string().starts_with(&format!("bad.txt:{line}: ")),
            "{error}"
        );
    }
    let error = transcript::parse_at("doc.md", "> a\nnope\n", 40).unwrap_err();
    assert_eq!(error.to_string(), format!("doc.md:41: {}", error.message));
}

#[test]
fn lines_parse_exactly() {
    let t = transcript::parse(
        "t.txt",
        "# timeout: 2.5\r\n>\r\n> \n>  spaced  \n<\n<~ a|b\n<* x\n  \n@ eof \n@ exit\n@ quiet\n",
    )
    .unwrap();
    assert_eq!(t.timeout, Some(Duration::from_millis(2500)));
    assert_eq!(t.end_line, 11);
    let lines: Vec<usize> = t.steps.iter().map(|s| s.line).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 7, 9, 10, 11]);
    let shown: Vec<String> = t.steps.iter().map(|s| s.action.to_string()).collect();
    assert_eq!(
        shown,
        [
            "> ",
            "> ",
            ">  spaced  ",
            "< ",
            "<~ a|b",
            "<* x",
            "@ eof",
            "@ exit",
            "@ quiet"
        ]
    );
    assert!(matches!(&t.steps[2].action, Action::Send(s) if s == " spaced  "));
    assert!(matches!(&t.steps[0].action, Action::Send(s) if s.is_empty()));
}

#[test]
fn logs_are_transcripts() {
    let mut logger = Logger::new(Vec::new()).unwrap();
    logger.input("uci").unwrap();
    logger.output("id name X\nuciok").unwrap();
    logger.input("quit").unwrap();
    logger.eof().unwrap();
    logger.exit().unwrap();
    let text = String::from_utf8(logger.into_inner()).unwrap();
    assert_eq!(
        text,
        format!(
            "{}\n> uci\n< id name X\n< uciok\n> quit\n@ eof\n@ exit\n",
            transcript::LOG_HEADER
        )
    );
    Script::new()
        .reply("uci", &["id name X", "uciok"])
        .run(&text)
        .unwrap();
}

#[test]
fn decode_line_is_lossy_and_strips_line_endings() {
    assert_eq!(transcript::decode_line(b"uci\r\n"), "uci");
    assert_eq!(transcript::decode_line(b"uci\n"), "uci");
    assert_eq!(transcript::decode_line(b"uci"), "uci");
    assert_eq!(transcript::decode_line(b" a b \n"), " a b ");
    assert_eq!(transcript::decode_line(b"\xffx\n"), "\u{fffd}x");
    assert_eq!(transcript::decode_line(b"\r\n"), "");
}

// ---------------------------------------------------------------------------------------------
// The real binary
// ---------------------------------------------------------------------------------------------

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
