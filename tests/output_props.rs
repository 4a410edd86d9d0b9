//! Properties of the engine-output parsers (`protocol::uci::EngineLine`,
//! `protocol::cecp::EngineLine`): every line an engine can print parses back to the value it
//! was printed from, and no input line, however broken, makes a parser panic.

use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

#[path = "common/props.rs"]
mod props;

use props::{reads_back, round_trips, token, turn, wire_move};
use quill::notation::{WireMove, WireTurn, parse_turn};
use quill::player::Score;
use quill::protocol::cecp::{self, CecpMove, Feature, FeatureValue, Pv, Thinking, WireResult};
use quill::protocol::uci::{self, Info, InfoScore, OptionKind, ScoreBound, UciOption};

/// Free text: printable ASCII with inner runs of spaces, no surrounding space, non-empty.
fn text() -> impl Strategy<Value = String> {
    "[!-~]([ -~]{0,20}[!-~])?"
}

/// Free text that does not start with any of `prefixes`.
fn text_not_starting(prefixes: &'static [&'static str]) -> impl Strategy<Value = String> {
    text().prop_filter("reserved start", move |t| {
        !prefixes.iter().any(|p| t.starts_with(p))
    })
}

/// Words of letters, digits and some punctuation, joined by single spaces, never `avoid`.
fn words(avoid: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec(
        "[A-Za-z0-9_/.:<>-]{1,8}".prop_filter("reserved word", move |w| w != avoid),
        1..5,
    )
    .prop_map(|words| words.join(" "))
}

/// A mixed strategy: moves with probabilities that have four decimals.
fn strategy() -> impl Strategy<Value = Vec<(WireMove, f64)>> {
    prop::collection::vec(
        (wire_move(true), 0u32..=10_000).prop_map(|(m, k)| (m, f64::from(k) / 10_000.0)),
        1..4,
    )
}

/// Hexadecimal digests and nonces.
fn hex() -> impl Strategy<Value = String> {
    "[0-9a-f]{1,64}"
}

fn option_kind() -> impl Strategy<Value = OptionKind> {
    prop_oneof![
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        (any::<i64>(), any::<i64>(), any::<i64>())
            .prop_map(|(default, min, max)| OptionKind::Spin { default, min, max }),
        (words("var"), prop::collection::vec(words("var"), 0..4))
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        Just(OptionKind::Button),
        prop_oneof![Just(String::new()), text()]
            .prop_filter("the empty marker", |t| t != "<empty>")
            .prop_map(|default| OptionKind::Text { default }),
    ]
}

fn info_score() -> impl Strategy<Value = InfoScore> {
    let value = prop_oneof![
        any::<i32>().prop_map(Score::Cp),
        any::<i32>().prop_map(Score::Mate)
    ];
    let bound = option::of(prop_oneof![
        Just(ScoreBound::Lower),
        Just(ScoreBound::Upper)
    ]);
    (value, bound).prop_map(|(value, bound)| InfoScore { value, bound })
}

fn info() -> impl Strategy<Value = Info> {
    let small = (
        option::of(any::<u32>()),
        option::of(any::<u32>()),
        option::of(any::<u32>()),
        option::of(any::<u32>()),
        option::of(any::<u32>()),
    );
    let big = (
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
    );
    let rest = (
        option::of(info_score()),
        option::of(wire_move(true)),
        prop::collection::vec(turn(true), 0..4),
        option::of(text()),
    );
    (small, big, rest)
        .prop_map(
            |(
                (depth, seldepth, multipv, hashfull, currmovenumber),
                (nodes, nps, tbhits, time),
                (score, currmove, pv, string),
            )| Info {
                depth,
                seldepth,
                multipv,
                score,
                nodes,
                nps,
                hashfull,
                tbhits,
                time,
                currmove,
                currmovenumber,
                pv,
                string,
            },
        )
        // `info string X` alone is an info string line, not figures.
        .prop_filter("figures", |i| {
            i.string.is_none()
                || *i
                    != Info {
                        string: i.string.clone(),
                        ..Info::default()
                    }
        })
}

/// Any line a UCI engine prints.
fn uci_line() -> impl Strategy<Value = uci::EngineLine> {
    use uci::EngineLine as L;
    prop_oneof![
        text().prop_map(L::IdName),
        text().prop_map(L::IdAuthor),
        (words("type"), option_kind()).prop_map(|(name, kind)| L::Option(UciOption { name, kind })),
        Just(L::UciOk),
        Just(L::ReadyOk),
        (option::of(wire_move(true)), option::of(wire_move(true)))
            .prop_map(|(mv, ponder)| L::BestMove { mv, ponder }),
        info().prop_map(L::Info),
        text().prop_map(L::Error),
        hex().prop_map(L::Commit),
        (wire_move(true), hex()).prop_map(|(mv, nonce)| L::Reveal { mv, nonce }),
        strategy().prop_map(L::Strategy),
        text_not_starting(&["error: ", "commit ", "reveal ", "strategy "]).prop_map(L::InfoString),
        token().prop_map(L::CopyProtection),
        token().prop_map(L::Registration),
    ]
}

fn feature() -> impl Strategy<Value = Feature> {
    let value = prop_oneof![
        "[ !#-~]{0,12}".prop_map(FeatureValue::Quoted),
        "[!#-~]{1,8}".prop_map(FeatureValue::Bare),
    ];
    ("[a-z]{1,8}", value).prop_map(|(name, value)| Feature { name, value })
}

fn pv() -> impl Strategy<Value = Pv> {
    prop_oneof![
        prop::collection::vec(turn(true), 0..4).prop_map(Pv::Turns),
        text()
            .prop_filter("reads as turns", |t| {
                let turns: Option<Vec<WireTurn>> = t.split_whitespace().map(parse_turn).collect();
                turns.is_none_or(|turns| Pv::Turns(turns).to_string() != *t)
            })
            .prop_map(Pv::Text),
    ]
}

/// Any line a CECP engine prints.
fn cecp_line() -> impl Strategy<Value = cecp::EngineLine> {
    use cecp::EngineLine as L;
    let result = select(vec![
        WireResult::WhiteWins,
        WireResult::BlackWins,
        WireResult::Draw,
        WireResult::Unknown,
    ]);
    let thinking = (any::<u32>(), any::<i64>(), any::<u64>(), any::<u64>(), pv()).prop_map(
        |(depth, score, time, nodes, pv)| {
            L::Thinking(Thinking {
                depth,
                score,
                time,
                nodes,
                pv,
            })
        },
    );
    let stat01 = (
        any::<u64>(),
        any::<u64>(),
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
    )
        .prop_map(|(time, nodes, depth, left, total)| L::Stat01 {
            time,
            nodes,
            depth,
            left,
            total,
        });
    prop_oneof![
        prop::collection::vec(feature(), 1..5).prop_map(L::Feature),
        prop_oneof![
            Just(CecpMove::Null),
            wire_move(true).prop_map(CecpMove::Wire)
        ]
        .prop_map(L::Move),
        (option::of(text()), token()).prop_map(|(reason, mv)| L::IllegalMove { reason, mv }),
        (
            text().prop_filter("the separator", |k| !k.contains("): ")),
            text()
        )
            .prop_map(|(kind, command)| L::Error { kind, command }),
        text().prop_map(L::TellUserError),
        text().prop_map(L::TellUser),
        (result, option::of("[ -|~]{0,20}"))
            .prop_map(|(result, comment)| L::Result { result, comment }),
        Just(L::Resign),
        thinking,
        stat01,
        token().prop_map(L::Pong),
        hex().prop_map(L::Commit),
        (wire_move(true), hex()).prop_map(|(mv, nonce)| L::Reveal { mv, nonce }),
        strategy().prop_map(L::Strategy),
        text_not_starting(&["strategy "]).prop_map(L::Comment),
        wire_move(true).prop_map(L::Hint),
        text().prop_map(L::Setup),
        text().prop_map(L::Piece),
        text().prop_map(L::Highlight),
    ]
}

/// Fragments that steer fuzzed lines into the interesting branches.
const FRAGMENTS: [&str; 24] = [
    "info",
    "string",
    "bestmove",
    "ponder",
    "(none)",
    "score",
    "cp",
    "mate",
    "lowerbound",
    "pv",
    "option",
    "name",
    "type",
    "spin",
    "default",
    "var",
    "feature",
    "a=\"b c\"",
    "move",
    "Illegal",
    "(x):",
    "1-0",
    "{y}",
    "12",
];

/// Parses a line with both output parsers; whatever parses must print to a line that parses
/// to the same value.
fn check_both(line: &str) -> Result<(), TestCaseError> {
    reads_back("uci", line, uci::parse_engine_line)?;
    reads_back("cecp", line, cecp::parse_engine_line)
}

proptest! {
    #[test]
    fn uci_lines_round_trip(l in uci_line()) {
        round_trips(l, uci::parse_engine_line)?;
    }

    #[test]
    fn cecp_lines_round_trip(l in cecp_line()) {
        round_trips(l, cecp::parse_engine_line)?;
    }

    #[test]
    fn arbitrary_strings_never_panic(line in any::<String>()) {
        check_both(&line)?;
    }

    #[test]
    fn steered_lines_never_panic(
        parts in prop::collection::vec(
            prop_oneof![4 => select(&FRAGMENTS[..]).prop_map(String::from), 1 => ".{0,4}"],
            0..8,
        )
    ) {
        check_both(&parts.join(" "))?;
    }
}

#[test]
fn quill_s_own_lines_read_as_what_they_are() {
    // Lines from the fixtures, typed by hand: a change to the printer or the parser that
    // reads them differently fails here.
    let line = "info depth 2 score cp 0 nodes 57 time 0 pv a1b3|e5d3 b3a5|d3e1";
    let Ok(uci::EngineLine::Info(info)) = uci::parse_engine_line(line) else {
        panic!("{line}")
    };
    assert_eq!(info.depth, Some(2));
    assert_eq!(info.nodes, Some(57));
    assert_eq!(info.time, Some(0));
    assert_eq!(info.pv.len(), 2);
    assert_eq!(
        cecp::parse_engine_line("feature done=1"),
        Ok(cecp::EngineLine::Feature(vec![Feature::bare("done", 1)]))
    );
    assert_eq!(
        cecp::parse_engine_line("move b3a5").map(|l| l.to_string()),
        Ok("move b3a5".to_owned())
    );
}
