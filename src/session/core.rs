//! The state both dialects share: variant, position and history, options, random generator.

use std::sync::{Arc, Mutex};

use crate::game::{Game, GameError, Penalty};
use crate::geometry::Square;
use crate::notation::{Leg, Turn, WireMove};
use crate::rng::Rng;
use crate::search::Table;
use crate::simsearch;
use crate::variant::Variant;

/// Options a GUI can set, in both dialects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Seed of the move sampler; 0 takes a fresh seed from the operating system each game.
    pub seed: u64,
    /// Commit–reveal mode for sealed moves.
    pub commit: bool,
    /// Size of the transposition table in MiB (UCI `Hash`, CECP `memory`).
    pub hash_mib: usize,
}

/// Largest seed a GUI may set (UCI `spin` maximum).
pub const MAX_SEED: u64 = 2_147_483_647;

/// Deepest perft either dialect (and `quill perft`) runs: far beyond what finishes in any
/// variant, and a bound on the recursion.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Longest time a search is given, in milliseconds (about 24.8 days): longer times from a GUI
/// (`movetime`, clocks, `st`, `level`) count as this, so no time arithmetic can overflow.
pub const MAX_TIME_MS: u64 = 1 << 31;

/// A time from the GUI in milliseconds as a search budget, capped at [`MAX_TIME_MS`].
pub fn duration_ms(ms: u64) -> std::time::Duration {
    std::time::Duration::from_millis(ms.min(MAX_TIME_MS))
}

/// Checks a perft depth against [`MAX_PERFT_DEPTH`].
///
/// # Errors
/// A message naming the depth and the maximum.
pub fn check_perft_depth(depth: u32) -> Result<u32, String> {
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "perft depth {depth} is above the maximum {MAX_PERFT_DEPTH}"
        ));
    }
    Ok(depth)
}

/// Position, history and options of a session, and the search's transposition table.
pub struct Core {
    start: Game,
    game: Game,
    history: Vec<Turn>,
    options: Options,
    rng: Rng,
    /// Lent to each search; kept between the moves of a game.
    table: Arc<Mutex<Table>>,
    /// The sealed search's table, sized by `Hash` too (memory taken at its first search).
    sealed: Arc<Mutex<simsearch::Table>>,
}

impl Core {
    /// A fresh core on the default variant.
    pub fn new() -> Core {
        let options = Options {
            seed: 0,
            commit: false,
            hash_mib: Table::DEFAULT_MIB,
        };
        let game = Game::start(Variant::DEFAULT);
        Core {
            start: game.clone(),
            game,
            history: Vec::new(),
            rng: Rng::new(fresh_seed(&options)),
            options,
            table: Arc::new(Mutex::new(Table::default())),
            sealed: Arc::new(Mutex::new(sealed_table(Table::DEFAULT_MIB))),
        }
    }

    /// The current position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The turns played since the start position.
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    /// The alternating search's keys of the positions before the current one, the start
    /// position first (see [`Game::search_keys`]); empty in a sealed game.
    pub fn history_keys(&self) -> Vec<u64> {
        self.start.search_keys(&self.history)
    }

    /// Whether commit–reveal mode is on.
    pub fn commit_mode(&self) -> bool {
        self.options.commit
    }

    /// Switches to a variant and its start position, as a new game.
    pub fn set_variant(&mut self, variant: Variant) {
        self.game = Game::start(variant);
        self.new_game();
    }

    /// Starts a new game of the current variant, reseeds the sampler and empties the
    /// transposition table.
    pub fn new_game(&mut self) {
        self.start = Game::start(self.variant());
        self.game = self.start.clone();
        self.history.clear();
        self.rng = Rng::new(fresh_seed(&self.options));
        // A search still holding the table keeps its own; the session gets a fresh one.
        let fresh = match self.table.try_lock() {
            Ok(mut table) => {
                table.clear();
                None
            }
            Err(_) => Table::new(self.options.hash_mib).ok(),
        };
        if let Some(table) = fresh {
            self.table = Arc::new(Mutex::new(table));
        }
        self.clear_sealed();
    }

    /// Empties the sealed table, or (while a search holds it) gives the session a new one.
    fn clear_sealed(&mut self) {
        let busy = match self.sealed.try_lock() {
            Ok(mut table) => {
                table.clear();
                false
            }
            Err(_) => true,
        };
        if busy {
            self.sealed = Arc::new(Mutex::new(sealed_table(self.options.hash_mib)));
        }
    }

    /// The sealed search's table, for a search to lock while it runs.
    pub fn sealed_table(&self) -> Arc<Mutex<simsearch::Table>> {
        Arc::clone(&self.sealed)
    }

    /// The transposition table, for a search to lock while it runs.
    pub fn table(&self) -> Arc<Mutex<Table>> {
        Arc::clone(&self.table)
    }

    /// Resizes (and so empties) the transposition table.
    ///
    /// # Errors
    /// A size outside 1 to [`Table::MAX_MIB`] MiB, or memory that cannot be had (the old
    /// table is kept then).
    pub fn set_hash(&mut self, mib: u64) -> Result<(), String> {
        let mib = usize::try_from(mib)
            .ok()
            .filter(|m| (1..=Table::MAX_MIB).contains(m))
            .ok_or_else(|| format!("Hash needs 1..{} MiB, got {mib}", Table::MAX_MIB))?;
        // A new table, not the old one resized: a running search may still hold that.
        self.table = Arc::new(Mutex::new(Table::new(mib)?));
        self.sealed = Arc::new(Mutex::new(sealed_table(mib)));
        self.options.hash_mib = mib;
        Ok(())
    }

    /// Sets a position: a FEN (or the start position) and turns played from it. All or nothing.
    ///
    /// # Errors
    /// A message naming the bad FEN or the first turn that cannot be played.
    pub fn set_position(&mut self, fen: Option<&str>, turns: &[Turn]) -> Result<(), String> {
        let start = match fen {
            None => Game::start(self.variant()),
            Some(f) => Game::from_fen(self.variant(), f).map_err(|e| e.to_string())?,
        };
        let mut game = start.clone();
        for (i, turn) in turns.iter().enumerate() {
            game.play(turn)
                .map_err(|e| format!("turn {} '{turn}': {e}", i + 1))?;
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
    pub fn play(&mut self, turn: &Turn) -> Result<Vec<Penalty>, GameError> {
        let penalties = self.game.play(turn)?;
        self.history.push(turn.clone());
        Ok(penalties)
    }

    /// Takes back the last `n` turns.
    ///
    /// # Errors
    /// When fewer than `n` turns were played.
    pub fn undo(&mut self, n: usize) -> Result<(), String> {
        if self.history.len() < n {
            return Err(format!("only {} turns to take back", self.history.len()));
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

    /// Sets an option by name (`Seed`, `SealedCommit`, `Hash`; case-insensitive as in UCI).
    ///
    /// # Errors
    /// An unknown name or a bad value.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.unwrap_or("").trim();
        match name.to_ascii_lowercase().as_str() {
            "seed" => {
                let seed = value
                    .parse::<u64>()
                    .ok()
                    .filter(|&s| s <= MAX_SEED)
                    .ok_or_else(|| {
                        format!("Seed needs a whole number 0..{MAX_SEED}, got '{value}'")
                    })?;
                self.options.seed = seed;
                self.rng = Rng::new(fresh_seed(&self.options));
                Ok(())
            }
            "hash" => {
                let mib = value
                    .parse::<u64>()
                    .map_err(|_| format!("Hash needs a whole number of MiB, got '{value}'"))?;
                self.set_hash(mib)
            }
            // The Apocalypse tablebase (protocol-docs/tablebase.md): a file or a directory.
            "tablebasepath" => {
                crate::tablebase::set_active(crate::tablebase::Tables::load(value)?);
                Ok(())
            }
            "sealedcommit" => {
                self.options.commit = check(name, value)?;
                Ok(())
            }
            "clear hash" => {
                if let Ok(mut table) = self.table.try_lock() {
                    table.clear();
                }
                self.clear_sealed();
                Ok(())
            }
            // One search thread and one line: only these values are true (uci.md).
            "threads" | "multipv" => match value {
                "1" => Ok(()),
                _ => Err(format!("{name} has only the value 1, got '{value}'")),
            },
            // Accepted and without effect (uci.md): Quill ponders when asked by `go
            // ponder`, and analyses the same way in either mode.
            "ponder" | "uci_analysemode" => check(name, value).map(|_| ()),
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    /// A copy of the move sampler's generator, for a worker to continue with.
    pub fn rng(&self) -> Rng {
        self.rng.clone()
    }

    /// Takes back the generator a worker continued with.
    pub fn set_rng(&mut self, rng: Rng) {
        self.rng = rng;
    }

    /// The lines of `d`: diagram, `Fen:`, status lines, and `Result:` for a finished game.
    pub fn display(&self) -> Vec<String> {
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
    pub fn highlight(&self, sq: Square, played: &[Leg]) -> Option<String> {
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
    pub depth: u32,
    /// Each root turn (as written) with the sequences under it.
    pub split: Vec<(String, u64)>,
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

/// A check option's value: `true`/`false` (UCI) or `1`/`0` (CECP).
/// A sealed table of `mib` MiB (sizes are checked by [`Core::set_hash`]; the default
/// table otherwise).
fn sealed_table(mib: usize) -> simsearch::Table {
    simsearch::Table::with_mib(mib).unwrap_or_default()
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("{name} needs true or false, got '{value}'")),
    }
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
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc::channel;

    use super::*;
    use crate::notation::parse_turn;
    use crate::search::Limits;
    use crate::session::{Input, Session};

    #[test]
    fn history_keys_follow_position_startpos_moves() {
        let (events, _keep) = channel();
        let mut session = Session::new(events);
        for line in [
            "uci",
            "setoption name UCI_Variant value pagan",
            "position startpos moves g10f10 a8b8 f10g10 b8a8 g10f10",
        ] {
            session.handle(Input::Line(line.into()));
        }
        let core = &session.core;
        assert_eq!(core.history().len(), 5);
        let keys = core.history_keys();
        // The positions before the current one: the start, then after each of four turns.
        let mut game = Game::start(Variant::Pagan);
        let mut expected = Vec::new();
        for turn in ["g10f10", "a8b8", "f10g10", "b8a8", "g10f10"] {
            expected.push(game.search_key().unwrap());
            game.play(&parse_turn(turn).unwrap()).unwrap();
        }
        assert_eq!(keys, expected);
        assert_eq!(&game, core.game());
        // Two turns each way and back: the start position again, and the current position
        // is the one after the first turn.
        assert_eq!(keys[0], keys[4]);
        assert_eq!(core.game().search_key(), Some(keys[1]));
        assert_ne!(keys[0], keys[1]);
        // A sealed game has none.
        let mut sealed = Core::new();
        sealed.set_variant(Variant::Apocalypse);
        assert!(sealed.history_keys().is_empty());
    }

    #[test]
    fn a_turn_that_repeats_the_game_scores_as_a_repetition() {
        // After g10f10 a8b8 f10g10 b8a8 the start position is back: g10f10 now repeats the
        // position after the first turn.
        let mut core = Core::new();
        core.set_variant(Variant::Pagan);
        let turns: Vec<Turn> = ["g10f10", "a8b8", "f10g10", "b8a8"]
            .iter()
            .map(|t| parse_turn(t).unwrap())
            .collect();
        core.set_position(None, &turns).unwrap();
        let allowed = [crate::notation::parse_move("g10f10").unwrap()];
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let choose = |history: &[u64]| {
            crate::player::choose_with_table(
                core.game(),
                history,
                &allowed,
                limits,
                &stop,
                &mut Table::new(1).unwrap(),
                &mut |_| {},
            )
            .expect("a choice")
        };
        let repeated = choose(&core.history_keys());
        assert_eq!(repeated.mv.to_string(), "g10f10");
        // Half the repeated position's static score for Black, who moves there, plus the
        // contempt (20) that Black, not the side to move at the root, gains.
        let start = crate::variants::pagan::Position::start();
        let back = start.play(start.parse_move(&allowed[0]).unwrap());
        let black = crate::search::Searchable::evaluate(&back);
        assert_eq!(repeated.score, crate::player::Score::Cp(-(black / 2 + 20)));
        let fresh = choose(&[]);
        assert_ne!(fresh.score, crate::player::Score::Cp(0));
    }
}
