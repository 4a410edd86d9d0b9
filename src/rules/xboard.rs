//! How XBoard is shown a variant ([`XboardCodec`]): `setup`'s tables and the three-ply encoding
//! of a turn XBoard cannot make in one move, with the typed refusal of a ply ([`PlyError`]).

use std::fmt;

use super::{GameRules, Outcome, Refusal};
use crate::geometry::Square;
use crate::notation::{Leg, WireMove};

/// How XBoard is shown a variant: `setup`'s tables and, for a turn XBoard cannot make in one
/// move, the three-ply encoding (`protocol-docs/cecp.md`). The defaults are those of a game
/// XBoard sees one move at a time.
pub(crate) trait XboardCodec: GameRules {
    /// The `setup` tables of a rule set.
    fn setup(set: Self::RuleSet) -> XboardSetup;

    /// Reads and checks the opponent's first ply: the turn so far, in Quill's notation.
    ///
    /// # Errors
    /// Why the ply cannot begin a legal turn.
    fn read_p1(&self, _p1: &WireMove) -> Result<WireMove, PlyError> {
        Err(PlyError::NotInPlies)
    }
    /// The middle ply the opponent of the mover makes after the mover's partial turn, with
    /// why it is that one (for the message refusing another).
    fn p2(&self, _partial: &WireMove) -> (WireMove, String) {
        (
            WireMove::Pass,
            String::from("nothing happens in the middle of a turn"),
        )
    }
    /// The opponent's whole turn from its partial turn and third ply, checked.
    ///
    /// # Errors
    /// Why the third ply cannot end the turn.
    fn complete(&self, _partial: &WireMove, _p3: &WireMove) -> Result<WireMove, PlyError> {
        Err(PlyError::NotInPlies)
    }
    /// The engine's own turn as its first and third plies; `None` when the game is not shown
    /// in plies or the turn is no legal one.
    fn split(&self, _turn: &WireMove) -> Option<(String, String)> {
        None
    }
}

/// XBoard's `setup` tables for a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct XboardSetup {
    /// For each of XBoard's 22 piece types (P N B R Q F E A C W M O H I J G D V L S U K) the
    /// letter used, `.` for none; White's half, then Black's.
    pub(crate) piece_to_char: &'static str,
    /// The holdings size and parent variant named after the board size (`0_fairy`).
    pub(crate) parent: &'static str,
    /// The moves of the pieces XBoard can describe, as (piece letter, Betza notation).
    pub(crate) betza: &'static [(char, &'static str)],
    /// Whether each turn is shown as three plies.
    pub(crate) plies: bool,
}

/// Why a ply of XBoard's three-ply encoding is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PlyError {
    /// The game is over.
    GameOver(Outcome),
    /// The variant is not shown in plies.
    NotInPlies,
    /// A drop as the first ply.
    DropFirst,
    /// A promotion letter on a pawn leg of a game without promotion.
    NoPromotion(char),
    /// The text is no pawn leg (Gladiator, Brawl) or no move (Pagan).
    NotALeg(WireMove),
    /// A two-leg pawn leg that displaces nothing.
    NothingDisplaced {
        /// The pawn's square.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// A null first ply when a pawn move exists.
    PawnCompulsory,
    /// A supporter move with a promotion letter.
    SupporterPromotion(char),
    /// The text cannot end a turn.
    NotLast(WireMove),
    /// Two null plies.
    Empty,
    /// A Pagan withdrawal from a dead piece written as a plain move.
    DeadVictim {
        /// The withdrawal.
        leg: Leg,
        /// The dead piece's square.
        victim: Square,
    },
    /// A two-leg Pagan move that removes nothing.
    NoKill {
        /// The move as meant.
        leg: Leg,
        /// The kill square written.
        kill: Square,
    },
    /// The third ply of a Pagan turn is not null.
    PaganP3,
    /// The rules refuse the (partial) turn.
    Rules(Refusal),
    /// Another middle ply than the one the turn fixes.
    WrongMiddle {
        /// Why the middle ply is the expected one.
        why: String,
        /// The expected ply as XBoard writes it.
        expected: String,
    },
    /// The engine's own turn, whose middle ply is awaited, cannot be read.
    OwnTurnUnreadable,
}

impl fmt::Display for PlyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlyError::GameOver(o) => write!(f, "the game is over ({o})"),
            PlyError::NotInPlies => f.write_str("not a game shown in plies"),
            PlyError::DropFirst => f.write_str("a drop is not the first ply of a turn"),
            PlyError::NoPromotion(c) => write!(f, "pawns never promote here ('{c}')"),
            PlyError::NotALeg(mv) => write!(f, "'{mv}' is not a pawn leg"),
            PlyError::NothingDisplaced { from, to } => write!(
                f,
                "no supporter is displaced on {to}: the pawn leg is the plain move {from}{to}"
            ),
            PlyError::PawnCompulsory => f.write_str("a pawn move is compulsory when one exists"),
            PlyError::SupporterPromotion(c) => {
                write!(f, "a supporter move takes no promotion suffix ('{c}')")
            }
            PlyError::NotLast(mv) => write!(f, "'{mv}' is not the last ply of a turn"),
            PlyError::Empty => f.write_str("a turn of two null plies moves nothing"),
            PlyError::DeadVictim { leg, victim } => write!(
                f,
                "the withdrawal removes the dead piece on {victim} from the game: write {}{victim},{victim}{}",
                leg.from, leg.to
            ),
            PlyError::NoKill { leg, kill } => write!(
                f,
                "nothing leaves the game on {kill}: the move is the plain {}{}",
                leg.from, leg.to
            ),
            PlyError::PaganP3 => f.write_str("the third ply of a Pagan turn is always @@@@"),
            PlyError::Rules(r) => write!(f, "{r}"),
            PlyError::WrongMiddle { why, expected } => write!(f, "{why}: expected {expected}"),
            PlyError::OwnTurnUnreadable => f.write_str("the engine's own turn cannot be read"),
        }
    }
}

impl From<Refusal> for PlyError {
    fn from(r: Refusal) -> PlyError {
        PlyError::Rules(r)
    }
}
