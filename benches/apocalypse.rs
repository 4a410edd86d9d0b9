//! Speed of the Apocalypse move generator, of joint children (resolve + evaluate) and of the
//! simultaneous search.
//!
//! Run with `cargo bench --bench apocalypse`. Positions come from seeded random games from
//! the start. Every figure is timed by CPU time (this thread's for the loops, the process's
//! for the search), not by a wall clock, and is the median of its rounds, printed with the
//! smallest, the largest and their spread; nothing is asserted.

mod cpu;

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use cpu::{Clock, Figures, cpu_seconds, stop_after_cpu, thread_time};

use quill::rng::Rng;
use quill::search::Limits;
use quill::simsearch::{self, eval};
use quill::variant::Side;
use quill::variants::apocalypse::{Move, Position, Rules};

const ROUNDS: usize = 7;

/// Unfinished positions from seeded random games (0 … 15 turns from the start).
fn positions(rules: Rules, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(0xa9c);
    let (mut w, mut b) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::start(rules);
        for _ in 0..rng.below(16) {
            p.legal_moves(Side::White, &mut w);
            p.legal_moves(Side::Black, &mut b);
            let next = p.resolve(
                Ok(w[rng.below(w.len() as u64) as usize]),
                Ok(b[rng.below(b.len() as u64) as usize]),
            );
            if next.end().is_some() {
                break;
            }
            p = next;
        }
        out.push(p);
    }
    out
}

/// Runs `round` ROUNDS times (after a warm-up); each returns the items it made, and is timed
/// by this thread's CPU time; prints the median rate.
fn rate(what: &str, unit: &str, mut round: impl FnMut() -> u64) {
    round(); // warm-up
    let rates: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let (n, secs) = thread_time(&mut round);
            n as f64 / secs / 1e6
        })
        .collect();
    println!(
        "{what}: {}",
        Figures::of(rates).text(2, &format!("M {unit}/CPU-s"))
    );
}

fn main() {
    for rules in [Rules::Seed, Rules::Classic] {
        let name = if rules == Rules::Seed {
            "apocalypse"
        } else {
            "apocalypse-classic"
        };
        let ps = positions(rules, 256);
        let mut buf: Vec<Move> = Vec::with_capacity(64);
        rate(
            &format!("{name}: one side's legal move list"),
            "lists",
            || {
                let mut lists = 0u64;
                let mut total = 0usize;
                for _ in 0..400 {
                    for p in &ps {
                        for side in [Side::White, Side::Black] {
                            black_box(p).legal_moves(side, &mut buf);
                            total += buf.len();
                            lists += 1;
                        }
                    }
                }
                black_box(total);
                lists
            },
        );
        let (mut w, mut b) = (Vec::new(), Vec::new());
        rate(
            &format!("{name}: joint children, resolve + evaluate"),
            "children",
            || {
                let mut children = 0u64;
                let mut sum = 0.0;
                for _ in 0..10 {
                    for p in &ps {
                        p.legal_moves(Side::White, &mut w);
                        p.legal_moves(Side::Black, &mut b);
                        for &mw in &w {
                            for &mb in &b {
                                sum += eval::evaluate(&black_box(p).resolve(Ok(mw), Ok(mb)));
                                children += 1;
                            }
                        }
                    }
                }
                black_box(sum);
                children
            },
        );
    }

    // Joint depth completed within 1 CPU-second from the start (the search runs until a
    // poller sees the process spend its second).
    let mut depths = Vec::new();
    let mut nps = Vec::new();
    for _ in 0..5 {
        let stop = Arc::new(AtomicBool::new(false));
        let started = cpu_seconds(Clock::Process);
        let timer = stop_after_cpu(started, Duration::from_secs(1), Arc::clone(&stop));
        let mut reached = 0;
        let found = simsearch::analyse(
            &Position::start(Rules::Seed),
            &[],
            &[],
            Limits::default(),
            &stop,
            &mut |a| reached = a.depth,
        );
        let secs = cpu_seconds(Clock::Process) - started;
        stop.store(true, Ordering::Relaxed);
        timer.join().expect("the CPU timer");
        let nodes = found.map_or(0, |a| a.stats.nodes);
        depths.push(f64::from(reached));
        nps.push(nodes as f64 / secs / 1e6);
    }
    println!(
        "search from the start, 1 CPU-second: depth {}; {}",
        Figures::of(depths).text(0, "completed"),
        Figures::of(nps).text(2, "M nodes/CPU-s")
    );
}
