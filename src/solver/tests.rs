//! Tests of the matrix-game solver: games solved by hand and the workspace; random and
//! degenerate games in `random`, nearly equal payoffs and double-double in `precise`.

mod captured;
mod precise;
mod random;

use super::*;
use crate::rng::Rng;

const TOL: f64 = 1e-9;

pub(super) fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

fn assert_vec_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert_close(*g, *w, tol, &format!("{what}[{k}]"));
    }
}

/// Checks the equilibrium conditions directly, independently of how the solution was found:
/// both strategies are probability vectors, the row strategy earns at least `value` against
/// every column, and the column strategy concedes at most `value` to every row.
pub(super) fn check_equilibrium(a: &[f64], m: usize, n: usize, sol: &Solution, tol: f64) {
    let ctx = || format!("{m}x{n} game {a:?}\nsolution {sol:?}");
    assert_eq!(sol.rows.len(), m, "{}", ctx());
    assert_eq!(sol.cols.len(), n, "{}", ctx());
    assert!(sol.value.is_finite(), "{}", ctx());
    for p in sol.rows.iter().chain(&sol.cols) {
        assert!(
            *p >= 0.0 && p.is_finite(),
            "negative probability; {}",
            ctx()
        );
    }
    let sum_rows: f64 = sol.rows.iter().sum();
    let sum_cols: f64 = sol.cols.iter().sum();
    assert!(
        (sum_rows - 1.0).abs() <= 1e-9,
        "row sum {sum_rows}; {}",
        ctx()
    );
    assert!(
        (sum_cols - 1.0).abs() <= 1e-9,
        "col sum {sum_cols}; {}",
        ctx()
    );
    for j in 0..n {
        let earned: f64 = (0..m).map(|i| sol.rows[i] * a[i * n + j]).sum();
        assert!(
            earned >= sol.value - tol,
            "column {j} holds the row player to {earned} < value {}; {}",
            sol.value,
            ctx()
        );
    }
    for i in 0..m {
        let conceded: f64 = (0..n).map(|j| a[i * n + j] * sol.cols[j]).sum();
        assert!(
            conceded <= sol.value + tol,
            "row {i} wins {conceded} > value {}; {}",
            sol.value,
            ctx()
        );
    }
}

pub(super) fn random_matrix(rng: &mut Rng, m: usize, n: usize) -> Vec<f64> {
    (0..m * n).map(|_| rng.next_f64()).collect()
}

/// The value of a 2×n game by brute force over the row player's mixing probability: the
/// lower envelope of the lines `p ↦ p A0j + (1-p) A1j` is concave and piecewise linear, so
/// its maximum lies at an endpoint or where two lines cross.
pub(super) fn value_2xn_brute_force(a: &[f64], n: usize) -> f64 {
    let line = |j: usize, p: f64| p * a[j] + (1.0 - p) * a[n + j];
    let envelope = |p: f64| (0..n).map(|j| line(j, p)).fold(f64::INFINITY, f64::min);
    let mut candidates = vec![0.0, 1.0];
    for j in 0..n {
        for k in j + 1..n {
            // p (A0j - A1j) + A1j = p (A0k - A1k) + A1k
            let slope_diff = (a[j] - a[n + j]) - (a[k] - a[n + k]);
            if slope_diff != 0.0 {
                let p = (a[n + k] - a[n + j]) / slope_diff;
                if (0.0..=1.0).contains(&p) {
                    candidates.push(p);
                }
            }
        }
    }
    candidates
        .into_iter()
        .map(envelope)
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn one_by_one() {
    let sol = solve(&[-3.5], 1, 1);
    assert_eq!(
        sol,
        Solution {
            value: -3.5,
            rows: vec![1.0],
            cols: vec![1.0]
        }
    );
}

#[test]
fn single_row_and_single_column() {
    // The row player has no choice: the column player takes the smallest entry.
    let sol = solve(&[4.0, 2.0, 7.0], 1, 3);
    assert_eq!(sol.value, 2.0);
    assert_eq!(sol.cols, vec![0.0, 1.0, 0.0]);
    // The column player has no choice: the row player takes the largest entry.
    let sol = solve(&[4.0, 2.0, 7.0], 3, 1);
    assert_eq!(sol.value, 7.0);
    assert_eq!(sol.rows, vec![0.0, 0.0, 1.0]);
}

#[test]
fn matching_pennies() {
    let a = [1.0, -1.0, -1.0, 1.0];
    let sol = solve(&a, 2, 2);
    assert_close(sol.value, 0.0, TOL, "value");
    assert_vec_close(&sol.rows, &[0.5, 0.5], TOL, "rows");
    assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
}

#[test]
fn rock_paper_scissors() {
    #[rustfmt::skip]
    let a = [
         0.0, -1.0,  1.0,
         1.0,  0.0, -1.0,
        -1.0,  1.0,  0.0,
    ];
    let sol = solve(&a, 3, 3);
    let third = 1.0 / 3.0;
    assert_close(sol.value, 0.0, TOL, "value");
    assert_vec_close(&sol.rows, &[third; 3], TOL, "rows");
    assert_vec_close(&sol.cols, &[third; 3], TOL, "cols");
}

#[test]
fn two_by_two_closed_form() {
    // For [[a, b], [c, d]] without a saddle point, with D = a - b - c + d:
    // p = (d - c) / D on the first row, q = (d - b) / D on the first column,
    // value = (a d - b c) / D.
    for &(a, b, c, d) in &[
        (3.0, -1.0, -2.0, 4.0),
        (0.25, 0.9, 0.8, 0.1),
        (-7.0, 5.0, 2.0, -1.5),
        (1e6, -2e6, -3e6, 4e6),
    ] {
        let big_d = a - b - c + d;
        let (p, q, v) = ((d - c) / big_d, (d - b) / big_d, (a * d - b * c) / big_d);
        let scale = f64::max(
            1.0,
            [a, b, c, d].iter().fold(0.0, |m, x: &f64| m.max(x.abs())),
        );
        let sol = solve(&[a, b, c, d], 2, 2);
        assert_close(sol.value, v, TOL * scale, "value");
        assert_vec_close(&sol.rows, &[p, 1.0 - p], TOL, "rows");
        assert_vec_close(&sol.cols, &[q, 1.0 - q], TOL, "cols");
    }
}

#[test]
fn saddle_point() {
    // Row minima 2, 1, 3 and column maxima 5, 3, 7: the entry (2, 1) = 3 is a saddle point.
    #[rustfmt::skip]
    let a = [
        4.0, 2.0, 5.0,
        3.0, 1.0, 6.0,
        5.0, 3.0, 7.0,
    ];
    let mut solver = Solver::new();
    let sol = solver.solve(&a, 3, 3).clone();
    assert_eq!(sol.value, 3.0);
    assert_eq!(sol.rows, vec![0.0, 0.0, 1.0]);
    assert_eq!(sol.cols, vec![0.0, 1.0, 0.0]);
    assert!(solver.stats.saddle);
}

#[test]
fn dominated_row_gets_no_weight() {
    // Row 2 (1, -3) is strictly dominated by row 0 (3, -1); the rest is the 2×2 game
    // [[3, -1], [-2, 4]]: D = 10, p = 6/10, q = 5/10, value = (12 - 2)/10 = 1.
    let a = [3.0, -1.0, -2.0, 4.0, 1.0, -3.0];
    let sol = solve(&a, 3, 2);
    assert_close(sol.value, 1.0, TOL, "value");
    assert_vec_close(&sol.rows, &[0.6, 0.4, 0.0], TOL, "rows");
    assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
}

#[test]
fn dominated_column_gets_no_weight() {
    // Column 2 (5, 6) is dominated (for the minimising column player) by column 0 (3, -2).
    let a = [3.0, -1.0, 5.0, -2.0, 4.0, 6.0];
    let sol = solve(&a, 2, 3);
    assert_close(sol.value, 1.0, TOL, "value");
    assert_vec_close(&sol.rows, &[0.6, 0.4], TOL, "rows");
    assert_vec_close(&sol.cols, &[0.5, 0.5, 0.0], TOL, "cols");
}

#[test]
fn three_by_two_by_hand() {
    // A = [[5, 0], [0, 4], [2, 3]]. Against column mix (q, 1-q) the rows earn 5q, 4 - 4q and
    // 3 - q; their upper envelope is lowest where 5q = 3 - q, at q = 1/2, value 5/2 (row 1
    // earns only 2 there). Mixing rows 0 and 2 as (a, 1-a): 3a + 2 = 3 - 3a gives a = 1/6.
    let a = [5.0, 0.0, 0.0, 4.0, 2.0, 3.0];
    let sol = solve(&a, 3, 2);
    assert_close(sol.value, 2.5, TOL, "value");
    assert_vec_close(&sol.rows, &[1.0 / 6.0, 0.0, 5.0 / 6.0], TOL, "rows");
    assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
}

#[test]
fn two_by_three_by_hand() {
    // A = [[1, 3, 0], [2, 0, 4]]. Against row mix (p, 1-p) the columns give 2 - p, 3p and
    // 4 - 4p; their lower envelope peaks where 2 - p = 3p, at p = 1/2, value 3/2 (column 2
    // gives 2 there). Mixing columns 0 and 1 as (q, 1-q): 3 - 2q = 2q gives q = 3/4.
    let a = [1.0, 3.0, 0.0, 2.0, 0.0, 4.0];
    let sol = solve(&a, 2, 3);
    assert_close(sol.value, 1.5, TOL, "value");
    assert_vec_close(&sol.rows, &[0.5, 0.5], TOL, "rows");
    assert_vec_close(&sol.cols, &[0.75, 0.25, 0.0], TOL, "cols");
}

#[test]
fn row_of_equal_values() {
    // Row 0 is constant 1, and rows 1 and 2 mixed half and half also guarantee 1. The column
    // player holds every row to 1 only with (1/2, 1/2): 2q ≤ 1 and 2 - 2q ≤ 1.
    let a = [1.0, 1.0, 2.0, 0.0, 0.0, 2.0];
    let sol = solve(&a, 3, 2);
    assert_close(sol.value, 1.0, TOL, "value");
    assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
    check_equilibrium(&a, 3, 2, &sol, 1e-9);
}

#[test]
fn column_of_equal_values() {
    // A = [[1, 3, 0], [1, 0, 3]]: column 0 holds the row player to 1, and any row mix with
    // x0 in [1/3, 2/3] earns at least 1 everywhere. y must be (1, 0, 0): with y = (a, b, c),
    // a + 3b ≤ 1 and a + 3c ≤ 1 add up to 2 + (b + c) ≤ 2.
    let a = [1.0, 3.0, 0.0, 1.0, 0.0, 3.0];
    let sol = solve(&a, 2, 3);
    assert_close(sol.value, 1.0, TOL, "value");
    assert_vec_close(&sol.cols, &[1.0, 0.0, 0.0], TOL, "cols");
    assert!((1.0 / 3.0 - TOL..=2.0 / 3.0 + TOL).contains(&sol.rows[0]));
    check_equilibrium(&a, 2, 3, &sol, 1e-9);
}

#[test]
fn all_equal_matrix() {
    let a = [2.5; 12];
    let sol = solve(&a, 3, 4);
    assert_eq!(sol.value, 2.5);
    check_equilibrium(&a, 3, 4, &sol, 0.0);
}

#[test]
fn workspace_reuse_across_sizes_matches_fresh_solves() {
    let mut rng = Rng::new(5);
    let mut solver = Solver::new();
    for (m, n) in [(30, 30), (2, 3), (12, 4), (1, 1), (4, 12), (30, 30), (3, 3)] {
        let a = random_matrix(&mut rng, m, n);
        let reused = solver.solve(&a, m, n).clone();
        assert_eq!(reused, solve(&a, m, n));
    }
}

#[test]
fn pivot_cap_falls_back_to_pure_security_strategies() {
    // Matching pennies needs pivots; with none allowed the solver must fall back.
    let a = [1.0, -1.0, -1.0, 1.0];
    let mut solver = Solver {
        pivot_cap: Some(0),
        ..Solver::default()
    };
    let sol = solver.solve(&a, 2, 2).clone();
    assert!(solver.stats.fell_back);
    // Both pure security levels are -1 and 1; the fallback reports their midpoint.
    assert_eq!(sol.value, 0.0);
    assert_eq!(sol.rows.iter().filter(|p| **p == 1.0).count(), 1);
    assert_eq!(sol.cols.iter().filter(|p| **p == 1.0).count(), 1);
    assert_eq!(sol.rows.iter().sum::<f64>(), 1.0);
    assert_eq!(sol.cols.iter().sum::<f64>(), 1.0);
}

#[test]
#[should_panic]
fn mismatched_length_panics() {
    solve(&[1.0, 2.0, 3.0], 2, 2);
}

#[test]
#[should_panic]
fn empty_game_panics() {
    solve(&[], 0, 3);
}
