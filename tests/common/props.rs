//! The property-test harness the protocol's command tests (`protocol_props/`) and its output
//! tests (`output_props.rs`) share, declared in each as `mod props;` with a `#[path]` to this
//! file: the strategies for the wire's squares, moves and turns, and the check that a line a
//! parser accepts prints back to a line that parses to the same value.

use std::fmt::{Debug, Display};

use proptest::option;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use quill::geometry::Square;
use quill::notation::{Leg, WireMove, WireTurn};

/// Squares `a1` … `p16`.
pub fn square() -> impl Strategy<Value = Square> {
    (0u8..16, 1u16..=16).prop_map(|(file, rank)| Square::new(file, rank))
}

/// Passes, drops when `drops` is set, and moves of one to three legs, with or without a
/// promotion letter.
pub fn wire_move(drops: bool) -> BoxedStrategy<WireMove> {
    let legs = prop::collection::vec(
        (square(), square()).prop_map(|(from, to)| Leg { from, to }),
        1..4,
    );
    let promotion = option::of(prop::char::range('a', 'z'));
    let legs = (legs, promotion).prop_map(|(legs, promotion)| WireMove::Legs { legs, promotion });
    if drops {
        let drop = (prop::char::range('A', 'Z'), square())
            .prop_map(|(piece, to)| WireMove::Drop { piece, to });
        prop_oneof![1 => Just(WireMove::Pass), 1 => drop, 6 => legs].boxed()
    } else {
        prop_oneof![1 => Just(WireMove::Pass), 6 => legs].boxed()
    }
}

/// Single and joint turns of [`wire_move`]s.
pub fn turn(drops: bool) -> impl Strategy<Value = WireTurn> {
    prop_oneof![
        wire_move(drops).prop_map(WireTurn::Single),
        (wire_move(drops), wire_move(drops)).prop_map(|(w, b)| WireTurn::Joint(w, b)),
    ]
}

/// One token of printable ASCII.
pub fn token() -> impl Strategy<Value = String> {
    "[!-~]{1,10}"
}

/// Whatever `parse` reads from `line` must print to a line that `parse` reads as the same
/// value (`what` names the parser in a failure).
pub fn reads_back<T, E>(
    what: &str,
    line: &str,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<(), TestCaseError>
where
    T: Display + Debug + PartialEq,
    E: Debug + PartialEq,
{
    if let Ok(value) = parse(line) {
        let printed = value.to_string();
        prop_assert_eq!(parse(&printed), Ok(value), "{} line {:?}", what, line);
    }
    Ok(())
}

/// `value` prints to a line that `parse` reads as `value`.
pub fn round_trips<T, E>(
    value: T,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<(), TestCaseError>
where
    T: Display + Debug + PartialEq,
    E: Debug + PartialEq,
{
    let line = value.to_string();
    prop_assert_eq!(parse(&line), Ok(value), "line {:?}", line);
    Ok(())
}
