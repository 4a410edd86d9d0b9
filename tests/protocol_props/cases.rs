//! Hand-picked lines: padding and line ends, the words of each dialect, extreme numbers, and
//! CECP commands with arguments, good and broken, with their exact errors.

use quill::geometry::Square;
use quill::notation::{WireMove, WireTurn};
use quill::protocol::cecp::{self, CecpCommand, ExcludeTarget, Seconds};
use quill::protocol::uci::{self, GoParams, UciCommand};
use quill::protocol::{CommandError, OpponentNews};
use quill::variant::Side;

#[test]
fn padding_and_line_ends_do_not_matter() {
    for line in [
        "isready",
        "  isready",
        "isready\r\n",
        "\tisready \r",
        "isready\u{3000}",
    ] {
        assert_eq!(uci::parse(line), Ok(UciCommand::IsReady), "{line:?}");
    }
    for line in ["", "   ", "\r\n", "\t \u{a0}"] {
        assert_eq!(uci::parse(line), Err(CommandError::Empty), "{line:?}");
        assert_eq!(cecp::parse(line), Err(CommandError::Empty), "{line:?}");
    }
}

#[test]
fn dialects_keep_to_their_words() {
    assert_eq!(
        uci::parse("xboard"),
        Err(CommandError::Unknown("xboard".into()))
    );
    assert_eq!(
        uci::parse("e2e4"),
        Err(CommandError::Unknown("e2e4".into()))
    );
    assert_eq!(
        cecp::parse("isready"),
        Err(CommandError::Unknown("isready".into()))
    );
    assert!(matches!(
        cecp::parse("e2e4"),
        Ok(CecpCommand::Move(WireTurn::Single(_)))
    ));
}

#[test]
fn extreme_numbers_round_trip() {
    for cmd in [
        CecpCommand::Time(i64::MIN),
        CecpCommand::Otim(i64::MAX),
        CecpCommand::St(Seconds::from_millis(u64::MAX)),
        CecpCommand::Level {
            mps: u32::MAX,
            base_seconds: u32::MAX,
            inc: Seconds::from_millis(1),
        },
        CecpCommand::Nps(u64::MAX),
    ] {
        assert_eq!(cecp::parse(&cmd.to_string()), Ok(cmd.clone()), "{cmd}");
    }
    let go = GoParams {
        wtime: Some(u64::MAX),
        depth: Some(u32::MAX),
        ..GoParams::default()
    };
    let cmd = UciCommand::Go(go);
    assert_eq!(uci::parse(&cmd.to_string()), Ok(cmd));
}

/// Parses a good CECP line, checking that it prints back to itself.
fn cecp_ok(line: &str) -> CecpCommand {
    let cmd = cecp::parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(cecp::parse(&cmd.to_string()).as_ref(), Ok(&cmd), "{line:?}");
    cmd
}

/// Parses a broken CECP line, giving its error as `command: reason`.
fn cecp_malformed(line: &str) -> String {
    match cecp::parse(line) {
        Err(CommandError::Malformed { command, reason }) => format!("{command}: {reason}"),
        other => panic!("{line:?} gave {other:?}"),
    }
}

/// Parses a whole token as a move.
fn mv(text: &str) -> WireMove {
    quill::notation::parse_move(text).unwrap()
}

/// Broken CECP lines and the errors they give, as `command: reason`.
const CECP_BAD: &[(&str, &str)] = &[
    ("level 40 5", "level: increment needs a number of seconds"),
    (
        "level x 5 0",
        "level: moves per session needs a whole number, got 'x'",
    ),
    (
        "level 40 5:x 0",
        "level: base time needs minutes or minutes:seconds, got '5:x'",
    ),
    (
        "level 40 5 .5",
        "level: increment needs a number of seconds, got '.5'",
    ),
    ("level 40 5 0 1", "level: unexpected '1'"),
    ("st -1", "st: needs a number of seconds, got '-1'"),
    ("time", "time: needs a number of centiseconds"),
    (
        "result 2-0 {}",
        "result: needs 1-0, 0-1, 1/2-1/2 or *, got '2-0'",
    ),
    (
        "result 1-0 {open",
        "result: the comment must be in braces, got '{open'",
    ),
    (
        "result 1-0 bare",
        "result: the comment must be in braces, got 'bare'",
    ),
    ("option =3", "option: needs an option name"),
    ("option", "option: needs an option name"),
    ("protover", "protover: needs a whole number"),
    ("protover two", "protover: needs a whole number, got 'two'"),
    ("sd 3.5", "sd: needs a whole number, got '3.5'"),
    ("cores -2", "cores: needs a whole number, got '-2'"),
    ("ping", "ping: needs an argument"),
    ("ping 1 2", "ping: unexpected '2'"),
    ("accepted", "accepted: needs a feature name"),
    ("usermove e2", "usermove: needs a move, got 'e2'"),
    ("usermove", "usermove: needs a move"),
    ("reveal a2a3", "reveal: needs a move"),
    ("reveal a2a3 b7b6 c2c3", "reveal: unexpected 'c2c3'"),
    (
        "opponent a2a3|b7b6",
        "opponent: needs a move, got 'a2a3|b7b6'",
    ),
    ("lift a1b", "lift: needs a square, got 'a1b'"),
    ("put A1", "put: needs a square, got 'A1'"),
    ("exclude none", "exclude: needs 'all' or a move, got 'none'"),
    ("sealed w", "sealed: needs white or black, got 'w'"),
    ("setboard", "setboard: needs a position"),
    ("name \t", "name: needs a name"),
    ("a2a3 a7a6", "a2a3: unexpected 'a7a6'"),
];

#[test]
fn broken_cecp_lines_are_malformed() {
    for (line, error) in CECP_BAD {
        assert_eq!(cecp_malformed(line), *error);
    }
}

#[test]
fn cecp_commands_with_arguments() {
    use CecpCommand as C;
    assert_eq!(cecp_ok("protover 2"), C::Protover(2));
    assert_eq!(cecp_ok("accepted usermove"), C::Accepted("usermove".into()));
    assert_eq!(cecp_ok("rejected sigint"), C::Rejected("sigint".into()));
    assert_eq!(
        cecp_ok("variant apocalypse"),
        C::Variant("apocalypse".into())
    );
    assert_eq!(cecp_ok("sd 12"), C::Sd(12));
    assert_eq!(cecp_ok("nps 5000"), C::Nps(5000));
    assert_eq!(cecp_ok("time -150"), C::Time(-150));
    assert_eq!(cecp_ok("otim 6000"), C::Otim(6000));
    assert_eq!(cecp_ok("ping 17"), C::Ping("17".into()));
    assert_eq!(cecp_ok("memory 256"), C::Memory(256));
    assert_eq!(cecp_ok("cores 4"), C::Cores(4));
    assert_eq!(cecp_ok("perft 3"), C::Perft(3));
    assert_eq!(
        cecp_ok("setboard 8/8  w - -"),
        C::SetBoard("8/8  w - -".into())
    );
    assert_eq!(cecp_ok("name Deep Thought"), C::Name("Deep Thought".into()));
    assert_eq!(cecp_ok("rating 2100 1900"), C::Rating("2100 1900".into()));
    assert_eq!(cecp_ok("ics -"), C::Ics("-".into()));
    assert_eq!(
        cecp_ok("egtpath syzygy /tb"),
        C::EgtPath("syzygy /tb".into())
    );
    assert_eq!(cecp_ok("sealed black"), C::Sealed(Side::Black));
    assert_eq!(
        cecp_ok("reveal a2a3 0000"),
        C::Reveal(mv("a2a3"), WireMove::Pass)
    );
    assert_eq!(
        cecp_ok("opponent d4d5,d5b3"),
        C::Opponent(OpponentNews::Move(mv("d4d5,d5b3")))
    );
    assert_eq!(cecp_ok("lift p16"), C::Lift(Square::new(15, 16)));
    assert_eq!(cecp_ok("put a1"), C::Put(Square::new(0, 1)));
    assert_eq!(cecp_ok("hover c10"), C::Hover(Square::new(2, 10)));
    assert_eq!(cecp_ok("exclude all"), C::Exclude(ExcludeTarget::All));
    assert_eq!(
        cecp_ok("include c8c7g"),
        C::Include(ExcludeTarget::Move(mv("c8c7g")))
    );
    assert_eq!(
        cecp_ok("usermove a2a3|e4e3"),
        C::UserMove(WireTurn::Joint(mv("a2a3"), mv("e4e3")))
    );
    assert_eq!(cecp_ok("b1c3"), C::Move(WireTurn::Single(mv("b1c3"))));
    assert_eq!(
        cecp_ok("0000|b5c3"),
        C::Move(WireTurn::Joint(WireMove::Pass, mv("b5c3")))
    );
}
