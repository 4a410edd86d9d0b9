//! Solving one signature (`protocol-docs/tablebase.md`, "How a table is built", steps 1–4):
//! finished positions get their payoff, positions whose children all lie outside the
//! signature are solved once, and the rest are iterated: a work list, then full Gauss–Seidel
//! sweeps with Aitken extrapolation, handing over to strategy iteration ([`super::exact`])
//! once the residual is small; then, where play loops forever, the vanishing discount.

use std::collections::VecDeque;

use super::Tablebase;
use super::build::{
    EXACT_FROM, MAX_ROUNDS, MAX_UPDATES_PER_POSITION, SOLVER_ACCEPT, SignatureStats, TOLERANCE,
};
use super::exact::{Cell, Graph};
use super::index::{Signature, canonical, pieces_of};
use crate::solver::Solver;
use crate::variant::Side;
use crate::variants::apocalypse::{Position, Rules};

/// Full sweeps between two attempts at strategy iteration when one did not reach
/// [`TOLERANCE`], and the length of the windows over which a stall is judged.
const RETRY: usize = 50;
/// The residual has stalled when the smallest of a window of [`RETRY`] sweeps is above this
/// fraction of the previous window's smallest: strategy iteration is then tried whatever the
/// residual (value iteration on the classic `1 1 1 2` sat at 1e-4 for 2,000 sweeps).
const STALL: f64 = 0.5;
/// Full sweeps between two extrapolations.
const EXTRAPOLATE: usize = 10;
/// The fraction of each change a sweep applies once an attempt at strategy iteration has kept
/// nothing (the values then stand still or rotate, which full steps cannot damp). The classic
/// `1 2 1 1` sat for 1,800 sweeps at a residual of 4.6e-10: three positions near 1 taking turns
/// to move by it, which half steps turn into a decay (rotation by a third of a turn: eigenvalue
/// −1/2 ± 0.87i, modulus 1, becomes 1/4 ± 0.43i, modulus 1/2).
const DAMPING: f64 = 0.5;
/// A value change smaller than this does not queue the position's parents.
const QUIET: f64 = 1e-15;

/// Solves signature `sig` of `table` into `values` (the whole table's values, every earlier
/// signature already final).
pub(super) fn solve_signature(
    table: &Tablebase,
    rules: Rules,
    sig: Signature,
    max_sweeps: usize,
    values: &mut [f64],
) -> SignatureStats {
    let count = table.footmen.positions(sig);
    let base = table.offset(sig).expect("a signature of the table") as usize;
    let mut st = SignatureStats::new(sig, count);
    let graph = prepare(table, rules, sig, values, &mut st);
    if graph.nodes.is_empty() {
        return st;
    }
    let local = &mut values[base..base + count as usize];
    let parents = Parents::of(&graph, count as usize);
    work_list(&graph, &parents, local, &mut st);
    sweep(&graph, local, max_sweeps, &mut st);
    endless(&graph, &parents, local, &mut st);
    st
}

/// The smallest of the three discounts of the vanishing-discount solve ([`endless`]); the
/// others are twice and four times it.
const DISCOUNT: f64 = 1e-4;
/// Rounds of each discounted strategy iteration, at most, and the residual that ends it
/// (a discounted value's error is its residual divided by the discount).
const DISCOUNT_ROUNDS: usize = 80;
const DISCOUNT_TOLERANCE: f64 = 1e-15;
/// The largest error of a discounted value (its solve's residual over the discount) that the
/// extrapolation is taken from: the extrapolation multiplies it by about 5, still far below
/// what a wrong fixed point can be off (0.099 in the seed `1 1 1 1`); the seed `1 1 1 2`'s
/// solves reached 3.6e-8, 1.4e-5 and 4.3e-8, the classic one's 19 (not converged at all).
const DISCOUNT_ERROR: f64 = 1e-4;
/// Undiscounted rounds after the re-valuing, at most: twice step 4's, since each halves the
/// error of a slow double root that the re-valuing disturbed.
const AFTER_DISCOUNT_ROUNDS: usize = 2 * MAX_ROUNDS;

/// Step 5: where the values reached are one fixed point among many (closed components of the
/// equilibrium chain: play that loops forever at a tie), the value of the game in which endless
/// play is a draw is the limit of the discounted values as the discount vanishes; it is taken
/// there by Richardson extrapolation from three discounts, and the rest solved again around it.
fn endless(g: &Graph, parents: &Parents, local: &mut [f64], st: &mut SignatureStats) {
    let closed = super::exact::closed(g, local).len() as u64;
    if closed == 0 {
        return;
    }
    // Each discounted solve with the error its residual allows (the residual over λ).
    let discounted = |lambda: f64| {
        let mut v = local.to_vec();
        let r = super::exact::solve(g, &mut v, lambda, DISCOUNT_TOLERANCE, DISCOUNT_ROUNDS);
        log::info!("{:?}: discount {lambda:e}: {r:?}", st.signature);
        (v, r.residuals[r.accepted] / lambda)
    };
    let ((h, e), (h2, e2), (h4, e4)) = (
        discounted(DISCOUNT),
        discounted(2.0 * DISCOUNT),
        discounted(4.0 * DISCOUNT),
    );
    let error = e.max(e2).max(e4);
    if error > DISCOUNT_ERROR {
        // Discounted values this far off extrapolate to nothing: the loops keep the values
        // reached, and the signature says so.
        st.unsettled = closed;
        log::warn!(
            "{:?}: the discounted solves did not converge (error up to {error:.1e}): {} positions \
             in closed loops keep the values reached",
            st.signature,
            st.unsettled
        );
        return;
    }
    let (before, residual_before) = (local.to_vec(), st.residual);
    // The re-valued positions, then (below) every position that leads to one.
    let mut affected = vec![false; local.len()];
    let mut work = Vec::new();
    for &(i, ..) in &g.nodes {
        let i = i as usize;
        let limit = (8.0 * h[i] - 6.0 * h2[i] + h4[i]) / 3.0;
        // Where the discounted values are a power series in the discount (their differences
        // double with it), the limit is the extrapolation; elsewhere (a value of 0 or 1 that
        // value iteration approaches slowly, where they go as its square root) the value
        // reached stands: only a fixed point among many can be wrong, and those are smooth.
        let ratio = (h4[i] - h2[i]) / (h2[i] - h[i]);
        if (limit - local[i]).abs() > 1e-7 && (1.8..2.2).contains(&ratio) {
            local[i] = limit.clamp(0.0, 1.0);
            affected[i] = true;
            work.push(i);
        }
    }
    log::info!(
        "{:?}: {} positions re-valued by the vanishing discount",
        st.signature,
        work.len()
    );
    st.looping = work.len() as u64;
    let r = super::exact::solve(g, local, 0.0, TOLERANCE, AFTER_DISCOUNT_ROUNDS);
    log::info!(
        "{:?}: strategy iteration after the discount: {r:?}",
        st.signature
    );
    st.residual = r.residuals[r.accepted];
    if st.residual > TOLERANCE {
        // The rounds leave the slow double roots near 0 and 1 as the first rounds of step 4
        // did; the sweeps and rounds of step 3 finish them, from a fixed point now.
        let budget = st.sweeps + AFTER_DISCOUNT;
        sweep(g, local, budget, st);
    }
    // A position that leads to no re-valued one keeps the value it had: it was a fixed point
    // of its own, and the rounds above only disturb it (a double root is halved again).
    while let Some(i) = work.pop() {
        for &k in parents.get(i) {
            let p = g.nodes[k as usize].0 as usize;
            if !affected[p] {
                affected[p] = true;
                work.push(p);
            }
        }
    }
    for &(i, ..) in &g.nodes {
        let i = i as usize;
        if !affected[i] {
            local[i] = before[i];
        }
    }
    st.residual = st.residual.max(residual_before);
}

/// Step 5 on a graph of matrix games that is not a table's signature (`quill exploit`'s
/// endgames, labelled in the log by `label`), whose values (`values`, over every position of
/// the graph) have reached `residual`: the positions re-valued by the vanishing discount,
/// and the residual after.
pub(crate) fn settle_endless(
    g: Graph,
    values: &mut [f64],
    residual: f64,
    label: Signature,
) -> (u64, f64) {
    let mut st = SignatureStats::new(label, values.len() as u64);
    st.residual = residual;
    let parents = Parents::of(&g, values.len());
    endless(&g, &parents, values, &mut st);
    (st.looping, st.residual)
}

/// Full sweeps after the vanishing-discount solve, at most.
const AFTER_DISCOUNT: usize = 300;

/// Steps 1 and 2 for every position of `sig`, and the graph of the others (step 3's).
fn prepare(
    table: &Tablebase,
    rules: Rules,
    sig: Signature,
    values: &mut [f64],
    st: &mut SignatureStats,
) -> Graph {
    let base = table.offset(sig).expect("a signature of the table") as usize;
    let (mut nodes, mut cells) = (Vec::new(), Vec::new());
    let mut solver = Solver::with_accept(SOLVER_ACCEPT);
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for i in 0..st.positions {
        let p = table.footmen.pieces(sig, i);
        let pos = Position::from_parts(rules, [p[0], p[2]], [p[1], p[3]], [0, 0]);
        if let Some(v) = super::terminal(&pos) {
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
                let cell = cell(table, sig, &child, values);
                inside |= cell < 0.0;
                cells.push(cell);
            }
        }
        if inside {
            nodes.push((i as u32, white.len() as u16, black.len() as u16, start));
        } else {
            let v = solver.solve(&cells[start..], white.len(), black.len());
            values[base + i as usize] = v.value;
            cells.truncate(start);
            st.direct += 1;
        }
    }
    st.iterated = nodes.len() as u64;
    st.cells = cells.len() as u64;
    Graph::new(nodes, cells, st.positions as usize)
}

/// The cell of a joint move leading to `child`: its payoff when finished or outside `sig`,
/// else its index in `sig` (as a [`Cell`]).
fn cell(table: &Tablebase, sig: Signature, child: &Position, values: &[f64]) -> Cell {
    if let Some(v) = super::terminal(child) {
        return v;
    }
    let cs = Signature::of(child);
    let ci = table
        .footmen
        .index(cs, canonical(pieces_of(child)))
        .expect("a child of a table position is in the table");
    if cs == sig {
        super::exact::position_cell(ci as usize)
    } else {
        let off = table.offset(cs).expect("a child signature of the table");
        values[(off + ci) as usize]
    }
}

/// The parents of each position among the iterated ones (compressed rows).
struct Parents {
    first: Vec<usize>,
    of: Vec<u32>,
}

impl Parents {
    fn of(g: &Graph, count: usize) -> Parents {
        let children = |k: usize| {
            g.cells_of(k)
                .iter()
                .filter_map(|&c| super::exact::cell_position(c))
        };
        let mut first = vec![0usize; count + 1];
        for k in 0..g.nodes.len() {
            for r in children(k) {
                first[r + 1] += 1;
            }
        }
        for i in 0..count {
            first[i + 1] += first[i];
        }
        let mut of = vec![0u32; first[count]];
        let mut fill = first.clone();
        for k in 0..g.nodes.len() {
            for r in children(k) {
                of[fill[r]] = k as u32;
                fill[r] += 1;
            }
        }
        Parents { first, of }
    }

    fn get(&self, i: usize) -> &[u32] {
        &self.of[self.first[i]..self.first[i + 1]]
    }
}

/// Step 3's work list: every iterated position solved, and solved again when a child moved,
/// at most [`MAX_UPDATES_PER_POSITION`] times a position on average.
fn work_list(g: &Graph, parents: &Parents, local: &mut [f64], st: &mut SignatureStats) {
    let mut solver = Solver::with_accept(SOLVER_ACCEPT);
    let mut payoff = Vec::new();
    let mut queued = vec![true; g.nodes.len()];
    let mut work: VecDeque<u32> = (0..g.nodes.len() as u32).collect();
    let cap = MAX_UPDATES_PER_POSITION * g.nodes.len() as u64;
    while let Some(k) = work.pop_front() {
        if st.updates >= cap {
            break;
        }
        let k = k as usize;
        queued[k] = false;
        let v = g.solve(k, local, &mut solver, &mut payoff).value;
        st.updates += 1;
        let i = g.nodes[k].0 as usize;
        let moved = (v - local[i]).abs();
        local[i] = v;
        if moved > QUIET {
            for &p in parents.get(i) {
                if !queued[p as usize] {
                    queued[p as usize] = true;
                    work.push_back(p);
                }
            }
        }
    }
}

/// The last two changes of each iterated position's value.
struct Changes {
    delta: Vec<f64>,
    before: Vec<f64>,
}

/// Full sweeps until the residual is at most [`TOLERANCE`] or `max_sweeps` have run, with
/// strategy iteration tried once the residual is at most [`EXACT_FROM`] or has stalled
/// ([`STALL`]) (again [`RETRY`] sweeps later if it did not finish, later still after attempts
/// that kept nothing), and an extrapolation every [`EXTRAPOLATE`] sweeps. After an attempt
/// that kept nothing, until one keeps a round, the sweeps take [`DAMPING`] of each step and do
/// not extrapolate: Aitken steps there threw values near 1 by up to 1.7e-7 (their last two
/// changes agreeing to a few digits), which the next sweeps took back.
fn sweep(g: &Graph, local: &mut [f64], max_sweeps: usize, st: &mut SignatureStats) {
    let mut solver = Solver::with_accept(SOLVER_ACCEPT);
    let mut payoff = Vec::new();
    let n = g.nodes.len();
    let mut ch = Changes {
        delta: vec![0.0; n],
        before: vec![0.0; n],
    };
    let mut next_exact = 0;
    // Attempts in a row that kept no round.
    let mut idle = 0;
    // The smallest residual of the window of sweeps under way and of the one before it.
    let (mut window, mut previous) = (f64::INFINITY, f64::INFINITY);
    loop {
        let mut residual: f64 = 0.0;
        // The position that would have moved most, for the debug log (its steps are the
        // changes taken, half of them when damped).
        let mut largest = 0;
        for k in 0..n {
            let v = g.solve(k, local, &mut solver, &mut payoff).value;
            let i = g.nodes[k].0 as usize;
            ch.before[k] = ch.delta[k];
            let change = v - local[i];
            if change.abs() > residual {
                (residual, largest) = (change.abs(), k);
            }
            if idle > 0 {
                ch.delta[k] = DAMPING * change;
                local[i] += ch.delta[k];
            } else {
                ch.delta[k] = change;
                local[i] = v;
            }
        }
        st.sweeps += 1;
        st.residual = residual;
        log::debug!(
            "{:?}: sweep {}, residual {residual:.3e} at index {} (step {:.3e} after {:.3e}, value {:.17})",
            st.signature,
            st.sweeps,
            g.nodes[largest].0,
            ch.delta[largest],
            ch.before[largest],
            local[g.nodes[largest].0 as usize]
        );
        if st.sweeps.is_multiple_of(100) {
            log::info!(
                "{:?}: sweep {}, residual {residual:.2e}",
                st.signature,
                st.sweeps
            );
        }
        if residual <= TOLERANCE || st.sweeps >= max_sweeps {
            return;
        }
        window = window.min(residual);
        let mut stalled = false;
        if st.sweeps.is_multiple_of(RETRY) {
            stalled = window > STALL * previous;
            (previous, window) = (window, f64::INFINITY);
        }
        if (residual <= EXACT_FROM || stalled) && st.sweeps >= next_exact {
            let (done, kept) = exact(g, local, &mut ch, st);
            if done {
                return;
            }
            // Attempts that keep nothing (rounds that only cycle at a tie) are spaced out,
            // doubling the wait each time up to 16 × RETRY: the classic `1 2 1 1` sat at a
            // residual of 6e-10 while an attempt every 50 sweeps took half its time.
            idle = if kept { 0 } else { (idle + 1).min(4) };
            next_exact = st.sweeps + (RETRY << idle);
        } else if st.sweeps.is_multiple_of(EXTRAPOLATE) && idle == 0 {
            extrapolate(g, local, &ch);
        }
    }
}

/// Strategy-iteration rounds on the signature: whether they reached [`TOLERANCE`], and
/// whether a round was kept. Where one was, the values jumped, so their last changes are
/// forgotten.
fn exact(g: &Graph, local: &mut [f64], ch: &mut Changes, st: &mut SignatureStats) -> (bool, bool) {
    let r = super::exact::solve(g, local, 0.0, TOLERANCE, MAX_ROUNDS);
    log::info!(
        "{:?}: strategy iteration after {} sweeps: {r:?}",
        st.signature,
        st.sweeps
    );
    st.rounds += r.accepted;
    if r.accepted > 0 {
        st.residual = *r.residuals.last().expect("a residual per round");
        ch.delta.fill(0.0);
    }
    (st.residual <= TOLERANCE, r.accepted > 0)
}

/// Moves each value to the limit of its last two changes' geometric series (Aitken), where
/// they shrink with one sign: where the iteration converges geometrically (long cycles left
/// with a small probability each turn). The sweeps after it measure the residual, so a bad
/// guess is only slower, never accepted.
fn extrapolate(g: &Graph, local: &mut [f64], ch: &Changes) {
    for (k, &(i, ..)) in g.nodes.iter().enumerate() {
        let (d, p) = (ch.delta[k], ch.before[k]);
        if d != 0.0 && p != 0.0 && d.signum() == p.signum() && d.abs() < p.abs() {
            let r = d / p;
            let i = i as usize;
            local[i] = (local[i] + d * r / (1.0 - r)).clamp(0.0, 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::exact::position_cell;

    /// Three positions whose one-cell games each take another's value, in an order that a full
    /// Gauss–Seidel step only swaps (a ← b, b ← c, c ← the new a): from (0, 1, 0) the values
    /// alternate between (1, 0, 1) and (0, 1, 0) with a residual of 1 for ever. Once an attempt
    /// at strategy iteration keeps nothing, the damped sweeps bring them together.
    #[test]
    fn damped_sweeps_settle_values_that_full_steps_only_swap() {
        let nodes = vec![(0, 1, 1, 0), (1, 1, 1, 1), (2, 1, 1, 2)];
        let cells = vec![position_cell(1), position_cell(2), position_cell(0)];
        let g = Graph::new(nodes, cells, 3);
        let mut local = vec![0.0, 1.0, 0.0];
        let sig = Signature {
            wf: 1,
            wh: 0,
            bf: 1,
            bh: 0,
        };
        let mut st = SignatureStats::new(sig, 3);
        sweep(&g, &mut local, 2_000, &mut st);
        assert!(
            st.residual <= TOLERANCE,
            "residual {:e} after {} sweeps, values {local:?}",
            st.residual,
            st.sweeps
        );
        assert!(
            local.iter().all(|v| (v - local[0]).abs() <= 1e-12),
            "{local:?}"
        );
    }
}
