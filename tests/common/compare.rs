//! One game of a comparison run: its start, random FEN boards, the turn tried and whether
//! Quill and the reference agree about it.

use super::*;

use quill::game::Game;
use quill::notation::parse_turn;

/// The start of game `game_no` of a run: `start` for every `every`-th game from the first,
/// else `random(rng)`.
#[allow(dead_code)]
pub fn start_fen(
    rng: &mut Rng,
    game_no: usize,
    every: usize,
    start: &str,
    random: impl FnOnce(&mut Rng) -> String,
) -> String {
    if game_no.is_multiple_of(every) {
        start.to_string()
    } else {
        random(rng)
    }
}

/// A game of a comparison run as far as it went: its name in the report, its start and the
/// turns played since.
#[allow(dead_code)]
pub struct Trail {
    label: String,
    start_fen: String,
    pub history: Vec<String>,
}

#[allow(dead_code)]
impl Trail {
    pub fn new(label: String, start_fen: &str) -> Trail {
        Trail {
            label,
            start_fen: start_fen.to_string(),
            history: Vec::new(),
        }
    }

    /// A divergence, with the game that led to it.
    pub fn divergence(&self, what: String) -> String {
        format!(
            "{}: position fen {} moves {}\n  {what}",
            self.label,
            self.start_fen,
            self.history.join(" ")
        )
    }
}

/// One rank of a FEN board: pieces, `*` holes and runs of empty squares (`None`) as digits.
#[allow(dead_code)]
pub fn fen_row(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut row = String::new();
    let mut empty = 0;
    for cell in cells {
        match cell {
            Some(c) => {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
            None => empty += 1,
        }
    }
    if empty > 0 {
        row.push_str(&empty.to_string());
    }
    row
}

/// `piece` (an upper-case letter) as a piece of `side`: 0 White (upper case), 1 Black (lower).
#[allow(dead_code)]
pub fn piece_of(side: usize, piece: char) -> char {
    if side == 1 {
        piece.to_ascii_lowercase()
    } else {
        piece
    }
}

/// A FEN board from `board[rank][file]`, rank 0 at the bottom (written last).
#[allow(dead_code)]
pub fn fen_board<const FILES: usize>(board: &[[Option<char>; FILES]]) -> String {
    let rows: Vec<String> = board
        .iter()
        .rev()
        .map(|rank| fen_row(rank.iter().copied()))
        .collect();
    rows.join("/")
}

/// A FEN from its board: a random side to move, no castling or en passant, a quiet-move clock
/// in `0..clocks` and a move number in `1..=moves`.
#[allow(dead_code)]
pub fn fen_random_side(rng: &mut Rng, board: &str, clocks: usize, moves: usize) -> String {
    format!(
        "{board} {} - - {} {}",
        if rng.chance(50) { "w" } else { "b" },
        rng.below(clocks),
        1 + rng.below(moves)
    )
}

/// One of the `legal` turns at random or, without any, two random squares.
#[allow(dead_code)]
pub fn some_legal(
    rng: &mut Rng,
    legal: &[String],
    random_square: fn(&mut Rng) -> String,
) -> String {
    if legal.is_empty() {
        format!("{}{}", random_square(rng), random_square(rng))
    } else {
        rng.pick(legal).clone()
    }
}

/// The items of `a` that `b` lacks.
#[allow(dead_code)]
pub fn only_in<'a, T: PartialEq>(a: &'a [T], b: &[T]) -> Vec<&'a T> {
    a.iter().filter(|m| !b.contains(m)).collect()
}

/// Compares Quill's FEN and result with the reference's; the differences.
#[allow(dead_code)]
pub fn position_diffs(game: &Game, fen: &str, result: Option<&str>) -> Vec<String> {
    let mut diffs = Vec::new();
    if game.fen() != fen {
        diffs.push(format!("FEN: quill {} / reference {}", game.fen(), fen));
    }
    let outcome = game.outcome();
    let ours = outcome.as_ref().map(|o| o.result().to_string());
    if ours.as_deref() != result {
        diffs.push(format!(
            "result: quill {} / reference {}",
            outcome.map_or("none".to_string(), |o| o.to_string()),
            result.unwrap_or("none")
        ));
    }
    diffs
}

/// The differences joined, or `None` when there are none.
#[allow(dead_code)]
pub fn joined(diffs: Vec<String>) -> Option<String> {
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

/// A legal turn of `legal` or, with probability `illegal_percent` (always when the game is over
/// or has no legal turn), a usually illegal token from `random_token`.
#[allow(dead_code)]
pub fn choose_token(
    rng: &mut Rng,
    legal: &[String],
    finished: bool,
    illegal_percent: usize,
    random_token: fn(&mut Rng, &[String]) -> String,
) -> String {
    let random = finished || legal.is_empty() || rng.chance(illegal_percent);
    if random {
        random_token(rng, legal)
    } else {
        rng.pick(legal).clone()
    }
}

/// Quill's game after `token`, or why Quill refuses it.
#[allow(dead_code)]
pub fn try_play(game: &Game, token: &str) -> Result<Game, String> {
    match parse_turn(token) {
        None => Err(format!("'{token}' is not a move")),
        Some(turn) => {
            let mut next = game.clone();
            next.play(&turn).map(|_| next).map_err(|e| e.to_string())
        }
    }
}

/// Plays `token` in Quill's `game` and compares with the reference's `reply` to it, asked from
/// the reference's position `ref_before`. When both play it (and Quill's `legal` lists it),
/// advances `game` and `trail` and returns `true`; when both refuse it (and the reference
/// stayed where it was), returns `false`; else the divergence.
#[allow(dead_code)]
pub fn both_agree<D>(
    game: &mut Game,
    trail: &mut Trail,
    token: String,
    reply: &Answer<D>,
    ref_before: &str,
    legal: &[String],
) -> Result<bool, String> {
    let what = match (try_play(game, &token), &reply.error) {
        (Ok(next), None) => {
            if legal.contains(&token) {
                *game = next;
                trail.history.push(token);
                return Ok(true);
            }
            format!("quill plays '{token}', which legal_moves does not list")
        }
        (Err(_), Some(_)) => {
            // Both refused; the reference stayed where it was.
            if reply.fen == ref_before {
                return Ok(false);
            }
            "the reference moved on an error".to_string()
        }
        (Ok(_), Some(e)) => format!("quill accepts '{token}', the reference refuses it ({e})"),
        (Err(e), None) => format!("the reference accepts '{token}', quill refuses it: {e}"),
    };
    Err(trail.divergence(what))
}
