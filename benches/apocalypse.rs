//! Speed of the Apocalypse move generator, of joint children (resolve + evaluate) and of the
//! simultaneous search.
//!
//! Run with `cargo bench --bench apocalypse`. Positions come from seeded random games from
//! the start. Each figure is the median of 7 rounds; nothing is asserted.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

fn median(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// Runs `round` ROUNDS times; each returns (items, seconds); prints the median rate.
fn rate(what: &str, unit: &str, mut round: impl FnMut() -> (u64, f64)) {
    round(); // warm-up
    let rates: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let (n, secs) = round();
            n as f64 / secs / 1e6
        })
        .collect();
    let (med, lo, hi) = median(rates);
    println!("{what}: {med:.2} M {unit}/s (median of {ROUNDS}; min {lo:.2}, max {hi:.2})");
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
                let started = Instant::now();
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
                (lists, started.elapsed().as_secs_f64())
            },
        );
        let (mut w, mut b) = (Vec::new(), Vec::new());
        rate(
            &format!("{name}: joint children, resolve + evaluate"),
            "children",
            || {
                let started = Instant::now();
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
                (children, started.elapsed().as_secs_f64())
            },
        );
    }

    // Joint depth completed within 1 s from the start (the search runs until stopped).
    let mut depths = Vec::new();
    let mut nps = Vec::new();
    for _ in 0..5 {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let timer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            flag.store(true, Ordering::Relaxed);
        });
        let mut reached = 0;
        let started = Instant::now();
        let found = simsearch::analyse(
            &Position::start(Rules::Seed),
            &[],
            &[],
            Limits::default(),
            &stop,
            &mut |a| reached = a.depth,
        );
        let secs = started.elapsed().as_secs_f64();
        timer.join().unwrap();
        let nodes = found.map_or(0, |a| a.stats.nodes);
        depths.push(f64::from(reached));
        nps.push(nodes as f64 / secs / 1e6);
    }
    let (d, dlo, dhi) = median(depths);
    let (n, _, _) = median(nps);
    println!(
        "search from the start: depth {d} completed in 1 s (median of 5; min {dlo}, max {dhi}), \
         {n:.2} M nodes/s"
    );
}
