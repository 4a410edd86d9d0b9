//! Building a table: every position of every signature, solved by value iteration over exact
//! one-turn matrix games (`protocol-docs/tablebase.md`, "How a table is built").
//!
//! Signatures are solved in table order, so that every move leads to a finished game, a
//! signature already solved, or the signature being solved (moves never add pieces and
//! never turn a horseman back into a footman). Inside a signature:
//! 1. every finished position gets its payoff (1 a White win, 0 a Black win, ½ a draw);
//! 2. every position none of whose children is in the signature is solved once, exactly;
//! 3. the rest start at ½ and are solved again and again (Gauss–Seidel over a work list: a
//!    position is queued when one of its children moved) until no value moves, then swept
//!    whole until the largest residual (a position's value against the value of its matrix
//!    game over its children) is at most `TOLERANCE`, or a number of full sweeps ([`MAX_SWEEPS`] by default).
//!
//! 4. where the equilibrium loops forever, the values are taken to the limit of the discounted
//!    game's as the discount vanishes (`iterate::endless`).
//!
//! That makes each value the value of the game in which play that never ends is a draw, as in
//! `quill exploit` (the turn-capped value, which value iteration from ½ computes, alternates
//! with the cap's parity at some positions instead of converging).

use std::fmt;

use std::path::Path;

use super::Tablebase;
use super::checkpoint::{Checkpoint, CheckpointError};
use super::index::Signature;
use crate::variants::apocalypse::Rules;

/// The residual the iteration aims at.
pub(crate) const TOLERANCE: f64 = 1e-13;
/// The matrix solver's acceptance for the table's games ([`Solver::with_accept`]): an answer
/// stands when its bracket is narrower than this times the payoff range plus 64 ulps of the
/// payoffs (1.4e-14 for payoffs up to 1), so that a value's rounding is well below
/// [`TOLERANCE`]. The default (1e-12 of the range) let a value of `1 1 1 2` move by 2.2e-13
/// at every sweep and never converge. On 320,205 games the `f64` simplex got wrong (from
/// `quill exploit`) every answer passes it.
///
/// [`Solver::with_accept`]: crate::solver::Solver::with_accept
pub(crate) const SOLVER_ACCEPT: f64 = 1e-15;
/// Full sweeps after the work list empties, at most, by default (`--max-sweeps`).
pub const MAX_SWEEPS: usize = 2_000;
/// The largest table `build` makes (pieces); 5 needs several GiB and hours, see the page.
pub(crate) const MAX_BUILD_PIECES: u32 = 5;
/// Work-list solves per iterated position, at most, before the full sweeps take over.
pub(crate) const MAX_UPDATES_PER_POSITION: u64 = 20;
/// The residual at which value iteration hands over to strategy iteration.
pub(crate) const EXACT_FROM: f64 = 1e-6;
/// Strategy-iteration rounds per attempt, at most.
pub(crate) const MAX_ROUNDS: usize = 20;

/// Why a table cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A piece count outside 2 ..= `MAX_BUILD_PIECES`.
    Pieces(u32),
    /// A `--family` signature that no table of 2 ..= `MAX_BUILD_PIECES` pieces holds.
    NotInTable(Signature),
    /// The checkpoint cannot be used.
    Checkpoint(CheckpointError),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Pieces(p) => {
                write!(f, "a table needs 2 to {MAX_BUILD_PIECES} pieces, got {p}")
            }
            BuildError::NotInTable(s) => write!(
                f,
                "{s:?} is not a signature of a table of 2 to {MAX_BUILD_PIECES} pieces \
                 (each side needs a footman)"
            ),
            BuildError::Checkpoint(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// What building one signature cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SignatureStats {
    /// The signature.
    pub(crate) signature: Signature,
    /// Positions (canonical orientations).
    pub(crate) positions: u64,
    /// Finished positions.
    pub(crate) finished: u64,
    /// Positions solved once (no child in the signature).
    pub(crate) direct: u64,
    /// Positions iterated.
    pub(crate) iterated: u64,
    /// Matrix games solved during the iteration.
    pub(crate) updates: u64,
    /// Full sweeps after the work list.
    pub(crate) sweeps: usize,
    /// Strategy-iteration rounds accepted ([`super::exact`]).
    pub(crate) rounds: usize,
    /// The largest residual at the end.
    pub(crate) residual: f64,
    /// Positions in closed loops, valued by the vanishing discount (`iterate::endless`).
    pub(crate) looping: u64,
    /// Positions in closed loops left at the values reached, where the discounted solves did
    /// not converge (`iterate::endless`).
    pub(crate) unsettled: u64,
    /// Matrix cells (joint turns) of the iterated positions.
    pub(crate) cells: u64,
    /// Processor seconds spent.
    pub(crate) cpu_seconds: f64,
    /// Read from the build's checkpoint, not solved by this run.
    pub(crate) resumed: bool,
}

impl SignatureStats {
    /// Nothing done yet on a signature of `positions` positions.
    pub(crate) fn new(signature: Signature, positions: u64) -> SignatureStats {
        SignatureStats {
            signature,
            positions,
            finished: 0,
            direct: 0,
            iterated: 0,
            updates: 0,
            sweeps: 0,
            rounds: 0,
            residual: 0.0,
            looping: 0,
            unsettled: 0,
            cells: 0,
            cpu_seconds: 0.0,
            resumed: false,
        }
    }
}

/// A built table and how it went.
pub struct Built {
    /// The table.
    pub table: Tablebase,
    /// One line per signature, in table order.
    pub stats: Vec<SignatureStats>,
}

/// Processor time of this process so far, in seconds (Linux `/proc/self/stat`; 0 elsewhere).
pub(crate) fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which ends at the last ')'): utime is the 12th, stime
    // the 13th, in clock ticks (100 a second on Linux).
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|t| t.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// Builds the table of every position of `rules` with at most `pieces` pieces; `progress`
/// hears about each signature when it is done (first those read from the checkpoint). With
/// a `checkpoint` path, each solved signature is saved there and a build stopped part way
/// resumes from it ([`super::checkpoint`]).
///
/// # Errors
/// [`BuildError::Pieces`]: a piece count outside 2 ..= `MAX_BUILD_PIECES`;
/// [`BuildError::Checkpoint`]: the checkpoint is another build's, or cannot be read or written.
pub fn build(
    rules: Rules,
    pieces: u32,
    max_sweeps: usize,
    checkpoint: Option<&Path>,
    progress: &mut dyn FnMut(&SignatureStats),
) -> Result<Built, BuildError> {
    if !(2..=MAX_BUILD_PIECES).contains(&pieces) {
        return Err(BuildError::Pieces(pieces));
    }
    solve_table(
        Tablebase::empty(rules, pieces),
        max_sweeps,
        checkpoint,
        progress,
    )
}

/// Builds a *partial* table of `targets` (signatures of one piece count *N*): every position
/// of fewer than *N* pieces, and the families (`Signature::family`) of the targets, that is
/// each target and every signature its positions can reach. The table answers for those
/// signatures only, and is written with the format's partial flag; it is how a table of
/// *N* pieces is built and measured a family at a time.
///
/// The checkpoint is as in [`build`].
///
/// # Errors
/// [`BuildError::NotInTable`]: a signature outside a table of 2 ..= `MAX_BUILD_PIECES` pieces,
/// or of another piece count than the first target's; [`BuildError::Pieces`]: no target;
/// [`BuildError::Checkpoint`] as in [`build`].
pub fn build_family(
    rules: Rules,
    targets: &[Signature],
    max_sweeps: usize,
    checkpoint: Option<&Path>,
    progress: &mut dyn FnMut(&SignatureStats),
) -> Result<Built, BuildError> {
    let pieces = targets.first().ok_or(BuildError::Pieces(0))?.pieces();
    for &t in targets {
        if !(2..=MAX_BUILD_PIECES).contains(&pieces)
            || t.pieces() != pieces
            || !Signature::all(pieces).contains(&t)
        {
            return Err(BuildError::NotInTable(t));
        }
    }
    let signatures = Signature::all(pieces)
        .into_iter()
        .filter(|s| s.pieces() < pieces || targets.iter().any(|t| t.reaches(*s)))
        .collect();
    let table = Tablebase::empty_of(rules, pieces, signatures);
    solve_table(table, max_sweeps, checkpoint, progress)
}

fn solve_table(
    mut table: Tablebase,
    max_sweeps: usize,
    checkpoint: Option<&Path>,
    progress: &mut dyn FnMut(&SignatureStats),
) -> Result<Built, BuildError> {
    let rules = table.rules;
    let mut values = vec![0.5f64; table.len()];
    let (mut saved, mut stats) = match checkpoint {
        Some(path) => {
            let (c, done) = Checkpoint::open(path, &table, max_sweeps, &mut values)
                .map_err(BuildError::Checkpoint)?;
            (Some(c), done)
        }
        None => (None, Vec::new()),
    };
    for s in &stats {
        progress(s);
    }
    for &sig in &table.signatures[stats.len()..] {
        let t0 = cpu_seconds();
        let mut s = super::iterate::solve_signature(&table, rules, sig, max_sweeps, &mut values);
        s.cpu_seconds = cpu_seconds() - t0;
        if let Some(c) = &mut saved {
            let base = table.offset(sig).expect("a signature of the table") as usize;
            c.save(&s, &values[base..base + s.positions as usize])
                .map_err(BuildError::Checkpoint)?;
        }
        progress(&s);
        stats.push(s);
    }
    table.residual = stats.iter().fold(0.0, |r, s| r.max(s.residual));
    table.values = values.iter().map(|&v| super::quantise(v)).collect();
    Ok(Built { table, stats })
}
