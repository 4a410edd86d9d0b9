//! How XBoard is shown Pagan Chess: `setup`'s tables, and each turn as three plies
//! (`protocol-docs/cecp.md`): the move (a withdrawal from a dead piece is `FV,VT`: XBoard
//! removes the piece on the "kill square" V), the victim's owner dropping it on its dead-board
//! square (`@@@@` when nothing reincarnates), and a null third ply.

use crate::geometry::Square;
use crate::notation::{Leg, WireMove};
use crate::rules::{PlyError, XboardCodec, XboardSetup};

use super::pagan::{self, Kind, Move, Position};

/// XBoard's null move.
const NULL: &str = "@@@@";

fn square(i: u8) -> Square {
    pagan::frame().square(usize::from(i))
}

/// Splits one of the engine's moves into its first and third plies.
fn encode(pos: &Position, mv: Move) -> (String, String) {
    let (from, to) = (square(mv.from), square(mv.to));
    let suffix = match mv.promotion {
        Some(_) => match mv.to_wire() {
            WireMove::Legs {
                promotion: Some(c), ..
            } => c.to_string(),
            _ => String::new(),
        },
        None if pos.at(mv.from).is_some_and(|p| p.kind == Kind::Pawn)
            && (to.rank == 1 || to.rank == 11) =>
        {
            "p".to_string()
        }
        None => String::new(),
    };
    // A withdrawal from a dead piece removes it from the game: XBoard's "kill square" leg does
    // exactly that. A withdrawal from a live piece is a plain move; the victim's owner then
    // moves it to the dead board (P2).
    let p1 = match pos.withdrawal_victim(mv) {
        Some(v) if pagan::is_dead(v) => format!("{from}{},{}{to}", square(v), square(v)),
        _ => format!("{from}{to}{suffix}"),
    };
    (p1, NULL.to_string())
}

/// Reads the opponent's first ply (a move, `FV,VT` for a withdrawal, or XBoard's garbled relay
/// of Black's `FT,V?`) into Quill's move, checked.
///
/// # Errors
/// Why the ply is no legal move.
fn decode(pos: &Position, mv: &WireMove) -> Result<WireMove, PlyError> {
    let WireMove::Legs { legs, promotion } = mv else {
        return Err(PlyError::NotALeg(mv.clone()));
    };
    let (from, to) = match legs.as_slice() {
        [leg] => (leg.from, leg.to),
        [a, c] if a.to == c.from => (a.from, c.to),
        [a, _] => (a.from, a.to),
        _ => return Err(PlyError::NotALeg(mv.clone())),
    };
    // The kill square of a two-leg form: `FV,VT` as sent, `FT,V?` as XBoard relays Black's.
    let kill = match legs.as_slice() {
        [a, c] if a.to == c.from => Some(a.to),
        [_, c] => Some(c.from),
        _ => None,
    };
    let quill = WireMove::Legs {
        legs: vec![Leg { from, to }],
        promotion: promotion.filter(|&c| c != 'p'),
    };
    let m = pos.parse_move(&quill)?;
    // XBoard removes the piece on a kill square, so the two-leg form is right exactly when the
    // move withdraws from a dead piece, which leaves the game.
    let dead_victim = pos
        .withdrawal_victim(m)
        .filter(|&v| pagan::is_dead(v))
        .map(square);
    let leg = Leg { from, to };
    match (dead_victim, kill) {
        (Some(v), Some(k)) if v == k => Ok(quill),
        (Some(victim), _) => Err(PlyError::DeadVictim { leg, victim }),
        (None, Some(kill)) => Err(PlyError::NoKill { leg, kill }),
        (None, None) => Ok(quill),
    }
}

fn piece_name(letter: char) -> &'static str {
    match letter.to_ascii_lowercase() {
        'p' => "pawn",
        'k' => "king",
        'w' => "wazir",
        'a' => "alchemist",
        'g' => "pagan",
        _ => "piece",
    }
}

impl XboardCodec for Position {
    fn setup((): ()) -> XboardSetup {
        // Pawn P; the Pagan, a short queen, on the Queen's type; the Alchemist on the
        // alfil-like Elephant; the Wazir on the Wazir; King K. All but the King within the
        // first ten types, so that XBoard's holdings (for reincarnation) reach them; ten
        // holdings slots reach the Wazir's type (the King has a slot of its own). The Pagan
        // (withdrawal, the bridge) and the pawns (sideways, promotion squares) need
        // `highlight`; the others Betza can state.
        XboardSetup {
            piece_to_char: "P...G.A..W...........Kp...g.a..w...........k",
            parent: "10_super",
            betza: &[('K', "K"), ('W', "W2"), ('A', "FA")],
            plies: true,
        }
    }

    fn read_p1(&self, p1: &WireMove) -> Result<WireMove, PlyError> {
        decode(self, p1)
    }

    /// The victim's owner puts it on its dead-board square, by a drop from the hand when
    /// XBoard took it (a capture by landing sends it there) or by moving it when a withdrawal
    /// left it on XBoard's board; null when nothing reincarnates.
    fn p2(&self, partial: &WireMove) -> (WireMove, String) {
        let nothing = || (WireMove::Pass, "nothing reincarnates".to_string());
        let Ok(m) = self.parse_move(partial) else {
            return nothing();
        };
        match (self.reincarnation(m), self.withdrawal_victim(m)) {
            (Some((_, dead)), Some(v)) => {
                let (from, to) = (square(v), square(dead));
                let letter = self.at(v).map_or('?', |p| p.letter());
                let why = format!(
                    "the captured {} on {from} reincarnates on {to}",
                    piece_name(letter)
                );
                (WireMove::simple(from, to), why)
            }
            (Some((piece, dead)), None) => {
                let letter = piece.letter().to_ascii_uppercase();
                let to = square(dead);
                let why = format!("the captured {} reincarnates on {to}", piece_name(letter));
                (WireMove::Drop { piece: letter, to }, why)
            }
            (None, _) => nothing(),
        }
    }

    fn complete(&self, partial: &WireMove, p3: &WireMove) -> Result<WireMove, PlyError> {
        match p3 {
            WireMove::Pass => Ok(partial.clone()),
            _ => Err(PlyError::PaganP3),
        }
    }

    fn split(&self, turn: &WireMove) -> Option<(String, String)> {
        self.parse_move(turn).ok().map(|m| encode(self, m))
    }
}
