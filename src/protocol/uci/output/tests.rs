//! Printing and reading back the engine's lines.

use super::*;
use crate::notation::WireTurn;
use crate::player::Score;

fn mv(text: &str) -> WireMove {
    parse_move(text).unwrap()
}

#[test]
fn quill_lines_read_back() {
    let info =
        parse_engine_line("info depth 2 score cp -15 nodes 40 time 3 pv a1b3|e5d3 b3a5|d3e1")
            .unwrap();
    let EngineLine::Info(info) = info else {
        panic!("{info:?}")
    };
    assert_eq!(info.depth, Some(2));
    assert_eq!(
        info.score,
        Some(InfoScore {
            value: Score::Cp(-15),
            bound: None
        })
    );
    assert_eq!(info.pv.len(), 2);
    assert_eq!(info.pv[0], WireTurn::Joint(mv("a1b3"), mv("e5d3")));
    assert_eq!(
        parse_engine_line("bestmove (none)"),
        Ok(EngineLine::BestMove {
            mv: None,
            ponder: None
        })
    );
    assert_eq!(
        parse_engine_line("info string strategy a1b3:0.2500 b1b2:0.7500"),
        Ok(EngineLine::Strategy(vec![
            (mv("a1b3"), 0.25),
            (mv("b1b2"), 0.75)
        ]))
    );
    assert_eq!(
        parse_engine_line("info string strategy a1b3:0.25"),
        Ok(EngineLine::InfoString("strategy a1b3:0.25".into()))
    );
    assert_eq!(
        parse_engine_line("info string error: unknown option 'x'"),
        Ok(EngineLine::Error("unknown option 'x'".into()))
    );
}

#[test]
fn options_of_other_engines_read() {
    let line = "option name Debug Log File type string default ";
    assert_eq!(
        parse_engine_line(line),
        Ok(EngineLine::Option(UciOption {
            name: "Debug Log File".into(),
            kind: OptionKind::Text {
                default: String::new()
            }
        }))
    );
    let line = "option name UCI_Variant type combo default chess var chess var 3check";
    let Ok(EngineLine::Option(o)) = parse_engine_line(line) else {
        panic!("{line}")
    };
    assert_eq!(
        o.kind,
        OptionKind::Combo {
            default: "chess".into(),
            vars: vec!["chess".into(), "3check".into()]
        }
    );
    assert_eq!(o.to_string(), line);
    let line = "info depth 1 seldepth 1 multipv 1 score mate -2 upperbound nodes 20 nps 1000 \
                tbhits 0 time 2 pv a2a3 P@b4";
    let parsed = parse_engine_line(line).unwrap();
    assert_eq!(parsed.to_string(), line);
}

#[test]
fn broken_lines_are_refused() {
    for line in [
        "bestmove",
        "bestmove e2e4 ponderx e7e5",
        "bestmove zz",
        "info depth x",
        "info depth 1 depth 2",
        "info score cp",
        "info pv",
        "info frobs 3",
        "option name type spin",
        "option name Hash type spin default 1 min 1",
        "id",
        "id nick Q",
        "uciok now",
    ] {
        assert!(
            matches!(parse_engine_line(line), Err(CommandError::Malformed { .. })),
            "{line}"
        );
    }
    assert_eq!(parse_engine_line(""), Err(CommandError::Empty));
    assert_eq!(
        parse_engine_line("bestmoves e2e4"),
        Err(CommandError::Unknown("bestmoves".into()))
    );
}
