//! Logistic Elo and the sample of a match's results: its mean score, variance and interval.

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a score (±infinity for a score of 1 or 0).
pub(crate) fn elo_from_score(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0, which prints without a sign.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of a logistic Elo difference.
pub(crate) fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Which statistical model a sample comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    /// Games scored 0, ½, 1.
    Trinomial,
    /// Pairs of games scored 0, ¼, ½, ¾, 1.
    Pentanomial,
}

/// The mean score per unit (game or pair) and its observed variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sample {
    /// Games or pairs.
    pub(crate) model: Model,
    /// The number of units.
    pub(crate) n: u32,
    /// The mean score per unit, in `[0, 1]`.
    pub(crate) mean: f64,
    /// The variance of one unit's score (population variance of the observed results).
    pub(crate) variance: f64,
}

impl Sample {
    /// Builds a sample from `(score, count)` frequencies; `None` if there is no unit.
    pub(super) fn from_counts(model: Model, counts: &[(f64, u32)]) -> Option<Sample> {
        let n: u32 = counts.iter().map(|&(_, c)| c).sum();
        if n == 0 {
            return None;
        }
        let total = f64::from(n);
        let mean = counts.iter().map(|&(x, c)| x * f64::from(c)).sum::<f64>() / total;
        let variance = counts
            .iter()
            .map(|&(x, c)| (x - mean).powi(2) * f64::from(c))
            .sum::<f64>()
            / total;
        Some(Sample {
            model,
            n,
            mean,
            variance,
        })
    }

    /// The mean and variance to reason with: the observed ones, or, when every result is alike
    /// (variance 0, which says nothing of the spread), those of the sample with one
    /// pseudo-result of each possible value added.
    pub(crate) fn smoothed(&self) -> (f64, f64) {
        if self.variance > 0.0 {
            return (self.mean, self.variance);
        }
        let values: &[f64] = match self.model {
            Model::Trinomial => &[0.0, 0.5, 1.0],
            Model::Pentanomial => &[0.0, 0.25, 0.5, 0.75, 1.0],
        };
        let n = f64::from(self.n);
        let total = n + values.len() as f64;
        let mean = (n * self.mean + values.iter().sum::<f64>()) / total;
        let spread =
            n * (self.mean - mean).powi(2) + values.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
        (mean, spread / total)
    }

    /// The 95% interval of the Elo difference, low end first, around the observed mean; an end
    /// beyond a score of 0 or 1 is infinite. A sample whose results are all alike takes its
    /// spread from [`Sample::smoothed`], so the interval is never a point.
    pub(crate) fn elo_interval(&self) -> (f64, f64) {
        let half = Z95 * (self.smoothed().1 / f64::from(self.n)).sqrt();
        let bound = |s: f64| elo_from_score(s.clamp(0.0, 1.0));
        (bound(self.mean - half), bound(self.mean + half))
    }
}
