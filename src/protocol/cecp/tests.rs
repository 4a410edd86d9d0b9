//! Parsing and printing of every CECP command, and the refusals' texts.

use super::*;
use CecpCommand as C;

fn ok(line: &str) -> CecpCommand {
    let cmd = parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(
        parse(&cmd.to_string()).as_ref(),
        Ok(&cmd),
        "{line:?} reprinted"
    );
    cmd
}

fn malformed(line: &str) -> String {
    match parse(line) {
        Err(CommandError::Malformed { command, reason }) => format!("{command}: {reason}"),
        other => panic!("{line:?} gave {other:?}"),
    }
}

#[test]
fn simple_commands() {
    let table = [
        ("xboard", C::Xboard),
        ("new", C::New),
        ("quit", C::Quit),
        ("random", C::Random),
        ("force", C::Force),
        ("go", C::Go),
        ("playother", C::PlayOther),
        ("?", C::MoveNow),
        ("draw", C::Draw),
        ("hint", C::Hint),
        ("bk", C::Bk),
        ("undo", C::Undo),
        ("remove", C::Remove),
        ("hard", C::Hard),
        ("easy", C::Easy),
        ("post", C::Post),
        ("nopost", C::NoPost),
        ("analyze", C::Analyze),
        ("exit", C::Exit),
        (".", C::Dot),
        ("computer", C::Computer),
        ("d", C::Display),
    ];
    for (line, cmd) in table {
        assert_eq!(ok(&format!(" {line}\r\n")), cmd);
        assert_eq!(cmd.to_string(), line);
        assert_eq!(
            malformed(&format!("{line} junk")),
            format!("{line}: unexpected 'junk'")
        );
    }
    assert_eq!(parse("   "), Err(CommandError::Empty));
    assert_eq!(parse("fly away"), Err(CommandError::Unknown("fly".into())));
}

#[test]
fn times() {
    let level = |mps, base_seconds, millis| C::Level {
        mps,
        base_seconds,
        inc: Seconds::from_millis(millis),
    };
    assert_eq!(ok("level 40 5 0"), level(40, 300, 0));
    assert_eq!(ok("level 0 2:30 0.5"), level(0, 150, 500));
    assert_eq!(ok("level 0 0:05 12.25"), level(0, 5, 12250));
    assert_eq!(level(0, 5, 12250).to_string(), "level 0 0:05 12.25");
    assert_eq!(level(1, 3600, 2000).to_string(), "level 1 60:00 2");
    assert_eq!(ok("st 0.0019"), C::St(Seconds::from_millis(1)));
    assert_eq!(ok("st 30"), C::St(Seconds::from_millis(30_000)));
}

#[test]
fn results_and_options() {
    let result = |result, comment: &str| C::Result {
        result,
        comment: comment.into(),
    };
    assert_eq!(
        ok("result 1-0 {White mates}"),
        result(WireResult::WhiteWins, "White mates")
    );
    assert_eq!(
        ok("result 0-1 { x } y }"),
        result(WireResult::BlackWins, " x } y ")
    );
    assert_eq!(ok("result 1/2-1/2 {}"), result(WireResult::Draw, ""));
    assert_eq!(ok("result *"), result(WireResult::Unknown, ""));
    let option = |name: &str, value: Option<&str>| C::Option {
        name: name.into(),
        value: value.map(Into::into),
    };
    assert_eq!(ok("option Hash Size=64"), option("Hash Size", Some("64")));
    assert_eq!(ok("option Path = /a=b"), option("Path", Some("/a=b")));
    assert_eq!(ok("option Path="), option("Path", Some("")));
    assert_eq!(ok("option Clear Hash"), option("Clear Hash", None));
}

#[test]
fn bad_arguments() {
    let table = [
        ("sd x", "sd: needs a whole number, got 'x'"),
        ("sd -1", "sd: needs a whole number, got '-1'"),
        ("st abc", "st: needs a number of seconds, got 'abc'"),
        (
            "level 40",
            "level: base time needs minutes or minutes:seconds",
        ),
        (
            "level 40 5:99 0",
            "level: base time needs minutes or minutes:seconds, got '5:99'",
        ),
        ("time x", "time: needs a number of centiseconds, got 'x'"),
        ("ping", "ping: needs an argument"),
        ("ping 1 2", "ping: unexpected '2'"),
        ("usermove zz", "usermove: needs a move, got 'zz'"),
        (
            "sealed purple",
            "sealed: needs white or black, got 'purple'",
        ),
        ("perft", "perft: needs a whole number"),
        ("memory x", "memory: needs a whole number, got 'x'"),
        ("setboard", "setboard: needs a position"),
        ("option", "option: needs an option name"),
        (
            "result 2-0",
            "result: needs 1-0, 0-1, 1/2-1/2 or *, got '2-0'",
        ),
        ("reveal a2a3", "reveal: needs a move"),
    ];
    for (line, reason) in table {
        assert_eq!(malformed(line), reason, "{line:?}");
    }
}

#[test]
fn every_bare_command_has_a_word_that_reads_back() {
    for (word, command) in &BARE {
        assert_eq!(parse(word).as_ref(), Ok(command), "{word}");
        assert_eq!(command.to_string(), *word);
    }
    // The table names each command once.
    for (i, (_, c)) in BARE.iter().enumerate() {
        assert!(BARE[i + 1..].iter().all(|(_, d)| d != c), "{c:?} twice");
    }
}
