//! Timing of the matrix-game solver on fixed seeded random games (entries uniform in [0, 1]).
//!
//! Run with `cargo bench --bench solver`. Each size is timed in 7 rounds of many solves, cycling
//! through a fixed set of matrices, timed by this thread's CPU time (not a wall clock, which
//! counts other processes' work on a shared machine), and the median CPU time per solve is
//! printed with the smallest, the largest and their spread. This measures; it asserts nothing.

mod cpu;

use std::hint::black_box;

use cpu::{Figures, thread_time};

use quill::rng::Rng;
use quill::solver::Solver;

/// Distinct matrices per size, cycled through so that no single lucky game dominates.
const MATRICES: usize = 64;
const ROUNDS: usize = 7;

fn main() {
    // (size, solves per round): about a tenth of a second per round.
    for (size, solves) in [(3, 200_000), (10, 40_000), (30, 4_000), (100, 200)] {
        let mut rng = Rng::new(0x9e57 + size as u64);
        let games: Vec<Vec<f64>> = (0..MATRICES)
            .map(|_| (0..size * size).map(|_| rng.next_f64()).collect())
            .collect();
        let mut solver = Solver::new();
        let mut checksum = 0.0;
        // Warm-up: grow the workspace and the caches.
        for game in &games {
            checksum += solver.solve(game, size, size).value;
        }
        let per_solve_us: Vec<f64> = (0..ROUNDS)
            .map(|_| {
                let ((), secs) = thread_time(|| {
                    for k in 0..solves {
                        let game = black_box(&games[k % MATRICES]);
                        checksum += solver.solve(game, size, size).value;
                    }
                });
                secs * 1e6 / solves as f64
            })
            .collect();
        black_box(checksum);
        println!(
            "solve {size}x{size}: {}",
            Figures::of(per_solve_us).text(2, "CPU-µs/solve")
        );
    }
}
