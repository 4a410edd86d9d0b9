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

use crate::game::Game;
use crate::geometry::Square;
use crate::notation::{Leg, WireMove};
use crate::variants::gladiator::{Position, Turn};
use crate::variants::pagan;

/// XBoard's null move.
pub const NULL: &str = "@@@@";

/// What the engine still owes or expects within a turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Plies {
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

fn sq(index: u8) -> Square {
    crate::variants::gladiator::GEOMETRY.square(usize::from(index))
}

fn edge_suffix(to: Square, ranks: u16) -> &'static str {
    if to.rank == 1 || to.rank == ranks {
        "p"
    } else {
        ""
    }
}

/// Splits one of the engine's turns into its P1 and P3.
pub fn encode(turn: Turn) -> (String, String) {
    let p1 = if turn.moves_pawn() {
        let (from, to) = (sq(turn.pawn.0), sq(turn.pawn.1));
        let suffix = edge_suffix(to, 8);
        match turn.place {
            u8::MAX => format!("{from}{to}{suffix}"),
            place if place == turn.pawn.0 => format!("{from}{to}{suffix}"),
            place => {
                let t = sq(place);
                format!("{from}{t},{t}{to}{suffix}")
            }
        }
    } else {
        NULL.to_string()
    };
    let p3 = if turn.support.0 == u8::MAX {
        NULL.to_string()
    } else {
        format!("{}{}", sq(turn.support.0), sq(turn.support.1))
    };
    (p1, p3)
}

/// Splits one of the engine's Pagan moves into its P1 and P3.
pub fn encode_pagan(pos: &pagan::Position, mv: pagan::Move) -> (String, String) {
    let g = pagan::geometry();
    let sq = |i: u8| g.square(usize::from(i));
    let (from, to) = (sq(mv.from), sq(mv.to));
    let suffix = match mv.promotion {
        Some(_) => mv
            .to_wire()
            .to_string()
            .chars()
            .last()
            .map(String::from)
            .unwrap_or_default(),
        None if pos.at(mv.from).is_some_and(|p| p.kind == pagan::Kind::Pawn) => {
            edge_suffix(to, 11).to_string()
        }
        None => String::new(),
    };
    // A withdrawal from a dead piece removes it from the game: XBoard's "kill square" leg does
    // exactly that. A withdrawal from a live piece is a plain move; the victim's owner then
    // moves it to the dead board (P2).
    let p1 = match pos.withdrawal_victim(mv) {
        Some(v) if pagan::is_dead(v) => format!("{from}{},{}{to}", sq(v), sq(v)),
        _ => format!("{from}{to}{suffix}"),
    };
    (p1, NULL.to_string())
}

/// Reads the opponent's Pagan P1 (a move, `FV,VT` for a withdrawal, or XBoard's garbled relay
/// of Black's `FT,V?`) into Quill's move, checked.
///
/// # Errors
/// Why the ply is no legal move.
pub fn decode_pagan(pos: &pagan::Position, mv: &WireMove) -> Result<WireMove, String> {
    let WireMove::Legs { legs, promotion } = mv else {
        return Err(format!("'{mv}' is not a move"));
    };
    let (from, to) = match legs.as_slice() {
        [leg] => (leg.from, leg.to),
        [a, c] if a.to == c.from => (a.from, c.to),
        [a, _] => (a.from, a.to),
        _ => return Err(format!("'{mv}' is not a move")),
    };
    // The kill square of a two-leg form: `FV,VT` as sent, `FT,V?` as XBoard relays Black's.
    let kill = match legs.as_slice() {
        [a, c] if a.to == c.from => Some(a.to),
        [_, c] => Some(c.from),
        _ => None,
    };
    let promotion = promotion.filter(|&c| c != 'p');
    let quill = WireMove::Legs {
        legs: vec![Leg { from, to }],
        promotion,
    };
    let m = pos.parse_move(&quill).map_err(|e| e.0)?;
    // XBoard removes the piece on a kill square, so the two-leg form is right exactly when the
    // move withdraws from a dead piece, which leaves the game.
    let g = pagan::geometry();
    let dead_victim = pos
        .withdrawal_victim(m)
        .filter(|&v| pagan::is_dead(v))
        .map(|v| g.square(usize::from(v)));
    match (dead_victim, kill) {
        (Some(v), Some(k)) if v == k => Ok(quill),
        (Some(v), _) => Err(format!(
            "the withdrawal removes the dead piece on {v} from the game: write {from}{v},{v}{to}"
        )),
        (None, Some(k)) => Err(format!(
            "nothing leaves the game on {k}: the move is the plain {from}{to}"
        )),
        (None, None) => Ok(quill),
    }
}

/// The P2 answer to a Pagan move: the victim's owner puts it on its dead-board square, by a
/// drop from the hand when XBoard took it (a capture by landing sends it there) or by moving it
/// when a withdrawal left it on XBoard's board; `@@@@` when nothing reincarnates.
pub fn p2_pagan(pos: &pagan::Position, mv: &WireMove) -> String {
    let Ok(m) = pos.parse_move(mv) else {
        return NULL.to_string();
    };
    let g = pagan::geometry();
    let sq = |i: u8| g.square(usize::from(i));
    match (pos.reincarnation(m), pos.withdrawal_victim(m)) {
        (Some((_, dead)), Some(v)) => format!("{}{}", sq(v), sq(dead)),
        (Some((piece, dead)), None) => {
            format!("{}@{}", piece.letter().to_ascii_uppercase(), sq(dead))
        }
        (None, _) => NULL.to_string(),
    }
}

/// Reads the opponent's P1 into Quill's legs (pawn leg, then the placement leg if any), in the
/// position before it.
///
/// # Errors
/// A message when the ply is no pawn leg of the encoding.
pub fn decode_p1(pos: &Position, mv: &WireMove) -> Result<Vec<Leg>, String> {
    let legs = match mv {
        WireMove::Pass => return Ok(Vec::new()),
        WireMove::Drop { .. } => return Err("a drop is not the first ply of a turn".into()),
        WireMove::Legs {
            promotion: Some(c), ..
        } if *c != 'p' => {
            return Err(format!("pawns never promote here ('{c}')"));
        }
        WireMove::Legs { legs, .. } => legs,
    };
    // A pawn leg (with or without XBoard's `p`), plain or with its displacement.
    let (from, to, place) = match legs.as_slice() {
        [leg] => (leg.from, leg.to, None),
        // White's form arrives as sent, `F T , T X`; Black's as XBoard garbles it, `F X , T ?`.
        [a, c] if a.to == c.from => (a.from, c.to, Some(a.to)),
        [a, c] => (a.from, a.to, Some(c.from)),
        _ => return Err(format!("'{mv}' is not a pawn leg")),
    };
    let displaces = pos
        .piece_at(to)
        .is_some_and(|c| !c.eq_ignore_ascii_case(&'p'));
    if place.is_some() && !displaces {
        return Err(format!(
            "no supporter is displaced on {to}: the pawn leg is the plain move {from}{to}"
        ));
    }
    let mut out = vec![Leg { from, to }];
    if displaces {
        out.push(Leg {
            from: to,
            to: place.unwrap_or(from),
        });
    }
    Ok(out)
}

/// Checks that P1 can begin a legal turn: its legs alone are one (the supporter move is
/// optional after a pawn move), or it is null and the mover has no pawn move.
///
/// # Errors
/// Why the ply cannot begin a turn.
pub fn check_p1(pos: &Position, legs: Vec<Leg>) -> Result<Vec<Leg>, String> {
    if legs.is_empty() {
        return if pos.has_pawn_move() {
            Err("a pawn move is compulsory when one exists".into())
        } else {
            Ok(legs)
        };
    }
    let turn = WireMove::Legs {
        legs: legs.clone(),
        promotion: None,
    };
    pos.parse_turn(&turn).map(|_| legs).map_err(|e| e.0)
}

/// The engine's P2 answer to the opponent's P1 legs: `@@@@`, or the drop of the displaced
/// supporter on its new square.
pub fn p2(pos: &Position, legs: &[Leg]) -> String {
    match legs {
        [pawn, place] => {
            let piece = pos
                .piece_at(pawn.to)
                .map_or('?', |c| c.to_ascii_uppercase());
            format!("{piece}@{}", place.to)
        }
        _ => NULL.to_string(),
    }
}

/// The whole turn in Quill's notation from the decoded P1 legs and P3.
pub fn whole(mut legs: Vec<Leg>, p3: &WireMove) -> Result<WireMove, String> {
    match p3 {
        WireMove::Pass => {}
        WireMove::Legs {
            legs: more,
            promotion: None,
        } if more.len() == 1 => legs.extend_from_slice(more),
        WireMove::Legs {
            promotion: Some(c), ..
        } => {
            return Err(format!(
                "a supporter move takes no promotion suffix ('{c}')"
            ));
        }
        other => return Err(format!("'{other}' is not the last ply of a turn")),
    }
    if legs.is_empty() {
        return Err("a turn of two null plies moves nothing".into());
    }
    Ok(WireMove::Legs {
        legs,
        promotion: None,
    })
}

/// The legs of a partial turn (none for a null P1).
fn legs_of(partial: &WireMove) -> Vec<Leg> {
    match partial {
        WireMove::Legs { legs, .. } => legs.clone(),
        _ => Vec::new(),
    }
}

/// Reads and checks the opponent's P1: the turn so far, in Quill's notation.
///
/// # Errors
/// Why the ply cannot begin a legal turn.
pub fn read_p1(game: &Game, mv: &WireMove) -> Result<WireMove, String> {
    if let Some(outcome) = game.outcome() {
        return Err(format!("the game is over ({outcome})"));
    }
    match game {
        Game::Gladiator(pos) => {
            let legs = check_p1(pos, decode_p1(pos, mv)?)?;
            Ok(if legs.is_empty() {
                WireMove::Pass
            } else {
                WireMove::Legs {
                    legs,
                    promotion: None,
                }
            })
        }
        Game::Pagan(pos) => decode_pagan(pos, mv),
        Game::Apocalypse(_) => Err("not a game shown in plies".into()),
    }
}

/// The engine's P2 answer to the opponent's partial turn.
pub fn answer_p2(game: &Game, partial: &WireMove) -> String {
    match game {
        Game::Gladiator(pos) => p2(pos, &legs_of(partial)),
        Game::Pagan(pos) => p2_pagan(pos, partial),
        Game::Apocalypse(_) => NULL.to_string(),
    }
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

/// A piece's name from its letter, for messages.
fn piece_name(letter: char) -> &'static str {
    match letter.to_ascii_lowercase() {
        'p' => "pawn",
        'n' => "knight",
        'b' => "bishop",
        'r' => "rook",
        'q' => "queen",
        'k' => "king",
        'w' => "wazir",
        'a' => "alchemist",
        'g' => "pagan",
        _ => "piece",
    }
}

/// Checks the middle ply P2 of a turn whose first ply made `partial`: it belongs to the
/// opponent and is exactly determined by the turn ([`answer_p2`]); anything else is refused.
///
/// # Errors
/// Why the ply is not P2, naming the one expected.
pub fn check_p2(game: &Game, partial: &WireMove, mv: &WireMove) -> Result<(), String> {
    let text = answer_p2(game, partial);
    let expected = crate::notation::parse_move(&text).unwrap_or(WireMove::Pass);
    if same_ply(&expected, mv) {
        return Ok(());
    }
    let why = match (game, &expected) {
        (Game::Pagan(_), WireMove::Pass) => "nothing reincarnates".to_string(),
        (_, WireMove::Pass) => "the opponent moves nothing in the middle of a turn".to_string(),
        (Game::Pagan(_), WireMove::Drop { piece, to }) => {
            format!("the captured {} reincarnates on {to}", piece_name(*piece))
        }
        (Game::Pagan(pos), WireMove::Legs { legs, .. }) => format!(
            "the captured {} on {} reincarnates on {}",
            piece_name(pos.piece_at(legs[0].from).unwrap_or('?')),
            legs[0].from,
            legs[0].to
        ),
        (_, WireMove::Drop { piece, to }) => {
            format!("the displaced {} goes to {to}", piece_name(*piece))
        }
        (_, WireMove::Legs { .. }) => "the turn fixes the middle ply".to_string(),
    };
    Err(format!("{why}: expected {text}"))
}

/// Checks the opponent's P2 of the engine's own `turn` (whose P1 the engine has sent).
///
/// # Errors
/// Why the ply is not P2, naming the one expected.
pub fn check_own_p2(game: &Game, turn: &WireMove, mv: &WireMove) -> Result<(), String> {
    let partial = split(game, turn)
        .and_then(|(p1, _)| crate::notation::parse_move(&p1))
        .and_then(|p1| read_p1(game, &p1).ok());
    match partial {
        Some(partial) => check_p2(game, &partial, mv),
        None => Err("the engine's own turn cannot be read".into()),
    }
}

/// Whether a `setboard FEN` is XBoard's relay of a null ply rather than a new position. XBoard
/// sends the position after a null ply instead of `@@@@` under the `super` parent and, in Edit
/// Game mode, for a person's null ply in every variant. Mid-turn out of force mode any
/// `setboard` is the null ply; in force mode it is when its side to move is the one after a
/// null ply at this point; between turns when, in addition, its board is the current one.
pub fn is_null_relay(game: &Game, plies: &Plies, force: bool, fen: &str) -> bool {
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
pub fn shown(mv: &WireMove) -> String {
    match mv {
        WireMove::Pass => NULL.to_string(),
        other => other.to_string(),
    }
}

/// The opponent's whole turn from its partial turn and P3, checked against the rules.
///
/// # Errors
/// Why P3 cannot end the turn.
pub fn complete(game: &Game, partial: &WireMove, p3: &WireMove) -> Result<WireMove, String> {
    match game {
        Game::Gladiator(pos) => {
            let turn = whole(legs_of(partial), p3)?;
            pos.parse_turn(&turn).map(|_| turn).map_err(|e| e.0)
        }
        Game::Pagan(_) if *p3 == WireMove::Pass => Ok(partial.clone()),
        Game::Pagan(_) => Err("the third ply of a Pagan turn is always @@@@".into()),
        Game::Apocalypse(_) => Err("not a game shown in plies".into()),
    }
}

/// The engine's own turn as P1 and P3, or `None` when the game is not shown in plies.
pub fn split(game: &Game, turn: &WireMove) -> Option<(String, String)> {
    match game {
        Game::Gladiator(pos) => pos.parse_turn(turn).ok().map(encode),
        Game::Pagan(pos) => pos.parse_move(turn).ok().map(|m| encode_pagan(pos, m)),
        Game::Apocalypse(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::variants::gladiator::Rules;

    #[test]
    fn black_garbled_form_decodes_like_white_form() {
        let pos = Position::from_fen(Rules::Brawl, "4k3/8/8/4n3/3P4/8/8/2B1K3 w - - 0 1").unwrap();
        let white = decode_p1(&pos, &parse_move("d4h3,h3e5").unwrap()).unwrap();
        let black = decode_p1(&pos, &parse_move("d4e5,h3a1").unwrap()).unwrap();
        assert_eq!(white, black);
        assert_eq!(
            whole(white, &WireMove::Pass).unwrap().to_string(),
            "d4e5,e5h3"
        );
        assert_eq!(p2(&pos, &black), "N@h3");
    }

    #[test]
    fn the_middle_ply_is_exactly_the_expected_one() {
        let pos = Position::from_fen(Rules::Brawl, "4k3/1p6/8/4n3/3P4/8/8/B3K3 w - - 0 1").unwrap();
        let game = Game::Gladiator(pos);
        let p1 = read_p1(&game, &parse_move("d4h3,h3e5").unwrap()).unwrap();
        for ok in ["N@h3", "n@h3"] {
            assert_eq!(check_p2(&game, &p1, &parse_move(ok).unwrap()), Ok(()));
        }
        for wrong in ["@@@@", "N@g3", "B@h3", "e8e7"] {
            let e = check_p2(&game, &p1, &parse_move(wrong).unwrap()).unwrap_err();
            assert!(e.ends_with("expected N@h3"), "{wrong}: {e}");
        }
        let plain = read_p1(&game, &parse_move("d4d5").unwrap());
        assert!(plain.is_err(), "d4d5 is no pawn move here");
        let two_legs = read_p1(&game, &parse_move("d4c5,c5b6").unwrap()).unwrap_err();
        assert!(two_legs.contains("plain move d4b6"), "{two_legs}");
    }

    #[test]
    fn a_wrong_third_ply_is_refused_by_the_rules() {
        let game = Game::start(crate::variant::Variant::Gladiator);
        let p1 = read_p1(&game, &parse_move("c2c7").unwrap()).unwrap();
        assert!(complete(&game, &p1, &parse_move("c2c3").unwrap()).is_err());
        assert!(complete(&game, &p1, &parse_move("b1c3q").unwrap()).is_err());
        let whole = complete(&game, &p1, &parse_move("h1h2").unwrap()).unwrap();
        assert_eq!(whole.to_string(), "c2c7,h1h2");
    }
}
