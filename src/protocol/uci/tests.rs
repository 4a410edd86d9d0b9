//! Parsing and printing of every UCI command, and the refusals' texts.

use super::*;
use crate::geometry::Square;
use crate::notation::{WireMove, parse_move};
use crate::variant::Side;

fn malformed(line: &str) -> String {
    match parse(line) {
        Err(CommandError::Malformed { command, reason }) => format!("{command}: {reason}"),
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn mv(text: &str) -> WireMove {
    parse_move(text).unwrap()
}

#[test]
fn simple_commands() {
    assert_eq!(parse("uci"), Ok(UciCommand::Uci));
    assert_eq!(parse("  isready\r\n"), Ok(UciCommand::IsReady));
    assert_eq!(parse("ucinewgame"), Ok(UciCommand::UciNewGame));
    assert_eq!(parse("stop"), Ok(UciCommand::Stop));
    assert_eq!(parse("ponderhit"), Ok(UciCommand::PonderHit));
    assert_eq!(parse("quit"), Ok(UciCommand::Quit));
    assert_eq!(parse("d"), Ok(UciCommand::Display));
    assert_eq!(parse("debug on"), Ok(UciCommand::Debug(true)));
    assert_eq!(parse("debug\toff"), Ok(UciCommand::Debug(false)));
    assert_eq!(
        parse("opponent a10b11"),
        Ok(UciCommand::Opponent(OpponentNews::Move(mv("a10b11"))))
    );
    assert_eq!(
        parse("register later"),
        Ok(UciCommand::Register("later".into()))
    );
    assert_eq!(parse("register"), Ok(UciCommand::Register(String::new())));
}

#[test]
fn bad_simple_commands() {
    assert_eq!(parse(""), Err(CommandError::Empty));
    assert_eq!(parse(" \t\r\n"), Err(CommandError::Empty));
    assert_eq!(parse("foo bar"), Err(CommandError::Unknown("foo".into())));
    assert_eq!(parse("UCI"), Err(CommandError::Unknown("UCI".into())));
    assert_eq!(malformed("isready now"), "isready: unexpected 'now'");
    assert_eq!(malformed("debug"), "debug: needs on or off");
    assert_eq!(
        malformed("debug maybe"),
        "debug: needs on or off, got 'maybe'"
    );
    assert_eq!(malformed("opponent"), "opponent: needs a move");
    assert_eq!(malformed("opponent xyz"), "opponent: 'xyz' is not a move");
    assert_eq!(
        malformed("opponent a2a3|a7a6"),
        "opponent: 'a2a3|a7a6' is not a move"
    );
    assert_eq!(
        malformed("opponent a2a3 a7a6"),
        "opponent: unexpected 'a7a6'"
    );
}

#[test]
fn setoption_names_and_values_may_hold_spaces() {
    let set = |name: &str, value: Option<&str>| UciCommand::SetOption {
        name: name.into(),
        value: value.map(Into::into),
    };
    assert_eq!(
        parse("setoption name Hash value 64"),
        Ok(set("Hash", Some("64")))
    );
    assert_eq!(
        parse("setoption name Clear  Hash"),
        Ok(set("Clear  Hash", None))
    );
    assert_eq!(
        parse("setoption name Book File value C:\\my  books\\a value b.bin"),
        Ok(set("Book File", Some("C:\\my  books\\a value b.bin")))
    );
    assert_eq!(
        parse("setoption name Path value"),
        Ok(set("Path", Some("")))
    );
    assert_eq!(malformed("setoption"), "setoption: needs 'name'");
    assert_eq!(
        malformed("setoption Hash value 1"),
        "setoption: needs 'name', got 'Hash'"
    );
    assert_eq!(
        malformed("setoption name"),
        "setoption: needs an option name"
    );
    assert_eq!(
        malformed("setoption name value 3"),
        "setoption: needs an option name"
    );
}

#[test]
fn positions() {
    let a2a3 = WireTurn::Single(mv("a2a3"));
    assert_eq!(
        parse("position startpos"),
        Ok(UciCommand::Position {
            start: PositionStart::StartPos,
            moves: vec![]
        })
    );
    assert_eq!(
        parse("position startpos moves"),
        Ok(UciCommand::Position {
            start: PositionStart::StartPos,
            moves: vec![]
        })
    );
    assert_eq!(
        parse("position startpos moves a2a3 b1c3|0000"),
        Ok(UciCommand::Position {
            start: PositionStart::StartPos,
            moves: vec![a2a3, WireTurn::Joint(mv("b1c3"), WireMove::Pass)],
        })
    );
    assert_eq!(
        parse("position fen  8/8 \t w - 0  moves"),
        Ok(UciCommand::Position {
            start: PositionStart::Fen("8/8 w - 0".into()),
            moves: vec![]
        })
    );
    assert_eq!(malformed("position"), "position: needs startpos or fen");
    assert_eq!(
        malformed("position moves a2a3"),
        "position: needs startpos or fen, got 'moves'"
    );
    assert_eq!(malformed("position fen"), "position: fen needs a position");
    assert_eq!(
        malformed("position fen moves a2a3"),
        "position: fen needs a position"
    );
    assert_eq!(
        malformed("position startpos a2a3"),
        "position: expected 'moves', got 'a2a3'"
    );
    assert_eq!(
        malformed("position startpos moves a2a3 xyz"),
        "position: 'xyz' is not a move"
    );
}

#[test]
fn go_parameters_in_any_order() {
    let go = parse("go movestogo 5 wtime -300 btime 1000 winc 10 binc 0 depth 7 ponder").unwrap();
    let expected = GoParams {
        movestogo: Some(5),
        wtime: Some(0),
        btime: Some(1000),
        winc: Some(10),
        binc: Some(0),
        depth: Some(7),
        ponder: true,
        ..GoParams::default()
    };
    assert_eq!(go, UciCommand::Go(expected));
    assert_eq!(parse("go"), Ok(UciCommand::Go(GoParams::default())));
    let go = parse("go searchmoves a2a3 c7c6,c6c8g infinite sealed b perft 3").unwrap();
    let expected = GoParams {
        searchmoves: vec![mv("a2a3"), mv("c7c6,c6c8g")],
        infinite: true,
        sealed: Some(Side::Black),
        perft: Some(3),
        ..GoParams::default()
    };
    assert_eq!(go, UciCommand::Go(expected));
    let go = parse("go nodes 100 mate 3 movetime 2000").unwrap();
    assert_eq!(go.to_string(), "go nodes 100 mate 3 movetime 2000");
}

#[test]
fn bad_go_parameters() {
    assert_eq!(
        malformed("go depth x"),
        "go: depth needs a whole number, got 'x'"
    );
    assert_eq!(malformed("go depth"), "go: depth needs a whole number");
    assert_eq!(
        malformed("go depth -1"),
        "go: depth needs a whole number, got '-1'"
    );
    assert_eq!(
        malformed("go winc -1"),
        "go: winc needs a whole number, got '-1'"
    );
    assert_eq!(
        malformed("go wtime -"),
        "go: wtime needs a whole number, got '-'"
    );
    assert_eq!(
        malformed("go depth 99999999999"),
        "go: depth needs a whole number, got '99999999999'"
    );
    assert_eq!(malformed("go depth 3 depth 4"), "go: depth given twice");
    assert_eq!(
        malformed("go infinite infinite"),
        "go: infinite given twice"
    );
    assert_eq!(malformed("go fast"), "go: unknown parameter 'fast'");
    assert_eq!(
        malformed("go searchmoves"),
        "go: searchmoves needs at least one move"
    );
    assert_eq!(
        malformed("go searchmoves a2a3 zz"),
        "go: 'zz' is not a move"
    );
    assert_eq!(malformed("go sealed"), "go: sealed needs w or b");
    assert_eq!(
        malformed("go sealed white"),
        "go: sealed needs w or b, got 'white'"
    );
}

#[test]
fn printing_is_canonical() {
    let cmd = UciCommand::Position {
        start: PositionStart::Fen("x/y w".into()),
        moves: vec![WireTurn::Single(WireMove::simple(
            Square::new(0, 1),
            Square::new(0, 2),
        ))],
    };
    assert_eq!(cmd.to_string(), "position fen x/y w moves a1a2");
    let cmd = UciCommand::SetOption {
        name: "A b".into(),
        value: Some(String::new()),
    };
    assert_eq!(cmd.to_string(), "setoption name A b value");
    assert_eq!(parse(&cmd.to_string()), Ok(cmd));
}
