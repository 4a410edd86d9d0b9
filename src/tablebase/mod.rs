//! The Apocalypse tablebase: the exact value of every position with few pieces, in both rule
//! sets, built by `quill tablebase build`, stored in the file format of
//! `protocol-docs/tablebase.md`, and probed by the sealed search (at its leaves, and at the
//! root, where it plays the table's equilibrium strategy).
//!
//! Values are for White on the search's scale: 1 a White win, 0 a Black win, ½ a draw, and a
//! mixed value in between is White's expected payoff under equilibrium play. As in perft, the
//! search and `quill exploit`, a strategy is a legal move (a forced pass counting as one);
//! deliberately illegal moves are not strategies, so penalty points never change during play
//! and the four penalty states 0/0, 1/0, 0/1, 1/1 of a position share one value (a position
//! with 2 points is finished).

pub mod build;
pub mod builtin;
pub mod checkpoint;
pub mod cli;
pub(crate) mod exact;
pub mod format;
pub mod index;
pub(crate) mod iterate;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use index::{Footmen, Signature, canonical, pieces_of};

use crate::game::End;
use crate::solver::Solver;
use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position, Rules};

/// The quantisation scale: a stored value `q` means `q / 2^31` (so 0, ½ and 1 are exact).
pub(crate) const SCALE: f64 = 2_147_483_648.0;

/// The stored form of a value in 0 … 1.
pub(crate) fn quantise(v: f64) -> u32 {
    (v.clamp(0.0, 1.0) * SCALE).round() as u32
}

/// The payoff of a finished game for White, `None` while it goes on.
pub(crate) fn terminal(p: &Position) -> Option<f64> {
    p.end().map(|end| match end {
        End::Win(Side::White, _) => 1.0,
        End::Win(Side::Black, _) => 0.0,
        End::Draw(_) => 0.5,
    })
}

/// A table of one rule set: every position of at most `pieces` pieces.
pub struct Tablebase {
    rules: Rules,
    pieces: u32,
    footmen: Footmen,
    signatures: Vec<Signature>,
    /// Where each signature's values start, by [`Signature::slot`] (`u64::MAX`: not in the
    /// table).
    offsets: Vec<u64>,
    /// Quantised values, signatures in table order, each in index order.
    values: Vec<u32>,
    /// The largest fixed-point residual of the build.
    residual: f64,
}

impl Tablebase {
    /// A table with every value ½ (filled by the builder or the reader).
    fn empty(rules: Rules, pieces: u32) -> Tablebase {
        Tablebase::empty_of(rules, pieces, Signature::all(pieces))
    }

    /// A table of some signatures only (in table order), every value ½.
    fn empty_of(rules: Rules, pieces: u32, signatures: Vec<Signature>) -> Tablebase {
        let footmen = Footmen::new(pieces);
        let mut offsets = vec![u64::MAX; Signature::SLOTS];
        let mut total = 0;
        for s in &signatures {
            offsets[s.slot()] = total;
            total += footmen.positions(*s);
        }
        Tablebase {
            rules,
            pieces,
            footmen,
            signatures,
            offsets,
            values: vec![quantise(0.5); total as usize],
            residual: 0.0,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The most pieces of a position in the table.
    pub(crate) fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The signatures, in table order.
    pub fn signatures(&self) -> &[Signature] {
        &self.signatures
    }

    /// Stored positions (canonical orientations, one for all penalty states).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no position is stored (never, for a table of 2 pieces or more).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The largest fixed-point residual of the build.
    pub fn residual(&self) -> f64 {
        self.residual
    }

    /// The stored values of a signature, quantised.
    pub fn signature_values(&self, s: Signature) -> Option<&[u32]> {
        let off = self.offset(s)? as usize;
        Some(&self.values[off..off + self.footmen.positions(s) as usize])
    }

    /// The position stored at `index` of signature `s` (penalty points 0/0).
    pub fn position(&self, s: Signature, index: u64) -> Option<Position> {
        (self.offset(s).is_some() && index < self.footmen.positions(s)).then(|| {
            let p = self.footmen.pieces(s, index);
            Position::from_parts(self.rules, [p[0], p[2]], [p[1], p[3]], [0, 0])
        })
    }

    fn offset(&self, s: Signature) -> Option<u64> {
        self.offsets
            .get(s.slot())
            .copied()
            .filter(|&o| o != u64::MAX)
    }

    /// The value for White of a position of this table's rule set with at most
    /// `Tablebase::pieces` pieces (a finished game gets its payoff); `None` outside.
    pub fn value(&self, pos: &Position) -> Option<f64> {
        if pos.rules() != self.rules {
            return None;
        }
        if let Some(v) = terminal(pos) {
            return (Signature::of(pos).pieces() <= self.pieces).then_some(v);
        }
        self.unfinished_value(pos)
    }

    /// [`Tablebase::value`] of a position known to be unfinished (no end check).
    pub(crate) fn unfinished_value(&self, pos: &Position) -> Option<f64> {
        let sig = Signature::of(pos);
        if pos.rules() != self.rules || sig.pieces() > self.pieces {
            return None;
        }
        let off = self.offset(sig)?;
        let i = self.footmen.index(sig, canonical(pieces_of(pos)))?;
        Some(f64::from(self.values[(off + i) as usize]) / SCALE)
    }

    /// The one-turn matrix game of an unfinished position in the table, White restricted to
    /// `white` and Black to `black` (its legal moves), solved over the table's values: the
    /// value and each side's equilibrium strategy (one probability per move). `None` when the
    /// position or a child is outside the table.
    pub fn solve_root(
        &self,
        pos: &Position,
        white: &[Move],
        black: &[Move],
    ) -> Option<crate::solver::Solution> {
        if white.is_empty() || black.is_empty() || terminal(pos).is_some() {
            return None;
        }
        self.unfinished_value(pos)?;
        let mut payoff = Vec::with_capacity(white.len() * black.len());
        for &w in white {
            for &b in black {
                payoff.push(self.value(&pos.resolve(Ok(w), Ok(b)))?);
            }
        }
        let mut solver = Solver::new();
        solver.solve(&payoff, white.len(), black.len());
        Some(solver.into_solution())
    }
}

/// The tables the search probes: at most one per rule set.
#[derive(Clone, Default)]
pub struct Tables {
    seed: Option<Arc<Tablebase>>,
    classic: Option<Arc<Tablebase>>,
}

impl Tables {
    /// The slot of a rule set.
    fn slot(&self, rules: Rules) -> &Option<Arc<Tablebase>> {
        match rules {
            Rules::Seed => &self.seed,
            Rules::Classic => &self.classic,
        }
    }

    /// The table of a rule set.
    pub(crate) fn get(&self, rules: Rules) -> Option<&Tablebase> {
        self.slot(rules).as_deref()
    }

    /// The table of a rule set, shared.
    pub fn shared(&self, rules: Rules) -> Option<Arc<Tablebase>> {
        self.slot(rules).clone()
    }

    /// Whether no table is loaded.
    pub(crate) fn is_empty(&self) -> bool {
        self.seed.is_none() && self.classic.is_none()
    }

    /// Adds a table, replacing one of the same rule set with fewer pieces.
    pub fn add(&mut self, table: Tablebase) {
        let slot = match table.rules {
            Rules::Seed => &mut self.seed,
            Rules::Classic => &mut self.classic,
        };
        if slot.as_ref().is_none_or(|t| t.pieces <= table.pieces) {
            *slot = Some(Arc::new(table));
        }
    }

    /// The tables at `path`: a table file, or a directory whose `*.qtb` files are read (at
    /// most `MAX_DIRECTORY_FILES`); an empty path gives no tables.
    ///
    /// # Errors
    /// [`LoadError`]: the file that could not be read and why, or a directory that cannot be
    /// listed, holds too many tables or none.
    pub fn load(path: &str) -> Result<Tables, LoadError> {
        let mut tables = Tables::default();
        if path.is_empty() || path == "<empty>" {
            return Ok(tables);
        }
        let p = Path::new(path);
        let files = if p.is_dir() {
            let entries =
                std::fs::read_dir(p).map_err(|e| LoadError::Directory(p.into(), e.into()))?;
            let mut files: Vec<_> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "qtb"))
                .collect();
            files.sort();
            if files.len() > MAX_DIRECTORY_FILES {
                return Err(LoadError::TooManyFiles(p.into(), files.len()));
            }
            if files.is_empty() {
                return Err(LoadError::NoTables(p.into()));
            }
            files
        } else {
            vec![p.to_path_buf()]
        };
        for f in files {
            match format::read(&f) {
                Ok(t) => tables.add(t),
                Err(e) => return Err(LoadError::File(f, e)),
            }
        }
        Ok(tables)
    }
}

/// Why `Tables::load` refused a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A directory that cannot be listed.
    Directory(PathBuf, format::IoFault),
    /// A directory with more than `MAX_DIRECTORY_FILES` tables.
    TooManyFiles(PathBuf, usize),
    /// A directory without `*.qtb` files.
    NoTables(PathBuf),
    /// A table file that cannot be read, and why.
    File(PathBuf, format::ReadError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Directory(p, e) => write!(f, "cannot read directory {}: {e}", p.display()),
            LoadError::TooManyFiles(p, n) => write!(
                f,
                "{} has {n} table files, more than {MAX_DIRECTORY_FILES}",
                p.display()
            ),
            LoadError::NoTables(p) => write!(f, "no *.qtb table file in {}", p.display()),
            LoadError::File(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for LoadError {}

/// The most table files read from one directory.
pub(crate) const MAX_DIRECTORY_FILES: usize = 16;

/// The tables the sealed search probes: those loaded from a path (`TablebasePath`,
/// `egtpath quill`, `--tablebase`), then, for what they do not hold, the built-in ones
/// ([`builtin`]) when they are in use.
pub(crate) struct Probing {
    pub(crate) loaded: Tables,
    pub(crate) builtin: bool,
}

impl Probing {
    /// The table of `rules` that answers for `pos`'s piece count: a loaded one that holds
    /// it, else a built-in one that is loaded ([`builtin::holding`]).
    /// The piece count is looked at first: a position of more pieces asks no table (and
    /// does not inflate the built-in ones).
    fn table(&self, pos: &Position) -> Option<&Tablebase> {
        let pieces = pos.pieces();
        if let Some(t) = self.loaded.get(pos.rules()).filter(|t| pieces <= t.pieces) {
            return Some(t);
        }
        if self.builtin {
            return builtin::holding(pos.rules(), pieces);
        }
        None
    }

    /// The most pieces a table of `rules` in use holds now.
    fn pieces(&self, rules: Rules) -> u32 {
        let loaded = self.loaded.get(rules).map_or(0, |t| t.pieces);
        if !self.builtin {
            return loaded;
        }
        let builtin = if builtin::holding(rules, builtin::FIVE).is_some() {
            builtin::FIVE
        } else {
            builtin::PIECES
        };
        loaded.max(builtin)
    }
}

/// The search's probe point ([`crate::simsearch::Probe`]): exact values at every node inside
/// the tables, and the exact equilibrium at a root inside them.
impl crate::simsearch::Probe<Position> for Probing {
    fn probe(&self, pos: &Position) -> Option<f64> {
        self.table(pos)?.unfinished_value(pos)
    }

    fn root(
        &self,
        pos: &Position,
        white: &[Move],
        black: &[Move],
    ) -> Option<crate::solver::Solution> {
        self.table(pos)?.solve_root(pos, white, black)
    }

    fn covers_children(&self, pos: &Position) -> bool {
        // A turn removes at most two pieces (each move one, by capture or collision).
        pos.pieces() <= self.pieces(pos.rules()) + 2
    }

    fn prepare(&self, root: &Position, until: Option<std::time::Instant>, stop: &AtomicBool) {
        let rules = root.rules();
        if self.builtin
            && self
                .loaded
                .get(rules)
                .is_none_or(|t| t.pieces < builtin::FIVE)
        {
            builtin::prepare(rules, root.pieces(), until, stop);
        }
    }
}

/// Makes `tables` the loaded ones the sealed search probes (the UCI `TablebasePath` option),
/// alone and over the built-in ones; empty tables leave only the built-in ones.
pub fn set_active(tables: Tables) {
    let probes = crate::simsearch::Probes {
        loaded: (!tables.is_empty()).then(|| {
            Arc::new(Probing {
                loaded: tables.clone(),
                builtin: false,
            }) as crate::simsearch::SharedProbe
        }),
        with_builtin: Some(Arc::new(Probing {
            loaded: tables,
            builtin: true,
        })),
    };
    crate::simsearch::set_probe(probes);
}
