//! Speed of the sealed (simultaneous-move) search, timed by CPU time: nodes per CPU-second at
//! a fixed depth, the CPU time to complete a depth, and the depth a 1 s `movetime` reaches.
//!
//! Run with `cargo bench --bench sealed`. CPU time is the search thread's own
//! (`CLOCK_THREAD_CPUTIME_ID`), so other processes on a shared machine do not count; each
//! figure is the median of 5 rounds; nothing is asserted. (It was read from
//! `/proc/thread-self/schedstat`, which the kernel brings up to date only at a tick or a
//! context switch: each search's time came in whole ticks, 4 ms here, so a depth-4 line
//! printed one of a few figures, e.g. 745540 nodes in 0.032 or 0.036 s, 23.3 or 20.7 M
//! nodes/CPU-s. The clock brings the thread's time up to date when read.)

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use quill::search::Limits;
use quill::simsearch::{JointTable, Searcher};
use quill::variants::apocalypse::{Position, Rules};

mod cpu;

const ROUNDS: usize = 5;

/// CPU seconds this thread has run.
fn cpu_seconds() -> f64 {
    cpu::cpu_seconds(cpu::Clock::Thread)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One search from an empty table of `mib` MiB: (depth, nodes, CPU seconds).
fn search(pos: &Position, limits: Limits, mib: usize) -> (u32, u64, f64) {
    let stop = AtomicBool::new(false);
    let table = JointTable::with_mib(mib).expect("a valid size");
    let before = cpu_seconds();
    let mut s = Searcher::with_table(limits, &stop, table);
    let a = s.analyse(pos, &[], &[], &mut |_| {}).expect("a move");
    let cpu = cpu_seconds() - before;
    (a.depth, a.stats.nodes, cpu)
}

fn main() {
    let positions = [
        ("start", "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0", 4),
        ("middle game", "n1p1n/p1p1p/1P3/P3P/N2PN w - - 0 4 0/0", 4),
        ("endgame", "2n2/1pp2/5/1PP2/2N2 w - - 0 1 0/0", 6),
    ];
    for (name, fen, depth) in positions {
        let pos = Position::from_fen(Rules::Seed, fen).expect("a valid FEN");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let runs: Vec<(u32, u64, f64)> = (0..ROUNDS).map(|_| search(&pos, limits, 16)).collect();
        let nodes = runs[0].1;
        let cpu = median(runs.iter().map(|r| r.2).collect());
        println!(
            "sealed {name}: depth {depth}, {nodes} nodes, {cpu:.3} CPU-s, {:.2} M nodes/CPU-s \
             (median of {ROUNDS}, Hash 16)",
            nodes as f64 / cpu / 1e6
        );
    }
    let start = Position::start(Rules::Seed);
    let d5: Vec<(u32, u64, f64)> = (0..3)
        .map(|_| {
            search(
                &start,
                Limits {
                    depth: Some(5),
                    ..Limits::default()
                },
                64,
            )
        })
        .collect();
    println!(
        "sealed start: depth 5 complete in {:.3} CPU-s, {} nodes (median of 3, Hash 64)",
        median(d5.iter().map(|r| r.2).collect()),
        d5[0].1
    );
    let one_second = Limits {
        time: Some(Duration::from_secs(1)),
        exact: true,
        ..Limits::default()
    };
    let runs: Vec<(u32, u64, f64)> = (0..ROUNDS)
        .map(|_| search(&start, one_second, 64))
        .collect();
    let depth = median(runs.iter().map(|r| f64::from(r.0)).collect());
    let cpu = median(runs.iter().map(|r| r.2).collect());
    println!(
        "sealed start, movetime 1 s (wall): depth {depth} completed, {cpu:.3} CPU-s of the \
         second on the search thread (median of {ROUNDS}, Hash 64)"
    );
}
