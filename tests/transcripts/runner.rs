//! The runner, against the scripted fake engine: exact and regex expectations, skips, silence,
//! leftover output, quiet and exit.

use super::*;

use std::time::Duration;

use quill::transcript::{self, InProcess, Options};

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
