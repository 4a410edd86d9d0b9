//! The state both dialects share: variant, position and history, options, random generator.

mod options;

use std::sync::{Arc, Mutex};

use super::error::{OptionError, PerftDepthError, PositionError, UndoError};
use crate::game::{Game, GameError, Penalty};
use crate::geometry::Square;
use crate::notation::{Leg, WireMove, WireTurn};
use crate::rng::Rng;
use crate::search::TransTable;
use crate::simsearch;
use crate::variant::Variant;

/// Options a GUI can set, in both dialects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    /// Seed of the move sampler; 0 takes a fresh seed from the operating system each game.
    pub(crate) seed: u64,
    /// Commit–reveal mode for sealed moves.
    pub(crate) commit: bool,
    /// Size of the transposition table in MiB (UCI `Hash`, CECP `memory`).
    pub(crate) hash_mib: usize,
    /// What a draw costs the side to move at the root, in centipawns (`Contempt`).
    pub(crate) contempt: i32,
    /// The sealed search probes the built-in tables (`BuiltinTablebase`).
    pub(crate) builtin_tables: bool,
}

/// Largest seed a GUI may set (UCI `spin` maximum).
pub(crate) const MAX_SEED: u64 = 2_147_483_647;

/// Deepest perft either dialect (and `quill perft`) runs: far beyond what finishes in any
/// variant, and a bound on the recursion.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Longest time a search is given, in milliseconds (about 24.8 days): longer times from a GUI
/// (`movetime`, clocks, `st`, `level`) count as this, so no time arithmetic can overflow.
pub(crate) const MAX_TIME_MS: u64 = 1 << 31;

/// A time from the GUI in milliseconds as a search budget, capped at [`MAX_TIME_MS`].
pub(crate) fn duration_ms(ms: u64) -> std::time::Duration {
    std::time::Duration::from_millis(ms.min(MAX_TIME_MS))
}

/// Checks a perft depth against [`MAX_PERFT_DEPTH`].
///
/// # Errors
/// A depth above the maximum.
pub(crate) fn check_perft_depth(depth: u32) -> Result<u32, PerftDepthError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftDepthError { depth });
    }
    Ok(depth)
}

/// Position, history and options of a session, and the search's transposition table.
pub struct Core {
    start: Game,
    game: Game,
    history: Vec<WireTurn>,
    options: Options,
    rng: Rng,
    /// Lent to each search; kept between the moves of a game.
    table: Arc<Mutex<TransTable>>,
    /// The sealed search's table. Only the table of the variant's kind of search has
    /// `Hash`'s memory ([`tables`]).
    sealed: Arc<Mutex<simsearch::JointTable>>,
    /// Whether the tables were made for a sealed variant.
    tables_sealed: bool,
}

impl Core {
    /// A fresh core on the default variant.
    pub fn new() -> Core {
        let options = Options {
            seed: 0,
            commit: false,
            hash_mib: TransTable::DEFAULT_MIB,
            contempt: crate::search::DEFAULT_CONTEMPT,
            builtin_tables: true,
        };
        let game = Game::start(Variant::DEFAULT);
        let (table, sealed) =
            tables(Variant::DEFAULT, options.hash_mib).unwrap_or_else(|_| smallest());
        Core {
            start: game.clone(),
            game,
            history: Vec::new(),
            rng: Rng::new(fresh_seed(&options)),
            options,
            table: Arc::new(Mutex::new(table)),
            sealed: Arc::new(Mutex::new(sealed)),
            tables_sealed: Variant::DEFAULT.is_sealed(),
        }
    }

    /// The current position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The variant being played.
    pub(crate) fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The turns played since the start position.
    pub fn history(&self) -> &[WireTurn] {
        &self.history
    }

    /// The alternating search's keys of the positions before the current one, the start
    /// position first (see [`Game::search_keys`]); empty in a sealed game.
    pub(crate) fn history_keys(&self) -> Vec<u64> {
        self.start.search_keys(&self.history)
    }

    /// What a draw costs the side to move at the root (`Contempt`).
    pub(crate) fn contempt(&self) -> i32 {
        self.options.contempt
    }

    /// Whether the sealed search probes the built-in tables (`BuiltinTablebase`).
    pub(crate) fn builtin_tables(&self) -> bool {
        self.options.builtin_tables
    }

    /// Whether commit–reveal mode is on.
    pub(crate) fn commit_mode(&self) -> bool {
        self.options.commit
    }

    /// Switches to a variant and its start position, as a new game.
    pub fn set_variant(&mut self, variant: Variant) {
        self.game = Game::start(variant);
        self.new_game();
    }

    /// Starts a new game of the current variant, reseeds the sampler and empties the
    /// transposition table.
    pub(crate) fn new_game(&mut self) {
        self.start = Game::start(self.variant());
        self.game = self.start.clone();
        self.history.clear();
        self.rng = Rng::new(fresh_seed(&self.options));
        if self.tables_sealed == self.variant().is_sealed() {
            self.clear_tables();
        } else {
            self.renew_tables();
        }
    }

    /// Empties both tables, keeping their memory; a table a search still holds stays the
    /// search's, and the session gets new ones.
    pub(crate) fn clear_tables(&mut self) {
        let free = match (self.table.try_lock(), self.sealed.try_lock()) {
            (Ok(mut table), Ok(mut sealed)) => {
                table.clear();
                sealed.clear();
                true
            }
            _ => false,
        };
        if !free {
            self.renew_tables();
        }
    }

    /// New tables for the variant's kind of search and `Hash` (the smallest there are, with
    /// an error logged, when the memory cannot be had).
    fn renew_tables(&mut self) {
        let made = tables(self.variant(), self.options.hash_mib).unwrap_or_else(|e| {
            log::error!("{e}: the search gets the smallest tables");
            smallest()
        });
        self.set_tables(made);
    }

    fn set_tables(&mut self, (table, sealed): (TransTable, simsearch::JointTable)) {
        self.table = Arc::new(Mutex::new(table));
        self.sealed = Arc::new(Mutex::new(sealed));
        self.tables_sealed = self.variant().is_sealed();
    }

    /// The sealed search's table, for a search to lock while it runs.
    pub(crate) fn sealed_table(&self) -> Arc<Mutex<simsearch::JointTable>> {
        Arc::clone(&self.sealed)
    }

    /// The transposition table, for a search to lock while it runs.
    pub(crate) fn table(&self) -> Arc<Mutex<TransTable>> {
        Arc::clone(&self.table)
    }

    /// Sets a position: a FEN (or the start position) and turns played from it. All or nothing.
    ///
    /// # Errors
    /// The bad FEN or the first turn that cannot be played.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        turns: &[WireTurn],
    ) -> Result<(), PositionError> {
        let start = match fen {
            None => Game::start(self.variant()),
            Some(f) => Game::from_fen(self.variant(), f).map_err(PositionError::Fen)?,
        };
        let mut game = start.clone();
        for (i, turn) in turns.iter().enumerate() {
            game.play(turn).map_err(|error| PositionError::Turn {
                number: i + 1,
                turn: turn.clone(),
                error: Box::new(error),
            })?;
        }
        self.start = start;
        self.game = game;
        self.history = turns.to_vec();
        Ok(())
    }

    /// Plays one turn on the current position; unchanged on error.
    ///
    /// # Errors
    /// See [`Game::play`].
    pub(crate) fn play(&mut self, turn: &WireTurn) -> Result<Vec<Penalty>, GameError> {
        let penalties = self.game.play(turn)?;
        self.history.push(turn.clone());
        Ok(penalties)
    }

    /// Takes back the last `n` turns.
    ///
    /// # Errors
    /// When fewer than `n` turns were played.
    pub(crate) fn undo(&mut self, n: usize) -> Result<(), UndoError> {
        if self.history.len() < n {
            return Err(UndoError {
                played: self.history.len(),
            });
        }
        let mut game = self.start.clone();
        let keep = self.history.len() - n;
        for turn in &self.history[..keep] {
            game.play(turn).expect("a turn of the history plays again");
        }
        self.history.truncate(keep);
        self.game = game;
        Ok(())
    }

    /// A copy of the move sampler's generator, for a worker to continue with.
    pub(crate) fn rng(&self) -> Rng {
        self.rng.clone()
    }

    /// Takes back the generator a worker continued with.
    pub(crate) fn set_rng(&mut self, rng: Rng) {
        self.rng = rng;
    }

    /// The lines of `d`: diagram, `Fen:`, status lines, and `Result:` for a finished game.
    pub(crate) fn display(&self) -> Vec<String> {
        let mut out: Vec<String> = self.game.diagram().lines().map(str::to_string).collect();
        out.push(format!("Fen: {}", self.game.fen()));
        out.extend(self.game.status_lines());
        if let Some(o) = self.game.outcome() {
            out.push(format!("Result: {o}"));
        }
        out
    }

    /// The result of `perft N`, split by the root turn.
    pub fn perft(&self, depth: u32) -> PerftDivide {
        PerftDivide {
            depth,
            split: self.game.perft_divide(depth),
        }
    }

    /// The colour board for XBoard's `highlight`: legal targets of the piece on `sq`, `Y` for a
    /// move to an empty square and `R` for a capture; `None` when the square holds no piece
    /// that can move.
    ///
    /// `played` holds the legs of the turn already made (XBoard's earlier plies of a turn): the
    /// targets are then those of the next leg of a legal turn that begins with them.
    pub(crate) fn highlight(&self, sq: Square, played: &[Leg]) -> Option<String> {
        let geometry = self.game.geometry();
        let owner = self.game.owner(sq)?;
        let mut colours = vec![None; geometry.size()];
        let k = played.len();
        for mv in self.game.legal_moves(owner) {
            if let WireMove::Legs { legs, .. } = &mv
                && legs.len() > k
                && legs[..k] == *played
                && legs[k].from == sq
                && let Some(i) = geometry.index(legs[k].to)
            {
                colours[i] = Some(if self.game.owner(legs[k].to).is_some() {
                    'R'
                } else {
                    'Y'
                });
            }
        }
        if colours.iter().all(Option::is_none) {
            return None;
        }
        Some(crate::game::board_text(geometry, |s| {
            geometry.index(s).and_then(|i| colours[i])
        }))
    }
}

impl Default for Core {
    fn default() -> Core {
        Core::new()
    }
}

/// A perft count split by the root turn, kept as numbers until it is printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftDivide {
    /// The depth counted.
    pub(crate) depth: u32,
    /// Each root turn with the sequences under it.
    pub(crate) split: Vec<(crate::notation::WireTurn, u64)>,
}

impl PerftDivide {
    /// The sequences in all (1 at depth 0: the empty sequence).
    pub fn total(&self) -> u64 {
        if self.depth == 0 {
            1
        } else {
            self.split.iter().map(|(_, n)| n).sum()
        }
    }

    /// The printed form: one `TURN: count` per root turn, then `Nodes searched: N`.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .split
            .iter()
            .map(|(t, n)| format!("{t}: {n}"))
            .collect();
        out.push(format!("Nodes searched: {}", self.total()));
        out
    }
}

/// The tables of a session playing `variant` with `Hash` `mib` (checked by
/// [`Core::set_hash`]): the table of the variant's kind of search gets the memory, taken now
/// so that no move's time pays for it; the other kind, which the variant never searches with,
/// gets the least there is. So a session holds one `Hash` of memory, not two.
///
/// # Errors
/// When the memory cannot be had.
fn tables(
    variant: Variant,
    mib: usize,
) -> Result<(TransTable, simsearch::JointTable), OptionError> {
    let sealed = simsearch::JointTable::with_mib(mib).unwrap_or_default();
    if !variant.is_sealed() {
        // The sealed table takes no memory until a search of it (there is none here).
        return Ok((TransTable::new(mib).map_err(OptionError::Memory)?, sealed));
    }
    let mut sealed = sealed;
    sealed.allocate().map_err(|e| {
        OptionError::Memory(crate::search::TableError::NoMemory {
            mib,
            why: e.to_string(),
        })
    })?;
    // One bucket: a sealed variant's searches never probe it.
    let table = TransTable::new(0).map_err(OptionError::Memory)?;
    Ok((table, sealed))
}

/// The smallest tables (one bucket, and a sealed table that takes its memory at its first
/// search), when [`tables`] could not have its memory.
fn smallest() -> (TransTable, simsearch::JointTable) {
    let table = TransTable::new(0).expect("a table of one bucket");
    (
        table,
        simsearch::JointTable::with_mib(1).unwrap_or_default(),
    )
}

fn fresh_seed(options: &Options) -> u64 {
    if options.seed != 0 {
        return options.seed;
    }
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        log::warn!("no random bytes from the OS; seeding from the clock");
        return std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
    }
    u64::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests;
