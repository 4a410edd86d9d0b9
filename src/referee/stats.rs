//! The summary of a match from one engine's point of view: the score, the Elo difference with
//! its 95% interval, and a sequential probability ratio test (SPRT).
//!
//! Elo is logistic: a score `s` means `-400·log10(1/s − 1)` Elo. The interval and the SPRT
//! both rest on the mean score and its observed variance, taken from one of two models:
//!
//! - **pentanomial**, when every pair of games (one opening, colours swapped) is complete: the
//!   unit is the pair, scored 0, ¼, ½, ¾ or 1 for the engine. Pairing removes the opening's bias
//!   from the variance, so this is the model used whenever it can be.
//! - **trinomial** otherwise, and also when every pair scored alike (all split 1–1, say: the
//!   pairs show no spread though the games do): the unit is the game, scored 0, ½ or 1.
//!
//! A sample whose results are all alike (all draws) takes its spread from one pseudo-result of
//! each possible value, for the interval as for the SPRT, so the interval is never a point.
//!
//! The interval is `mean ± 1.96·sqrt(variance/n)` in score, converted to Elo. The SPRT is the
//! GSPRT normal approximation of fishtest (`LLR_alt2` of Michel Van den Bergh's
//! `GSPRT_approximation.pdf`): with `s0`, `s1` the scores of `elo0`, `elo1`,
//! `LLR = n·(s1 − s0)·(2·mean − s0 − s1) / (2·variance)`.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::fmt;
use std::path::PathBuf;

use super::ends::Ends;
use super::results::{Error, GameRecord, read_all};

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a score (±infinity for a score of 1 or 0).
pub fn elo_from_score(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0, which prints without a sign.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Which statistical model a sample comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Games scored 0, ½, 1.
    Trinomial,
    /// Pairs of games scored 0, ¼, ½, ¾, 1.
    Pentanomial,
}

/// The mean score per unit (game or pair) and its observed variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Games or pairs.
    pub model: Model,
    /// The number of units.
    pub n: u32,
    /// The mean score per unit, in `[0, 1]`.
    pub mean: f64,
    /// The variance of one unit's score (population variance of the observed results).
    pub variance: f64,
}

impl Sample {
    /// Builds a sample from `(score, count)` frequencies; `None` if there is no unit.
    fn from_counts(model: Model, counts: &[(f64, u32)]) -> Option<Sample> {
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
    pub fn smoothed(&self) -> (f64, f64) {
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
    pub fn elo_interval(&self) -> (f64, f64) {
        let half = Z95 * (self.smoothed().1 / f64::from(self.n)).sqrt();
        let bound = |s: f64| elo_from_score(s.clamp(0.0, 1.0));
        (bound(self.mean - half), bound(self.mean + half))
    }
}

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
    pub fn bounds(&self) -> (f64, f64) {
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
    pub fn llr(&self, sample: &Sample) -> f64 {
        let (mean, variance) = sample.smoothed();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        f64::from(sample.n) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Runs the test on a sample (`None`: no game yet).
    pub fn test(&self, sample: Option<&Sample>) -> SprtResult {
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

/// A match summed up from one engine's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The engine whose point of view is taken.
    pub engine: String,
    /// Its opponents, in order of first appearance, joined by `, `.
    pub opponent: String,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Games in which the engine did not play (not counted).
    pub skipped: u32,
    /// Pair counts with pair scores 0, ½, 1, 1½, 2, when every pair is complete.
    pub pentanomial: Option<[u32; 5]>,
    /// The sample the interval and the SPRT use (`None` without games).
    pub sample: Option<Sample>,
    /// The SPRT, if one was asked for.
    pub sprt: Option<SprtResult>,
    /// How the engine's games ended.
    pub ends: Ends,
}

impl Summary {
    /// Sums up the games of `engine` (a game where it sits in both seats counts from White's
    /// side). The pentanomial model is used when every pair index present has exactly two
    /// games of the engine, else the trinomial one.
    pub fn new(records: &[GameRecord], engine: &str, sprt: Option<Sprt>) -> Summary {
        let mut summary = Summary {
            engine: engine.to_owned(),
            opponent: String::new(),
            wins: 0,
            draws: 0,
            losses: 0,
            skipped: 0,
            pentanomial: None,
            sample: None,
            sprt: None,
            ends: Ends::default(),
        };
        let mut opponents: Vec<&str> = Vec::new();
        let mut pairs: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
        for r in records {
            let Some(score) = r.score_for(engine) else {
                summary.skipped += 1;
                continue;
            };
            let other = if r.white == engine {
                &r.black
            } else {
                &r.white
            };
            if !opponents.contains(&other.as_str()) {
                opponents.push(other);
            }
            match score {
                1.0 => summary.wins += 1,
                0.0 => summary.losses += 1,
                _ => summary.draws += 1,
            }
            pairs.entry(r.pair).or_default().push(score);
        }
        summary.opponent = opponents.join(", ");
        summary.ends = Ends::new(records.iter().filter(|r| r.score_for(engine).is_some()));
        if !pairs.is_empty() && pairs.values().all(|games| games.len() == 2) {
            let mut counts = [0u32; 5];
            for games in pairs.values() {
                counts[((games[0] + games[1]) * 2.0).round() as usize] += 1;
            }
            summary.pentanomial = Some(counts);
            let freq: Vec<(f64, u32)> = (0..5).map(|k| (k as f64 / 4.0, counts[k])).collect();
            summary.sample = Sample::from_counts(Model::Pentanomial, &freq);
        }
        // Pairs that all score alike (every pair split 1-1, say) have no spread to speak of,
        // though the games do: the trinomial model then tells the truer width.
        if summary.sample.is_none_or(|s| s.variance == 0.0) {
            let freq = [
                (1.0, summary.wins),
                (0.5, summary.draws),
                (0.0, summary.losses),
            ];
            summary.sample = Sample::from_counts(Model::Trinomial, &freq);
        }
        summary.sprt = sprt.map(|t| t.test(summary.sample.as_ref()));
        summary
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction, `None` without games.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(games))
    }

    /// The Elo difference (±infinity for a perfect or a null score), `None` without games.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_from_score)
    }

    /// The 95% interval of the Elo difference, low end first; `None` without games or when the
    /// Elo difference itself is infinite.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        self.sample
            .filter(|_| self.elo().is_some_and(f64::is_finite))
            .map(|s| s.elo_interval())
    }
}

/// Prints an Elo figure with one decimal, or `+inf` / `-inf`.
fn elo_text(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_owned()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_owned()
    } else {
        format!("{elo:.1}")
    }
}

/// Prints the summary in the manner of cutechess-cli: wins - losses - draws, the Elo
/// difference and the half-width of its interval, the pentanomial counts when the interval is
/// pentanomial, and the SPRT if any.
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opponent = if self.opponent.is_empty() {
            "nobody"
        } else {
            &self.opponent
        };
        let score = self.score().map_or("n/a".to_owned(), |s| format!("{s:.3}"));
        writeln!(
            f,
            "Score of {} vs {opponent}: {} - {} - {}  [{score}] {} games",
            self.engine,
            self.wins,
            self.losses,
            self.draws,
            self.games()
        )?;
        match (self.elo(), self.elo_interval()) {
            (None, _) => writeln!(f, "Elo difference: n/a")?,
            (Some(elo), None) => writeln!(f, "Elo difference: {}", elo_text(elo))?,
            (Some(elo), Some((low, high))) => {
                // Logistic Elo intervals are not symmetric: the half-width, then both ends.
                let half = (high - low) / 2.0;
                if half.is_finite() {
                    writeln!(
                        f,
                        "Elo difference: {} +/- {half:.1} (95%: {} to {})",
                        elo_text(elo),
                        elo_text(low),
                        elo_text(high)
                    )?;
                } else {
                    writeln!(
                        f,
                        "Elo difference: {} (95%: {} to {})",
                        elo_text(elo),
                        elo_text(low),
                        elo_text(high)
                    )?;
                }
            }
        }
        if let Some(p) = self.pentanomial {
            writeln!(
                f,
                "Ptnml(0-2): [{}, {}, {}, {}, {}]",
                p[0], p[1], p[2], p[3], p[4]
            )?;
        }
        if self.ends.total() > 0 {
            writeln!(f, "{}", self.ends)?;
        }
        if self.ends.mostly_forfeits() {
            writeln!(
                f,
                "WARNING: {} of {} games were forfeits: the score measures conduct (crashes, \
                 flags, bad moves), not play",
                self.ends.forfeits(),
                self.ends.total()
            )?;
        }
        if self.skipped > 0 {
            writeln!(
                f,
                "({} games without {} not counted)",
                self.skipped, self.engine
            )?;
        }
        if let Some(t) = &self.sprt {
            writeln!(
                f,
                "SPRT: llr {:.2} ({:.2}, {:.2}) [{:.1}, {:.1}] {}",
                t.llr, t.lower, t.upper, t.sprt.elo0, t.sprt.elo1, t.decision
            )?;
        }
        Ok(())
    }
}

/// Reads the results files of the shards of one match (each played a distinct range of game
/// indices) into one list sorted by game index. A game found in two files must be recorded
/// identically in both; it is then kept once.
///
/// # Errors
/// Any error reading a file, or [`Error::Conflict`] for a game recorded differently.
pub fn merge(paths: &[PathBuf]) -> Result<Vec<GameRecord>, Error> {
    let mut games: BTreeMap<u32, (GameRecord, &PathBuf)> = BTreeMap::new();
    for path in paths {
        for record in read_all(path)? {
            match games.entry(record.game) {
                Entry::Vacant(e) => {
                    e.insert((record, path));
                }
                Entry::Occupied(e) if e.get().0 == record => {}
                Entry::Occupied(e) => {
                    return Err(Error::Conflict {
                        game: record.game,
                        first: e.get().1.clone(),
                        second: path.clone(),
                    });
                }
            }
        }
    }
    Ok(games.into_values().map(|(r, _)| r).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::results::{GameResult, ResultsFile};

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// A game of `a` against `b`; `a_score` is 1, 0.5 or 0.
    fn game(game: u32, pair: u32, a_white: bool, a_score: f64) -> GameRecord {
        let white_score = if a_white { a_score } else { 1.0 - a_score };
        let result = match white_score {
            1.0 => GameResult::WhiteWins,
            0.0 => GameResult::BlackWins,
            _ => GameResult::Draw,
        };
        let (white, black) = if a_white { ("a", "b") } else { ("b", "a") };
        GameRecord {
            game,
            pair,
            white: white.to_owned(),
            black: black.to_owned(),
            result,
            plies: 10,
            opening: "-".to_owned(),
            reason: "test".to_owned(),
        }
    }

    /// Games with the given scores for `a`, each its own pair (so the model is trinomial).
    fn unpaired(scores: &[f64]) -> Vec<GameRecord> {
        (0..)
            .zip(scores)
            .map(|(i, &s)| game(i, i, i % 2 == 0, s))
            .collect()
    }

    fn wdl(w: usize, d: usize, l: usize) -> Vec<f64> {
        [vec![1.0; w], vec![0.5; d], vec![0.0; l]].concat()
    }

    const SPRT: Sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };

    #[test]
    fn trinomial_figures() {
        // 10 W 5 D 5 L: score 12.5/20 = 0.625; Elo -400·log10(1/0.625 − 1) = 88.74.
        // Variance per game: (10·0.375² + 5·0.125² + 5·0.625²)/20 = 3.4375/20 = 0.171875;
        // standard error sqrt(0.171875/20) = 0.092702; 1.96·se = 0.181694; the score interval
        // 0.443306..0.806694 is -39.56..248.18 Elo, a half-width of 143.87.
        let s = Summary::new(&unpaired(&wdl(10, 5, 5)), "a", Some(SPRT));
        assert_eq!((s.wins, s.draws, s.losses, s.games()), (10, 5, 5, 20));
        assert_eq!(s.score(), Some(0.625));
        assert!(close(s.elo().unwrap(), 88.7395, 1e-3));
        let sample = s.sample.unwrap();
        assert_eq!(sample.model, Model::Trinomial);
        assert!(close(sample.variance, 0.171875, 1e-12));
        let (low, high) = s.elo_interval().unwrap();
        assert!(
            close(low, -39.565, 1e-2) && close(high, 248.185, 1e-2),
            "{low} {high}"
        );
        // s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.514387;
        // LLR = 20·0.014387·(1.25 − 1.014387)/(2·0.171875) = 0.19723.
        let t = s.sprt.unwrap();
        assert!(close(t.llr, 0.19723, 1e-4), "{}", t.llr);
        assert!(close(t.upper, 2.944439, 1e-6) && close(t.lower, -2.944439, 1e-6));
        assert_eq!(t.decision, Decision::Continue);
        assert_eq!(
            s.to_string(),
            "Score of a vs b: 10 - 5 - 5  [0.625] 20 games\n\
             Elo difference: 88.7 +/- 143.9 (95%: -39.6 to 248.2)\n\
             Ends: by the rules 20\n\
             SPRT: llr 0.20 (-2.94, 2.94) [0.0, 10.0] continue\n"
        );
    }

    #[test]
    fn pentanomial_figures() {
        // Eight complete pairs with pair scores 2, 1½, 1, 1, ½, 2, 1, 1½ (per game: 1, ¾, ½, ½,
        // ¼, 1, ½, ¾): mean 0.65625, variance 0.0615234, se sqrt(0.0615234/8) = 0.087695;
        // Elo 112.33, interval -10.86..273.16; LLR = 8·0.014387·(1.3125 − 1.014387)/(2·0.0615234)
        // = 0.27885.
        let pair_games: [(f64, f64); 8] = [
            (1.0, 1.0),
            (1.0, 0.5),
            (1.0, 0.0),
            (0.5, 0.5),
            (0.5, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.5, 1.0),
        ];
        let records: Vec<GameRecord> = (0..)
            .zip(pair_games)
            .flat_map(|(p, (x, y))| [game(2 * p, p, true, x), game(2 * p + 1, p, false, y)])
            .collect();
        let s = Summary::new(&records, "a", Some(SPRT));
        assert_eq!(s.pentanomial, Some([0, 1, 3, 2, 2]));
        let sample = s.sample.unwrap();
        assert_eq!((sample.model, sample.n), (Model::Pentanomial, 8));
        assert!(close(sample.mean, 0.65625, 1e-12));
        assert!(close(sample.variance, 0.0615234375, 1e-12));
        assert!(close(s.elo().unwrap(), 112.3306, 1e-3));
        let (low, high) = s.elo_interval().unwrap();
        assert!(
            close(low, -10.864, 1e-2) && close(high, 273.158, 1e-2),
            "{low} {high}"
        );
        assert!(close(s.sprt.unwrap().llr, 0.278853, 1e-4));
        assert!(s.to_string().contains("Ptnml(0-2): [0, 1, 3, 2, 2]\n"));

        // One game less: a pair is incomplete, so the model falls back to trinomial.
        let s = Summary::new(&records[..15], "a", None);
        assert_eq!(s.pentanomial, None);
        assert_eq!(s.sample.unwrap().model, Model::Trinomial);
    }

    #[test]
    fn edge_cases() {
        let s = Summary::new(&[], "a", Some(SPRT));
        assert_eq!(
            s.to_string(),
            "Score of a vs nobody: 0 - 0 - 0  [n/a] 0 games\n\
             Elo difference: n/a\n\
             SPRT: llr 0.00 (-2.94, 2.94) [0.0, 10.0] continue\n"
        );
        let s = Summary::new(&unpaired(&wdl(5, 0, 0)), "a", None);
        assert_eq!(s.elo(), Some(f64::INFINITY));
        assert_eq!(s.elo_interval(), None);
        assert!(s.to_string().contains("Elo difference: +inf\n"));
        let s = Summary::new(&unpaired(&wdl(0, 0, 3)), "a", None);
        assert!(s.to_string().contains("Elo difference: -inf\n"));
        let s = Summary::new(&unpaired(&wdl(0, 4, 0)), "a", Some(SPRT));
        // All draws: the spread comes from the pseudo-results (4 draws and 0, 0.5, 1: variance
        // 0.5/7), around the observed mean.
        assert!(
            s.to_string()
                .contains("Elo difference: 0.0 +/- 202.1 (95%: -202.1 to 202.1)\n"),
            "{s}"
        );
        // All alike: one pseudo-result of each value joins the sample; 4 draws are no evidence
        // either way (mean 0.5 against s0 = 0.5, s1 = 0.5144: slightly for H0).
        let t = s.sprt.unwrap();
        assert!(t.llr < 0.0 && t.llr > -0.1, "{}", t.llr);
        assert_eq!(t.decision, Decision::Continue);
        // A run of wins decides, but not at once. [0, 100]: s0 = 0.5, s1 = 0.640065.
        // 2 wins: mean (2 + 1.5)/5 = 0.7, variance (2*0.09 + 0.49 + 0.04 + 0.09)/5 = 0.16,
        // llr = 2 * 0.140065 * (1.4 - 1.140065) / 0.32 = 0.22755.
        let strong = Sprt {
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let t = Summary::new(&unpaired(&wdl(2, 0, 0)), "a", Some(strong))
            .sprt
            .unwrap();
        assert!(close(t.llr, 0.22755, 1e-4), "{}", t.llr);
        assert_eq!(t.decision, Decision::Continue);
        // 10 wins: mean 11.5/13, variance 1.076923/13, llr = 5.3196 > 2.944: H1.
        let t = Summary::new(&unpaired(&wdl(10, 0, 0)), "a", Some(strong))
            .sprt
            .unwrap();
        assert!(close(t.llr, 5.3196, 1e-3), "{}", t.llr);
        assert_eq!(t.decision, Decision::H1);
        // An interval reaching past a score of 1 has an infinite end.
        let s = Summary::new(&unpaired(&wdl(3, 0, 1)), "a", None);
        assert!(s.to_string().contains(" to +inf)"), "{s}");
        assert!(
            !s.to_string().contains("+/-"),
            "no half-width of an infinite interval: {s}"
        );
    }

    #[test]
    fn pairs_that_all_split_still_have_an_interval() {
        // Every pair 1-1: the pentanomial variance is 0, but the games are wins and losses.
        let records: Vec<GameRecord> = (0..10)
            .flat_map(|p| [game(2 * p, p, true, 1.0), game(2 * p + 1, p, false, 0.0)])
            .collect();
        let s = Summary::new(&records, "a", None);
        assert_eq!(s.pentanomial, Some([0, 0, 10, 0, 0]));
        assert_eq!(s.sample.unwrap().model, Model::Trinomial);
        let (low, high) = s.elo_interval().unwrap();
        // 20 games of variance 1/4: half-width 1.96 * sqrt(0.25 / 20) = 0.219 in score.
        assert!(low < -150.0 && high > 150.0, "{low} {high}");
        assert!(!s.to_string().contains("+/- 0.0"), "{s}");
    }

    #[test]
    fn games_of_others_are_skipped() {
        let mut records = unpaired(&wdl(1, 1, 1));
        records.push(GameRecord {
            white: "c".to_owned(),
            ..game(3, 3, true, 1.0)
        });
        let s = Summary::new(&records, "a", None);
        assert_eq!((s.games(), s.skipped), (3, 1));
        assert!(s.to_string().contains("(1 games without a not counted)"));
        assert_eq!(Summary::new(&records, "b", None).opponent, "a, c");
    }

    #[test]
    fn sprt_moves_with_the_results() {
        let llr = |w, d, l| {
            SPRT.test(
                Summary::new(&unpaired(&wdl(w, d, l)), "a", None)
                    .sample
                    .as_ref(),
            )
        };
        // Below the midpoint of s0 and s1 the evidence favours H0, above it H1.
        assert!(llr(10, 10, 10).llr < 0.0);
        assert!(llr(11, 10, 10).llr > llr(10, 10, 11).llr);
        assert!(llr(20, 10, 10).llr > llr(15, 10, 10).llr);
        assert_eq!(llr(300, 100, 100).decision, Decision::H1);
        assert_eq!(llr(2000, 2000, 2000).decision, Decision::H0);
        // Check the formula once more by hand: 300 W 100 D 100 L, mean 0.7, variance
        // (300·0.09 + 100·0.04 + 100·0.49)/500 = 0.16; LLR = 500·0.014387·(1.4 − 1.014387)/0.32.
        let s1 = score_from_elo(10.0);
        let expected = 500.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
        assert!(close(expected, 8.6686, 1e-3), "{expected}");
        assert!(close(llr(300, 100, 100).llr, expected, 1e-9));
    }

    /// Known answers computed outside this code, by a Python transcription of the closed form
    /// (`n·(s1 − s0)·(2·mean − s0 − s1)/(2·variance)`, population variance of the units):
    ///
    /// ```text
    /// s = lambda e: 1 / (1 + 10 ** (-e / 400))
    /// pentanomial [3, 10, 40, 12, 5], [0, 5]: n 70, mean 0.5214285714, var 0.0477551020,
    ///     llr 0.1880574044
    /// trinomial 300 W 150 D 250 L, [-5, 15]: n 700, mean 0.5357142857, var 0.1951530612,
    ///     llr 2.9435179805; alpha 0.05, beta 0.1: bounds ln(0.1/0.95) = -2.2512917986,
    ///     ln(0.9/0.05) = 2.8903717579
    /// ```
    #[test]
    fn llr_matches_an_independent_computation() {
        let splits: [(f64, f64); 5] = [(0.0, 0.0), (0.5, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0)];
        let mut records = Vec::new();
        let mut pair = 0;
        for (k, count) in [3, 10, 40, 12, 5].into_iter().enumerate() {
            for _ in 0..count {
                let (x, y) = splits[k];
                records.push(game(2 * pair, pair, true, x));
                records.push(game(2 * pair + 1, pair, false, y));
                pair += 1;
            }
        }
        let narrow = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let s = Summary::new(&records, "a", Some(narrow));
        let sample = s.sample.unwrap();
        assert_eq!((sample.model, sample.n), (Model::Pentanomial, 70));
        assert!(close(sample.mean, 0.521_428_571_4, 1e-9));
        assert!(close(sample.variance, 0.047_755_102_0, 1e-9));
        let t = s.sprt.unwrap();
        assert!(close(t.llr, 0.188_057_404_4, 1e-8), "{}", t.llr);
        assert_eq!(t.decision, Decision::Continue);

        let shifted = Sprt {
            elo0: -5.0,
            elo1: 15.0,
            alpha: 0.05,
            beta: 0.1,
        };
        let s = Summary::new(&unpaired(&wdl(300, 150, 250)), "a", Some(shifted));
        let t = s.sprt.unwrap();
        assert!(close(t.llr, 2.943_517_980_5, 1e-8), "{}", t.llr);
        assert!(close(t.lower, -2.251_291_798_6, 1e-9), "{}", t.lower);
        assert!(close(t.upper, 2.890_371_757_9, 1e-9), "{}", t.upper);
        assert_eq!(t.decision, Decision::H1);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-500.0, -10.0, 0.0, 33.3, 700.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn shards_merge_in_order() {
        let dir = std::env::temp_dir();
        let path = |n: &str| dir.join(format!("quill-merge-{}-{n}.txt", std::process::id()));
        let (p1, p2, p3) = (path("1"), path("2"), path("3"));
        for p in [&p1, &p2, &p3] {
            let _ = std::fs::remove_file(p);
        }
        let mut f1 = ResultsFile::create(&p1, "shard 1").unwrap();
        let mut f2 = ResultsFile::create(&p2, "shard 2").unwrap();
        let mut f3 = ResultsFile::create(&p3, "shard 3").unwrap();
        for g in [4, 5, 0] {
            f2.append(&game(g, g / 2, g % 2 == 0, 1.0)).unwrap();
        }
        for g in [2, 3, 1] {
            f1.append(&game(g, g / 2, g % 2 == 0, 0.5)).unwrap();
        }
        // Shard 3 repeats game 0 of shard 2 identically, then game 1 of shard 1 differently.
        f3.append(&game(0, 0, true, 1.0)).unwrap();
        let merged = merge(&[p1.clone(), p2.clone(), p3.clone()]).unwrap();
        let order: Vec<u32> = merged.iter().map(|r| r.game).collect();
        assert_eq!(order, [0, 1, 2, 3, 4, 5]);
        assert_eq!(merged[4], game(4, 2, true, 1.0));
        f3.append(&game(1, 0, false, 1.0)).unwrap();
        let err = merge(&[p1.clone(), p2.clone(), p3.clone()]).unwrap_err();
        assert!(matches!(err, Error::Conflict { game: 1, .. }), "{err}");
        for p in [&p1, &p2, &p3] {
            std::fs::remove_file(p).unwrap();
        }
    }
}
