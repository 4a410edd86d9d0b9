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
//! Starting at ½ makes the limit the value of the game in which play that never ends is a
//! draw, the value of the arbiter's turn cap as the cap grows, as in `quill exploit`.

use std::collections::VecDeque;
use std::time::Instant;

use super::index::{Footmen, Signature, canonical, pieces_of};
use super::{Tablebase, terminal};
use crate::solver::Solver;
use crate::variant::Side;
use crate::variants::apocalypse::{Position, Rules};

/// The residual the iteration aims at.
pub(crate) const TOLERANCE: f64 = 1e-13;
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
/// Full sweeps between two attempts at strategy iteration when one did not reach
/// [`TOLERANCE`].
const RETRY: usize = 50;
/// Full sweeps between two extrapolations.
const EXTRAPOLATE: usize = 10;
/// A value change smaller than this does not queue the position's parents.
const QUIET: f64 = 1e-15;

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
    /// Matrix cells (joint turns) of the iterated positions.
    pub(crate) cells: u64,
    /// Processor seconds spent.
    pub(crate) cpu_seconds: f64,
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
/// hears about each signature when it is done.
///
/// # Errors
/// A piece count outside 2 ..= `MAX_BUILD_PIECES`.
pub fn build(
    rules: Rules,
    pieces: u32,
    max_sweeps: usize,
    progress: &mut dyn FnMut(&SignatureStats),
) -> Result<Built, String> {
    if !(2..=MAX_BUILD_PIECES).contains(&pieces) {
        return Err(format!(
            "a table needs 2 to {MAX_BUILD_PIECES} pieces, got {pieces}"
        ));
    }
    solve_table(Tablebase::empty(rules, pieces), max_sweeps, progress)
}

/// Builds only `target`'s family (`Signature::family`): the signature and every one its
/// positions can reach. The table answers for those signatures only; it is for measuring one
/// signature's cost and for tests, and cannot be written (the format holds whole tables).
///
/// # Errors
/// A signature outside a table of 2 ..= `MAX_BUILD_PIECES` pieces.
pub fn build_family(
    rules: Rules,
    target: Signature,
    max_sweeps: usize,
    progress: &mut dyn FnMut(&SignatureStats),
) -> Result<Built, String> {
    let pieces = target.pieces();
    if !(2..=MAX_BUILD_PIECES).contains(&pieces) || !Signature::all(pieces).contains(&target) {
        return Err(format!(
            "{target:?} is not a signature of a table of 2 to {MAX_BUILD_PIECES} pieces \
             (each side needs a footman)"
        ));
    }
    let table = Tablebase::empty_of(rules, pieces, target.family());
    solve_table(table, max_sweeps, progress)
}

fn solve_table(
    mut table: Tablebase,
    max_sweeps: usize,
    progress: &mut dyn FnMut(&SignatureStats),
) -> Result<Built, String> {
    let rules = table.rules;
    let mut values = vec![0.5f64; table.len()];
    let mut stats = Vec::new();
    for sig in table.signatures.clone() {
        let t0 = cpu_seconds();
        let mut s = solve_signature(&table.footmen, &table, rules, sig, max_sweeps, &mut values);
        s.cpu_seconds = cpu_seconds() - t0;
        progress(&s);
        table.residual = table.residual.max(s.residual);
        stats.push(s);
    }
    table.values = values.iter().map(|&v| super::quantise(v)).collect();
    Ok(Built { table, stats })
}

/// A cell of an iterated position's matrix: a constant payoff (≥ 0) or, as `-(index + 1)`,
/// the position `index` of the signature being solved.
type Cell = f64;

fn solve_signature(
    footmen: &Footmen,
    table: &Tablebase,
    rules: Rules,
    sig: Signature,
    max_sweeps: usize,
    values: &mut [f64],
) -> SignatureStats {
    let started = Instant::now();
    let count = footmen.positions(sig);
    let base = table.offset(sig).expect("a signature of the table") as usize;
    let mut st = SignatureStats {
        signature: sig,
        positions: count,
        finished: 0,
        direct: 0,
        iterated: 0,
        updates: 0,
        sweeps: 0,
        rounds: 0,
        residual: 0.0,
        cells: 0,
        cpu_seconds: 0.0,
    };
    // Iterated positions: index, rows, columns, first cell.
    let mut nodes: Vec<(u32, u16, u16, usize)> = Vec::new();
    let mut cells: Vec<Cell> = Vec::new();
    let mut solver = Solver::new();
    let mut payoff = Vec::new();
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for i in 0..count {
        let p = footmen.pieces(sig, i);
        let pos = Position::from_parts(rules, [p[0], p[2]], [p[1], p[3]], [0, 0]);
        if let Some(v) = terminal(&pos) {
            values[base + i as usize] = v;
            st.finished += 1;
            continue;
        }
        pos.legal_moves(Side::White, &mut white);
        pos.legal_moves(Side::Black, &mut black);
        let start = cells.len();
        let mut inside = false;
        for &w in &white {
            for &b in &black {
                let child = pos.resolve(Ok(w), Ok(b));
                let cell = match terminal(&child) {
                    Some(v) => v,
                    None => {
                        let cs = Signature::of(&child);
                        let ci = footmen
                            .index(cs, canonical(pieces_of(&child)))
                            .expect("a child of a table position is in the table");
                        if cs == sig {
                            inside = true;
                            -(ci as f64) - 1.0
                        } else {
                            let off = table.offset(cs).expect("a child signature of the table");
                            values[(off + ci) as usize]
                        }
                    }
                };
                cells.push(cell);
            }
        }
        if inside {
            nodes.push((i as u32, white.len() as u16, black.len() as u16, start));
        } else {
            let v = solver
                .solve(&cells[start..], white.len(), black.len())
                .value;
            values[base + i as usize] = v;
            cells.truncate(start);
            st.direct += 1;
        }
    }
    st.iterated = nodes.len() as u64;
    st.cells = cells.len() as u64;
    if nodes.is_empty() {
        return st;
    }
    let local = &mut values[base..base + count as usize];
    // Parents of each position among the iterated ones (compressed rows).
    let mut node_of = vec![u32::MAX; count as usize];
    for (k, n) in nodes.iter().enumerate() {
        node_of[n.0 as usize] = k as u32;
    }
    let ends: Vec<usize> = (0..nodes.len())
        .map(|k| nodes.get(k + 1).map_or(cells.len(), |n| n.3))
        .collect();
    let mut degree = vec![0u32; count as usize + 1];
    for (k, n) in nodes.iter().enumerate() {
        for &c in &cells[n.3..ends[k]] {
            if c < 0.0 {
                degree[(-c - 1.0) as usize] += 1;
            }
        }
    }
    let mut first = vec![0usize; count as usize + 1];
    for i in 0..count as usize {
        first[i + 1] = first[i] + degree[i] as usize;
    }
    let mut parents = vec![0u32; first[count as usize]];
    let mut fill = first.clone();
    for (k, n) in nodes.iter().enumerate() {
        for &c in &cells[n.3..ends[k]] {
            if c < 0.0 {
                let r = (-c - 1.0) as usize;
                parents[fill[r]] = k as u32;
                fill[r] += 1;
            }
        }
    }
    let solve = |k: usize, local: &[f64], solver: &mut Solver, payoff: &mut Vec<f64>| {
        let (_, m, n, s) = nodes[k];
        payoff.clear();
        payoff.extend(cells[s..ends[k]].iter().map(|&c| {
            if c < 0.0 {
                local[(-c - 1.0) as usize]
            } else {
                c
            }
        }));
        solver.solve(payoff, usize::from(m), usize::from(n)).value
    };
    let mut queued = vec![true; nodes.len()];
    let mut work: VecDeque<u32> = (0..nodes.len() as u32).collect();
    let cap = MAX_UPDATES_PER_POSITION * nodes.len() as u64;
    while let Some(k) = work.pop_front() {
        if st.updates >= cap {
            break;
        }
        let k = k as usize;
        queued[k] = false;
        let v = solve(k, local, &mut solver, &mut payoff);
        st.updates += 1;
        let i = nodes[k].0 as usize;
        let moved = (v - local[i]).abs();
        local[i] = v;
        if moved > QUIET {
            for &p in &parents[first[i]..first[i + 1]] {
                if !queued[p as usize] {
                    queued[p as usize] = true;
                    work.push_back(p);
                }
            }
        }
    }
    // Full sweeps. Where the iteration converges geometrically (long cycles that are left
    // with a small probability each turn), every EXTRAPOLATE sweeps each value is moved to
    // the limit of its last two changes' geometric series (Aitken); the sweeps after it
    // measure the residual, so a bad guess is only slower, never accepted.
    let mut delta = vec![0.0f64; nodes.len()];
    let mut before = vec![0.0f64; nodes.len()];
    let mut next_exact = 0;
    loop {
        let mut residual: f64 = 0.0;
        for k in 0..nodes.len() {
            let v = solve(k, local, &mut solver, &mut payoff);
            let i = nodes[k].0 as usize;
            before[k] = delta[k];
            delta[k] = v - local[i];
            residual = residual.max(delta[k].abs());
            local[i] = v;
        }
        st.sweeps += 1;
        st.residual = residual;
        if st.sweeps.is_multiple_of(100) {
            log::info!("{sig:?}: sweep {}, residual {residual:.2e}", st.sweeps);
        }
        if residual <= TOLERANCE || st.sweeps >= max_sweeps {
            break;
        }
        if residual <= EXACT_FROM && st.sweeps >= next_exact {
            let graph = super::exact::Graph {
                nodes: &nodes,
                cells: &cells,
                ends: &ends,
                node_of: &node_of,
            };
            let r = super::exact::solve(&graph, local, TOLERANCE, MAX_ROUNDS);
            log::info!(
                "{sig:?}: strategy iteration after {} sweeps: {r:?}",
                st.sweeps
            );
            st.rounds += r.accepted;
            if r.accepted > 0 {
                st.residual = *r.residuals.last().expect("a residual per round");
                if st.residual <= TOLERANCE {
                    break;
                }
                delta.fill(0.0);
            }
            next_exact = st.sweeps + RETRY;
            continue;
        }
        if st.sweeps.is_multiple_of(EXTRAPOLATE) {
            for k in 0..nodes.len() {
                let (d, p) = (delta[k], before[k]);
                if d != 0.0 && p != 0.0 && d.signum() == p.signum() && d.abs() < p.abs() {
                    let r = d / p;
                    let i = nodes[k].0 as usize;
                    local[i] = (local[i] + d * r / (1.0 - r)).clamp(0.0, 1.0);
                }
            }
        }
    }
    log::debug!("{sig:?}: {:?}", started.elapsed());
    st
}
