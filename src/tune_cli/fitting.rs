//! The fit's arithmetic: the predicted result, the error and its gradient, `K`, and the line
//! search over the weights.

use std::ops::RangeInclusive;

use super::MAX_SWEEPS;
use super::data::Sample;

pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation of a sample under weights `w` (as the variant's evaluation computes it).
pub(super) fn eval<P>(s: &Sample<P>, w: &[i32]) -> f64 {
    let dot: i32 = s.terms.iter().zip(w).map(|(t, w)| t * w).sum();
    f64::from(s.fixed + dot) / f64::from(s.divisor)
}

/// The mean squared error of the predictions `σ(K·e/400)`.
pub(super) fn error<P>(samples: &[Sample<P>], w: &[i32], k: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k * eval(s, w) / 400.0)).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The pull toward the current weights: `λ·Σ((w − w₀)/100)²`.
fn penalty(w: &[i32], centre: &[i32], lambda: f64) -> f64 {
    let sum: f64 = w
        .iter()
        .zip(centre)
        .map(|(a, b)| (f64::from(a - b) / 100.0).powi(2))
        .sum();
    lambda * sum
}

/// The `K` of the smallest error, by golden-section search over [0.05, 20].
pub(super) fn fit_k<P>(samples: &[Sample<P>], w: &[i32]) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.05f64, 20.0f64);
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(samples, w, c) < error(samples, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// For each weight, the error's gradient (per centipawn) and its `z`: the per-game sums of
/// the gradient, their mean over the games divided by its standard error. Games count
/// alike, whatever their length, so that a long game's many similar positions do not pass for
/// many independent witnesses.
pub(super) fn gradient<P>(samples: &[Sample<P>], w: &[i32], k: f64) -> (Vec<f64>, Vec<f64>) {
    let n_terms = w.len();
    let mut per_game: Vec<(usize, Vec<f64>)> = Vec::new();
    let mut total = vec![0.0; n_terms];
    for s in samples {
        let p = sigmoid(k * eval(s, w) / 400.0);
        let d = 2.0 * (p - s.result) * p * (1.0 - p) * k / 400.0 / f64::from(s.divisor);
        if per_game.last().is_none_or(|(g, _)| *g != s.game) {
            per_game.push((s.game, vec![0.0; n_terms]));
        }
        let (_, g) = per_game.last_mut().expect("pushed above");
        for (i, t) in s.terms.iter().enumerate() {
            let term = d * f64::from(*t);
            g[i] += term;
            total[i] += term;
        }
    }
    let n = samples.len().max(1) as f64;
    let grad = total.iter().map(|t| t / n).collect();
    let games = per_game.len() as f64;
    let mut z = vec![0.0; n_terms];
    if games >= 2.0 {
        for (i, z) in z.iter_mut().enumerate() {
            let mean = per_game.iter().map(|(_, g)| g[i]).sum::<f64>() / games;
            let var = per_game
                .iter()
                .map(|(_, g)| (g[i] - mean).powi(2))
                .sum::<f64>()
                / (games - 1.0);
            let se = (var / games).sqrt();
            *z = if se > 0.0 { mean / se } else { 0.0 };
        }
    }
    (grad, z)
}

/// The settings of one round's weight search.
pub(super) struct Search<'a, P> {
    pub(super) samples: &'a [Sample<P>],
    pub(super) centre: &'a [i32],
    /// The values each weight may take, whatever the radius.
    pub(super) ranges: &'a [RangeInclusive<i32>],
    pub(super) radius: i32,
    pub(super) lambda: f64,
    pub(super) k: f64,
}

impl<P> Search<'_, P> {
    /// The objective: the error plus the pull toward the centre.
    fn objective(&self, w: &[i32]) -> f64 {
        error(self.samples, w, self.k) + penalty(w, self.centre, self.lambda)
    }

    /// Moves each weight in `free` to the integer within `radius` of the centre and inside
    /// its range that minimises the objective, the others held, over and over until no weight
    /// moves.
    pub(super) fn line_search(&self, w: &mut [i32], free: &[bool]) {
        for _ in 0..MAX_SWEEPS {
            let mut moved = false;
            for i in (0..w.len()).filter(|&i| free[i]) {
                let mut best = (self.objective(w), w[i]);
                let mut trial = w.to_vec();
                let (low, high) = (
                    (self.centre[i] - self.radius).max(*self.ranges[i].start()),
                    (self.centre[i] + self.radius).min(*self.ranges[i].end()),
                );
                for v in low..=high {
                    trial[i] = v;
                    let e = self.objective(&trial);
                    if e < best.0 {
                        best = (e, v);
                    }
                }
                if best.1 != w[i] {
                    w[i] = best.1;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
    }
}
