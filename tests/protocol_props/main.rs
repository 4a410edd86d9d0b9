//! Properties of the protocol parsers: every command prints to a line that parses back to it,
//! and no input line, however broken, makes a parser panic.

use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

#[path = "../common/props.rs"]
mod props;

use props::{round_trips, square, token, turn, wire_move};
use quill::protocol::OpponentNews;
use quill::protocol::cecp::{self, CecpCommand, ExcludeTarget, Seconds, WireResult};
use quill::protocol::uci::{self, GoParams, PositionStart, UciCommand};
use quill::variant::Side;

mod cases;
mod fuzz;

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

proptest! {
    #[test]
    fn uci_commands_round_trip(cmd in uci_command()) {
        round_trips(cmd, uci::parse)?;
    }

    #[test]
    fn cecp_commands_round_trip(cmd in cecp_command()) {
        round_trips(cmd, cecp::parse)?;
    }

}
