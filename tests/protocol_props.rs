//! Properties of the protocol parsers: every command prints to a line that parses back to it,
//! and no input line, however broken, makes a parser panic.

use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

#[path = "common/props.rs"]
mod props;

use props::{reads_back, round_trips, square, token, turn, wire_move};
use quill::geometry::Square;
use quill::notation::{WireMove, WireTurn};
use quill::protocol::cecp::{self, CecpCommand, ExcludeTarget, Seconds, WireResult};
use quill::protocol::uci::{self, GoParams, PositionStart, UciCommand};
use quill::protocol::{CommandError, OpponentNews};
use quill::variant::Side;

/// Passes and moves of one to three legs, with or without a promotion letter.
fn opponent_news() -> impl Strategy<Value = OpponentNews> {
    prop_oneof![
        wire_move(false).prop_map(OpponentNews::Move),
        "[0-9a-f]{64}".prop_map(OpponentNews::Commitment),
    ]
}

/// Either side.
fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

/// Words made of letters, digits and some punctuation, joined by single spaces.
fn words(avoid: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec(
        "[A-Za-z0-9_/.:-]{1,8}".prop_filter("reserved word", move |w| w != avoid),
        1..5,
    )
    .prop_map(|words| words.join(" "))
}

/// Free text: printable ASCII with inner runs of spaces, no surrounding space, non-empty.
fn text() -> impl Strategy<Value = String> {
    "[!-~]([ -~]{0,20}[!-~])?"
}

/// Any `go` parameters: every field independently present or absent.
fn go_params() -> impl Strategy<Value = GoParams> {
    let times = (
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
    );
    let limits = (
        option::of(any::<u32>()),
        option::of(any::<u32>()),
        option::of(any::<u64>()),
        option::of(any::<u32>()),
        option::of(any::<u32>()),
    );
    let rest = (
        prop::collection::vec(wire_move(false), 0..4),
        any::<bool>(),
        any::<bool>(),
        option::of(side()),
    );
    (times, limits, rest).prop_map(
        |(
            (wtime, btime, winc, binc, movetime),
            (movestogo, depth, nodes, mate, perft),
            (searchmoves, ponder, infinite, sealed),
        )| GoParams {
            searchmoves,
            ponder,
            wtime,
            btime,
            winc,
            binc,
            movestogo,
            depth,
            nodes,
            mate,
            movetime,
            infinite,
            perft,
            sealed,
        },
    )
}

/// Any UCI command.
fn uci_command() -> impl Strategy<Value = UciCommand> {
    let start = prop_oneof![
        Just(PositionStart::StartPos),
        words("moves").prop_map(PositionStart::Fen),
    ];
    let set_option = (
        words("value"),
        option::of(prop_oneof![Just(String::new()), text()]),
    )
        .prop_map(|(name, value)| UciCommand::SetOption { name, value });
    prop_oneof![
        Just(UciCommand::Uci),
        any::<bool>().prop_map(UciCommand::Debug),
        Just(UciCommand::IsReady),
        set_option,
        prop_oneof![Just(String::new()), text()].prop_map(UciCommand::Register),
        Just(UciCommand::UciNewGame),
        (start, prop::collection::vec(turn(false), 0..6))
            .prop_map(|(start, moves)| UciCommand::Position { start, moves }),
        go_params().prop_map(UciCommand::Go),
        Just(UciCommand::Stop),
        Just(UciCommand::PonderHit),
        Just(UciCommand::Quit),
        Just(UciCommand::Display),
        opponent_news().prop_map(UciCommand::Opponent),
    ]
}

/// Durations, mostly small ones.
fn seconds() -> impl Strategy<Value = Seconds> {
    prop_oneof![0u64..100_000, any::<u64>()].prop_map(Seconds::from_millis)
}

/// Any CECP command.
fn cecp_command() -> impl Strategy<Value = CecpCommand> {
    use CecpCommand as C;
    let fixed = select(vec![
        C::Xboard,
        C::New,
        C::Quit,
        C::Random,
        C::Force,
        C::Go,
        C::PlayOther,
        C::MoveNow,
        C::Draw,
        C::Hint,
        C::Bk,
        C::Undo,
        C::Remove,
        C::Hard,
        C::Easy,
        C::Post,
        C::NoPost,
        C::Analyze,
        C::Exit,
        C::Dot,
        C::Computer,
        C::Display,
    ]);
    let result = select(vec![
        WireResult::WhiteWins,
        WireResult::BlackWins,
        WireResult::Draw,
        WireResult::Unknown,
    ]);
    let target = prop_oneof![
        Just(ExcludeTarget::All),
        wire_move(false).prop_map(ExcludeTarget::Move)
    ];
    let option_value = prop_oneof![Just(String::new()), text()];
    let numbers = prop_oneof![
        any::<u32>().prop_map(C::Protover),
        any::<u32>().prop_map(C::Sd),
        any::<u64>().prop_map(C::Nps),
        any::<i64>().prop_map(C::Time),
        any::<i64>().prop_map(C::Otim),
        any::<u64>().prop_map(C::Memory),
        any::<u32>().prop_map(C::Cores),
        any::<u32>().prop_map(C::Perft),
    ];
    let texts = prop_oneof![
        token().prop_map(C::Accepted),
        token().prop_map(C::Rejected),
        token().prop_map(C::Variant),
        token().prop_map(C::Ping),
        text().prop_map(C::SetBoard),
        text().prop_map(C::Name),
        text().prop_map(C::Rating),
        text().prop_map(C::Ics),
        text().prop_map(C::EgtPath),
    ];
    let squares = prop_oneof![
        square().prop_map(C::Lift),
        square().prop_map(C::Put),
        square().prop_map(C::Hover),
    ];
    let moves = prop_oneof![
        turn(false).prop_map(C::UserMove),
        turn(false).prop_map(C::Move),
        (wire_move(false), wire_move(false)).prop_map(|(w, b)| C::Reveal(w, b)),
        opponent_news().prop_map(C::Opponent),
        target.clone().prop_map(C::Exclude),
        target.prop_map(C::Include),
        side().prop_map(C::Sealed),
    ];
    let times = prop_oneof![
        (
            any::<u32>(),
            prop_oneof![0u32..7200, any::<u32>()],
            seconds()
        )
            .prop_map(|(mps, base_seconds, inc)| C::Level {
                mps,
                base_seconds,
                inc
            }),
        seconds().prop_map(C::St),
    ];
    let others = prop_oneof![
        (result, ".*").prop_map(|(result, comment)| C::Result { result, comment }),
        (words(""), option::of(option_value)).prop_map(|(name, value)| C::Option { name, value }),
    ];
    prop_oneof![
        2 => fixed,
        2 => numbers,
        2 => texts,
        1 => squares,
        3 => moves,
        2 => times,
        2 => others,
    ]
}

/// Every UCI command word, for fuzzing the argument parsers.
const UCI_WORDS: [&str; 13] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "opponent",
];

/// Every CECP command word taking arguments, for fuzzing the argument parsers.
const CECP_WORDS: [&str; 30] = [
    "protover", "accepted", "rejected", "variant", "level", "st", "sd", "nps", "time", "otim",
    "usermove", "ping", "result", "setboard", "name", "rating", "ics", "memory", "cores",
    "egtpath", "option", "exclude", "include", "lift", "put", "hover", "sealed", "reveal",
    "opponent", "perft",
];

/// Fragments that steer fuzzed argument lists into the interesting branches.
const FRAGMENTS: [&str; 30] = [
    "1-0",
    "white",
    "40",
    "infinite",
    "e2e4,e4e5q",
    "{x}",
    "name",
    "value",
    "moves",
    "startpos",
    "fen",
    "searchmoves",
    "wtime",
    "depth",
    "sealed",
    "w",
    "-5",
    "0",
    "18446744073709551616",
    "a2a3",
    "b1c3|0000",
    "p16",
    "all",
    "{",
    "}",
    "=",
    "1:30",
    "0.5",
    "\t",
    "\u{a0}",
];

/// Parses a line with both parsers; whatever parses must print back to itself.
fn check_both(line: &str) -> Result<(), TestCaseError> {
    reads_back("uci", line, uci::parse)?;
    reads_back("cecp", line, cecp::parse)
}

/// Lines made of a command word and fragments, random tokens and random separators.
fn steered_line(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => select(&FRAGMENTS[..]).prop_map(String::from),
        1 => "\\PC{0,6}",
        1 => ".{0,4}",
    ];
    let separator = select(vec![" ", " ", " ", "  ", "\t", " \r ", ""]);
    (
        select(words),
        prop::collection::vec((separator, piece), 0..6),
    )
        .prop_map(|(word, rest)| {
            let mut line = String::from(word);
            for (sep, piece) in rest {
                line.push_str(sep);
                line.push_str(&piece);
            }
            line
        })
}

/// Valid lines of both dialects with one token dropped, replaced or duplicated.
fn mutated_line() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        uci_command().prop_map(|c| c.to_string()),
        cecp_command().prop_map(|c| c.to_string()),
    ];
    let fragment = select(&FRAGMENTS[..]);
    (line, any::<prop::sample::Index>(), 0..3u8, fragment).prop_map(|(line, at, how, fragment)| {
        let mut tokens: Vec<&str> = line.split(' ').collect();
        let i = at.index(tokens.len());
        match how {
            0 => {
                tokens.remove(i);
            }
            1 => tokens[i] = fragment,
            _ => tokens.insert(i, tokens[i]),
        }
        tokens.join(" ")
    })
}

proptest! {
    #[test]
    fn uci_commands_round_trip(cmd in uci_command()) {
        round_trips(cmd, uci::parse)?;
    }

    #[test]
    fn cecp_commands_round_trip(cmd in cecp_command()) {
        round_trips(cmd, cecp::parse)?;
    }

    #[test]
    fn arbitrary_strings_never_panic(line in any::<String>()) {
        check_both(&line)?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        check_both(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn steered_uci_lines_never_panic(line in steered_line(&UCI_WORDS)) {
        check_both(&line)?;
    }

    #[test]
    fn mutated_lines_never_panic(line in mutated_line()) {
        check_both(&line)?;
    }

    #[test]
    fn steered_cecp_lines_never_panic(line in steered_line(&CECP_WORDS)) {
        check_both(&line)?;
    }
}

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
