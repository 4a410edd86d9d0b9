//! The generic alternating search shared by every alternating variant: iterative deepening
//! negamax alpha-beta over a small trait, with a time, depth and node budget and a stop flag.
//! It knows no protocol: it returns a typed [`Found`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::notation::WireMove;

/// Score of a won game (minus the distance in plies).
pub const WIN: i32 = 30_000;

/// What a position of an alternating game offers the search.
pub trait Searchable: Clone {
    /// A move (a whole turn).
    type Move: Copy + PartialEq;

    /// The candidate turns the search considers (a variant may prune sub-decisions here, as
    /// long as every position keeps at least one legal turn when it has one).
    fn candidates(&self, out: &mut Vec<Self::Move>);

    /// The position after a candidate turn.
    fn after(&self, mv: Self::Move) -> Self;

    /// For a finished game: the score for the side to move (`-WIN` lost, 0 drawn, `WIN` won).
    fn terminal(&self) -> Option<i32>;

    /// A static score for the side to move, in centipawns.
    fn evaluate(&self) -> i32;

    /// The wire form of a candidate turn.
    fn wire(&self, mv: Self::Move) -> WireMove;

    /// The legal turn a written move stands for, if any.
    fn read_wire(&self, mv: &WireMove) -> Option<Self::Move>;
}

/// How long and how deep to search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Time to stop by.
    pub time: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The best turn.
    pub mv: WireMove,
    /// Its score for the mover, in centipawns.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation, best turn first.
    pub pv: Vec<WireMove>,
}

struct Searcher<'a> {
    nodes: u64,
    limits: Limits,
    started: Instant,
    stop: &'a AtomicBool,
    aborted: bool,
}

impl Searcher<'_> {
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 63 == 0 {
            let late = self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t);
            let spent = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if late || spent || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Searches the root turns (best of the last iteration first) to `depth`.
    fn root<P: Searchable>(
        &mut self,
        pos: &P,
        root: &mut [P::Move],
        depth: u32,
        pv: &mut Vec<P::Move>,
    ) -> i32 {
        let (mut alpha, beta) = (-WIN - 1, WIN + 1);
        let mut line = Vec::new();
        let mut best = (-WIN - 1, 0);
        for (i, &mv) in root.iter().enumerate() {
            self.nodes += 1;
            let score = -self.negamax(&pos.after(mv), depth - 1, 1, -beta, -alpha, &mut line);
            if self.aborted && i > 0 {
                break;
            }
            if score > best.0 {
                best = (score, i);
                pv.clear();
                pv.push(mv);
                pv.extend_from_slice(&line);
            }
            alpha = alpha.max(score);
        }
        root[..=best.1].rotate_right(1);
        best.0
    }

    fn negamax<P: Searchable>(
        &mut self,
        pos: &P,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<P::Move>,
    ) -> i32 {
        self.nodes += 1;
        pv.clear();
        if let Some(score) = pos.terminal() {
            return if score > 0 {
                score - ply
            } else if score < 0 {
                score + ply
            } else {
                0
            };
        }
        if depth == 0 || self.out_of_budget() {
            return pos.evaluate();
        }
        let mut moves = Vec::new();
        pos.candidates(&mut moves);
        let mut best = -WIN - 1;
        let mut line = Vec::new();
        for mv in moves {
            let score = -self.negamax(&pos.after(mv), depth - 1, ply + 1, -beta, -alpha, &mut line);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                pv.clear();
                pv.push(mv);
                pv.extend_from_slice(&line);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Searches by iterative deepening until a limit or `stop`, among the `allowed` turns when that
/// is not empty; `None` when the game is over or there is no move. At least depth 1 is always
/// completed. `report` hears about every completed iteration.
pub fn search<P: Searchable>(
    pos: &P,
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Found),
) -> Option<Found> {
    if pos.terminal().is_some() {
        return None;
    }
    let mut root = Vec::new();
    if allowed.is_empty() {
        pos.candidates(&mut root);
    } else {
        root.extend(allowed.iter().filter_map(|m| pos.read_wire(m)));
    }
    let first = *root.first()?;
    let mut s = Searcher {
        nodes: 0,
        limits,
        started: Instant::now(),
        stop,
        aborted: false,
    };
    let mut found = Found {
        mv: pos.wire(first),
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![pos.wire(first)],
    };
    let max_depth = limits.depth.unwrap_or(64).max(1);
    for depth in 1..=max_depth {
        let mut pv = Vec::new();
        let score = s.root(pos, &mut root, depth, &mut pv);
        if s.aborted && depth > 1 {
            break;
        }
        if let Some(&best) = pv.first() {
            let mut line = Vec::new();
            let mut p = pos.clone();
            for &mv in &pv {
                line.push(p.wire(mv));
                p = p.after(mv);
            }
            found = Found {
                mv: pos.wire(best),
                score,
                depth,
                nodes: s.nodes,
                pv: line,
            };
            report(&found);
        }
        if s.aborted || score.abs() >= WIN - 1000 {
            break;
        }
        // Stop early when the next iteration clearly cannot finish in time.
        if limits.time.is_some_and(|t| s.started.elapsed() * 4 > t) {
            break;
        }
    }
    found.nodes = s.nodes;
    Some(found)
}
