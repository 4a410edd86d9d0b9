//! Exact values where value iteration converges slowly: strategy iteration, that is Newton's
//! method on the fixed-point equation `v = T(v)` (`protocol-docs/tablebase.md`, "Exact values").
//!
//! One round: at the current values every iterated position's matrix game is solved; both
//! equilibrium strategies are then held fixed, which makes the signature a Markov chain (each
//! joint move a transition with the product of the two probabilities), and the chain's values
//! are solved as a linear system, exactly up to floating point: strongly connected components
//! in reverse topological order (Tarjan), each by Gaussian elimination with partial pivoting.
//! A component that the chain never leaves keeps its values (the strategies loop there because
//! of ties between moves of one value, or play never ends); where play never ends the builder
//! then takes those values to the vanishing-discount limit (`iterate::endless`), solving the
//! discounted game with these same rounds (a discount in the chain: no component is closed). Because an equilibrium makes each position's value stationary in its own
//! strategies, the round is a Newton step: where the equilibrium supports are stable the
//! residual falls quadratically, and a few rounds take it from value iteration's 1e-6 to
//! rounding level.
//!
//! The values kept are those of the round with the lowest residual (the largest change one more
//! matrix-game solve would make), the values value iteration left included, so the method can
//! never make a table worse than value iteration left it.

use super::build::SOLVER_ACCEPT;
use crate::solver::Solver;

/// An iterated position: its index in the signature, rows, columns, first cell.
pub(crate) type Node = (u32, u16, u16, usize);

/// A cell of an iterated position's matrix: a constant payoff (≥ 0) or, as `-(index + 1)`,
/// the position `index` of the signature being solved ([`position_cell`], [`cell_position`]).
pub(crate) type Cell = f64;

/// The cell that stands for the value of position `index`.
pub(crate) fn position_cell(index: usize) -> Cell {
    -(index as f64) - 1.0
}

/// The position a cell stands for, if it is not a constant.
pub(super) fn cell_position(c: Cell) -> Option<usize> {
    (c < 0.0).then(|| (-c - 1.0) as usize)
}

/// The graph of a signature's iterated positions, as the builder holds it.
pub(crate) struct Graph {
    /// The iterated positions.
    pub(super) nodes: Vec<Node>,
    /// Matrix cells, position after position.
    pub(super) cells: Vec<Cell>,
    /// Where each position's cells end.
    pub(super) ends: Vec<usize>,
    /// Per position of the signature, its iterated-position number (`u32::MAX`: not iterated,
    /// its value is final).
    pub(super) node_of: Vec<u32>,
}

impl Graph {
    /// The graph of `nodes` and their `cells` (in node order) over `count` positions.
    pub(crate) fn new(nodes: Vec<Node>, cells: Vec<Cell>, count: usize) -> Graph {
        let ends = (0..nodes.len())
            .map(|k| nodes.get(k + 1).map_or(cells.len(), |n| n.3))
            .collect();
        let mut node_of = vec![u32::MAX; count];
        for (k, n) in nodes.iter().enumerate() {
            node_of[n.0 as usize] = k as u32;
        }
        Graph {
            nodes,
            cells,
            ends,
            node_of,
        }
    }

    /// The cells of iterated position `k`.
    pub(super) fn cells_of(&self, k: usize) -> &[Cell] {
        &self.cells[self.nodes[k].3..self.ends[k]]
    }

    /// Solves iterated position `k`'s matrix game over the signature's values `local`.
    pub(super) fn solve<'s>(
        &self,
        k: usize,
        local: &[f64],
        solver: &'s mut Solver,
        payoff: &mut Vec<f64>,
    ) -> &'s crate::solver::Solution {
        let (_, m, n, _) = self.nodes[k];
        payoff.clear();
        payoff.extend(
            self.cells_of(k)
                .iter()
                .map(|&c| cell_position(c).map_or(c, |j| local[j])),
        );
        solver.solve(payoff, usize::from(m), usize::from(n))
    }
}

/// The largest component solved by dense elimination (its matrix is `n²` doubles: 128 MiB).
pub(crate) const MAX_DENSE: usize = 4096;
/// A component whose total probability of leaving is at most this is closed (never left).
const CLOSED: f64 = 1e-13;

/// What the rounds did.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Rounds {
    /// The round whose values were kept (0: none, value iteration's values stay).
    pub(crate) accepted: usize,
    /// The residual before the first round and after each round up to the one kept.
    pub(crate) residuals: Vec<f64>,
    /// The largest strongly connected component met.
    pub(crate) largest_component: usize,
    /// Closed components (values kept) in the round kept.
    pub(crate) closed: usize,
}

/// The Markov chain of fixed strategies: per iterated position, transitions to iterated
/// positions (compressed rows), the expected payoff of the rest and its probability.
struct Chain {
    start: Vec<usize>,
    to: Vec<u32>,
    p: Vec<f64>,
    rhs: Vec<f64>,
    exit: Vec<f64>,
}

/// Solves every iterated position's matrix game at `local`, returning the largest residual
/// and the chain of the equilibrium strategies. Each game's value is written back as soon as
/// it is solved (a Gauss–Seidel sweep), so the values a round leaves are smoothed once: where a
/// round kept a closed component's values (strategies that loop on a tie) while its neighbours
/// moved, its positions take their neighbours' new values at once and the next round starts
/// from them. Near 0 or 1, where a round only halves the error (a double root,
/// `protocol-docs/tablebase.md`), this is what lets 20 rounds make `1 1 1 1` exact.
fn chain(
    g: &Graph,
    local: &mut [f64],
    discount: f64,
    solver: &mut Solver,
    payoff: &mut Vec<f64>,
) -> (f64, Chain) {
    let keep = 1.0 - discount;
    let mut ch = Chain {
        start: Vec::with_capacity(g.nodes.len() + 1),
        to: Vec::new(),
        p: Vec::new(),
        rhs: Vec::with_capacity(g.nodes.len()),
        exit: Vec::with_capacity(g.nodes.len()),
    };
    let mut residual: f64 = 0.0;
    for (k, &(i, _, n, _)) in g.nodes.iter().enumerate() {
        let cells = g.cells_of(k);
        let n = usize::from(n);
        let sol = g.solve(k, local, solver, payoff);
        let value = discount * 0.5 + keep * sol.value;
        residual = residual.max((value - local[i as usize]).abs());
        local[i as usize] = value;
        ch.start.push(ch.to.len());
        let first = ch.to.len();
        let (mut rhs, mut exit) = (0.0, 0.0);
        for (a, &pa) in sol.rows.iter().enumerate() {
            if pa <= 0.0 {
                continue;
            }
            for (b, &pb) in sol.cols.iter().enumerate() {
                if pb <= 0.0 {
                    continue;
                }
                let p = keep * pa * pb;
                let c = cells[a * n + b];
                let Some(j) = cell_position(c) else {
                    rhs += p * c;
                    exit += p;
                    continue;
                };
                let node = g.node_of[j];
                if node == u32::MAX {
                    rhs += p * local[j];
                    exit += p;
                } else if let Some(q) = ch.to[first..].iter().position(|&t| t == node) {
                    ch.p[first + q] += p;
                } else {
                    ch.to.push(node);
                    ch.p.push(p);
                }
            }
        }
        ch.rhs.push(rhs + discount * 0.5);
        ch.exit.push(exit + discount);
    }
    ch.start.push(ch.to.len());
    (residual, ch)
}

/// The strongly connected components of the chain, each a list of positions, in reverse
/// topological order (a component only leads to components before it). Iterative Tarjan.
fn components(ch: &Chain) -> Vec<Vec<u32>> {
    let n = ch.rhs.len();
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0u32;
    // The depth-first path: a node and the next of its edges to look at.
    let mut path: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        path.push((root, ch.start[root as usize]));
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut e)) = path.last_mut() {
            let vu = v as usize;
            if *e < ch.start[vu + 1] {
                let w = ch.to[*e] as usize;
                *e += 1;
                if index[w] == NONE {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    path.push((w as u32, ch.start[w]));
                } else if on_stack[w] {
                    low[vu] = low[vu].min(index[w]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _)) = path.last() {
                low[parent as usize] = low[parent as usize].min(low[vu]);
            }
            if low[vu] == index[vu] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

/// Solves `(I − P) x = b` in place (`a` is `n × n`, row-major, and is destroyed) by Gaussian
/// elimination with partial pivoting; `false` if a pivot vanishes.
fn eliminate(a: &mut [f64], b: &mut [f64], n: usize) -> bool {
    for col in 0..n {
        let (piv, big) = (col..n)
            .map(|r| (r, a[r * n + col].abs()))
            .fold((col, -1.0), |acc, x| if x.1 > acc.1 { x } else { acc });
        if big <= 1e-300 {
            return false;
        }
        if piv != col {
            for c in 0..n {
                a.swap(piv * n + c, col * n + c);
            }
            b.swap(piv, col);
        }
        let d = a[col * n + col];
        for r in col + 1..n {
            let f = a[r * n + col] / d;
            if f == 0.0 {
                continue;
            }
            a[r * n + col] = 0.0;
            for c in col + 1..n {
                a[r * n + c] -= f * a[col * n + c];
            }
            b[r] -= f * b[col];
        }
    }
    for r in (0..n).rev() {
        let mut s = b[r];
        for c in r + 1..n {
            s -= a[r * n + c] * b[c];
        }
        b[r] = s / a[r * n + r];
    }
    true
}

/// One strongly connected component's linear system `x = P x + b`: its transitions among its
/// own positions (compressed rows, local numbering) and the rest folded into `b`.
struct Block {
    first: Vec<usize>,
    to: Vec<u32>,
    p: Vec<f64>,
    b: Vec<f64>,
}

impl Block {
    /// `y = (I − P) x`.
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        for (q, y) in y.iter_mut().enumerate() {
            let inside: f64 = (self.first[q]..self.first[q + 1])
                .map(|e| self.p[e] * x[self.to[e] as usize])
                .sum();
            *y = x[q] - inside;
        }
    }

    /// Solves the block by Gaussian elimination on its dense matrix.
    fn dense(&self) -> Option<Vec<f64>> {
        let n = self.b.len();
        let mut a = vec![0.0; n * n];
        for q in 0..n {
            a[q * n + q] = 1.0;
            for e in self.first[q]..self.first[q + 1] {
                a[q * n + self.to[e] as usize] -= self.p[e];
            }
        }
        let mut b = self.b.clone();
        eliminate(&mut a, &mut b, n).then_some(b)
    }

    /// Solves the block by BiCGSTAB from `x` (van der Vorst, 1992), for components too large
    /// to hold densely: until the residual `b − (I − P) x` is at most [`SPARSE_TOLERANCE`] in
    /// every row or [`SPARSE_ITERATIONS`] have run. The answer is returned whatever residual it
    /// reached, or `x` itself if no iterate was better (an inexact Newton step: the round's own
    /// residual judges it, and only the best round is kept).
    fn sparse(&self, mut x: Vec<f64>) -> Vec<f64> {
        let n = self.b.len();
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(a, b)| a * b).sum::<f64>();
        let max = |a: &[f64]| a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let mut r = vec![0.0; n];
        self.apply(&x, &mut r);
        for (r, b) in r.iter_mut().zip(&self.b) {
            *r = b - *r;
        }
        let start = max(&r);
        let hat = r.clone();
        let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
        let (mut v, mut d) = (vec![0.0; n], vec![0.0; n]);
        let (mut s, mut t) = (vec![0.0; n], vec![0.0; n]);
        let mut best = (start, x.clone());
        for _ in 0..SPARSE_ITERATIONS {
            if best.0 <= SPARSE_TOLERANCE {
                break;
            }
            let next = dot(&hat, &r);
            if next == 0.0 || omega == 0.0 {
                break;
            }
            let beta = (next / rho) * (alpha / omega);
            rho = next;
            for q in 0..n {
                d[q] = r[q] + beta * (d[q] - omega * v[q]);
            }
            self.apply(&d, &mut v);
            let hv = dot(&hat, &v);
            if hv == 0.0 {
                break;
            }
            alpha = rho / hv;
            for q in 0..n {
                s[q] = r[q] - alpha * v[q];
            }
            self.apply(&s, &mut t);
            let tt = dot(&t, &t);
            omega = if tt > 0.0 { dot(&t, &s) / tt } else { 0.0 };
            for q in 0..n {
                x[q] += alpha * d[q] + omega * s[q];
                r[q] = s[q] - omega * t[q];
            }
            if !x.iter().all(|v| v.is_finite()) {
                break;
            }
            // The recurrence's residual drifts from the true one; the true one is what counts.
            self.apply(&x, &mut t);
            let true_residual = t
                .iter()
                .zip(&self.b)
                .fold(0.0f64, |m, (ax, b)| m.max((b - ax).abs()));
            if true_residual < best.0 {
                best = (true_residual, x.clone());
            }
        }
        log::debug!(
            "strategy iteration: a component of {n} positions solved iteratively, residual {start:.2e} -> {:.2e}",
            best.0
        );
        best.1
    }
}

/// The residual at which [`Block::sparse`] stops, in every row.
const SPARSE_TOLERANCE: f64 = 1e-15;
/// BiCGSTAB iterations of one component, at most.
const SPARSE_ITERATIONS: usize = 2000;

/// The values of the chain: `x = P x + rhs`, closed components keeping their values.
/// Components up to [`MAX_DENSE`] positions are solved exactly, larger ones iteratively
/// ([`Block::sparse`]), and so are those whose dense matrix is singular.
fn evaluate(ch: &Chain, current: &[f64], rounds: &mut Rounds) -> (Vec<f64>, usize) {
    let n = ch.rhs.len();
    let mut x = vec![f64::NAN; n];
    let mut slot = vec![u32::MAX; n];
    let mut closed = 0;
    for comp in components(ch) {
        let size = comp.len();
        rounds.largest_component = rounds.largest_component.max(size);
        for (q, &v) in comp.iter().enumerate() {
            slot[v as usize] = q as u32;
        }
        let mut block = Block {
            first: Vec::with_capacity(size + 1),
            to: Vec::new(),
            p: Vec::new(),
            b: vec![0.0; size],
        };
        // The probability of leaving, summed from the moves that leave (1 minus the moves
        // that stay would add up rounding over a large component and call a closed one open).
        let mut leave = 0.0;
        for (q, &v) in comp.iter().enumerate() {
            let v = v as usize;
            block.first.push(block.to.len());
            block.b[q] = ch.rhs[v];
            leave += ch.exit[v];
            for e in ch.start[v]..ch.start[v + 1] {
                let w = ch.to[e] as usize;
                let s = slot[w];
                if s != u32::MAX && comp[s as usize] as usize == w {
                    block.to.push(s);
                    block.p.push(ch.p[e]);
                } else {
                    block.b[q] += ch.p[e] * x[w];
                    leave += ch.p[e];
                }
            }
        }
        block.first.push(block.to.len());
        if leave <= CLOSED {
            // Strategies that never leave: ties (several moves of one value, the solver
            // picking one that loops), or endless play. Either way the values stay as they
            // are; the residual after the round judges them.
            closed += 1;
            for &v in &comp {
                x[v as usize] = current[v as usize];
            }
        } else {
            // A component left as a whole can hold a part that play (to rounding) never
            // leaves, which makes its dense matrix singular; BiCGSTAB from the current values
            // then improves what it can there.
            let start = || comp.iter().map(|&v| current[v as usize]).collect();
            let solved = match (size <= MAX_DENSE).then(|| block.dense()).flatten() {
                Some(x) => x,
                None => block.sparse(start()),
            };
            for (q, &v) in comp.iter().enumerate() {
                x[v as usize] = solved[q].clamp(0.0, 1.0);
            }
        }
        for &v in &comp {
            slot[v as usize] = u32::MAX;
        }
    }
    (x, closed)
}

/// Rounds in a row that do not lower the best residual before a discounted solve stops: at a
/// tie the strategies can cycle between two answers forever (the classic `1 1 1 2`'s discounted
/// solve alternated between residuals of 1.9e-3 and 3.4e-3 for 80 rounds). Undiscounted rounds
/// run to their count: near the double roots their residuals wander and come down again (the
/// seed `1 1 1 1` after its discount step: best at round 33, 14 rounds after the one before).
const STALE: usize = 10;

/// Strategy-iteration rounds on `local` (the signature's values) until the residual is at most
/// `tolerance`, `max_rounds` rounds have run, or (discounted) [`STALE`] rounds in a row have not
/// lowered it. With a `discount`
/// λ > 0 the game solved is the discounted one, `v = λ·½ + (1 − λ)·T(v)`, whose fixed point
/// is unique and whose chains are never closed (`protocol-docs/tablebase.md`, "Endless play").
pub(super) fn solve(
    g: &Graph,
    local: &mut [f64],
    discount: f64,
    tolerance: f64,
    max_rounds: usize,
) -> Rounds {
    let mut solver = Solver::with_accept(SOLVER_ACCEPT);
    let mut payoff = Vec::new();
    let mut rounds = Rounds::default();
    let (mut residual, mut ch) = chain(g, local, discount, &mut solver, &mut payoff);
    rounds.residuals.push(residual);
    // The best values met (lowest residual): a round may raise the residual where a tie between
    // moves was broken the wrong way; the next round's strategies correct it (as in strategy
    // iteration), and the best values are the ones kept.
    let mut best: Vec<f64> = g.nodes.iter().map(|&(i, ..)| local[i as usize]).collect();
    let mut best_residual = residual;
    let mut since_best = 0;
    for _ in 0..max_rounds {
        if best_residual <= tolerance || (discount > 0.0 && since_best >= STALE) {
            break;
        }
        let (x, closed) = evaluate(&ch, &current_values(g, local), &mut rounds);
        for (k, &(i, ..)) in g.nodes.iter().enumerate() {
            local[i as usize] = x[k];
        }
        (residual, ch) = chain(g, local, discount, &mut solver, &mut payoff);
        rounds.residuals.push(residual);
        log::debug!("strategy iteration: residual {residual:.2e}, {closed} closed components");
        since_best += 1;
        if residual < best_residual {
            since_best = 0;
            best_residual = residual;
            rounds.accepted = rounds.residuals.len() - 1;
            rounds.closed = closed;
            for (k, &(i, ..)) in g.nodes.iter().enumerate() {
                best[k] = local[i as usize];
            }
        }
    }
    for (k, &(i, ..)) in g.nodes.iter().enumerate() {
        local[i as usize] = best[k];
    }
    rounds.residuals.truncate(rounds.accepted + 1);
    rounds
}

/// The iterated positions (by number) in the closed components of the equilibrium chain at
/// `local`: strategies that never leave, whose values any number in a range satisfies.
pub(super) fn closed(g: &Graph, local: &[f64]) -> Vec<u32> {
    let mut solver = Solver::with_accept(SOLVER_ACCEPT);
    let mut scratch = local.to_vec();
    let (_, ch) = chain(g, &mut scratch, 0.0, &mut solver, &mut Vec::new());
    let mut inside = vec![false; ch.rhs.len()];
    let mut out = Vec::new();
    for comp in components(&ch) {
        for &v in &comp {
            inside[v as usize] = true;
        }
        let leave: f64 = comp
            .iter()
            .map(|&v| {
                let v = v as usize;
                let out: f64 = (ch.start[v]..ch.start[v + 1])
                    .filter(|&e| !inside[ch.to[e] as usize])
                    .map(|e| ch.p[e])
                    .sum();
                ch.exit[v] + out
            })
            .sum();
        if leave <= CLOSED {
            out.extend_from_slice(&comp);
        }
        for &v in &comp {
            inside[v as usize] = false;
        }
    }
    out
}

/// The iterated positions' current values.
fn current_values(g: &Graph, local: &[f64]) -> Vec<f64> {
    g.nodes.iter().map(|&(i, ..)| local[i as usize]).collect()
}

/// Strategy-iteration rounds (undiscounted, at most `max_rounds`) on a graph of matrix games
/// that is not a table's signature: `quill exploit`'s endgames, solved by a work list of value
/// iteration that slows to a crawl where a value nears 0 or 1 (a double root). `nodes` are the
/// unfinished positions (index in `values`, White's and Black's move counts, first cell) and
/// `cells` their matrices (a payoff, or `-(index + 1)` for an unfinished child). The best
/// round's values are written back; returns the residual they have.
pub(crate) fn polish(g: Graph, values: &mut [f64], tolerance: f64, max_rounds: usize) -> f64 {
    let r = solve(&g, values, 0.0, tolerance, max_rounds);
    r.residuals[r.accepted]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A block of `n` positions in one cycle (so one component), each also moving to up to five
    /// random others, leaving the block with probability `leave` (half of it to a payoff of 1).
    fn random_block(n: usize, leave: f64, seed: u64) -> Block {
        let mut rng = Rng::new(seed);
        let mut block = Block {
            first: Vec::new(),
            to: Vec::new(),
            p: Vec::new(),
            b: Vec::new(),
        };
        for q in 0..n {
            block.first.push(block.to.len());
            let mut targets = vec![(q + 1) % n];
            targets.extend((0..rng.below(6)).map(|_| rng.below(n as u64) as usize));
            let weights: Vec<f64> = targets.iter().map(|_| 0.1 + rng.next_f64()).collect();
            let total: f64 = weights.iter().sum();
            for (t, w) in targets.iter().zip(&weights) {
                block.to.push(*t as u32);
                block.p.push((1.0 - leave) * w / total);
            }
            block.b.push(leave * rng.below(2) as f64);
        }
        block.first.push(block.to.len());
        block
    }

    #[test]
    fn the_iterative_solve_agrees_with_elimination() {
        for (n, leave, seed) in [(300, 0.05, 1), (500, 1e-3, 2), (1500, 1e-4, 3)] {
            let block = random_block(n, leave, seed);
            let dense = block.dense().expect("a block that is left is regular");
            let sparse = block.sparse(vec![0.5; n]);
            let gap = dense
                .iter()
                .zip(&sparse)
                .fold(0.0f64, |m, (d, s)| m.max((d - s).abs()));
            assert!(gap < 1e-10, "n {n}, leave {leave}: gap {gap:e}");
            // Neither answer is the constant start: the values spread over the payoffs.
            let spread = dense.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
                - dense.iter().cloned().fold(f64::INFINITY, f64::min);
            assert!(spread > 1e-4, "n {n}: spread {spread:e}");
        }
    }

    #[test]
    fn the_iterative_solve_keeps_an_answer_it_cannot_improve() {
        let block = random_block(200, 0.01, 4);
        let exact = block.dense().unwrap();
        assert_eq!(block.sparse(exact.clone()), exact);
    }
}
