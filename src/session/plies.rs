//! XBoard's view of a multi-part turn (Gladiator, Brawl, Pagan): XBoard 4.9.1 cannot move two
//! pieces in one move, so in CECP one turn of player M is three XBoard plies
//! (`protocol-docs/cecp.md`):
//!
//! | ply | who | what |
//! |---|---|---|
//! | P1 | M | the pawn leg (`@@@@` when there is none); a Brawl pawn that lands on an enemy supporter at X, which goes to T, is `FT,TX` (`FX` when T = F) |
//! | P2 | the opponent | `@@@@`, or in Brawl the drop of its displaced supporter `N@T` |
//! | P3 | M | the supporter move, or `@@@@` |
//!
//! In Pagan P1 is the move (a withdrawal `FV,VT`: XBoard removes the piece on the "kill square"
//! V), P2 the victim's owner dropping it on its dead-board square (`@@@@` when nothing
//! reincarnates), P3 always `@@@@`.
//!
//! A pawn leg that ends on XBoard's first or last rank carries the suffix `p` ("stays a pawn"),
//! or XBoard may promote it on its own board.
//!
//! Every ply that comes in is checked ([`read_p1`], [`check_p2`], [`check_own_p2`],
//! [`complete`]); the session leaves its state unchanged when one is refused, because XBoard
//! takes a refused ply back without telling the engine anything more.
//!
//! The encoding itself belongs to each variant ([`crate::rules::XboardCodec`], e.g.
//! `variants/gladiator_xboard.rs`); this module keeps the session's side of it: the state
//! between plies, XBoard's spelling of a null ply, and the checks against what was expected.

use crate::game::Game;
use crate::notation::WireMove;
use crate::rules::PlyError;

/// XBoard's null move.
pub(crate) const NULL: &str = "@@@@";

/// What the engine still owes or expects within a turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Plies {
    /// Between turns.
    #[default]
    Idle,
    /// The engine sent P1 of its own turn; once the opponent's P2 arrives it sends `p3`.
    Sent {
        /// The engine's whole turn, in Quill's notation.
        turn: WireMove,
        /// The third ply.
        p3: String,
    },
    /// The opponent sent P1 (decoded to Quill's legs); P2 follows (the engine's answer, or in
    /// force mode the GUI's relay), then P3.
    Received {
        /// The turn so far in Quill's notation (`0000` for a null P1).
        partial: WireMove,
        /// Whether P2 has been made.
        p2_seen: bool,
    },
}

/// Reads and checks the opponent's P1: the turn so far, in Quill's notation.
///
/// # Errors
/// Why the ply cannot begin a legal turn.
pub(crate) fn read_p1(game: &Game, mv: &WireMove) -> Result<WireMove, PlyError> {
    game.read_p1(mv)
}

/// The engine's P2 answer to the opponent's partial turn, as XBoard writes it.
pub(crate) fn answer_p2(game: &Game, partial: &WireMove) -> String {
    shown(&game.p2(partial).0)
}

/// Whether a received ply is the expected one: the same null, the same drop (XBoard may write
/// the piece letter in either case) or the same move.
fn same_ply(expected: &WireMove, got: &WireMove) -> bool {
    match (expected, got) {
        (WireMove::Drop { piece: a, to: x }, WireMove::Drop { piece: b, to: y }) => {
            a.eq_ignore_ascii_case(b) && x == y
        }
        _ => expected == got,
    }
}

/// Checks the middle ply P2 of a turn whose first ply made `partial`: it belongs to the
/// opponent and is exactly determined by the turn ([`answer_p2`]); anything else is refused.
///
/// # Errors
/// Why the ply is not P2, naming the one expected.
pub(crate) fn check_p2(game: &Game, partial: &WireMove, mv: &WireMove) -> Result<(), PlyError> {
    let (expected, why) = game.p2(partial);
    if same_ply(&expected, mv) {
        return Ok(());
    }
    Err(PlyError::WrongMiddle {
        why,
        expected: shown(&expected),
    })
}

/// Checks the opponent's P2 of the engine's own `turn` (whose P1 the engine has sent).
///
/// # Errors
/// Why the ply is not P2, naming the one expected.
pub(crate) fn check_own_p2(game: &Game, turn: &WireMove, mv: &WireMove) -> Result<(), PlyError> {
    let partial = split(game, turn)
        .and_then(|(p1, _)| crate::notation::parse_move(&p1))
        .and_then(|p1| read_p1(game, &p1).ok());
    match partial {
        Some(partial) => check_p2(game, &partial, mv),
        None => Err(PlyError::OwnTurnUnreadable),
    }
}

/// Whether a `setboard FEN` is XBoard's relay of a null ply rather than a new position. XBoard
/// sends the position after a null ply instead of `@@@@` under the `super` parent and, in Edit
/// Game mode, for a person's null ply in every variant. Mid-turn out of force mode any
/// `setboard` is the null ply; in force mode it is when its side to move is the one after a
/// null ply at this point; between turns when, in addition, its board is the current one.
pub(crate) fn is_null_relay(game: &Game, plies: &Plies, force: bool, fen: &str) -> bool {
    let mut fields = fen.split_whitespace();
    let (Some(board), Some(stm), Some(mover)) = (fields.next(), fields.next(), game.side_to_move())
    else {
        return false;
    };
    let board = board.split('[').next().unwrap_or(board);
    let after_null = match plies {
        Plies::Idle | Plies::Received { p2_seen: true, .. } => mover.opponent(),
        Plies::Received { p2_seen: false, .. } | Plies::Sent { .. } => mover,
    };
    let stm_after_null = stm.len() == 1 && stm.starts_with(after_null.letter());
    match plies {
        Plies::Idle => stm_after_null && game.fen().split_whitespace().next() == Some(board),
        _ => !force || stm_after_null,
    }
}

/// A received ply as XBoard writes it (a null as `@@@@`), for messages.
pub(crate) fn shown(mv: &WireMove) -> String {
    match mv {
        WireMove::Pass => NULL.to_string(),
        other => other.to_string(),
    }
}

/// The opponent's whole turn from its partial turn and P3, checked against the rules.
///
/// # Errors
/// Why P3 cannot end the turn.
pub(crate) fn complete(
    game: &Game,
    partial: &WireMove,
    p3: &WireMove,
) -> Result<WireMove, PlyError> {
    game.complete(partial, p3)
}

/// The engine's own turn as P1 and P3, or `None` when the game is not shown in plies.
pub(crate) fn split(game: &Game, turn: &WireMove) -> Option<(String, String)> {
    game.split(turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::variant::Variant;

    #[test]
    fn the_middle_ply_is_exactly_the_expected_one() {
        let game = Game::from_fen(Variant::Brawl, "4k3/1p6/8/4n3/3P4/8/8/B3K3 w - - 0 1").unwrap();
        let p1 = read_p1(&game, &parse_move("d4h3,h3e5").unwrap()).unwrap();
        for ok in ["N@h3", "n@h3"] {
            assert_eq!(check_p2(&game, &p1, &parse_move(ok).unwrap()), Ok(()));
        }
        for wrong in ["@@@@", "N@g3", "B@h3", "e8e7"] {
            let e = check_p2(&game, &p1, &parse_move(wrong).unwrap()).unwrap_err();
            assert_eq!(
                e.to_string(),
                "the displaced knight goes to h3: expected N@h3",
                "{wrong}"
            );
        }
        let plain = read_p1(&game, &parse_move("d4d5").unwrap());
        assert!(plain.is_err(), "d4d5 is no pawn move here");
        let two_legs = read_p1(&game, &parse_move("d4c5,c5b6").unwrap()).unwrap_err();
        assert!(
            two_legs.to_string().contains("plain move d4b6"),
            "{two_legs}"
        );
    }

    #[test]
    fn a_wrong_third_ply_is_refused_by_the_rules() {
        let game = Game::start(Variant::Gladiator);
        let p1 = read_p1(&game, &parse_move("c2c7").unwrap()).unwrap();
        assert!(complete(&game, &p1, &parse_move("c2c3").unwrap()).is_err());
        assert!(complete(&game, &p1, &parse_move("b1c3q").unwrap()).is_err());
        let whole = complete(&game, &p1, &parse_move("h1h2").unwrap()).unwrap();
        assert_eq!(whole.to_string(), "c2c7,h1h2");
    }

    #[test]
    fn a_sealed_game_is_not_shown_in_plies() {
        let game = Game::start(Variant::Apocalypse);
        let e = read_p1(&game, &parse_move("b1c3").unwrap()).unwrap_err();
        assert_eq!(e.to_string(), "not a game shown in plies");
        assert_eq!(split(&game, &parse_move("b1c3").unwrap()), None);
    }
}
