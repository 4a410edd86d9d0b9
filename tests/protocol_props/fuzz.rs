//! No input line, however broken, makes a parser panic: arbitrary strings and bytes, lines
//! steered into the argument parsers' branches, and valid lines mutated; whatever parses prints
//! back to itself.

use super::*;

use crate::props::reads_back;
use proptest::sample::select;
use quill::protocol::cecp::{self};
use quill::protocol::uci::{self};

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
