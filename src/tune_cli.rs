//! `quill tune`: fits the Gladiator/Brawl evaluation's weights to the results of games
//! (Texel's method).
//!
//! Every quiet position of the games (no capture for the side to move, past the opening
//! plies) is labelled with the game's result for the side to move (1, ½, 0). The evaluation
//! `e` under weights `w` predicts that result as `σ(K·e/400)`, `σ(x) = 1/(1+e^−x)`; the error
//! is the mean squared difference. First `K` is fitted to the current weights (golden-section
//! search), then the weights by local search (each weight ±step while the error falls, steps
//! 8, 4, 2, 1, within `--radius` of the current weights), with `K` fixed; later rounds refit
//! `K` first. The evaluation is linear in its weights
//! ([`Position::eval_terms`]), so each position's terms are computed once per round; a round
//! recomputes them, since which supporter powers a pawn best depends on the weights. A tenth of
//! the games (every tenth) is held out and its error printed, to show whether the fit
//! generalises.
//!
//! The PGN is the one `quill match --pgn` writes: `[Variant]`, `[FEN]` and `[Result]` headers
//! and each turn as a comment after its move number (`3. {f2g4,f1c1} 3... {b6b3,d8h5}`).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use quill::notation::parse_move;
use quill::search::Searchable;
use quill::variants::gladiator::{Position, Rules};
use quill::variants::gladiator_play::{EVAL_TERMS, EvalWeights, WEIGHTS};

/// The most positions kept (each costs about 60 bytes).
const MAX_POSITIONS: usize = 4_000_000;
/// The most bytes of PGN read from one file.
const MAX_PGN_BYTES: u64 = 1 << 30;
/// The most rounds (term extraction, then local search).
const MAX_ROUNDS: u32 = 10;
/// Local-search passes over the weights per step size, at most.
const MAX_PASSES: usize = 200;

/// `quill tune`: fit the Gladiator/Brawl evaluation's weights to games' results.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// PGN files written by `quill match --pgn` (Gladiator or Brawl games).
    #[arg(required = true, value_name = "PGN")]
    pgn: Vec<PathBuf>,

    /// Plies from each game's start whose positions are left out (the random opening).
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
}

/// One labelled position: its terms, its pawn difference and the result for the side to move.
struct Sample {
    position: Position,
    terms: [i32; EVAL_TERMS],
    pawns: i32,
    result: f64,
}

/// Reads the games of one PGN text into labelled quiet positions, every tenth game into
/// `held`, the others into `fit`.
fn read_games(
    text: &str,
    skip: u32,
    fit: &mut Vec<Sample>,
    held: &mut Vec<Sample>,
    games: &mut usize,
) -> Result<(), String> {
    for (index, game) in text.split("\n[Event ").enumerate() {
        let header = |name: &str| {
            let key = format!("[{name} \"");
            game.lines()
                .find_map(|l| l.strip_prefix(&key))
                .and_then(|l| l.strip_suffix("\"]"))
        };
        let rules = match header("Variant") {
            Some("gladiator") => Rules::Gladiator,
            Some("brawl") => Rules::Brawl,
            Some(other) => return Err(format!("game {}: variant {other} is not tuned", index + 1)),
            None if game.trim().is_empty() => continue,
            None => return Err(format!("game {}: no [Variant] header", index + 1)),
        };
        let white = match header("Result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue, // unfinished or unknown: no label
        };
        let mut position = match header("FEN") {
            Some(fen) => Position::from_fen(rules, fen)
                .map_err(|e| format!("game {}: bad FEN: {}", index + 1, e))?,
            None => Position::start(rules),
        };
        *games += 1;
        let out = if index % 10 == 9 {
            &mut *held
        } else {
            &mut *fit
        };
        let body = game.split("\n\n").skip(1).collect::<Vec<_>>().join(" ");
        let mut words = body.split_whitespace().peekable();
        let mut ply = 0;
        let mut noisy = Vec::new();
        while let Some(word) = words.next() {
            // A turn is the comment after a move number (`3.` or `3...`).
            let numbered = word.ends_with('.') && word.trim_end_matches('.').parse::<u32>().is_ok();
            if !numbered {
                continue;
            }
            let Some(token) = words
                .next()
                .and_then(|w| w.strip_prefix('{'))
                .and_then(|w| w.strip_suffix('}'))
            else {
                return Err(format!("game {}: no turn after {word}", index + 1));
            };
            position.noisy(&mut noisy);
            if ply >= skip
                && noisy.is_empty()
                && position.end().is_none()
                && out.len() < MAX_POSITIONS
            {
                let result = match position.side_to_move() {
                    quill::variant::Side::White => white,
                    quill::variant::Side::Black => 1.0 - white,
                };
                out.push(Sample {
                    terms: position.eval_terms(&WEIGHTS),
                    pawns: position.pawn_difference(),
                    position: position.clone(),
                    result,
                });
            }
            let turn = parse_move(token)
                .ok_or_else(|| format!("game {}: '{token}' is not a turn", index + 1))
                .and_then(|m| {
                    position
                        .parse_turn(&m)
                        .map_err(|e| format!("game {}: '{token}': {}", index + 1, e))
                })?;
            position = position.play(turn);
            ply += 1;
        }
    }
    Ok(())
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation of a sample under weights `w` (as [`Position::evaluate`] computes it).
fn eval(s: &Sample, w: &[i32; EVAL_TERMS], tempo: i32) -> f64 {
    let dot: i32 = s.terms.iter().zip(w).map(|(t, w)| t * w).sum();
    f64::from(100 * s.pawns + tempo + dot)
}

/// The mean squared error of the predictions `σ(K·e/400)`.
fn error(samples: &[Sample], w: &[i32; EVAL_TERMS], tempo: i32, k: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k * eval(s, w, tempo) / 400.0)).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The `K` of the smallest error, by golden-section search over [0.05, 20].
fn fit_k(samples: &[Sample], w: &[i32; EVAL_TERMS], tempo: i32) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.05f64, 20.0f64);
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(samples, w, tempo, c) < error(samples, w, tempo, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Local search: each weight ±step while the error falls, for steps 8, 4, 2, 1, each weight
/// kept within `radius` of its value in `centre`.
fn local_search(
    samples: &[Sample],
    w: &mut [i32; EVAL_TERMS],
    centre: &[i32; EVAL_TERMS],
    radius: i32,
    tempo: i32,
    k: f64,
) {
    let mut best = error(samples, w, tempo, k);
    for step in [8, 4, 2, 1] {
        for _ in 0..MAX_PASSES {
            let mut improved = false;
            for i in 0..EVAL_TERMS {
                for delta in [step, -step] {
                    let mut trial = *w;
                    trial[i] = (trial[i] + delta).clamp(centre[i] - radius, centre[i] + radius);
                    if trial[i] == w[i] {
                        continue;
                    }
                    let e = error(samples, &trial, tempo, k);
                    if e < best {
                        (best, *w) = (e, trial);
                        improved = true;
                        break;
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }
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

fn tune(args: &TuneArgs) -> Result<(), String> {
    // The report is written at the end, in one piece; a closed stdout (`| head`) is no error.
    let mut out = String::new();
    let report = fit(args, &mut out);
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    report
}

fn fit(args: &TuneArgs, out: &mut String) -> Result<(), String> {
    let (mut fit, mut held, mut games) = (Vec::new(), Vec::new(), 0);
    for path in &args.pgn {
        let size = std::fs::metadata(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len();
        if size > MAX_PGN_BYTES {
            return Err(format!(
                "{}: {size} bytes, more than the {MAX_PGN_BYTES} read",
                path.display()
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        read_games(&text, args.skip_plies, &mut fit, &mut held, &mut games)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if fit.is_empty() {
        return Err("no quiet positions with a result in the games".to_owned());
    }
    let _ = writeln!(
        out,
        "{games} games: {} quiet positions to fit, {} held out (every tenth game)",
        fit.len(),
        held.len()
    );
    let tempo = WEIGHTS.tempo;
    let start = WEIGHTS.to_array();
    let mut k = fit_k(&fit, &start, tempo);
    let _ = writeln!(
        out,
        "K = {k:.4}; error with the current weights: fit {:.6}, held out {:.6}",
        error(&fit, &start, tempo, k),
        error(&held, &start, tempo, k)
    );
    let mut w = start;
    for round in 1..=args.rounds {
        if round > 1 {
            let weights = EvalWeights::from_array(w, tempo);
            for s in fit.iter_mut().chain(held.iter_mut()) {
                s.terms = s.position.eval_terms(&weights);
            }
            k = fit_k(&fit, &w, tempo);
        }
        local_search(&fit, &mut w, &start, args.radius, tempo, k);
        let _ = writeln!(
            out,
            "round {round}: K = {k:.4}, error fit {:.6}, held out {:.6}",
            error(&fit, &w, tempo, k),
            error(&held, &w, tempo, k)
        );
    }
    let _ = writeln!(out, "{:<14} {:>8} {:>8}", "weight", "now", "fitted");
    for (i, name) in EvalWeights::NAMES.iter().enumerate() {
        let _ = writeln!(out, "{name:<14} {:>8} {:>8}", start[i], w[i]);
    }
    let _ = writeln!(out, "{:#?}", EvalWeights::from_array(w, tempo));
    Ok(())
}
