//! Game records in PGN, as `protocol-docs/pgn.md` specifies. The headers are standard (the Seven
//! Tag Roster first and in order, `[Variant]`, `[SetUp "1"]` with `[FEN]` for a game that did
//! not begin at the variant's start position, `[PlyCount]` in plies). Turns are in Quill's own
//! notation, not SAN, so each is written as a comment right after its move number indication
//! (`3. {c2c3|a4a3}`, `3... {e5d4}`): a standard reader skips it as a comment and still reads
//! the game's headers, other comments and result. The move numbers follow the FEN's fullmove
//! number and side to move. Penalties and the reason of the result are comments of their own.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::game::Outcome;
use crate::notation::WireTurn;
use crate::variant::{Side, Variant};

/// What a PGN record is made of.
pub(crate) struct PgnGame<'a> {
    /// `[Event]`.
    pub(crate) event: &'a str,
    /// `[Round]`.
    pub(crate) round: u32,
    /// `[White]`.
    pub(crate) white: &'a str,
    /// `[Black]`.
    pub(crate) black: &'a str,
    /// `[Variant]`.
    pub(crate) variant: Variant,
    /// `[FEN]`, when the game did not start at the start position.
    pub(crate) fen: Option<&'a str>,
    /// White's and Black's time controls.
    pub(crate) time_controls: [String; 2],
    /// The turns played.
    pub(crate) turns: &'a [WireTurn],
    /// A comment after each turn, if any.
    pub(crate) comments: &'a [Option<String>],
    /// Whether turns are joint sealed turns.
    pub(crate) sealed: bool,
    /// In an alternating game, who moved first.
    pub(crate) first_mover: Option<Side>,
    /// How it ended.
    pub(crate) outcome: &'a Outcome,
    /// The PGN `[Termination]` value.
    pub(crate) termination: &'a str,
}

/// A PGN string value with `\` and `"` escaped.
fn quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment's text, without braces (which would end it) and on one line (an empty line would
/// end the game for a reader).
fn comment(s: &str) -> String {
    s.replace(['{', '}'], "").replace(['\n', '\r'], " ")
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub(crate) fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = civil_from_days(i64::try_from(days).unwrap_or(0));
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The plies of the game: one per turn of an alternating game, two per sealed joint turn (in
/// which each player makes one move, as in a chess move pair; the FEN's fullmove number grows
/// by one per joint turn, so this keeps `PlyCount` twice the number of move numbers played).
fn plies(g: &PgnGame<'_>) -> usize {
    if g.sealed {
        2 * g.turns.len()
    } else {
        g.turns.len()
    }
}

/// The move number and whether Black moves, at the first turn: the FEN's fullmove number (its
/// sixth field; 1 without a FEN or when the field is missing or not a positive number) and, in an
/// alternating game, its first mover.
fn start_counters(g: &PgnGame<'_>) -> (u64, bool) {
    let number = g
        .fen
        .and_then(|f| f.split_whitespace().nth(5))
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    (number, !g.sealed && g.first_mover == Some(Side::Black))
}

/// The game as PGN text, ending with a blank line.
pub(crate) fn write(g: &PgnGame<'_>) -> String {
    let mut out = tags(g);
    out.push('\n');
    // Lines of at most 79 characters, as PGN export format asks.
    let mut line = String::new();
    for w in movetext(g) {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The tag pairs of the game, one a line.
fn tags(g: &PgnGame<'_>) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(out, "[{k} \"{}\"]", quoted(v));
    };
    tag("Event", g.event);
    tag("Site", "?");
    tag("Date", &today());
    tag("Round", &g.round.to_string());
    tag("White", g.white);
    tag("Black", g.black);
    tag("Result", g.outcome.result());
    tag("Variant", g.variant.name());
    if let Some(fen) = g.fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    if g.time_controls[0] == g.time_controls[1] {
        tag("TimeControl", &g.time_controls[0]);
    } else {
        tag("WhiteTimeControl", &g.time_controls[0]);
        tag("BlackTimeControl", &g.time_controls[1]);
    }
    tag("PlyCount", &plies(g).to_string());
    tag("Termination", g.termination);
    out
}

/// The words of the movetext: each turn with its number, its comment, then the reason and
/// the result.
fn movetext(g: &PgnGame<'_>) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let (mut number, mut black) = start_counters(g);
    for (k, turn) in g.turns.iter().enumerate() {
        // Every turn gets its move number indication: the turn itself is a comment, so a
        // number is what tells a reader (and Quill's own) that a turn follows.
        // The number and its turn are one word, so that a line never breaks between them.
        let dots = if black { "..." } else { "." };
        words.push(format!("{number}{dots} {{{}}}", comment(&turn.to_string())));
        if let Some(Some(c)) = g.comments.get(k) {
            words.push(format!("{{{}}}", comment(c)));
        }
        if g.sealed || black {
            number += 1;
            black = false;
        } else {
            black = true;
        }
    }
    words.push(format!("{{{}}}", comment(&g.outcome.reason)));
    words.push(g.outcome.result().to_string());
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_turn;

    fn game<'a>(
        turns: &'a [WireTurn],
        comments: &'a [Option<String>],
        outcome: &'a Outcome,
    ) -> PgnGame<'a> {
        PgnGame {
            event: "t",
            round: 3,
            white: "a",
            black: "b",
            variant: Variant::Apocalypse,
            fen: None,
            time_controls: ["10+0.1".into(), "10+0.1".into()],
            turns,
            comments,
            sealed: true,
            first_mover: None,
            outcome,
            termination: "normal",
        }
    }

    #[test]
    fn sealed_turns_are_joint_tokens_with_penalty_comments() {
        let turns = vec![
            parse_turn("a2a3|e4e3").unwrap(),
            parse_turn("z9a1|d5d4").unwrap(),
        ];
        let comments = vec![None, Some("penalty white z9a1 (off the board)".to_string())];
        let outcome = Outcome {
            winner: Some(Side::Black),
            reason: "White has no footmen {left}".into(),
        };
        let text = write(&game(&turns, &comments, &outcome));
        assert!(text.contains("[Variant \"apocalypse\"]\n"));
        assert!(text.contains("[Result \"0-1\"]\n"));
        assert!(text.lines().all(|l| l.len() <= 79), "{text}");
        assert!(text.replace('\n', " ").contains(
            "1. {a2a3|e4e3} 2. {z9a1|d5d4} {penalty white z9a1 (off the board)} {White has no footmen left} 0-1"
        ));
        assert!(
            text.contains("[PlyCount \"4\"]\n"),
            "two plies a joint turn: {text}"
        );
        assert!(!text.contains("SetUp"));
    }

    #[test]
    fn alternating_numbering_with_black_first_and_fen() {
        let turns = vec![
            parse_turn("e7e5").unwrap(),
            parse_turn("d2d4").unwrap(),
            parse_turn("e5d4").unwrap(),
        ];
        let comments = vec![None, None, None];
        let outcome = Outcome {
            winner: None,
            reason: "adjudicated".into(),
        };
        let mut g = game(&turns, &comments, &outcome);
        g.sealed = false;
        g.first_mover = Some(Side::Black);
        g.fen = Some("8/8 b");
        g.variant = Variant::Gladiator;
        let text = write(&g);
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"8/8 b\"]\n"));
        assert!(text.contains("1... {e7e5} 2. {d2d4} 2... {e5d4} {adjudicated} 1/2-1/2\n"));
        assert!(text.contains("[PlyCount \"3\"]\n"));
    }

    #[test]
    fn move_numbers_follow_the_fen() {
        let turns = vec![
            parse_turn("a2a3|e4e3").unwrap(),
            parse_turn("b1c3|a4a3").unwrap(),
        ];
        let comments = vec![None, None];
        let outcome = Outcome {
            winner: None,
            reason: "a\nb".into(),
        };
        let mut g = game(&turns, &comments, &outcome);
        g.fen = Some("npppn/p3p/5/P3P/NPPPN w - - 0 3 0/0");
        let text = write(&g);
        assert!(
            text.contains("\n3. {a2a3|e4e3} 4. {b1c3|a4a3} {a b} 1/2-1/2\n"),
            "{text}"
        );
        let turns = vec![parse_turn("e7e5").unwrap(), parse_turn("d2d4").unwrap()];
        let mut g = game(&turns, &comments, &outcome);
        g.sealed = false;
        g.first_mover = Some(Side::Black);
        g.fen = Some("8/8/8/8/8/8/8/8 b - - 0 7");
        let text = write(&g);
        assert!(text.contains("\n7... {e7e5} 8. {d2d4} {a b}"), "{text}");
        // The headers: the Seven Tag Roster first and in order.
        let names: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with('['))
            .map(|l| l[1..].split(' ').next().unwrap())
            .collect();
        assert_eq!(
            names[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        );
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
