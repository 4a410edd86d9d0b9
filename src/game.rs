//! The variant-independent face of the rules: a [`Game`] is a position of any variant, with
//! one exhaustive `match` per operation.

use std::fmt;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use crate::geometry::{Geometry, Square};
use crate::notation::{Turn, WireMove};
use crate::variant::{Side, Variant};
use crate::variants::{apocalypse, gladiator, pagan};

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
    pub fn outcome(self) -> Outcome {
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
    pub winner: Option<Side>,
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

/// Why a turn or a position was refused; the game is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over; no turn can be played.
    GameOver(Outcome),
    /// The text is not a move of this variant (e.g. three legs in Apocalypse).
    NotAMove(String),
    /// A single move where the variant needs a joint sealed turn `W|B`, or the reverse.
    WrongTurnShape(String),
    /// An illegal move in an alternating game.
    Illegal {
        /// The move as written.
        mv: String,
        /// Why it is illegal.
        reason: String,
    },
    /// A FEN that does not describe a position of the variant.
    BadFen(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(o) => write!(f, "the game is over ({o})"),
            GameError::NotAMove(t) => write!(f, "'{t}' is not a move of this variant"),
            GameError::WrongTurnShape(t) => write!(f, "{t}"),
            GameError::Illegal { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
            GameError::BadFen(m) => write!(f, "bad FEN: {m}"),
        }
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

/// A position of any variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Game {
    /// Apocalypse (either rule set).
    Apocalypse(apocalypse::Position),
    /// Gladiator or Brawl.
    Gladiator(gladiator::Position),
    /// Pagan Chess.
    Pagan(pagan::Position),
}

impl Game {
    /// The start position of a variant.
    pub fn start(variant: Variant) -> Game {
        match variant {
            Variant::Apocalypse => {
                Game::Apocalypse(apocalypse::Position::start(apocalypse::Rules::Seed))
            }
            Variant::ApocalypseClassic => {
                Game::Apocalypse(apocalypse::Position::start(apocalypse::Rules::Classic))
            }
            Variant::Gladiator => {
                Game::Gladiator(gladiator::Position::start(gladiator::Rules::Gladiator))
            }
            Variant::Brawl => Game::Gladiator(gladiator::Position::start(gladiator::Rules::Brawl)),
            Variant::Pagan => Game::Pagan(pagan::Position::start()),
        }
    }

    /// Sets a position up from a FEN.
    ///
    /// # Errors
    /// [`GameError::BadFen`] naming the fault.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, GameError> {
        let apocalypse = |rules| {
            apocalypse::Position::from_fen(rules, fen)
                .map(Game::Apocalypse)
                .map_err(|e| GameError::BadFen(e.0))
        };
        let gladiator = |rules| {
            gladiator::Position::from_fen(rules, fen)
                .map(Game::Gladiator)
                .map_err(|e| GameError::BadFen(e.0))
        };
        match variant {
            Variant::Apocalypse => apocalypse(apocalypse::Rules::Seed),
            Variant::ApocalypseClassic => apocalypse(apocalypse::Rules::Classic),
            Variant::Gladiator => gladiator(gladiator::Rules::Gladiator),
            Variant::Brawl => gladiator(gladiator::Rules::Brawl),
            Variant::Pagan => pagan::Position::from_fen(fen)
                .map(Game::Pagan)
                .map_err(|e| GameError::BadFen(e.0)),
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        match self {
            Game::Apocalypse(p) => match p.rules() {
                apocalypse::Rules::Seed => Variant::Apocalypse,
                apocalypse::Rules::Classic => Variant::ApocalypseClassic,
            },
            Game::Gladiator(p) => match p.rules() {
                gladiator::Rules::Gladiator => Variant::Gladiator,
                gladiator::Rules::Brawl => Variant::Brawl,
            },
            Game::Pagan(_) => Variant::Pagan,
        }
    }

    /// The board geometry.
    pub fn geometry(&self) -> &'static Geometry {
        match self {
            Game::Apocalypse(_) => &apocalypse::GEOMETRY,
            Game::Gladiator(_) => &gladiator::GEOMETRY,
            Game::Pagan(_) => pagan_geometry(),
        }
    }

    /// The FEN of the position.
    pub fn fen(&self) -> String {
        match self {
            Game::Apocalypse(p) => p.fen(),
            Game::Gladiator(p) => p.fen(),
            Game::Pagan(p) => p.fen(),
        }
    }

    /// The side to move, or `None` in a sealed game (both move at once).
    pub fn side_to_move(&self) -> Option<Side> {
        match self {
            Game::Apocalypse(_) => None,
            Game::Gladiator(p) => Some(p.side_to_move()),
            Game::Pagan(p) => Some(p.side_to_move()),
        }
    }

    /// The alternating search's key of the position ([`crate::search::Searchable::key`]);
    /// `None` in a sealed game.
    pub fn search_key(&self) -> Option<u64> {
        use crate::search::Searchable;
        match self {
            Game::Apocalypse(_) => None,
            Game::Gladiator(p) => Some(p.key()),
            Game::Pagan(p) => Some(p.key()),
        }
    }

    /// The search keys ([`Game::search_key`]) of the positions of an alternating game that
    /// starts at `self` and plays `turns`, before the last turn: the start position first,
    /// the position reached by the last turn left out. Empty for a sealed game; stops at the
    /// first turn that cannot be played.
    pub fn search_keys(&self, turns: &[Turn]) -> Vec<u64> {
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
        let end = match self {
            Game::Apocalypse(p) => p.end(),
            Game::Gladiator(p) => p.end(),
            Game::Pagan(p) => p.end(),
        };
        end.map(End::outcome)
    }

    /// Plays a turn. In a sealed game a well-formed illegal move is not an error: it earns its
    /// penalty, listed in the answer.
    ///
    /// # Errors
    /// The game is over, the turn has the wrong shape, or a token is not a move of the variant;
    /// the game is unchanged.
    pub fn play(&mut self, turn: &Turn) -> Result<Vec<Penalty>, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        match self {
            Game::Apocalypse(p) => {
                let Turn::Joint(w, b) = turn else {
                    return Err(GameError::WrongTurnShape(format!(
                        "'{turn}' is one move; a sealed turn is written WHITE|BLACK"
                    )));
                };
                let jw = p
                    .judge(Side::White, w)
                    .map_err(|_| GameError::NotAMove(w.to_string()))?;
                let jb = p
                    .judge(Side::Black, b)
                    .map_err(|_| GameError::NotAMove(b.to_string()))?;
                let mut penalties = Vec::new();
                for (side, mv, j) in [(Side::White, w, jw), (Side::Black, b, jb)] {
                    if let Err(why) = j {
                        penalties.push(Penalty {
                            side,
                            mv: mv.to_string(),
                            reason: why.reason(),
                        });
                    }
                }
                *p = p.resolve(jw, jb);
                Ok(penalties)
            }
            Game::Gladiator(p) => {
                let Turn::Single(mv) = turn else {
                    return Err(GameError::WrongTurnShape(format!(
                        "'{turn}' is a joint turn; {} is not a sealed game",
                        self.variant()
                    )));
                };
                let parsed = p.parse_turn(mv).map_err(|e| GameError::Illegal {
                    mv: mv.to_string(),
                    reason: e.0,
                })?;
                *p = p.play(parsed);
                Ok(Vec::new())
            }
            Game::Pagan(p) => {
                let Turn::Single(mv) = turn else {
                    return Err(GameError::WrongTurnShape(format!(
                        "'{turn}' is a joint turn; pagan is not a sealed game"
                    )));
                };
                let parsed = p.parse_move(mv).map_err(|e| GameError::Illegal {
                    mv: mv.to_string(),
                    reason: e.0,
                })?;
                *p = p.play(parsed);
                Ok(Vec::new())
            }
        }
    }

    /// The legal moves of a side (in a sealed game, that side's half of a turn; a forced pass
    /// is listed as `0000`).
    pub fn legal_moves(&self, side: Side) -> Vec<WireMove> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        match self {
            Game::Apocalypse(p) => {
                let mut moves = Vec::new();
                p.legal_moves(side, &mut moves);
                moves.iter().map(|m| m.to_wire()).collect()
            }
            Game::Gladiator(p) if p.side_to_move() == side => p
                .turns()
                .into_iter()
                .map(gladiator::Turn::to_wire)
                .collect(),
            Game::Gladiator(_) => Vec::new(),
            Game::Pagan(p) if p.side_to_move() == side => {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                moves.into_iter().map(pagan::Move::to_wire).collect()
            }
            Game::Pagan(_) => Vec::new(),
        }
    }

    /// The legal turns, in the notation of `position … moves`.
    pub fn legal_turns(&self) -> Vec<Turn> {
        match self.side_to_move() {
            Some(side) => self
                .legal_moves(side)
                .into_iter()
                .map(Turn::Single)
                .collect(),
            None => {
                let (w, b) = (self.legal_moves(Side::White), self.legal_moves(Side::Black));
                w.iter()
                    .flat_map(|wm| b.iter().map(move |bm| Turn::Joint(wm.clone(), bm.clone())))
                    .collect()
            }
        }
    }

    /// Counts the sequences of `depth` turns (`protocol-docs/rules.md`: a finished game has no children).
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            Game::Apocalypse(p) => crate::perft::apocalypse(p, depth),
            Game::Gladiator(p) => crate::perft::gladiator(p, depth),
            Game::Pagan(p) => crate::perft::pagan(p, depth),
        }
    }

    /// perft split by the first turn: one `(turn, count)` per legal turn.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.perft_divide_until(depth, &AtomicBool::new(false))
            .expect("never stopped")
    }

    /// [`Game::perft_divide`] that gives up (`None`) soon after `stop` is set.
    pub fn perft_divide_until(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        if depth == 0 {
            return Some(Vec::new());
        }
        self.legal_turns()
            .into_iter()
            .map(|t| {
                let mut child = self.clone();
                child.play(&t).expect("a legal turn plays");
                let count = match &child {
                    Game::Apocalypse(p) => crate::perft::apocalypse_until(p, depth - 1, stop)?,
                    Game::Gladiator(p) => crate::perft::gladiator_until(p, depth - 1, stop)?,
                    Game::Pagan(p) => crate::perft::pagan_until(p, depth - 1, stop)?,
                };
                Some((t.to_string(), count))
            })
            .collect()
    }

    /// The owner of the piece on a square, if any.
    pub fn owner(&self, sq: Square) -> Option<Side> {
        let c = match self {
            Game::Apocalypse(p) => p.piece_at(sq)?,
            Game::Gladiator(p) => p.piece_at(sq)?,
            Game::Pagan(p) => p.piece_at(sq)?,
        };
        Some(if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        })
    }

    /// A text diagram of the board.
    pub fn diagram(&self) -> String {
        match self {
            Game::Apocalypse(p) => p.diagram(),
            Game::Gladiator(p) => p.diagram(),
            Game::Pagan(p) => p.diagram(),
        }
    }

    /// The FEN letter of the piece on a square (upper case White), `None` when it is empty or
    /// not on the board.
    pub fn piece_at(&self, sq: Square) -> Option<char> {
        match self {
            Game::Apocalypse(p) => p.piece_at(sq),
            Game::Gladiator(p) => p.piece_at(sq),
            Game::Pagan(p) => p.piece_at(sq),
        }
    }

    /// Extra status lines of `d` after `Fen:` (penalties of a sealed game).
    pub fn status_lines(&self) -> Vec<String> {
        match self {
            Game::Apocalypse(p) => vec![format!(
                "Penalties: {} {}",
                p.penalties(Side::White),
                p.penalties(Side::Black)
            )],
            Game::Gladiator(_) | Game::Pagan(_) => Vec::new(),
        }
    }
}

/// Reads a FEN board field onto a geometry, as every variant writes it: ranks from the top down
/// separated by `/`, digits for runs of empty squares (never over a hole), `*` exactly on the
/// holes; `place` is called with the square and letter of each piece and may refuse it.
///
/// # Errors
/// A message naming the first bad rank or piece.
pub fn read_board(
    geometry: &Geometry,
    field: &str,
    mut place: impl FnMut(Square, char) -> Result<(), String>,
) -> Result<(), String> {
    let rows: Vec<&str> = field.split('/').collect();
    let (files, ranks) = (u16::from(geometry.files()), u16::from(geometry.ranks()));
    if rows.len() != usize::from(ranks) {
        return Err(format!("the board needs {ranks} ranks, got {}", rows.len()));
    }
    for (row, rank) in rows.iter().zip((1..=ranks).rev()) {
        let mut file = 0u16;
        let square = |file: u16| Square::new(file as u8, rank);
        for c in row.chars() {
            if file >= files {
                return Err(format!("rank {rank} has more than {files} squares"));
            }
            if let Some(count) = c.to_digit(10) {
                if count == 0 {
                    return Err(format!("rank {rank}: a zero count"));
                }
                for _ in 0..count {
                    if file >= files || !geometry.contains(square(file)) {
                        return Err(format!(
                            "rank {rank}: a count covers a hole or runs off the board"
                        ));
                    }
                    file += 1;
                }
            } else if c == '*' {
                if geometry.contains(square(file)) {
                    return Err(format!("rank {rank}: '*' on a square that exists"));
                }
                file += 1;
            } else if !geometry.contains(square(file)) {
                return Err(format!("rank {rank}: a piece on a hole"));
            } else {
                place(square(file), c)?;
                file += 1;
            }
        }
        if file != files {
            return Err(format!("rank {rank} has {file} squares, not {files}"));
        }
    }
    Ok(())
}

/// Splits a FEN into its fields: the board and at most `max - 1` more.
///
/// # Errors
/// When there is no field or more than `max`.
pub fn fen_fields(fen: &str, max: usize) -> Result<Vec<&str>, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() || fields.len() > max {
        return Err(format!("expected 1 to {max} fields, got {}", fields.len()));
    }
    Ok(fields)
}

/// The squares of a bitboard, lowest index first.
pub fn bits(mut board: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (board != 0).then(|| {
            let sq = board.trailing_zeros() as u8;
            board &= board - 1;
            sq
        })
    })
}

/// FEN fields 2 to 6, which every variant reads alike: side to move, castling and en passant
/// (always `-` here), a halfmove-style counter and the move (or turn) number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenTail {
    /// The side to move.
    pub side: Side,
    /// Field 5.
    pub counter: u32,
    /// Field 6, at least 1.
    pub number: u32,
}

/// Reads FEN fields 2 to 6 (`fields` holds all the FEN's fields, board first); missing ones
/// default to `w - - 0 1`. A sealed game's side field must be `w`.
///
/// # Errors
/// A message naming the first bad field.
pub fn fen_tail(fields: &[&str], sealed: bool) -> Result<FenTail, String> {
    let side = match fields.get(1) {
        None | Some(&"w") => Side::White,
        Some(&"b") if !sealed => Side::Black,
        Some(other) if sealed => {
            return Err(format!(
                "the side field of a sealed game is 'w', got '{other}'"
            ));
        }
        Some(other) => return Err(format!("the side to move is 'w' or 'b', got '{other}'")),
    };
    for (i, name) in [(2, "castling"), (3, "en passant")] {
        if let Some(&f) = fields.get(i)
            && f != "-"
        {
            return Err(format!("the {name} field must be '-', got '{f}'"));
        }
    }
    let counter = match fields.get(4) {
        None => 0,
        Some(f) => f.parse().map_err(|_| format!("bad halfmove clock '{f}'"))?,
    };
    let number = match fields.get(5).map(|f| (f, f.parse::<u32>())) {
        None => 1,
        Some((_, Ok(n))) if n >= 1 => n,
        Some((f, _)) => return Err(format!("bad move number '{f}'")),
    };
    Ok(FenTail {
        side,
        counter,
        number,
    })
}

/// Draws a board: ranks from the top down, each line ` R  x x x`, holes as blanks, then the
/// file letters.
pub fn diagram(geometry: &Geometry, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (1..=u16::from(geometry.ranks())).rev() {
        write!(out, "{rank:>2} ").unwrap();
        for file in 0..geometry.files() {
            let sq = Square::new(file, rank);
            let c = if !geometry.contains(sq) {
                ' '
            } else {
                piece(sq).unwrap_or('.')
            };
            write!(out, " {c}").unwrap();
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..geometry.files() {
        write!(out, " {}", (b'a' + file) as char).unwrap();
    }
    out.push('\n');
    out
}

/// Writes a FEN board field: ranks from the top down separated by `/`, runs of empty squares
/// as decimal counts, holes as `*`.
pub fn board_text(geometry: &Geometry, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (1..=u16::from(geometry.ranks())).rev() {
        let mut empty = 0;
        for file in 0..geometry.files() {
            let sq = Square::new(file, rank);
            let c = if geometry.contains(sq) {
                piece(sq)
            } else {
                Some('*')
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        write!(out, "{empty}").unwrap();
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(out, "{empty}").unwrap();
        }
        if rank > 1 {
            out.push('/');
        }
    }
    out
}

/// The Pagan frame, built once.
fn pagan_geometry() -> &'static Geometry {
    static FRAME: std::sync::OnceLock<Geometry> = std::sync::OnceLock::new();
    FRAME.get_or_init(pagan::geometry)
}
