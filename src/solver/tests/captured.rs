//! Games captured from `quill exploit` on 5-piece endgames (issue 14), where the double-double
//! simplex was refused at both tolerances with the same gap and a warning was logged. Their
//! exact values come from `tests/reference/tablebase_ref.py`'s `solve_game_exact` (a simplex
//! on fractions), rounded to the nearest `f64`.

use super::check_equilibrium;
use crate::solver::{Solver, gap};

/// A 6×8 game whose rows 1 and 5 (and columns 1, 5, 6) differ by one or two ulps: a genuine
/// tableau entry of 3.4e-21 under entries of 1, which double-double carries to 1e-11 only.
/// Before the refinement from the basis: gaps of 3.3e-7 (`f64`) and 1.03e-11 at both
/// double-double tolerances (the basis was the optimal one), value off by 5e-12.
const ULPS_APART_6X8: [f64; 48] = [
    1.3125262678492788e-05,
    0.40000433077322284,
    1.0,
    0.001750743174046221,
    1.2921629160000947e-05,
    1.292165244315413e-05,
    0.5,
    0.4002818636018681,
    0.0,
    0.0,
    0.0005808029754872167,
    0.0,
    0.0,
    0.0,
    0.0,
    0.144987141755122,
    1.0,
    0.15804946689196409,
    0.0,
    0.0005804708583224127,
    0.0005794313054915892,
    0.0005794584155874662,
    0.0005868248752869589,
    0.0005874488335292895,
    0.0,
    0.0,
    0.0005808029754872167,
    0.0,
    0.0,
    0.0,
    0.0,
    0.144987141755122,
    1.312526267849279e-05,
    0.40000433077322284,
    1.0,
    0.0017507435364163548,
    1.3125521092449688e-05,
    1.292165244315413e-05,
    0.5,
    0.4002818636018681,
    0.5,
    0.15804946689196409,
    0.0005805784786654628,
    0.0005804708583224683,
    0.0005794313054916511,
    0.000579458415587264,
    0.0005827231963118075,
    0.0,
];
const ULPS_APART_VALUE: f64 = 0.0005791994901544456;

/// A 16×5 game whose columns 4 and 5 agree in most rows to 1e-11: after a pivot on 5.3e-11 a
/// zero entry shows up as 3.5e-22 under entries of 8e10, and the double-double simplex, whose
/// tolerance was absolute (1e-22 and 1e-28), pivoted on it: gap 0.12 at both tolerances,
/// the `f64` answer (gap 1.1e-11, a basis that is not optimal) kept with a warning.
const NOISE_PIVOT_16X5: [f64; 80] = [
    1.0,
    0.25,
    1.0,
    0.33333333333333326,
    0.33333333333333326,
    1.0,
    0.0,
    0.0,
    0.0,
    0.0,
    1.0,
    1.0,
    1.0,
    0.7380961596984246,
    0.7380961596984246,
    1.0,
    0.6937401985636096,
    0.5858419256891545,
    1.0,
    1.0,
    1.0,
    1.0,
    1.0,
    0.7380961597194318,
    0.7380961597194318,
    1.0,
    1.0,
    1.0,
    0.7380961597016926,
    0.7380961597016926,
    1.0,
    1.0,
    1.0,
    0.7380961596940199,
    0.7380961596940199,
    1.0,
    0.7355737198161223,
    0.5567728247187698,
    0.5751923979041365,
    0.5751923979041365,
    1.0,
    0.7,
    1.0,
    1.0,
    1.0,
    1.0,
    0.25,
    0.4790021173305704,
    0.9023321194443095,
    0.9023321194443095,
    1.0,
    0.25,
    0.33333333333333326,
    0.890728637298636,
    0.890728637298636,
    1.0,
    0.25,
    0.5355858399019313,
    0.902332119441394,
    0.902332119441394,
    1.0,
    0.25,
    0.4617540420375763,
    1.0,
    0.8634520710677083,
    1.0,
    0.25,
    0.4623646974232902,
    0.8876105708466695,
    1.0,
    1.0,
    0.7,
    0.5,
    1.0,
    1.0,
    1.0,
    0.25,
    0.33333333333333326,
    0.8875093124909671,
    0.8875093124909671,
];
const NOISE_PIVOT_VALUE: f64 = 0.8601697542324349;

/// The check's acceptance for payoffs in `[0, 1]`: 1e-12 of the range plus 64 ulps of 1.
const ACCEPT_01: f64 = 1e-12 + 64.0 * f64::EPSILON;

/// Solves a captured game and checks the answer: bracket within the check's acceptance, an
/// equilibrium to 1e-15, and the exact value within `tolerance`; the solver is returned for
/// its statistics (which path settled the game).
fn solved_exactly(payoffs: &[f64], rows: usize, cols: usize, value: f64, tolerance: f64) -> Solver {
    let mut solver = Solver::new();
    let sol = solver.solve(payoffs, rows, cols).clone();
    let g = gap(payoffs, &sol, &mut Vec::new());
    assert!(g <= ACCEPT_01, "gap {g:e}");
    check_equilibrium(payoffs, rows, cols, &sol, 1e-15);
    assert!((sol.value - value).abs() <= tolerance, "{}", sol.value);
    solver
}

#[test]
fn payoffs_ulps_apart_are_solved_from_the_basis() {
    let solver = solved_exactly(&ULPS_APART_6X8, 6, 8, ULPS_APART_VALUE, 1e-18);
    // The double-double simplex found the optimal basis; its strategies were computed again.
    assert!(solver.stats.refined);
}

#[test]
fn a_pivot_on_rounding_noise_is_refused() {
    let solver = solved_exactly(&NOISE_PIVOT_16X5, 16, 5, NOISE_PIVOT_VALUE, 1e-15);
    // The double-double simplex itself got it right (the `f64` basis was not optimal).
    assert!(solver.stats.precise && !solver.stats.refined);
}

/// An 8×4 game (from `quill exploit --classic` on `N1n2/p4/3PP/5/5` with the classic 4-piece
/// table) whose value lies 8e-13 above its maximin row's 1 − 4.156e-7: the minimiser mixes
/// column 2 with weights of about 8.3e-7 and 1.2e-6 on columns 0 and 1. Before: gap 4.156e-7
/// in every run, the pure pair kept, value 0.9999997922 (the middle of the bracket).
const TINY_MIX_8X4: [f64; 32] = [
    1.0,
    1.0,
    0.9999995843751974,
    1.0,
    0.5,
    1.0,
    1.0,
    1.0,
    1.0,
    0.6470588235294117,
    1.0,
    0.6470588235294117,
    1.0,
    0.6470588235294118,
    1.0,
    1.0,
    1.0,
    0.24999999999999997,
    1.0,
    1.0,
    1.0,
    0.24999999999999997,
    1.0,
    1.0,
    1.0,
    0.24999999999999997,
    0.9999995843751973,
    1.0,
    1.0,
    0.24999999999999997,
    1.0,
    1.0,
];

/// Its value by `solve_game_exact`: 3579248753585588567196601155584 / 3579255943770945339957060166895.
const TINY_MIX_VALUE: f64 = 0.9999995843760323;

#[test]
fn a_mix_of_tiny_weights_is_found_by_the_exact_simplex() {
    let solver = solved_exactly(&TINY_MIX_8X4, 8, 4, TINY_MIX_VALUE, 1e-16);
    // Payoffs one ulp apart (rows 2 and 3, rows 0 and 6) defeat the double-double runs too.
    assert!(solver.stats.exact);
}
