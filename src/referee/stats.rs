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

mod elo;
mod sprt;

#[cfg(test)]
use elo::score_from_elo;
pub(crate) use elo::{Model, Sample, elo_from_score};
pub use sprt::{Decision, Sprt, SprtResult};

/// A match summed up from one engine's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The engine whose point of view is taken.
    pub(crate) engine: String,
    /// Its opponents, in order of first appearance, joined by `, `.
    pub(crate) opponent: String,
    /// Games won.
    pub(crate) wins: u32,
    /// Games drawn.
    pub(crate) draws: u32,
    /// Games lost.
    pub(crate) losses: u32,
    /// Games in which the engine did not play (not counted).
    pub skipped: u32,
    /// Pair counts with pair scores 0, ½, 1, 1½, 2, when every pair is complete.
    pub(crate) pentanomial: Option<[u32; 5]>,
    /// Of the complete pairs, those split 1–1 by a win and a loss (the opening decided them).
    pub(crate) split_pairs: u32,
    /// The sample the interval and the SPRT use (`None` without games).
    pub(crate) sample: Option<Sample>,
    /// The SPRT, if one was asked for.
    pub sprt: Option<SprtResult>,
    /// How the engine's games ended.
    pub(crate) ends: Ends,
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
            split_pairs: 0,
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
            summary.split_pairs = pairs
                .values()
                .filter(|games| games[0] + games[1] == 1.0 && games[0] != 0.5)
                .count() as u32;
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
    pub(crate) fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(games))
    }

    /// The Elo difference (±infinity for a perfect or a null score), `None` without games.
    pub(crate) fn elo(&self) -> Option<f64> {
        self.score().map(elo_from_score)
    }

    /// The 95% interval of the Elo difference, low end first; `None` without games or when the
    /// Elo difference itself is infinite.
    pub(crate) fn elo_interval(&self) -> Option<(f64, f64)> {
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

impl Summary {
    /// The `Elo difference:` line: the figure, and the interval when there is one.
    fn write_elo(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
        Ok(())
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
        self.write_elo(f)?;
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
        if let Some(p) = self.pentanomial {
            let pairs: u32 = p.iter().sum();
            if self.split_pairs * 2 > pairs {
                writeln!(
                    f,
                    "WARNING: {} of {pairs} pairs split 1-1 (a win each, with the same colour): \
                     the openings decide most games, so the interval and the SPRT rest on the \
                     {} other pairs; play more pairs, or fewer --opening-turns or an --openings \
                     file whose positions are balanced",
                    self.split_pairs,
                    pairs - self.split_pairs
                )?;
            }
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
/// Any error reading a file, or `Error::Conflict` for a game recorded differently.
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
mod tests;
