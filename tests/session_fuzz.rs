//! Arbitrary input never panics or hangs the session, and a refused command changes nothing.

use std::sync::mpsc::channel;

use proptest::prelude::*;
use quill::session::{Input, Session};

fn session() -> Session {
    Session::new(channel().0)
}

/// Feeds lines and returns everything printed.
fn feed(session: &mut Session, lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        out.extend(session.handle(Input::Line(line.clone())));
    }
    out
}

/// Words and fragments that reach deep into both dialects.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("uci".to_string()),
        Just("xboard".to_string()),
        Just("protover 2".to_string()),
        Just("accepted sealed".to_string()),
        Just("position startpos moves".to_string()),
        Just("position fen".to_string()),
        Just("go".to_string()),
        Just("go sealed w".to_string()),
        Just("go sealed b infinite".to_string()),
        Just("go perft 2".to_string()),
        Just("stop".to_string()),
        Just("usermove".to_string()),
        Just("reveal".to_string()),
        Just("sealed white".to_string()),
        Just("setboard".to_string()),
        Just("variant apocalypse-classic".to_string()),
        Just("variant gladiator".to_string()),
        Just("variant brawl".to_string()),
        Just("variant pagan".to_string()),
        Just("setoption name UCI_Variant value gladiator".to_string()),
        Just("setoption name UCI_Variant value brawl".to_string()),
        Just("setoption name UCI_Variant value pagan".to_string()),
        Just("go depth 2".to_string()),
        Just("go movetime 5".to_string()),
        Just("playother".to_string()),
        Just("@@@@".to_string()),
        "[A-Z]@[a-h][1-8]",
        Just("setoption name SealedCommit value true".to_string()),
        Just("option SealedCommit=1".to_string()),
        Just("opponent".to_string()),
        Just("force".to_string()),
        Just("undo".to_string()),
        Just("remove".to_string()),
        Just("lift".to_string()),
        Just("d".to_string()),
        "[a-f][0-9]{1,2}[a-f][0-9]{1,2}(,[a-f][0-9][a-f][0-9])?(\\|[a-f][0-9][a-f][0-9])?",
        "[a-h][1-8][a-h][1-8](,[a-h][1-8][a-h][1-8]){0,3}[wagp]?",
        "0000",
        "[npNP1-5/]{1,30}",
        "\\PC{0,12}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(fragment(), 1..5).prop_map(|parts| parts.join(" ")),
        any::<String>(),
        prop::collection::vec(any::<u8>(), 0..40)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_sessions_never_panic(lines in prop::collection::vec(line(), 1..30)) {
        let mut s = session();
        let out = feed(&mut s, &lines);
        // Protocol output is one line per entry: no embedded newlines, no blank lines.
        for l in &out {
            prop_assert!(!l.contains('\n') && !l.trim().is_empty(), "bad output line {l:?}");
        }
        s.handle(Input::Eof);
        prop_assert!(s.is_finished());
    }

    #[test]
    fn refused_uci_commands_change_nothing(prefix in prop::collection::vec(line(), 0..6), bad in line()) {
        let mut s = session();
        feed(&mut s, &[String::from("uci")]);
        feed(&mut s, &prefix);
        if s.is_finished() || s.dialect() != quill::session::Dialect::Uci {
            return Ok(());
        }
        let before = (s.core().game().clone(), s.core().history().to_vec());
        let out = feed(&mut s, std::slice::from_ref(&bad));
        let refused = out.iter().any(|l| l.starts_with("info string error:"));
        if refused {
            prop_assert_eq!(&before.0, s.core().game(), "refused {:?} changed the position", bad);
            prop_assert_eq!(&before.1[..], s.core().history());
        }
    }

    #[test]
    fn refused_cecp_commands_change_nothing(prefix in prop::collection::vec(line(), 0..6), bad in line()) {
        let mut s = session();
        feed(&mut s, &["xboard".to_string(), "protover 2".to_string(), "accepted sealed".to_string()]);
        feed(&mut s, &prefix);
        if s.is_finished() {
            return Ok(());
        }
        let before = (s.core().game().clone(), s.core().history().to_vec());
        let out = feed(&mut s, std::slice::from_ref(&bad));
        let refused = out.iter().any(|l| l.starts_with("Error") || l.starts_with("Illegal move"));
        if refused {
            prop_assert_eq!(&before.0, s.core().game(), "refused {:?} changed the position", bad);
            prop_assert_eq!(&before.1[..], s.core().history());
        }
    }
}

#[test]
fn a_refused_position_keeps_the_previous_one() {
    let mut s = session();
    feed(&mut s, &["position startpos moves a2a3|e4e3".to_string()]);
    let before = s.core().game().fen();
    let out = feed(
        &mut s,
        &["position startpos moves a2a3|e4e3 b1b2|c5c4,c4c3,c3c2".to_string()],
    );
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("info string error:"), "{out:?}");
    assert_eq!(s.core().game().fen(), before);
    assert_eq!(s.core().history().len(), 1);
}

#[test]
fn end_of_input_finishes_the_session_in_both_dialects() {
    for first in ["uci", "xboard"] {
        let mut s = session();
        feed(&mut s, &[first.to_string()]);
        assert!(!s.is_finished());
        assert!(s.handle(Input::Eof).is_empty());
        assert!(s.is_finished());
    }
}
