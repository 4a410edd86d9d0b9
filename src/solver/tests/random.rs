//! Random games: equilibrium conditions on uniform, degenerate integer and badly scaled games,
//! and 2×n values against the lower envelope.

use super::{assert_close, check_equilibrium, random_matrix, value_2xn_brute_force};
use crate::rng::Rng;
use crate::solver::{Solver, solve};
use proptest::prelude::*;

#[test]
fn random_games_satisfy_equilibrium_conditions() {
    let mut rng = Rng::new(0x5eed);
    let mut solver = Solver::new();
    let mut simplex_solves = 0;
    for m in 1..=12 {
        for n in 1..=12 {
            for _ in 0..20 {
                let a = random_matrix(&mut rng, m, n);
                let sol = solver.solve(&a, m, n);
                check_equilibrium(&a, m, n, sol, 1e-7);
                assert!(!solver.stats.fell_back);
                simplex_solves += usize::from(!solver.stats.saddle);
            }
        }
    }
    // Most random games have no saddle point, so the simplex itself was tested.
    assert!(simplex_solves > 2000, "{simplex_solves}");
}

#[test]
fn large_random_games_satisfy_equilibrium_conditions() {
    let mut rng = Rng::new(30);
    let mut solver = Solver::new();
    for (m, n, count) in [(30, 30, 20), (30, 7, 5), (7, 30, 5), (60, 60, 3)] {
        for _ in 0..count {
            let a = random_matrix(&mut rng, m, n);
            let sol = solver.solve(&a, m, n);
            check_equilibrium(&a, m, n, sol, 1e-7);
            assert!(!solver.stats.saddle && !solver.stats.fell_back);
        }
    }
}

#[test]
fn degenerate_integer_games_satisfy_equilibrium_conditions() {
    // Few distinct values make ties everywhere: degenerate pivots, tied ratios, many optima.
    let mut rng = Rng::new(99);
    for bland_after in [None, Some(0), Some(1)] {
        let mut solver = Solver {
            bland_after,
            ..Solver::default()
        };
        for levels in [2, 3, 5] {
            for _ in 0..1500 {
                let m = 1 + rng.below(8) as usize;
                let n = 1 + rng.below(8) as usize;
                let a: Vec<f64> = (0..m * n).map(|_| rng.below(levels) as f64 - 1.0).collect();
                let sol = solver.solve(&a, m, n);
                check_equilibrium(&a, m, n, sol, 1e-9);
                assert!(!solver.stats.fell_back);
                if bland_after == Some(0) && !solver.stats.saddle {
                    assert!(solver.stats.used_bland);
                }
            }
        }
    }
}

#[test]
fn blands_rule_throughout_solves_random_games() {
    let mut rng = Rng::new(7);
    let mut solver = Solver {
        bland_after: Some(0),
        ..Solver::default()
    };
    for (m, n) in [(2, 2), (5, 9), (12, 12), (30, 30)] {
        for _ in 0..10 {
            let a = random_matrix(&mut rng, m, n);
            let sol = solver.solve(&a, m, n);
            check_equilibrium(&a, m, n, sol, 1e-7);
        }
    }
}

#[test]
fn badly_scaled_games_satisfy_equilibrium_conditions() {
    let mut rng = Rng::new(11);
    for (offset, spread) in [(1e9, 1e-3), (-5e6, 1e6), (0.0, 1e-6)] {
        for _ in 0..50 {
            let (m, n) = (1 + rng.below(10) as usize, 1 + rng.below(10) as usize);
            let a: Vec<f64> = (0..m * n)
                .map(|_| offset + spread * rng.next_f64())
                .collect();
            let sol = solve(&a, m, n);
            // Rounding of the payoffs themselves is ~1e-16 of the offset.
            let tol = 1e-7 * spread + 1e-14 * f64::abs(offset);
            check_equilibrium(&a, m, n, &sol, tol);
        }
    }
}

#[test]
fn two_by_n_value_matches_lower_envelope() {
    let mut rng = Rng::new(2);
    for n in 1..=15 {
        for _ in 0..40 {
            let a = random_matrix(&mut rng, 2, n);
            let sol = solve(&a, 2, n);
            let want = value_2xn_brute_force(&a, n);
            assert_close(sol.value, want, 1e-9, &format!("2x{n} game {a:?}"));
        }
    }
    // And on integer games, where lines coincide and cross at shared points.
    for n in 1..=8 {
        for _ in 0..200 {
            let a: Vec<f64> = (0..2 * n).map(|_| rng.below(4) as f64).collect();
            let sol = solve(&a, 2, n);
            let want = value_2xn_brute_force(&a, n);
            assert_close(sol.value, want, 1e-9, &format!("2x{n} game {a:?}"));
        }
    }
}

proptest! {
    #[test]
    fn small_integer_games_satisfy_equilibrium_conditions(
        (m, n, a) in (1usize..=7, 1usize..=7).prop_flat_map(|(m, n)| {
            (Just(m), Just(n), prop::collection::vec(-3i32..=3, m * n))
        })
    ) {
        let a: Vec<f64> = a.into_iter().map(f64::from).collect();
        let sol = solve(&a, m, n);
        check_equilibrium(&a, m, n, &sol, 1e-9);
        if m == 2 {
            let want = value_2xn_brute_force(&a, n);
            prop_assert!((sol.value - want).abs() <= 1e-9, "{} vs {}", sol.value, want);
        }
    }
}
