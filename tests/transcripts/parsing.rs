//! The transcript text: its format errors name their line, lines parse exactly, logs are
//! transcripts and raw lines decode lossily.

use super::*;

use std::time::Duration;

use quill::transcript::{self, Action, FormatError, Logger};

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
