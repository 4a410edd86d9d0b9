//! The searcher's state and its plumbing: the budget and the stop flag, draws and
//! repetitions, and the transposition table's keys, probes and stores.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::evals::Evals;
use super::table::{Bound, Hit, Tier};
use super::{CLOCK_EVERY, HISTORY_SIZE, Limits, MATE_BOUND, MAX_CONTEMPT, MAX_PLY};
use super::{OPPONENT_TAG, Searchable, Searcher, TransTable, reserve};

/// A win or loss `ply` plies from the root, from a score seen at the end of the game.
pub(super) fn at_ply(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    match score {
        s if s > 0 => s - ply,
        s if s < 0 => s + ply,
        _ => 0,
    }
}

/// A score as the table keeps it: mates counted from the stored node, not the root.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= MATE_BOUND => s + ply as i32,
        s if s <= -MATE_BOUND => s - ply as i32,
        s => s,
    }
}

pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= MATE_BOUND => s - ply as i32,
        s if s <= -MATE_BOUND => s + ply as i32,
        s => s,
    }
}

impl<'a, P: Searchable> Searcher<'a, P> {
    pub(super) fn new(
        limits: Limits,
        stop: &'a AtomicBool,
        table: Option<&'a mut TransTable>,
    ) -> Self {
        let plies = MAX_PLY + 2;
        Searcher {
            nodes: 0,
            limits,
            started: Instant::now(),
            deadline: limits.time.map(|t| t - reserve(t)),
            stop,
            aborted: false,
            reduce: true,
            table,
            killers: vec![[None; 2]; plies],
            history: vec![0; 2 * HISTORY_SIZE],
            moves: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            scores: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..plies).map(|_| Vec::with_capacity(plies)).collect(),
            path: Vec::with_capacity(plies),
            before: HashSet::default(),
            draw: -limits.contempt.clamp(-MAX_CONTEMPT, MAX_CONTEMPT),
            tag: if limits.contempt == 0 {
                0
            } else {
                OPPONENT_TAG
            },
            evals: Evals::new(P::CACHE_EVALUATION),
        }
    }

    /// The static score of `pos`, whose key is `key`: kept from an earlier node of this
    /// search when the game allows ([`Searchable::CACHE_EVALUATION`]).
    #[inline(always)]
    pub(super) fn evaluate(&mut self, pos: &P, key: u64) -> i32 {
        self.evals.get(key, || pos.evaluate())
    }

    /// The key under which the table keeps a position with key `key` at `ply`: tagged when
    /// its mover is not the root side (see the module documentation).
    pub(super) fn slot_key(&self, key: u64, ply: usize) -> u64 {
        if ply & 1 == 1 { key ^ self.tag } else { key }
    }

    /// The score of a draw for the mover at `ply`: minus the contempt for the root side,
    /// plus it for the other.
    pub(super) fn draw(&self, ply: usize) -> i32 {
        if ply & 1 == 1 { -self.draw } else { self.draw }
    }

    /// A score seen at the end of the game ([`Searchable::over`], [`Searchable::stuck`]) at
    /// `ply`: a win or loss counted from the root, or a draw with the contempt.
    pub(super) fn ended(&self, score: i32, ply: usize) -> i32 {
        if score == 0 {
            self.draw(ply)
        } else {
            at_ply(score, ply)
        }
    }

    /// Whether `pos`, a position below the root with key `key`, repeats a position earlier
    /// on the path or in the game. Turns alternate and keys include the side to move, so only
    /// every second earlier position can match; none before the last irreversible turn can.
    pub(super) fn repeats(&self, pos: &P, key: u64) -> bool {
        let reach = usize::try_from(pos.reversible_plies()).unwrap_or(usize::MAX);
        // `path` ends with the parent, one ply back; the root is `path.len()` plies back.
        let on_path = self
            .path
            .iter()
            .rev()
            .take(reach)
            .skip(1)
            .step_by(2)
            .any(|&k| k == key);
        on_path || (reach > self.path.len() && self.before.contains(&key))
    }

    /// Whether the search must stop now (stop flag, node budget, hard time limit).
    pub(super) fn poll(&mut self) -> bool {
        if !self.aborted {
            let late = self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|t| self.started.elapsed() >= t);
            let spent = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = late || spent || self.stop.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// The position after `mv` at `ply`, whose node is of `tier`, its table bucket on its way
    /// to the cache: quiescence's, and the main search's too for a main node (which takes
    /// quiescence's move when its own part has none, see `node`).
    pub(super) fn after(&self, pos: &P, mv: P::Move, ply: usize, tier: Tier) -> P {
        let child = pos.after(mv);
        let key = child.key();
        if let Some(t) = self.table.as_ref() {
            let slot = self.slot_key(key, ply + 1);
            t.prefetch(Tier::Quiescence, slot);
            if tier == Tier::Main {
                t.prefetch(Tier::Main, slot);
            }
        }
        self.evals.prefetch(key);
        child
    }

    /// Prefetches the table buckets (in `tier`'s part) of the positions after `moves` (at
    /// `ply`) whose keys are cheap to know ([`Searchable::key_after`]).
    pub(super) fn prefetch_siblings(&self, pos: &P, moves: &[P::Move], ply: usize, tier: Tier) {
        if let Some(t) = self.table.as_ref() {
            for &mv in moves {
                if let Some(key) = pos.key_after(mv) {
                    t.prefetch(tier, self.slot_key(key, ply + 1));
                }
            }
        }
    }

    /// How full the table is, per mille (0 without one).
    pub(super) fn hashfull(&self) -> u32 {
        self.table.as_ref().map_or(0, |t| t.permille())
    }

    pub(super) fn probe(&self, tier: Tier, key: u64) -> Option<Hit> {
        self.table.as_ref().and_then(|t| t.probe(tier, key))
    }

    pub(super) fn store(
        &mut self,
        tier: Tier,
        key: u64,
        depth: i32,
        bound: Bound,
        score: i32,
        mv: Option<P::Move>,
    ) {
        if let Some(t) = self.table.as_mut() {
            t.store(
                tier,
                key,
                depth.max(0) as u32,
                bound,
                score,
                mv.map(P::code),
            );
        }
    }
}
