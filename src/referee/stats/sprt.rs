//! The sequential probability ratio test (GSPRT normal approximation) and its verdict.

use std::fmt;

use super::elo::{Sample, score_from_elo};

/// A sequential probability ratio test of `elo0` (H0) against `elo1` (H1), in logistic Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// The bounds of the log-likelihood ratio: `ln(β/(1−α))` (accept H0 at or below) and
    /// `ln((1−β)/α)` (accept H1 at or above).
    pub(crate) fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 (GSPRT normal approximation). When every
    /// result so far is alike (variance 0, which says nothing of the spread), the mean and
    /// variance are taken with one pseudo-result of each possible value added, so that a run
    /// of wins (say, against a crashing engine) still ends the test, after about ten games
    /// rather than after one.
    pub(crate) fn llr(&self, sample: &Sample) -> f64 {
        let (mean, variance) = sample.smoothed();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        f64::from(sample.n) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Runs the test on a sample (`None`: no game yet).
    pub(crate) fn test(&self, sample: Option<&Sample>) -> SprtResult {
        let llr = sample.map_or(0.0, |s| self.llr(s));
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        };
        SprtResult {
            sprt: *self,
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// What an SPRT concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: the difference is `elo0` rather than `elo1`.
    H0,
    /// H1 accepted.
    H1,
    /// Not enough games yet.
    Continue,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
            Decision::Continue => "continue",
        })
    }
}

/// The state of an SPRT after the games so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtResult {
    /// The test.
    pub sprt: Sprt,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The bound for H0.
    pub lower: f64,
    /// The bound for H1.
    pub upper: f64,
    /// The decision.
    pub decision: Decision,
}
