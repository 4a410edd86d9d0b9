//! The variant-independent face of the rules: a [`Game`] is a position of any variant. Every
//! operation goes through the [`GameRules`] trait, and the one place that lists the variants'
//! types is the crate's `registry!` (`lib.rs`), from which [`Game`], the `each!` dispatch
//! macro and `Game::start`/`Game::from_fen` (which map a [`Variant`] to its type and rule set)
//! are made.

use std::sync::atomic::AtomicBool;

use crate::geometry::{Geometry, Square};
use crate::notation::{WireMove, WireTurn};
use crate::rules::{GameRules, PlyError, XboardCodec, XboardSetup};
use crate::variant::{Side, Variant};

pub(crate) use crate::board::board_text;
pub use crate::rules::{End, GameError, Outcome, Penalty};

/// Declares [`Game`], the `each!` dispatch and the maps from a [`Variant`] to its family's
/// type and rule set, from the crate's `registry!` (`lib.rs`); `$d` is a `$` for the macro
/// it declares.
macro_rules! declare_games {
    ($(
        $(#[$family_doc:meta])*
        $family:ident($ty:ty),
        sealed: $sealed:literal,
        pieces: $pieces:tt,
        { $( $(#[$doc:meta])* $arm:ident => $name:literal, $set:expr; )+ }
    )+) => {
        declare_games!(@with ($) $(($(#[$family_doc])* $family($ty) { $($arm, $set;)+ }))+);
    };
    (@with ($d:tt) $(($(#[$family_doc:meta])* $family:ident($ty:ty) { $($arm:ident, $set:expr;)+ }))+) => {
        /// A position of any variant.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Game {
            $($(#[$family_doc])* $family($ty),)+
        }

        /// Runs `$body` with `$p` bound to the position inside a [`Game`], whatever its
        /// variant: the one `match` over the variants' types.
        macro_rules! each {
            ($d game:expr, $d p:ident => $d body:expr) => {
                match $d game {
                    $(Game::$family($d p) => $d body,)+
                }
            };
        }

        impl Game {
            /// The start position of a variant.
            pub fn start(variant: Variant) -> Game {
                match variant {
                    $($(Variant::$arm => Game::$family(GameRules::start($set)),)+)+
                }
            }

            /// Sets a position up from a FEN.
            ///
            /// # Errors
            /// [`GameError::BadFen`] naming the fault.
            pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, GameError> {
                Ok(match variant {
                    $($(Variant::$arm => Game::$family(GameRules::from_fen($set, fen)?),)+)+
                })
            }
        }

        impl Variant {
            /// XBoard's `setup` tables for the variant, as its module states them.
            pub(crate) fn xboard(self) -> XboardSetup {
                match self {
                    $($(Variant::$arm => <$ty as XboardCodec>::setup($set),)+)+
                }
            }
        }
    };
}

registry!(declare_games);
pub(crate) use each;

/// What [`Game::visit`] runs on the position inside a [`Game`]: code written once for every
/// variant's [`GameRules`] type.
pub trait Visit {
    /// What the visit answers.
    type Out;
    /// Runs on a position of one variant.
    fn visit<R: GameRules>(self, pos: &R) -> Self::Out;
}

/// The legal moves of `side` in a position, as written on the wire.
fn wire_moves<R: GameRules>(pos: &R, side: Side) -> Vec<WireMove> {
    let mut moves = Vec::new();
    pos.legal_moves(side, &mut moves);
    moves.into_iter().map(R::wire).collect()
}

/// Plays a written turn on a position, in place.
fn play_on<R: GameRules>(pos: &mut R, turn: &WireTurn) -> Result<Vec<Penalty>, GameError> {
    let (parsed, penalties) = pos.read_turn(turn)?;
    *pos = pos.play(parsed);
    Ok(penalties)
}

impl Game {
    /// Runs `visitor` on the position, as its variant's own [`GameRules`] type.
    pub fn visit<V: Visit>(&self, visitor: V) -> V::Out {
        each!(self, p => visitor.visit(p))
    }

    /// The variant.
    pub(crate) fn variant(&self) -> Variant {
        each!(self, p => p.variant())
    }

    /// The board geometry.
    pub fn geometry(&self) -> &'static Geometry {
        each!(self, p => GameRules::geometry(p))
    }

    /// The FEN of the position.
    pub fn fen(&self) -> String {
        each!(self, p => p.fen())
    }

    /// The side to move, or `None` in a sealed game (both move at once).
    pub fn side_to_move(&self) -> Option<Side> {
        each!(self, p => GameRules::side_to_move(p))
    }

    /// The alternating search's key of the position ([`crate::search::Searchable::key`]);
    /// `None` in a sealed game.
    pub(crate) fn search_key(&self) -> Option<u64> {
        each!(self, p => p.search_key())
    }

    /// The search keys ([`Game::search_key`]) of the positions of an alternating game that
    /// starts at `self` and plays `turns`, before the last turn: the start position first,
    /// the position reached by the last turn left out. Empty for a sealed game; stops at the
    /// first turn that cannot be played.
    pub(crate) fn search_keys(&self, turns: &[WireTurn]) -> Vec<u64> {
        let mut keys = Vec::with_capacity(turns.len());
        let mut game = self.clone();
        for turn in turns {
            let Some(key) = game.search_key() else {
                return Vec::new();
            };
            keys.push(key);
            if game.play(turn).is_err() {
                break;
            }
        }
        keys
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, p => p.end()).map(End::outcome)
    }

    /// Plays a turn. In a sealed game a well-formed illegal move is not an error: it earns its
    /// penalty, listed in the answer.
    ///
    /// # Errors
    /// The game is over, the turn has the wrong shape, or a token is not a move of the variant;
    /// the game is unchanged.
    pub fn play(&mut self, turn: &WireTurn) -> Result<Vec<Penalty>, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        each!(self, p => play_on(p, turn))
    }

    /// The legal moves of a side (in a sealed game, that side's half of a turn; a forced pass
    /// is listed as `0000`).
    pub fn legal_moves(&self, side: Side) -> Vec<WireMove> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        each!(self, p => wire_moves(p, side))
    }

    /// The legal turns, in the notation of `position … moves`.
    pub(crate) fn legal_turns(&self) -> Vec<WireTurn> {
        match self.side_to_move() {
            Some(side) => self
                .legal_moves(side)
                .into_iter()
                .map(WireTurn::Single)
                .collect(),
            None => {
                let (w, b) = (self.legal_moves(Side::White), self.legal_moves(Side::Black));
                w.iter()
                    .flat_map(|wm| {
                        b.iter()
                            .map(move |bm| WireTurn::Joint(wm.clone(), bm.clone()))
                    })
                    .collect()
            }
        }
    }

    /// Counts the sequences of `depth` turns (`protocol-docs/rules.md`: a finished game has no children).
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_until(depth, &AtomicBool::new(false))
            .unwrap_or_default()
    }

    /// [`Game::perft`] that gives up (`None`) soon after `stop` is set.
    pub(crate) fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        each!(self, p => crate::perft::perft(p, depth, stop))
    }

    /// perft split by the first turn: one `(turn, count)` per legal turn.
    pub fn perft_divide(&self, depth: u32) -> Vec<(WireTurn, u64)> {
        self.perft_divide_until(depth, &AtomicBool::new(false))
            .unwrap_or_default()
    }

    /// [`Game::perft_divide`] that gives up (`None`) soon after `stop` is set.
    pub(crate) fn perft_divide_until(
        &self,
        depth: u32,
        stop: &AtomicBool,
    ) -> Option<Vec<(WireTurn, u64)>> {
        if depth == 0 {
            return Some(Vec::new());
        }
        self.legal_turns()
            .into_iter()
            .filter_map(|t| {
                let mut child = self.clone();
                // A listed turn always plays; one that did not would be left out.
                child.play(&t).ok()?;
                Some(child.perft_until(depth - 1, stop).map(|n| (t, n)))
            })
            .collect()
    }

    /// The owner of the piece on a square, if any.
    pub fn owner(&self, sq: Square) -> Option<Side> {
        let c = self.piece_at(sq)?;
        Some(if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        })
    }

    /// A text diagram of the board.
    pub(crate) fn diagram(&self) -> String {
        each!(self, p => p.diagram())
    }

    /// The FEN letter of the piece on a square (upper case White), `None` when it is empty or
    /// not on the board.
    pub(crate) fn piece_at(&self, sq: Square) -> Option<char> {
        each!(self, p => p.piece_at(sq))
    }

    /// Extra status lines of `d` after `Fen:` (penalties of a sealed game).
    pub(crate) fn status_lines(&self) -> Vec<String> {
        each!(self, p => p.status_lines())
    }

    /// Each side's penalty points, White's first ([`GameRules::penalty_points`]).
    pub(crate) fn penalty_points(&self) -> [u8; 2] {
        each!(self, p => p.penalty_points())
    }

    /// Reads and checks the opponent's first XBoard ply ([`XboardCodec::read_p1`]).
    ///
    /// # Errors
    /// Why the ply cannot begin a legal turn.
    pub(crate) fn read_p1(&self, p1: &WireMove) -> Result<WireMove, PlyError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlyError::GameOver(outcome));
        }
        each!(self, p => p.read_p1(p1))
    }

    /// The middle XBoard ply after a partial turn, with why it is that one
    /// ([`XboardCodec::p2`]).
    pub(crate) fn p2(&self, partial: &WireMove) -> (WireMove, String) {
        each!(self, p => p.p2(partial))
    }

    /// The opponent's whole turn from its partial turn and third XBoard ply
    /// ([`XboardCodec::complete`]).
    ///
    /// # Errors
    /// Why the third ply cannot end the turn.
    pub(crate) fn complete(&self, partial: &WireMove, p3: &WireMove) -> Result<WireMove, PlyError> {
        each!(self, p => p.complete(partial, p3))
    }

    /// The engine's own turn as its first and third XBoard plies ([`XboardCodec::split`]).
    pub(crate) fn split(&self, turn: &WireMove) -> Option<(String, String)> {
        each!(self, p => p.split(turn))
    }
}

impl Variant {
    /// XBoard's piece-to-character table for `setup` ([`XboardSetup::piece_to_char`]).
    pub(crate) fn piece_to_char(self) -> &'static str {
        self.xboard().piece_to_char
    }

    /// The holdings size and parent variant XBoard's `setup` names ([`XboardSetup::parent`]).
    pub(crate) fn xboard_parent(self) -> &'static str {
        self.xboard().parent
    }

    /// Whether XBoard is shown each turn as three plies ([`XboardSetup::plies`]).
    pub(crate) fn xboard_plies(self) -> bool {
        self.xboard().plies
    }

    /// Moves of the pieces XBoard can describe ([`XboardSetup::betza`]).
    pub(crate) fn betza(self) -> &'static [(char, &'static str)] {
        self.xboard().betza
    }
}
