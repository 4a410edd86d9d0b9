//! Printing and reading back the engine's lines.

use super::*;
use crate::protocol::CommandError;

fn mv(text: &str) -> WireMove {
    parse_move(text).unwrap()
}

#[test]
fn quill_lines_read_back() {
    let line = "feature myname=\"Quill 0.1.0\" sealed=1 done=0";
    let parsed = parse_engine_line(line).unwrap();
    assert_eq!(
        parsed,
        EngineLine::Feature(vec![
            Feature::quoted("myname", "Quill 0.1.0"),
            Feature::bare("sealed", 1),
            Feature::bare("done", 0),
        ])
    );
    assert_eq!(parsed.to_string(), line);
    assert_eq!(
        parse_engine_line("12 -35 100 5000 e2e4 e7e5"),
        Ok(EngineLine::Thinking(Thinking {
            depth: 12,
            score: -35,
            time: 100,
            nodes: 5000,
            pv: Pv::Turns(vec![
                WireTurn::Single(mv("e2e4")),
                WireTurn::Single(mv("e7e5"))
            ]),
        }))
    );
    let Ok(EngineLine::Thinking(t)) = parse_engine_line("3. 10 1 99 e4 Nf3") else {
        panic!("SAN thinking")
    };
    assert_eq!(t.pv, Pv::Text("e4 Nf3".into()));
    assert_eq!(
        parse_engine_line("0-1 {White resigns}"),
        Ok(EngineLine::Result {
            result: WireResult::BlackWins,
            comment: Some("White resigns".into())
        })
    );
    assert_eq!(
        parse_engine_line("Illegal move (no such piece): e2e5"),
        Ok(EngineLine::IllegalMove {
            reason: Some("no such piece".into()),
            mv: "e2e5".into()
        })
    );
    assert_eq!(
        parse_engine_line("Error (unknown command): foo"),
        Ok(EngineLine::Error {
            kind: "unknown command".into(),
            command: "foo".into()
        })
    );
    assert_eq!(
        parse_engine_line("# strategy a1b3:1.0000"),
        Ok(EngineLine::Strategy(vec![(mv("a1b3"), 1.0)]))
    );
    assert_eq!(
        parse_engine_line("move @@@@"),
        Ok(EngineLine::Move(CecpMove::Null))
    );
}

#[test]
fn broken_lines_are_refused() {
    for line in [
        "move",
        "move zz",
        "feature",
        "feature a",
        "feature a=\"b",
        "feature a=\"b\"c=1",
        "Illegal move",
        "Illegal move (x) e2e4",
        "Error foo",
        "1-0 White wins",
        "12 x 1 1 e2e4",
        "12 1 1",
        "stat01: 1 2 3",
        "pong",
        "reveal a1a2",
    ] {
        assert!(
            matches!(parse_engine_line(line), Err(CommandError::Malformed { .. })),
            "{line}: {:?}",
            parse_engine_line(line)
        );
    }
    assert_eq!(
        parse_engine_line("moves"),
        Err(CommandError::Unknown("moves".into()))
    );
}
