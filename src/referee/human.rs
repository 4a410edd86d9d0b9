//! What a person at a human seat sees and types: the board with the last moves marked, moves
//! told in words, a piece legend, the commands (`help`, `moves`, `undo`, `board`, `resign`,
//! `draw`) and the rules' own reason for a refused move.

use std::fmt::Write as _;
use std::time::Duration;

use crate::game::Game;
use crate::geometry::Square;
use crate::notation::{WireMove, WireTurn, parse_move};
use crate::variant::{Side, Variant};

fn name_of(variant: Variant, letter: char) -> &'static str {
    variant
        .piece_names()
        .iter()
        .find(|(c, _)| *c == letter.to_ascii_uppercase())
        .map_or("piece", |(_, n)| n)
}

/// The piece legend of a variant: `Pieces (White upper case, black lower case): N horseman, …`.
pub(crate) fn legend(variant: Variant) -> String {
    let list: Vec<String> = variant
        .piece_names()
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    format!(
        "Pieces (White upper case, Black lower case): {}",
        list.join(", ")
    )
}

/// The squares a move touches, for marking on the board.
pub(crate) fn squares(mv: &WireMove) -> Vec<Square> {
    match mv {
        WireMove::Pass => Vec::new(),
        WireMove::Drop { to, .. } => vec![*to],
        WireMove::Legs { legs, .. } => legs.iter().flat_map(|l| [l.from, l.to]).collect(),
    }
}

/// A move in words, judged on the position `before` it: `pawn c2-c7, rook h1-h2`. A leg from
/// an empty square (a redeploy) moves the previous leg's piece.
pub(crate) fn in_words(before: &Game, mv: &WireMove) -> String {
    let variant = before.variant();
    match mv {
        WireMove::Pass => "a pass".to_string(),
        WireMove::Drop { piece, to } => format!("{} dropped on {to}", name_of(variant, *piece)),
        WireMove::Legs { legs, promotion } => {
            let mut last = None;
            let mut parts = Vec::new();
            for leg in legs {
                let piece = before.piece_at(leg.from).or(last);
                last = piece;
                let who = piece.map_or("piece", |c| name_of(variant, c));
                let takes = before
                    .piece_at(leg.to)
                    .filter(|&c| piece.is_some_and(|p| p.is_uppercase() != c.is_uppercase()));
                let mut part = format!("{who} {}-{}", leg.from, leg.to);
                if let Some(c) = takes {
                    write!(part, " onto the {}", name_of(variant, c)).unwrap();
                }
                parts.push(part);
            }
            let mut text = parts.join(", ");
            if let Some(p) = promotion {
                write!(text, ", promoting to {}", name_of(variant, *p)).unwrap();
            }
            text
        }
    }
}

/// The board as a person sees it: each square three characters wide, the `marks` bracketed
/// (`[P]`), holes blank.
pub(crate) fn board(game: &Game, marks: &[Square]) -> String {
    let geometry = game.geometry();
    let mut out = String::new();
    for rank in (1..=u16::from(geometry.ranks())).rev() {
        write!(out, "{rank:>2} ").unwrap();
        for file in 0..geometry.files() {
            let sq = Square::new(file, rank);
            let c = if geometry.contains(sq) {
                game.piece_at(sq).unwrap_or('.')
            } else {
                ' '
            };
            if marks.contains(&sq) {
                write!(out, "[{c}]").unwrap();
            } else {
                write!(out, " {c} ").unwrap();
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..geometry.files() {
        write!(out, " {} ", (b'a' + file) as char).unwrap();
    }
    out.truncate(out.trim_end().len());
    out
}

/// Why `mv` is refused for `side` here, in the rules' words; `None` when it is legal.
pub(crate) fn refusal(
    game: &Game,
    side: Side,
    mv: &WireMove,
    legal: &[WireMove],
) -> Option<String> {
    if legal.contains(mv) {
        return None;
    }
    let listed = "not in the list of legal moves (type 'moves')".to_string();
    let mut trial = game.clone();
    let why = if game.side_to_move().is_some() {
        match trial.play(&WireTurn::Single(mv.clone())) {
            Err(e) => e.to_string(),
            Ok(_) => listed,
        }
    } else {
        // A sealed turn with the opponent's first legal move: the rules' penalty says why.
        let other = game.legal_moves(side.opponent()).into_iter().next();
        let other = other.unwrap_or(WireMove::Pass);
        let turn = match side {
            Side::White => WireTurn::Joint(mv.clone(), other),
            Side::Black => WireTurn::Joint(other, mv.clone()),
        };
        match trial.play(&turn) {
            Err(_) => format!("'{mv}' is not a move of {}", game.variant()),
            Ok(penalties) => penalties
                .into_iter()
                .find(|p| p.side == side)
                // Legal by the rules, but spelled otherwise than the listed moves.
                .map_or(listed, |p| p.reason.to_string()),
        }
    };
    Some(why)
}

/// What a person typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Typed {
    /// A move (read case-insensitively).
    Move(WireMove),
    /// `help`.
    Help,
    /// `moves [PREFIX]`.
    Moves(String),
    /// `board`.
    Board,
    /// `undo`.
    Undo,
    /// `resign`.
    Resign,
    /// `draw`.
    Draw,
    /// An empty line.
    Nothing,
    /// Text that is neither a command nor a move.
    Unknown(String),
}

/// Reads a typed line.
pub(crate) fn read(line: &str) -> Typed {
    let lower = line.trim().to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next().unwrap_or("");
    let rest = words.collect::<Vec<_>>().join(" ");
    match first {
        "" => Typed::Nothing,
        "help" | "?" => Typed::Help,
        "moves" => Typed::Moves(rest),
        "board" => Typed::Board,
        "undo" => Typed::Undo,
        "resign" => Typed::Resign,
        "draw" => Typed::Draw,
        _ => match parse_move(&lower) {
            Some(mv) => Typed::Move(mv),
            None => Typed::Unknown(line.trim().to_string()),
        },
    }
}

/// The help text of the human seat.
pub(crate) fn help(variant: Variant) -> String {
    let undo = if variant.is_sealed() {
        "undo is not offered in a sealed game (both moves are already revealed)"
    } else {
        "undo             takes back your last move and the engine's reply"
    };
    format!(
        "Type a move as the rules write it (c2c7,h1h2; upper case is fine), or:\n\
         \x20 moves [START]    all legal moves with all their legs, those starting with START\n\
         \x20 board            the board again\n\
         \x20 {undo}\n\
         \x20 draw             offer a draw (engines in these protocols cannot accept one)\n\
         \x20 resign           give up the game\n\
         \x20 help             this text"
    )
}

/// The legal moves starting with `prefix`, in full, at most `max` of them.
pub(crate) fn moves_text(legal: &[WireMove], prefix: &str, max: usize) -> String {
    let matching: Vec<String> = legal
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.starts_with(prefix))
        .collect();
    if matching.is_empty() {
        return format!("no legal move starts with '{prefix}'");
    }
    let shown = matching.len().min(max);
    let mut text = format!(
        "{} legal move{}{}: {}",
        matching.len(),
        if matching.len() == 1 { "" } else { "s" },
        if prefix.is_empty() {
            String::new()
        } else {
            format!(" starting with '{prefix}'")
        },
        matching[..shown].join(" ")
    );
    if shown < matching.len() {
        write!(
            text,
            " … and {} more (type more of the move: moves {})",
            matching.len() - shown,
            matching[0]
                .get(..prefix.len().max(4))
                .unwrap_or(&matching[0])
        )
        .unwrap();
    }
    text
}

/// A duration as `m:ss.s`.
pub(crate) fn clock_text(d: Duration) -> String {
    let s = d.as_secs_f64();
    format!("{}:{:04.1}", (s / 60.0).floor() as u64, s % 60.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_told_in_words_and_marked() {
        let g = Game::start(Variant::Gladiator);
        let mv = parse_move("c2c7,h1h2").unwrap();
        assert_eq!(in_words(&g, &mv), "pawn c2-c7 onto the pawn, rook h1-h2");
        let b = board(&g, &squares(&mv));
        assert!(b.contains("[P]"), "{b}");
        assert!(b.contains("[R]"), "{b}");
        let a = Game::start(Variant::Apocalypse);
        assert_eq!(in_words(&a, &parse_move("a1b3").unwrap()), "horseman a1-b3");
        assert!(legend(Variant::Apocalypse).ends_with("N horseman, P footman"));
    }

    #[test]
    fn typed_lines_are_read_case_insensitively() {
        assert_eq!(read("A1B3"), Typed::Move(parse_move("a1b3").unwrap()));
        assert_eq!(read("Moves c2"), Typed::Moves("c2".into()));
        assert_eq!(read("xyz"), Typed::Unknown("xyz".into()));
    }

    #[test]
    fn refusals_give_the_rules_reason() {
        let g = Game::start(Variant::Gladiator);
        let legal = g.legal_moves(Side::White);
        let why = refusal(&g, Side::White, &parse_move("a3a4").unwrap(), &legal).unwrap();
        assert!(why.starts_with("illegal move a3a4: "), "{why}");
        let a = Game::start(Variant::Apocalypse);
        let legal = a.legal_moves(Side::White);
        let why = refusal(&a, Side::White, &parse_move("c3c4").unwrap(), &legal).unwrap();
        assert_eq!(why, "no piece of the mover on the from-square");
    }
}
