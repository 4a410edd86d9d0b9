//! How XBoard is shown Gladiator and Brawl: `setup`'s tables, and each turn as three plies
//! (pawn leg, the opponent's null or drop, supporter move; `protocol-docs/cecp.md`).
//!
//! A Brawl pawn that lands on an enemy supporter at X, which goes to T, is `FT,TX` (`FX` when
//! T = F); White's form arrives as sent, Black's as XBoard garbles it, `FX,T?`. A pawn leg that
//! ends on the first or last rank carries XBoard's `p` ("stays a pawn").

use crate::geometry::Square;
use crate::notation::{Leg, WireMove};
use crate::rules::{PlyError, XboardCodec, XboardSetup};

use super::gladiator::{Position, Rules, Turn};

/// XBoard's null move.
const NULL: &str = "@@@@";

fn edge_suffix(to: Square) -> &'static str {
    if to.rank == 1 || to.rank == 8 {
        "p"
    } else {
        ""
    }
}

/// Splits one of the engine's turns into its first and third plies.
fn encode(turn: Turn) -> (String, String) {
    let p1 = match turn.pawn_leg() {
        Some((from, to)) => {
            let suffix = edge_suffix(to);
            match turn.placement() {
                Some(t) if t != from => format!("{from}{t},{t}{to}{suffix}"),
                _ => format!("{from}{to}{suffix}"),
            }
        }
        None => NULL.to_string(),
    };
    let p3 = match turn.supporter_leg() {
        Some((from, to)) => format!("{from}{to}"),
        None => NULL.to_string(),
    };
    (p1, p3)
}

/// Reads the opponent's first ply into Quill's legs (pawn leg, then the placement leg if any),
/// in the position before it.
///
/// # Errors
/// When the ply is no pawn leg of the encoding.
fn decode_p1(pos: &Position, mv: &WireMove) -> Result<Vec<Leg>, PlyError> {
    let legs = match mv {
        WireMove::Pass => return Ok(Vec::new()),
        WireMove::Drop { .. } => return Err(PlyError::DropFirst),
        WireMove::Legs {
            promotion: Some(c), ..
        } if *c != 'p' => return Err(PlyError::NoPromotion(*c)),
        WireMove::Legs { legs, .. } => legs,
    };
    let (from, to, place) = match legs.as_slice() {
        [leg] => (leg.from, leg.to, None),
        [a, c] if a.to == c.from => (a.from, c.to, Some(a.to)),
        [a, c] => (a.from, a.to, Some(c.from)),
        _ => return Err(PlyError::NotALeg(mv.clone())),
    };
    let displaces = pos
        .piece_at(to)
        .is_some_and(|c| !c.eq_ignore_ascii_case(&'p'));
    if place.is_some() && !displaces {
        return Err(PlyError::NothingDisplaced { from, to });
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

/// Checks that the first ply can begin a legal turn: its legs alone are one (the supporter
/// move is optional after a pawn move), or it is null and the mover has no pawn move.
///
/// # Errors
/// Why the ply cannot begin a turn.
fn check_p1(pos: &Position, legs: Vec<Leg>) -> Result<Vec<Leg>, PlyError> {
    if legs.is_empty() {
        return if pos.has_pawn_move() {
            Err(PlyError::PawnCompulsory)
        } else {
            Ok(legs)
        };
    }
    let turn = WireMove::Legs {
        legs: legs.clone(),
        promotion: None,
    };
    pos.parse_turn(&turn)?;
    Ok(legs)
}

/// The whole turn in Quill's notation from the decoded first-ply legs and the third ply.
///
/// # Errors
/// When the third ply cannot end a turn.
fn whole(mut legs: Vec<Leg>, p3: &WireMove) -> Result<WireMove, PlyError> {
    match p3 {
        WireMove::Pass => {}
        WireMove::Legs {
            legs: more,
            promotion: None,
        } if more.len() == 1 => legs.extend_from_slice(more),
        WireMove::Legs {
            promotion: Some(c), ..
        } => return Err(PlyError::SupporterPromotion(*c)),
        other => return Err(PlyError::NotLast(other.clone())),
    }
    if legs.is_empty() {
        return Err(PlyError::Empty);
    }
    Ok(WireMove::Legs {
        legs,
        promotion: None,
    })
}

/// The legs of a partial turn (none for a null first ply).
fn legs_of(partial: &WireMove) -> Vec<Leg> {
    match partial {
        WireMove::Legs { legs, .. } => legs.clone(),
        _ => Vec::new(),
    }
}

fn piece_name(letter: char) -> &'static str {
    match letter.to_ascii_lowercase() {
        'p' => "pawn",
        'n' => "knight",
        'b' => "bishop",
        'r' => "rook",
        'q' => "queen",
        'k' => "king",
        _ => "piece",
    }
}

impl XboardCodec for Position {
    fn setup(set: Rules) -> XboardSetup {
        // Pawns borrow moves and Gladiator supporters jump anywhere on the border: Betza cannot
        // say it (`highlight` answers `lift` instead). The one line keeps XBoard from taking a
        // King's two-file jump for castling: a King with an initial-only move never castles.
        // Gladiator names `lion`, so that XBoard relays null moves as `usermove @@@@`; Brawl
        // names `super` with 6 holdings, so that a displaced supporter goes to its owner's
        // hand, whence its owner drops it.
        XboardSetup {
            piece_to_char: "PNBRQ................Kpnbrq................k",
            parent: match set {
                Rules::Gladiator => "0_lion",
                Rules::Brawl => "6_super",
            },
            betza: &[('K', "KiW")],
            plies: true,
        }
    }

    fn read_p1(&self, p1: &WireMove) -> Result<WireMove, PlyError> {
        let legs = check_p1(self, decode_p1(self, p1)?)?;
        Ok(if legs.is_empty() {
            WireMove::Pass
        } else {
            WireMove::Legs {
                legs,
                promotion: None,
            }
        })
    }

    fn p2(&self, partial: &WireMove) -> (WireMove, String) {
        match legs_of(partial).as_slice() {
            [pawn, place] => {
                let piece = self
                    .piece_at(pawn.to)
                    .map_or('?', |c| c.to_ascii_uppercase());
                let why = format!("the displaced {} goes to {}", piece_name(piece), place.to);
                (
                    WireMove::Drop {
                        piece,
                        to: place.to,
                    },
                    why,
                )
            }
            _ => (
                WireMove::Pass,
                "the opponent moves nothing in the middle of a turn".to_string(),
            ),
        }
    }

    fn complete(&self, partial: &WireMove, p3: &WireMove) -> Result<WireMove, PlyError> {
        let turn = whole(legs_of(partial), p3)?;
        self.parse_turn(&turn)?;
        Ok(turn)
    }

    fn split(&self, turn: &WireMove) -> Option<(String, String)> {
        self.parse_turn(turn).ok().map(encode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

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
    }

    #[test]
    fn a_turn_splits_into_its_plies() {
        let pos = Position::from_fen(Rules::Brawl, "4k3/1p6/8/4n3/3P4/8/8/B3K3 w - - 0 1").unwrap();
        let turn = parse_move("d4e5,e5h3,e1e2").unwrap();
        assert_eq!(
            pos.split(&turn),
            Some(("d4h3,h3e5".to_string(), "e1e2".to_string()))
        );
        let partial = pos.read_p1(&parse_move("d4h3,h3e5").unwrap()).unwrap();
        assert_eq!(pos.p2(&partial).0.to_string(), "N@h3");
        let plain = parse_move("e1e2").unwrap();
        assert_eq!(pos.split(&plain), None, "a pawn move is compulsory");
    }
}
