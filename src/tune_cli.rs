//! `quill tune`: fits an evaluation's weights to the results of games (Texel's method):
//! Gladiator/Brawl's, Apocalypse's (both rule sets) or Pagan's, whichever the games'
//! `[Variant]` names. Each evaluation is a [`model::Tunable`]: linear in its weights (Pagan's
//! divided by a fixed factor where the side ahead cannot win), with their names, current
//! values and ranges.
//!
//! Every quiet position of the games (Gladiator/Brawl: no capture for the side to move;
//! Pagan: no capture, nor a check once the enemy king is dead; Apocalypse: every position),
//! past the opening plies, is labelled with the game's result (1, ½, 0) for the side the
//! evaluation is for (Gladiator/Brawl and Pagan: the side to move; Apocalypse: White). The
//! evaluation
//! `e` under weights `w` predicts that result as `σ(K·e/400)`, `σ(x) = 1/(1+e^−x)`; the error
//! is the mean squared difference. First `K` is fitted to the current weights (golden-section
//! search). Then, with `K` fixed, each round:
//!
//! - measures the error's gradient for every weight and how sure it is: the gradient summed per
//!   game, its mean over the games divided by its standard error (`z`). Only weights with
//!   `|z| ≥ --min-z` move: a weight whose gradient the games do not agree on is noise to fit;
//! - moves each such weight to the best integer within `--radius` of its current value and
//!   inside its range (a line search per weight, repeated over the weights until none moves),
//!   minimising the error plus `--lambda·Σ((w − w₀)/100)²`, a pull toward the current
//!   weights `w₀`.
//!
//! Later rounds refit `K` first. The evaluation is linear in its weights
//! ([`quill::variants::gladiator::Position::eval_terms`], [`quill::simsearch::eval::eval_terms`],
//! [`quill::variants::pagan::Position::eval_terms`]), so each position's terms are computed
//! once per round; a round recomputes them, since which supporter powers a Gladiator pawn best,
//! and which Pagan side is ahead (whether its edge is divided), depend on the weights.
//!
//! A game whose moves repeat an earlier one (a deterministic engine playing itself repeats the
//! game of each pair) is read once. A tenth of the openings (by a hash of the `[FEN]`, so both
//! games of a pair fall on one side) is held out and its error printed, to show whether the
//! fit generalises.
//!
//! The PGN is the one `quill match --pgn` writes: `[Variant]`, `[FEN]` and `[Result]` headers
//! and each turn as a comment after its move number (`3. {f2g4,f1c1} 3... {b6b3,d8h5}`).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

mod data;
mod error;
mod fitting;
mod model;

use data::Data;
use error::{OutOfRange, TuneError};
use fitting::{Search, error, fit_k, gradient};
use model::Tunable;

use quill::variant::Variant;
use quill::variants::{apocalypse, gladiator, pagan};

/// The most positions kept (each costs about 60 bytes).
const MAX_POSITIONS: usize = 4_000_000;
/// The most bytes of PGN read from one file.
const MAX_PGN_BYTES: u64 = 1 << 30;
/// The most rounds (term extraction, then local search).
const MAX_ROUNDS: u32 = 10;
/// Sweeps of the line search over the weights per round, at most.
const MAX_SWEEPS: usize = 50;

/// `quill tune`: fit an evaluation's weights (Gladiator/Brawl's, Apocalypse's or Pagan's) to
/// games' results.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// PGN files written by `quill match --pgn`: Gladiator and Brawl games, Apocalypse games
    /// of either rule set, or Pagan games (the first game's variant decides which evaluation
    /// is fitted).
    #[arg(required = true, value_name = "PGN")]
    pgn: Vec<PathBuf>,

    /// Plies (turns) from each game's start whose positions are left out (the random opening).
    #[arg(long, default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(..=1000))]
    skip_plies: u32,

    /// How far each weight may move from its current value (a trust region: a few thousand
    /// games do not pin down weights that trade off against each other, such as the power of
    /// every supporter kind against the pawn's fixed 100).
    #[arg(long, default_value_t = 30,
          value_parser = clap::value_parser!(i32).range(1..=1000))]
    radius: i32,

    /// Rounds of term extraction, fit of K and local search.
    #[arg(long, default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ROUNDS)))]
    rounds: u32,

    /// The pull toward the current weights: `LAMBDA·Σ((w − w₀)/100)²` is added to the error
    /// (0: none; 0.001 makes a 30-centipawn move cost as much as 0.00009 of error).
    #[arg(long, default_value_t = 0.001, value_parser = parse_lambda)]
    lambda: f64,

    /// Only weights whose error gradient is this many standard errors (over the games) from 0
    /// move (0: all).
    #[arg(long, default_value_t = 2.0, value_parser = parse_min_z)]
    min_z: f64,
}

/// A non-negative finite number up to `max`.
fn bounded(text: &str, max: f64) -> Result<f64, OutOfRange> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=max).contains(&x) => Ok(x),
        _ => Err(OutOfRange {
            text: text.to_owned(),
            max,
        }),
    }
}

fn parse_lambda(text: &str) -> Result<f64, OutOfRange> {
    bounded(text, 1.0)
}

fn parse_min_z(text: &str) -> Result<f64, OutOfRange> {
    bounded(text, 100.0)
}

/// Runs `quill tune`: exit 0 with the fitted weights printed, 2 on a bad file or no data.
pub fn run_tune(args: &TuneArgs) -> ExitCode {
    match tune(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quill tune: {e}");
            ExitCode::from(2)
        }
    }
}

fn tune(args: &TuneArgs) -> Result<(), TuneError> {
    let texts = read(args)?;
    // The report is written at the end, in one piece; a closed stdout (`| head`) is no error.
    let mut out = String::new();
    let report = match family(&texts)? {
        Family::Gladiator => fit::<gladiator::Position>(args, &texts, &mut out),
        Family::Apocalypse => fit::<apocalypse::Position>(args, &texts, &mut out),
        Family::Pagan => fit::<pagan::Position>(args, &texts, &mut out),
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    report
}

/// The evaluations `quill tune` fits.
enum Family {
    /// Gladiator's and Brawl's.
    Gladiator,
    /// Apocalypse's, both rule sets.
    Apocalypse,
    /// Pagan's.
    Pagan,
}

/// The family of the first game of the first file.
fn family(texts: &[(PathBuf, String)]) -> Result<Family, TuneError> {
    for (path, text) in texts {
        for (index, game) in data::games(text).enumerate() {
            let fault = |fault| TuneError::Game(path.clone(), index + 1, Box::new(fault));
            let Some(variant) = data::variant_of(game).map_err(fault)? else {
                continue;
            };
            return match variant {
                Variant::Gladiator | Variant::Brawl => Ok(Family::Gladiator),
                Variant::Apocalypse | Variant::ApocalypseClassic => Ok(Family::Apocalypse),
                Variant::Pagan => Ok(Family::Pagan),
            };
        }
    }
    Err(TuneError::NoPositions)
}

/// Reads every PGN file.
fn read(args: &TuneArgs) -> Result<Vec<(PathBuf, String)>, TuneError> {
    let mut texts = Vec::new();
    for path in &args.pgn {
        let io = |e| TuneError::Io(path.clone(), e);
        let size = std::fs::metadata(path).map_err(io)?.len();
        if size > MAX_PGN_BYTES {
            return Err(TuneError::TooBig(path.clone(), size));
        }
        texts.push((path.clone(), std::fs::read_to_string(path).map_err(io)?));
    }
    Ok(texts)
}

fn fit<P: Tunable>(
    args: &TuneArgs,
    texts: &[(PathBuf, String)],
    out: &mut String,
) -> Result<(), TuneError> {
    let mut data = load::<P>(args, texts, out)?;
    let set = data.weight_set.ok_or(TuneError::NoPositions)?;
    let start = P::current(set);
    let k = fit_start(&data, &start, out);
    // z: how many standard errors the error's gradient at the current weights is from 0.
    let z0 = gradient(&data.fit, &start, k).1;
    let w = rounds(args, &mut data, &start, k, out);
    let _ = writeln!(
        out,
        "{:<18} {:>8} {:>8} {:>8}",
        "weight", "now", "fitted", "z now"
    );
    for (i, name) in P::NAMES.iter().enumerate() {
        let _ = writeln!(out, "{name:<18} {:>8} {:>8} {:>8.2}", start[i], w[i], z0[i]);
    }
    let _ = writeln!(out, "{}", P::show(set, &w));
    Ok(())
}

/// Reads the games' positions, and says how many there are.
fn load<P: Tunable>(
    args: &TuneArgs,
    texts: &[(PathBuf, String)],
    out: &mut String,
) -> Result<Data<P>, TuneError> {
    let mut data = Data::<P>::default();
    for (path, text) in texts {
        data.read(text, args.skip_plies, path)?;
    }
    if data.fit.is_empty() {
        return Err(TuneError::NoPositions);
    }
    let _ = writeln!(
        out,
        "{} games ({} repeats left out): {} quiet positions to fit, {} held out (a tenth of \
         the openings)",
        data.games,
        data.repeats,
        data.fit.len(),
        data.held.len()
    );
    Ok(data)
}

/// Fits `K` to the current weights, and prints the error there (and at the search's own `K`,
/// if the variant has one).
fn fit_start<P: Tunable>(data: &Data<P>, start: &[i32], out: &mut String) -> f64 {
    let k = fit_k(&data.fit, start);
    let _ = writeln!(
        out,
        "K = {k:.4}; error with the current weights: fit {:.6}, held out {:.6}",
        error(&data.fit, start, k),
        error(&data.held, start, k)
    );
    if let Some(search_k) = P::SEARCH_K {
        let _ = writeln!(
            out,
            "the search reads evaluations at K = {search_k}: error there fit {:.6}, held out {:.6}",
            error(&data.fit, start, search_k),
            error(&data.held, start, search_k)
        );
    }
    k
}

/// The rounds of the fit from `start`: each refits `K` (after the first), frees the weights
/// whose gradient is sure enough, and line-searches them. Returns the fitted weights.
fn rounds<P: Tunable>(
    args: &TuneArgs,
    data: &mut Data<P>,
    start: &[i32],
    mut k: f64,
    out: &mut String,
) -> Vec<i32> {
    let ranges: Vec<_> = (0..start.len()).map(P::range).collect();
    let mut w = start.to_vec();
    for round in 1..=args.rounds {
        if round > 1 {
            for s in data.fit.iter_mut().chain(data.held.iter_mut()) {
                let linear = s.position.terms(&w);
                (s.fixed, s.terms, s.divisor) = (linear.fixed, linear.terms, linear.divisor);
            }
            k = fit_k(&data.fit, &w);
        }
        let z = gradient(&data.fit, &w, k).1;
        let free: Vec<bool> = z
            .iter()
            .zip(&ranges)
            .map(|(z, r)| z.abs() >= args.min_z && r.start() < r.end())
            .collect();
        let search = Search {
            samples: &data.fit,
            centre: start,
            ranges: &ranges,
            radius: args.radius,
            lambda: args.lambda,
            k,
        };
        search.line_search(&mut w, &free);
        let _ = writeln!(
            out,
            "round {round}: K = {k:.4}, {} weights free, error fit {:.6}, held out {:.6}",
            free.iter().filter(|&&f| f).count(),
            error(&data.fit, &w, k),
            error(&data.held, &w, k)
        );
    }
    w
}

#[cfg(test)]
mod tests;
