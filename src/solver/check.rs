//! Step 3 of the method (see [`super`]): an answer is checked on the payoffs as given, by the
//! bracket its strategies put around the value.

use super::Solution;

/// A solution is accepted when its strategies' guarantees, computed on the payoffs as given,
/// lie within this many times the payoff range of each other: well above the rounding of a
/// correct `f64` solve, far below the errors the check is there to catch (0.01 to 0.9).
pub(super) const ACCEPT: f64 = 1e-12;
/// ... and this many times the payoffs' magnitude (64 ulps), the rounding of the check itself.
pub(super) const MAGNITUDE: f64 = 64.0 * f64::EPSILON;

/// How far `sol`'s strategies are from an equilibrium of the game: the width of their
/// [`bracket`] (≥ 0 up to rounding).
pub(super) fn gap(payoff: &[f64], sol: &Solution, earned: &mut Vec<f64>) -> f64 {
    let (lo, hi) = bracket(payoff, sol, earned);
    hi - lo
}

/// The least the row strategy earns against a column and the most the column strategy
/// concedes to a row: the game's value lies between the two. `earned` is a workspace.
pub(super) fn bracket(payoff: &[f64], sol: &Solution, earned: &mut Vec<f64>) -> (f64, f64) {
    let cols = sol.cols.len();
    earned.clear();
    earned.resize(cols, 0.0);
    let mut conceded = f64::NEG_INFINITY;
    for (row, &x) in payoff.chunks_exact(cols).zip(&sol.rows) {
        let mut c = 0.0;
        for ((&a, &y), e) in row.iter().zip(&sol.cols).zip(earned.iter_mut()) {
            c += a * y;
            *e += x * a;
        }
        conceded = conceded.max(c);
    }
    (
        earned.iter().copied().fold(f64::INFINITY, f64::min),
        conceded,
    )
}
