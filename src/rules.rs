//! The [`GameRules`] trait every variant implements, and the types its answers share: how a
//! position ended ([`End`], [`Outcome`]), a sealed turn's [`Penalty`], and the typed errors of
//! each stage of reading a turn ([`GameError`], [`Refusal`]). FEN faults are
//! [`crate::board::FenError`]. How XBoard is shown a variant (`XboardCodec`, its `setup`
//! tables and the typed refusal of a ply) is in the `xboard` submodule.
//!
//! Module picture (an arrow means "uses"; there is no circle): `geometry`, `notation`,
//! `variant` ← `board` ← `rules` ← `variants::*` ← `game` ← `perft`, `player`, `session`,
//! `referee`. The sealed search (`simsearch`) uses `variants::apocalypse` and `score`, never
//! `player`. The list of variants is the crate root's `registry!` macro, which `variant` and
//! `game` expand (only `game` resolves the variants' types in it).

use std::fmt;

use crate::board::FenError;
use crate::geometry::{Geometry, Square};
use crate::notation::{Leg, WireMove, WireTurn};
use crate::variant::{Side, Variant};

mod xboard;

pub(crate) use xboard::{PlyError, XboardCodec, XboardSetup};

/// The rules of one variant (or of a family of rule sets sharing a board), as the
/// variant-independent code needs them: [`crate::game::Game`], the generic perft and the
/// protocols' codecs. Implemented by each variant's `Position`, by delegating to its own
/// inherent methods.
pub trait GameRules: Clone + fmt::Debug + Sized {
    /// Which rule set of the family (`()` when there is one).
    type RuleSet: Copy;
    /// One side's move.
    type Move: Copy + PartialEq + fmt::Debug;
    /// What [`GameRules::play`] takes: a move in an alternating game, both sides' (possibly
    /// illegal) moves in a sealed one.
    type Turn: Copy;

    /// The start position.
    fn start(set: Self::RuleSet) -> Self;
    /// Sets a position up from a FEN.
    ///
    /// # Errors
    /// The first fault of the FEN.
    fn from_fen(set: Self::RuleSet, fen: &str) -> Result<Self, FenError>;
    /// The variant this position is of.
    fn variant(&self) -> Variant;
    /// The board.
    fn geometry(&self) -> &'static Geometry;
    /// The FEN of the position.
    fn fen(&self) -> String;
    /// The side to move, `None` in a sealed game (both move at once).
    fn side_to_move(&self) -> Option<Side>;
    /// The FEN letter of the piece on a square, `None` when empty or off the board.
    fn piece_at(&self, sq: Square) -> Option<char>;
    /// A text diagram of the board.
    fn diagram(&self) -> String {
        crate::board::diagram(self.geometry(), |sq| self.piece_at(sq))
    }
    /// How the game has ended, if it has.
    fn end(&self) -> Option<End>;
    /// The legal moves of `side` into `out` (cleared first): in a sealed game that side's half
    /// of a turn, in an alternating game nothing for the side not to move.
    fn legal_moves(&self, side: Side, out: &mut Vec<Self::Move>);
    /// A move as written on the wire.
    fn wire(mv: Self::Move) -> WireMove;
    /// The legal turns into `out` (cleared first); none once the game has ended.
    fn legal_turns(&self, out: &mut Vec<Self::Turn>);
    /// How many turns [`GameRules::legal_turns`] lists (a variant may count faster).
    fn count_turns(&self) -> u64 {
        let mut turns = Vec::new();
        self.legal_turns(&mut turns);
        turns.len() as u64
    }
    /// Reads a written turn: the turn to play, with the penalties it earns in a sealed game.
    ///
    /// # Errors
    /// The turn has the wrong shape, a token is no move of the variant, or (in an alternating
    /// game) the move is illegal.
    fn read_turn(&self, turn: &WireTurn) -> Result<(Self::Turn, Vec<Penalty>), GameError>;
    /// The position after a turn.
    fn play(&self, turn: Self::Turn) -> Self;
    /// Extra status lines of `d` after `Fen:`.
    fn status_lines(&self) -> Vec<String> {
        Vec::new()
    }
    /// Each side's penalty points, White's first (a sealed game's; none elsewhere).
    fn penalty_points(&self) -> [u8; 2] {
        [0, 0]
    }
    /// The alternating search's key of the position; `None` in a sealed game.
    fn search_key(&self) -> Option<u64> {
        None
    }
}

/// Why a variant's position has ended, as its rules say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The given side has won.
    Win(Side, &'static str),
    /// Drawn.
    Draw(&'static str),
}

impl End {
    /// The outcome it means.
    pub(crate) fn outcome(self) -> Outcome {
        match self {
            End::Win(side, why) => Outcome {
                winner: Some(side),
                reason: why.to_string(),
            },
            End::Draw(why) => Outcome {
                winner: None,
                reason: why.to_string(),
            },
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub(crate) winner: Option<Side>,
    /// Why, in words (`Black has no footmen left`).
    pub reason: String,
}

impl Outcome {
    /// The PGN-style result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{{}}}", self.result(), self.reason)
    }
}

/// A penalty earned in a sealed turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Penalty {
    /// Who wrote the illegal move.
    pub side: Side,
    /// The move as written.
    pub mv: String,
    /// Why it is illegal.
    pub reason: &'static str,
}

impl Penalty {
    /// The PGN comment and the human seat's message of a turn's penalties
    /// (`penalty white a1a2 (reason); …`), None when there are none.
    pub(crate) fn comment(penalties: &[Penalty]) -> Option<String> {
        (!penalties.is_empty()).then(|| {
            penalties
                .iter()
                .map(|p| format!("penalty {} {} ({})", p.side.word(), p.mv, p.reason))
                .collect::<Vec<_>>()
                .join("; ")
        })
    }
}

/// Why a turn or a position was refused; the game is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over; no turn can be played.
    GameOver(Outcome),
    /// The text is not a move of this variant (e.g. three legs in Apocalypse).
    NotAMove(String),
    /// A single move where a sealed game needs a joint turn `W|B`.
    NeedsJoint(WireTurn),
    /// A joint turn `W|B` in an alternating game.
    NotSealed {
        /// The turn as written.
        turn: WireTurn,
        /// The game's variant.
        variant: Variant,
    },
    /// An illegal move in an alternating game.
    Illegal {
        /// The move as written.
        mv: String,
        /// Why it is illegal.
        reason: Refusal,
    },
    /// A FEN that does not describe a position of the variant.
    BadFen(FenError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(o) => write!(f, "the game is over ({o})"),
            GameError::NotAMove(t) => write!(f, "'{t}' is not a move of this variant"),
            GameError::NeedsJoint(t) => {
                write!(f, "'{t}' is one move; a sealed turn is written WHITE|BLACK")
            }
            GameError::NotSealed { turn, variant } => {
                write!(
                    f,
                    "'{turn}' is a joint turn; {variant} is not a sealed game"
                )
            }
            GameError::Illegal { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
            GameError::BadFen(m) => write!(f, "bad FEN: {m}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<FenError> for GameError {
    fn from(e: FenError) -> GameError {
        GameError::BadFen(e)
    }
}

/// Why the rules of an alternating game refuse a written move. [`fmt::Display`] gives the
/// text printed after `illegal move MOVE: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A pass or a drop in a game that has neither (`what`: `turn` or `move`).
    PassOrDrop(&'static str),
    /// A promotion letter in a game without promotion.
    NoPromotion,
    /// A leg off the board (`board`) or the frame (`frame`).
    OffBoard(Leg, &'static str),
    /// A pawn leg the pawn cannot make.
    PawnCannotGo {
        /// The pawn's square.
        from: Square,
        /// The target.
        to: Square,
    },
    /// A displaced supporter not placed.
    MustPlace(Square),
    /// A placement on an occupied square.
    NotVacant(Square),
    /// No pawn move where one exists.
    PawnCompulsory,
    /// Neither a pawn nor a supporter moves.
    SupporterMustMove,
    /// A supporter move the rules do not allow.
    BadSupporter {
        /// The move.
        leg: Leg,
        /// What a supporter move is in the rule set.
        what: &'static str,
        /// Whether it had to give a pawn move (no pawn moved).
        must_free_pawn: bool,
    },
    /// More legs than a turn has.
    TooManyLegs(usize),
    /// A move of more than one leg.
    OneLeg,
    /// A promotion letter that names no promotion piece.
    BadPromotion(char),
    /// A promotion where none is allowed.
    PromotionNotAllowed,
    /// A pawn move that must promote, written without a letter.
    MustPromote,
    /// The move leaves the mover's king attacked.
    KingAttacked,
    /// No piece on the from-square.
    NoPiece,
    /// The piece is the opponent's.
    NotMovers,
    /// The piece cannot move there.
    CannotMove,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::PassOrDrop(what) => write!(f, "a pass or a drop is never a {what} here"),
            Refusal::NoPromotion => f.write_str("pawns never promote here"),
            Refusal::OffBoard(leg, board) => write!(f, "{leg} leaves the {board}"),
            Refusal::PawnCannotGo { from, to } => {
                write!(f, "the pawn on {from} cannot go to {to}")
            }
            Refusal::MustPlace(sq) => {
                write!(
                    f,
                    "the supporter displaced from {sq} must be placed: add {sq}XX"
                )
            }
            Refusal::NotVacant(sq) => write!(f, "{sq} is not vacant"),
            Refusal::PawnCompulsory => f.write_str("a pawn move is compulsory when one exists"),
            Refusal::SupporterMustMove => f.write_str("without a pawn move a supporter must move"),
            Refusal::BadSupporter {
                leg,
                what,
                must_free_pawn,
            } => {
                let extra = if *must_free_pawn {
                    " that gives a pawn move"
                } else {
                    ""
                };
                write!(f, "{leg} is not {what}{extra}")
            }
            Refusal::TooManyLegs(n) => write!(f, "too many legs ({n})"),
            Refusal::OneLeg => f.write_str("a move has one leg"),
            Refusal::BadPromotion(c) => write!(f, "a pawn promotes to w, a or g, not '{c}'"),
            Refusal::PromotionNotAllowed => f.write_str("that promotion is not allowed here"),
            Refusal::MustPromote => f.write_str("the pawn must promote: add w, a or g"),
            Refusal::KingAttacked => f.write_str("it leaves the king on the dead board attacked"),
            Refusal::NoPiece => f.write_str("no piece on the from-square"),
            Refusal::NotMovers => f.write_str("that piece is not the mover's"),
            Refusal::CannotMove => f.write_str("the piece cannot move there"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Reads a single move of an alternating game (refusing a joint turn).
///
/// # Errors
/// [`GameError::NotSealed`] for a joint turn.
pub(crate) fn single<'a, R: GameRules>(
    pos: &R,
    turn: &'a WireTurn,
) -> Result<&'a WireMove, GameError> {
    match turn {
        WireTurn::Single(mv) => Ok(mv),
        WireTurn::Joint(..) => Err(GameError::NotSealed {
            turn: turn.clone(),
            variant: pos.variant(),
        }),
    }
}

/// Reads a one-move turn with `parse`, the variant's own reading of a wire move: the shape is
/// checked by [`single`], a refusal becomes [`GameError::Illegal`]. Alternating games have no
/// penalties.
///
/// # Errors
/// [`GameError::NotSealed`] for a joint turn, [`GameError::Illegal`] for a refused move.
pub(crate) fn read_single<R: GameRules, T>(
    pos: &R,
    turn: &WireTurn,
    parse: impl FnOnce(&WireMove) -> Result<T, Refusal>,
) -> Result<(T, Vec<Penalty>), GameError> {
    let mv = single(pos, turn)?;
    let parsed = parse(mv).map_err(|reason| GameError::Illegal {
        mv: mv.to_string(),
        reason,
    })?;
    Ok((parsed, Vec::new()))
}
