//! Exact values of small Apocalypse endgames, and the exploitability of the search's root
//! strategy there.
//!
//! Every position reachable from the start position of the endgame is enumerated (joint
//! turns of legal moves, a forced pass counting as a move, as in perft); positions are
//! identified by [`key`], so the quiet-turn count and turn number, which no rule
//! reads, do not split them. Games can cycle, so values come from value iteration (Shapley):
//! every unfinished position starts at ½ and is replaced by the value of its one-turn matrix
//! game over the current values of its children, again and again (a work list re-solves a
//! position once its children have moved) until no value moves by more than a tolerance. The limit is the value of the game in which play that never ends
//! is a draw (½), which is what the arbiter's turn cap makes it.
//!
//! Deliberately illegal moves (a void move that costs a penalty point) are not strategies
//! here, as in perft and in the search.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::{Analysis, eval, key};
use crate::search::Limits;
use crate::solver::Solver;
use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position, Rules};

/// The built-in endgames of `quill exploit` (seed rules): a transcript whose
/// `> position fen FEN` lines name them.
pub const ENDGAMES: &str = include_str!("../../fixtures/positions/apocalypse-endgames.txt");

/// The FENs of a list: its `> position fen FEN` lines.
pub fn fens(list: &str) -> Vec<&str> {
    list.lines()
        .filter_map(|l| l.trim().strip_prefix("> position fen "))
        .map(str::trim)
        .collect()
}

/// Strategy-iteration rounds after the work list, at most ([`Endgame::polish`]).
const POLISH_ROUNDS: usize = 20;

/// One enumerated position.
struct State {
    white: Vec<Move>,
    black: Vec<Move>,
    /// Row-major child indices (empty for a finished game).
    children: Vec<u32>,
    /// The payoff of a finished game.
    terminal: Option<f64>,
}

/// Why an endgame was not solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndgameError {
    /// More reachable positions than the limit.
    TooBig(usize),
    /// The game is already over at its start.
    Finished,
}

impl std::fmt::Display for EndgameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndgameError::TooBig(n) => write!(f, "more than {n} reachable positions"),
            EndgameError::Finished => write!(f, "the game is already over"),
        }
    }
}

impl std::error::Error for EndgameError {}

/// Why an endgame cannot be checked (`quill exploit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The position's FEN does not read.
    Fen(crate::board::FenError),
    /// The endgame cannot be solved exactly.
    Endgame(EndgameError),
    /// The search has no move: the game is over.
    Over,
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Fen(e) => write!(f, "{e}"),
            CheckError::Endgame(e) => write!(f, "{e}"),
            CheckError::Over => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for CheckError {}

/// A solved endgame: the value (for White, 0 … 1) of every reachable position.
pub struct Endgame {
    index: HashMap<u64, u32>,
    /// The reachable positions, in the order of `states`.
    positions: Vec<Position>,
    states: Vec<State>,
    values: Vec<f64>,
    /// Positions solved again during value iteration.
    pub(crate) updates: usize,
    /// The largest difference between a position's value and that of its matrix game over
    /// its children's values (0 at the exact fixed point).
    pub(crate) residual: f64,
}

impl Endgame {
    /// Enumerates the positions reachable from `root` (at most `max_states`) and solves them
    /// to within `tolerance` (or `max_updates` position solves).
    ///
    /// # Errors
    /// [`EndgameError::TooBig`] past `max_states`; [`EndgameError::Finished`] when `root` is
    /// a finished game.
    pub fn solve(
        root: &Position,
        max_states: usize,
        tolerance: f64,
        max_updates: usize,
    ) -> Result<Endgame, EndgameError> {
        if root.end().is_some() {
            return Err(EndgameError::Finished);
        }
        let mut index = HashMap::new();
        let mut positions = vec![root.clone()];
        let mut states = Vec::new();
        index.insert(key(root), 0u32);
        while states.len() < positions.len() {
            let pos = positions[states.len()].clone();
            let terminal = eval::terminal(&pos);
            let (mut white, mut black) = (Vec::new(), Vec::new());
            let mut children = Vec::new();
            if terminal.is_none() {
                pos.legal_moves(Side::White, &mut white);
                pos.legal_moves(Side::Black, &mut black);
                for &w in &white {
                    for &b in &black {
                        let child = pos.play(w, b);
                        let next = positions.len() as u32;
                        let id = *index.entry(key(&child)).or_insert_with(|| {
                            positions.push(child);
                            next
                        });
                        children.push(id);
                    }
                }
                if positions.len() > max_states {
                    return Err(EndgameError::TooBig(max_states));
                }
            }
            states.push(State {
                white,
                black,
                children,
                terminal,
            });
        }
        let values = states.iter().map(|s| s.terminal.unwrap_or(0.5)).collect();
        let mut eg = Endgame {
            index,
            positions,
            states,
            values,
            updates: 0,
            residual: f64::INFINITY,
        };
        eg.iterate(tolerance, max_updates);
        Ok(eg)
    }

    /// Value iteration over a work list: a position is solved again only once its children
    /// have moved by more than `tolerance` in total since its last solve (sweeping everything
    /// each time would redo the settled majority). The residual is then measured by one full
    /// sweep that changes nothing.
    fn iterate(&mut self, tolerance: f64, max_updates: usize) {
        let count = self.states.len();
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (s, state) in self.states.iter().enumerate() {
            for &c in &state.children {
                let list = &mut parents[c as usize];
                if list.last() != Some(&(s as u32)) {
                    list.push(s as u32);
                }
            }
        }
        let mut solver = Solver::new();
        let mut payoff = Vec::new();
        let mut queued = vec![false; count];
        let mut drift = vec![0.0f64; count];
        // Deepest positions first: enumeration order is breadth-first from the root.
        let mut work: std::collections::VecDeque<u32> = (0..count as u32)
            .rev()
            .filter(|&s| self.states[s as usize].terminal.is_none())
            .collect();
        for &s in &work {
            queued[s as usize] = true;
        }
        while let Some(s) = work.pop_front() {
            if self.updates >= max_updates {
                break;
            }
            let s = s as usize;
            queued[s] = false;
            let v = self.solve_one(s, &mut solver, &mut payoff);
            self.updates += 1;
            drift[s] += (v - self.values[s]).abs();
            self.values[s] = v;
            if drift[s] > tolerance {
                drift[s] = 0.0;
                for &p in &parents[s] {
                    if !queued[p as usize] {
                        queued[p as usize] = true;
                        work.push_back(p);
                    }
                }
            }
        }
        self.residual = (0..count)
            .filter(|&s| self.states[s].terminal.is_none())
            .map(|s| (self.solve_one(s, &mut solver, &mut payoff) - self.values[s]).abs())
            .fold(0.0, f64::max);
        if self.residual > tolerance {
            self.polish(tolerance);
        }
    }

    /// Strategy iteration (`crate::tablebase::exact::polish`) where the work list stopped short
    /// of `tolerance`, at its cap of solves: near 0 and 1 value iteration crawls (a change of
    /// about `4v²` a solve for an error `v`), and the 5-piece endgames stopped with residuals
    /// of 1e-6 to 1e-5 and values 1e-3 from 0.
    fn polish(&mut self, tolerance: f64) {
        let residual = crate::tablebase::exact::polish(
            self.graph(),
            &mut self.values,
            tolerance,
            POLISH_ROUNDS,
        );
        self.residual = self.residual.min(residual);
    }

    /// The tablebase's step for endless play (`protocol-docs/tablebase.md`, step 5): where the
    /// equilibrium strategies loop forever, the values reached are one fixed point among many,
    /// and those of the game in which endless play is a draw are the limit of the discounted
    /// values, taken by extrapolation; the rest is settled around them. The number of
    /// positions re-valued.
    pub(crate) fn settle_endless(&mut self) -> u64 {
        let (looping, residual) = crate::tablebase::iterate::settle_endless(
            self.graph(),
            &mut self.values,
            self.residual,
            crate::tablebase::index::Signature::of(&self.positions[0]),
        );
        self.residual = residual;
        looping
    }

    /// The unfinished positions and their matrices, as the tablebase's solvers take them.
    fn graph(&self) -> crate::tablebase::exact::Graph {
        let mut nodes = Vec::new();
        let mut cells = Vec::new();
        for (i, state) in self.states.iter().enumerate() {
            if state.terminal.is_some() {
                continue;
            }
            let (w, b) = (state.white.len() as u16, state.black.len() as u16);
            nodes.push((i as u32, w, b, cells.len()));
            cells.extend(state.children.iter().map(|&c| {
                self.states[c as usize]
                    .terminal
                    .unwrap_or_else(|| crate::tablebase::exact::position_cell(c as usize))
            }));
        }
        crate::tablebase::exact::Graph::new(nodes, cells, self.states.len())
    }

    /// The value of position `s`'s matrix game over the current values.
    fn solve_one(&self, s: usize, solver: &mut Solver, payoff: &mut Vec<f64>) -> f64 {
        let state = &self.states[s];
        payoff.clear();
        payoff.extend(state.children.iter().map(|&c| self.values[c as usize]));
        solver
            .solve(payoff, state.white.len(), state.black.len())
            .value
    }

    /// Every reachable position whose game goes on, with its value for White.
    pub fn unfinished(&self) -> impl Iterator<Item = (&Position, f64)> {
        self.positions
            .iter()
            .zip(&self.states)
            .zip(&self.values)
            .filter(|((_, s), _)| s.terminal.is_none())
            .map(|((p, _), &v)| (p, v))
    }

    /// The number of reachable positions.
    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether nothing was enumerated (never, for a solved endgame).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The value for White of a reachable position.
    pub(crate) fn value(&self, pos: &Position) -> Option<f64> {
        self.index.get(&key(pos)).map(|&i| self.values[i as usize])
    }

    /// The one-turn matrix of a reachable unfinished position over the solved values:
    /// White's moves, Black's moves and the row-major payoffs.
    pub(crate) fn matrix(&self, pos: &Position) -> Option<(&[Move], &[Move], Vec<f64>)> {
        let s = &self.states[*self.index.get(&key(pos))? as usize];
        s.terminal.is_none().then(|| {
            let payoff = s
                .children
                .iter()
                .map(|&c| self.values[c as usize])
                .collect();
            (&s.white[..], &s.black[..], payoff)
        })
    }

    /// How much a best-responding opponent gains against `side` playing `strategy` at `pos`
    /// (then both playing perfectly): the game value minus what the strategy guarantees, for
    /// `side`, on the scale 0 … 1.
    pub fn exploitability(
        &self,
        pos: &Position,
        side: Side,
        strategy: &[(Move, f64)],
    ) -> Option<Exploit> {
        let (white, black, payoff) = self.matrix(pos)?;
        let value = self.value(pos)?;
        Some(exploitability(white, black, &payoff, value, side, strategy))
    }
}

/// How much a best response gains against `side` playing `strategy` in a root matrix game
/// of value `value` (for White) over `white` × `black`, whose row-major `payoff` holds the
/// exact values (for White) of the joint children: the game value minus what the strategy
/// guarantees, for `side`, on the scale 0 … 1. Moves of `strategy` outside the matrix count
/// for nothing.
pub(crate) fn exploitability<M: Copy + PartialEq>(
    white: &[M],
    black: &[M],
    payoff: &[f64],
    value: f64,
    side: Side,
    strategy: &[(M, f64)],
) -> Exploit {
    let n = black.len();
    let prob = |m: M| {
        strategy
            .iter()
            .filter(|s| s.0 == m)
            .map(|s| s.1)
            .sum::<f64>()
    };
    let (game, guaranteed) = match side {
        Side::White => {
            let x: Vec<f64> = white.iter().map(|&m| prob(m)).collect();
            let worst = (0..n)
                .map(|j| {
                    x.iter()
                        .enumerate()
                        .map(|(i, p)| p * payoff[i * n + j])
                        .sum()
                })
                .fold(f64::INFINITY, f64::min);
            (value, worst)
        }
        Side::Black => {
            let y: Vec<f64> = black.iter().map(|&m| prob(m)).collect();
            let worst = (0..white.len())
                .map(|i| {
                    y.iter()
                        .enumerate()
                        .map(|(j, p)| p * payoff[i * n + j])
                        .sum()
                })
                .fold(f64::NEG_INFINITY, f64::max);
            (1.0 - value, 1.0 - worst)
        }
    };
    Exploit {
        value: game,
        guaranteed,
        exploitability: (game - guaranteed).max(0.0),
    }
}

/// What a strategy is worth against a best response, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploit {
    /// The game value for that side.
    pub value: f64,
    /// What the strategy guarantees against every reply.
    pub guaranteed: f64,
    /// `value − guaranteed` (never negative).
    pub exploitability: f64,
}

/// One endgame checked by `quill exploit`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExploitReport {
    /// The position.
    pub fen: String,
    /// Reachable positions solved.
    pub states: usize,
    /// Positions solved again during value iteration.
    pub updates: usize,
    /// The fixed-point residual of the solved values.
    pub residual: f64,
    /// The search's last completed iteration at the root.
    pub analysis: Analysis,
    /// Each completed iteration before the last: its depth and what Quill's root strategy
    /// was worth then, playing White and Black (as `sides`).
    pub iterations: Vec<(u32, [Exploit; 2])>,
    /// Quill playing White, then Black.
    pub sides: [Exploit; 2],
    /// The solved values against a tablebase's, when one was given.
    pub table: Option<TableAgreement>,
    /// Positions re-valued by the step for endless play, when it was taken.
    pub looping: u64,
}

/// How the endgame's solved values compare with a tablebase's (`quill exploit --tablebase`):
/// two solvers of Quill's that share the rules and the matrix solver but not the iteration
/// (a work list and strategy iteration here; sweeps, strategy iteration and the vanishing
/// discount in the table's build).
#[derive(Clone, Debug, PartialEq)]
pub struct TableAgreement {
    /// Reachable unfinished positions the table holds.
    pub compared: usize,
    /// Those whose values differ by more than 1e-6.
    pub apart: usize,
    /// The largest difference, and a position where it is.
    pub largest: f64,
    /// A position (FEN) of the largest difference.
    pub at: Option<String>,
}

/// The most reachable positions `quill exploit` solves by default.
pub const DEFAULT_MAX_POSITIONS: usize = 1_000_000;

/// The most reachable positions `quill exploit --max-positions` may ask to solve (about
/// 750 bytes each: 7.5 GB; a 1.1-million-position endgame took 812 MB).
pub const MAX_POSITIONS: usize = 10_000_000;

/// Solves the endgame at `fen` exactly (at most `max_positions` reachable positions, and 50
/// solves a position, at least 50,000,000, in its work list), searches it within `limits`,
/// and measures how exploitable each side's root strategy is; with a `table`, compares the
/// solved values with it ([`TableAgreement`]).
///
/// # Errors
/// When the FEN is invalid, the game is over, or it has more than `max_positions` positions.
pub fn check(
    rules: Rules,
    fen: &str,
    limits: Limits,
    max_positions: usize,
    table: Option<&crate::tablebase::Tablebase>,
    endless: bool,
) -> Result<ExploitReport, CheckError> {
    let pos = Position::from_fen(rules, fen).map_err(CheckError::Fen)?;
    let solves = max_positions.saturating_mul(50).max(50_000_000);
    let mut eg = Endgame::solve(&pos, max_positions, 1e-10, solves).map_err(CheckError::Endgame)?;
    let looping = if endless { eg.settle_endless() } else { 0 };
    let stop = AtomicBool::new(false);
    let measure = |a: &super::Analysis, side| {
        eg.exploitability(&pos, side, a.strategy(side))
            .expect("the root is unfinished")
    };
    let mut iterations = Vec::new();
    let analysis = super::analyse(&pos, &[], &[], limits, &stop, &mut |a| {
        iterations.push((a.depth, [measure(a, Side::White), measure(a, Side::Black)]));
    })
    .ok_or(CheckError::Over)?;
    // The answer is the last completed iteration, or a stopped one's partial answer over it.
    if iterations.last().is_some_and(|i| i.0 == analysis.depth) && !analysis.partial {
        iterations.pop();
    }
    let table = table.map(|t| {
        let mut agreement = TableAgreement {
            compared: 0,
            apart: 0,
            largest: 0.0,
            at: None,
        };
        for (p, v) in eg.unfinished() {
            let Some(stored) = t.value(p) else {
                continue;
            };
            let gap = (stored - v).abs();
            agreement.compared += 1;
            agreement.apart += usize::from(gap > 1e-6);
            if gap > agreement.largest {
                agreement.largest = gap;
                agreement.at = Some(p.fen());
            }
        }
        agreement
    });
    Ok(ExploitReport {
        looping,
        table,
        fen: pos.fen(),
        states: eg.len(),
        updates: eg.updates,
        residual: eg.residual,
        sides: [
            measure(&analysis, Side::White),
            measure(&analysis, Side::Black),
        ],
        iterations,
        analysis,
    })
}
