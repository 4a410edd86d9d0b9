//! `quill tune`: fits the Gladiator/Brawl evaluation's weights to the results of games
//! (Texel's method).
//!
//! Every quiet position of the games (no capture for the side to move, past the opening
//! plies) is labelled with the game's result for the side to move (1, ½, 0). The evaluation
//! `e` under weights `w` predicts that result as `σ(K·e/400)`, `σ(x) = 1/(1+e^−x)`; the error
//! is the mean squared difference. First `K` is fitted to the current weights (golden-section
//! search). Then, with `K` fixed, each round:
//!
//! - measures the error's gradient for every weight and how sure it is: the gradient summed per
//!   game, its mean over the games divided by its standard error (`z`). Only weights with
//!   `|z| ≥ --min-z` move: a weight whose gradient the games do not agree on is noise to fit;
//! - moves each such weight to the best integer within `--radius` of its current value (a line
//!   search per weight, repeated over the weights until none moves), minimising the error plus
//!   `--lambda·Σ((w − w₀)/100)²`, a pull toward the current weights `w₀`.
//!
//! Later rounds refit `K` first. The evaluation is linear in its weights
//! ([`Position::eval_terms`]), so each position's terms are computed once per round; a round
//! recomputes them, since which supporter powers a pawn best depends on the weights.
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

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use clap::Args;

use quill::board::FenError;
use quill::notation::parse_move;
use quill::rules::Refusal;
use quill::search::Searchable;
use quill::variants::gladiator::{Position, Rules};
use quill::variants::gladiator_play::{EVAL_TERMS, EvalWeights, WEIGHTS};

/// The most positions kept (each costs about 60 bytes).
const MAX_POSITIONS: usize = 4_000_000;
/// The most bytes of PGN read from one file.
const MAX_PGN_BYTES: u64 = 1 << 30;
/// The most rounds (term extraction, then local search).
const MAX_ROUNDS: u32 = 10;
/// Sweeps of the line search over the weights per round, at most.
const MAX_SWEEPS: usize = 50;

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
fn bounded(text: &str, max: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=max).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to {max}")),
    }
}

fn parse_lambda(text: &str) -> Result<f64, String> {
    bounded(text, 1.0)
}

fn parse_min_z(text: &str) -> Result<f64, String> {
    bounded(text, 100.0)
}

/// Why `quill tune` cannot fit.
#[derive(Debug)]
enum TuneError {
    /// A PGN file cannot be read.
    Io(PathBuf, std::io::Error),
    /// A PGN file larger than [`MAX_PGN_BYTES`].
    TooBig(PathBuf, u64),
    /// A game of a PGN file (numbered from 1) cannot be replayed.
    Game(PathBuf, usize, GameFault),
    /// No position to fit.
    NoPositions,
}

impl std::fmt::Display for TuneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            TuneError::TooBig(path, size) => write!(
                f,
                "{}: {size} bytes, more than the {MAX_PGN_BYTES} read",
                path.display()
            ),
            TuneError::Game(path, game, fault) => {
                write!(f, "{}: game {game}: {fault}", path.display())
            }
            TuneError::NoPositions => f.write_str("no quiet positions with a result in the games"),
        }
    }
}

/// What is wrong with one game of a PGN file.
#[derive(Debug)]
enum GameFault {
    /// A variant other than Gladiator and Brawl.
    Variant(String),
    /// No `[Variant]` header.
    NoVariant,
    /// A `[FEN]` that is not a position.
    Fen(FenError),
    /// A move number without a turn after it.
    NoTurn(String),
    /// A turn that is not wire notation.
    NotATurn(String),
    /// A turn the position refuses.
    Refused(String, Refusal),
}

impl std::fmt::Display for GameFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameFault::Variant(v) => write!(f, "variant {v} is not tuned"),
            GameFault::NoVariant => f.write_str("no [Variant] header"),
            GameFault::Fen(e) => write!(f, "bad FEN: {e}"),
            GameFault::NoTurn(word) => write!(f, "no turn after {word}"),
            GameFault::NotATurn(token) => write!(f, "'{token}' is not a turn"),
            GameFault::Refused(token, e) => write!(f, "'{token}': {e}"),
        }
    }
}

/// One labelled position: its game (index into the games read), its terms, its pawn
/// difference and the result for the side to move.
struct Sample {
    game: usize,
    position: Position,
    terms: [i32; EVAL_TERMS],
    pawns: i32,
    result: f64,
}

/// The positions read, split into those to fit and those held out.
#[derive(Default)]
struct Data {
    fit: Vec<Sample>,
    held: Vec<Sample>,
    /// Games read (each distinct game once).
    games: usize,
    /// Games left out as repeats of one read before.
    repeats: usize,
    /// The hashes of the games read, to find repeats.
    seen: HashSet<u64>,
}

fn hash_of(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// A game's `[name "value"]` header.
fn header<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("[{name} \"");
    game.lines()
        .find_map(|l| l.strip_prefix(&key))
        .and_then(|l| l.strip_suffix("\"]"))
}

impl Data {
    /// Reads the games of one PGN text into labelled quiet positions.
    fn read(&mut self, text: &str, skip: u32, path: &std::path::Path) -> Result<(), TuneError> {
        for (index, game) in text.split("\n[Event ").enumerate() {
            self.read_game(game, skip)
                .map_err(|fault| TuneError::Game(path.to_owned(), index + 1, fault))?;
        }
        Ok(())
    }

    /// Reads one game (a repeat of a game read before is counted and skipped).
    fn read_game(&mut self, game: &str, skip: u32) -> Result<(), GameFault> {
        let rules = match header(game, "Variant") {
            Some("gladiator") => Rules::Gladiator,
            Some("brawl") => Rules::Brawl,
            Some(other) => return Err(GameFault::Variant(other.to_owned())),
            None if game.trim().is_empty() => return Ok(()),
            None => return Err(GameFault::NoVariant),
        };
        let white = match header(game, "Result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => return Ok(()), // unfinished or unknown: no label
        };
        let fen = header(game, "FEN");
        let position = match fen {
            Some(fen) => Position::from_fen(rules, fen).map_err(GameFault::Fen)?,
            None => Position::start(rules),
        };
        let body = game.split("\n\n").skip(1).collect::<Vec<_>>().join(" ");
        let moves = body.split_whitespace().collect::<Vec<_>>().join(" ");
        if !self
            .seen
            .insert(hash_of(&format!("{rules:?} {fen:?} {moves}")))
        {
            self.repeats += 1;
            return Ok(());
        }
        let held = hash_of(&format!("{rules:?} {fen:?}")) % 10 == 9;
        let out = if held { &mut self.held } else { &mut self.fit };
        replay(position, &moves, skip, white, self.games, out)?;
        self.games += 1;
        Ok(())
    }
}

/// Replays a game's moves from `position`, keeping its quiet positions past `skip` plies
/// labelled with White's result `white`.
fn replay(
    mut position: Position,
    moves: &str,
    skip: u32,
    white: f64,
    game: usize,
    out: &mut Vec<Sample>,
) -> Result<(), GameFault> {
    let mut words = moves.split_whitespace();
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
            return Err(GameFault::NoTurn(word.to_owned()));
        };
        position.noisy(&mut noisy);
        if ply >= skip && noisy.is_empty() && position.end().is_none() && out.len() < MAX_POSITIONS
        {
            let result = match position.side_to_move() {
                quill::variant::Side::White => white,
                quill::variant::Side::Black => 1.0 - white,
            };
            out.push(Sample {
                game,
                terms: position.eval_terms(&WEIGHTS),
                pawns: position.pawn_difference(),
                position: position.clone(),
                result,
            });
        }
        let wire = parse_move(token).ok_or_else(|| GameFault::NotATurn(token.to_owned()))?;
        let turn = position
            .parse_turn(&wire)
            .map_err(|e| GameFault::Refused(token.to_owned(), e))?;
        position = position.play(turn);
        ply += 1;
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

/// The pull toward the current weights: `λ·Σ((w − w₀)/100)²`.
fn penalty(w: &[i32; EVAL_TERMS], centre: &[i32; EVAL_TERMS], lambda: f64) -> f64 {
    let sum: f64 = w
        .iter()
        .zip(centre)
        .map(|(a, b)| (f64::from(a - b) / 100.0).powi(2))
        .sum();
    lambda * sum
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

/// For each weight, the error's gradient (per centipawn) and its `z`: the per-game sums of
/// the gradient, their mean over the games divided by its standard error. Games count
/// alike, whatever their length, so that a long game's many similar positions do not pass for
/// many independent witnesses.
fn gradient(
    samples: &[Sample],
    w: &[i32; EVAL_TERMS],
    tempo: i32,
    k: f64,
) -> ([f64; EVAL_TERMS], [f64; EVAL_TERMS]) {
    let mut per_game: Vec<(usize, [f64; EVAL_TERMS])> = Vec::new();
    let mut total = [0.0; EVAL_TERMS];
    for s in samples {
        let p = sigmoid(k * eval(s, w, tempo) / 400.0);
        let d = 2.0 * (p - s.result) * p * (1.0 - p) * k / 400.0;
        if per_game.last().is_none_or(|(g, _)| *g != s.game) {
            per_game.push((s.game, [0.0; EVAL_TERMS]));
        }
        let (_, g) = per_game.last_mut().expect("pushed above");
        for i in 0..EVAL_TERMS {
            let term = d * f64::from(s.terms[i]);
            g[i] += term;
            total[i] += term;
        }
    }
    let n = samples.len().max(1) as f64;
    let grad = total.map(|t| t / n);
    let games = per_game.len() as f64;
    let mut z = [0.0; EVAL_TERMS];
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
struct Search<'a> {
    samples: &'a [Sample],
    centre: &'a [i32; EVAL_TERMS],
    radius: i32,
    lambda: f64,
    tempo: i32,
    k: f64,
}

impl Search<'_> {
    /// The objective: the error plus the pull toward the centre.
    fn objective(&self, w: &[i32; EVAL_TERMS]) -> f64 {
        error(self.samples, w, self.tempo, self.k) + penalty(w, self.centre, self.lambda)
    }

    /// Moves each weight in `free` to the integer within `radius` of the centre that
    /// minimises the objective, the others held, over and over until no weight moves.
    fn line_search(&self, w: &mut [i32; EVAL_TERMS], free: &[bool; EVAL_TERMS]) {
        for _ in 0..MAX_SWEEPS {
            let mut moved = false;
            for i in (0..EVAL_TERMS).filter(|&i| free[i]) {
                let mut best = (self.objective(w), w[i]);
                let mut trial = *w;
                for v in self.centre[i] - self.radius..=self.centre[i] + self.radius {
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
    // The report is written at the end, in one piece; a closed stdout (`| head`) is no error.
    let mut out = String::new();
    let report = read(args).and_then(|data| fit(args, data, &mut out));
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    report
}

/// Reads every PGN file.
fn read(args: &TuneArgs) -> Result<Data, TuneError> {
    let mut data = Data::default();
    for path in &args.pgn {
        let io = |e| TuneError::Io(path.clone(), e);
        let size = std::fs::metadata(path).map_err(io)?.len();
        if size > MAX_PGN_BYTES {
            return Err(TuneError::TooBig(path.clone(), size));
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        data.read(&text, args.skip_plies, path)?;
    }
    if data.fit.is_empty() {
        return Err(TuneError::NoPositions);
    }
    Ok(data)
}

fn fit(args: &TuneArgs, mut data: Data, out: &mut String) -> Result<(), TuneError> {
    let _ = writeln!(
        out,
        "{} games ({} repeats left out): {} quiet positions to fit, {} held out (a tenth of \
         the openings)",
        data.games,
        data.repeats,
        data.fit.len(),
        data.held.len()
    );
    let tempo = WEIGHTS.tempo;
    let start = WEIGHTS.to_array();
    let mut k = fit_k(&data.fit, &start, tempo);
    let _ = writeln!(
        out,
        "K = {k:.4}; error with the current weights: fit {:.6}, held out {:.6}",
        error(&data.fit, &start, tempo, k),
        error(&data.held, &start, tempo, k)
    );
    let mut w = start;
    let z0 = gradient(&data.fit, &start, tempo, k).1;
    for round in 1..=args.rounds {
        if round > 1 {
            let weights = EvalWeights::from_array(w, tempo);
            for s in data.fit.iter_mut().chain(data.held.iter_mut()) {
                s.terms = s.position.eval_terms(&weights);
            }
            k = fit_k(&data.fit, &w, tempo);
        }
        let z = gradient(&data.fit, &w, tempo, k).1;
        let free = z.map(|z| z.abs() >= args.min_z);
        let search = Search {
            samples: &data.fit,
            centre: &start,
            radius: args.radius,
            lambda: args.lambda,
            tempo,
            k,
        };
        search.line_search(&mut w, &free);
        let _ = writeln!(
            out,
            "round {round}: K = {k:.4}, {} weights free, error fit {:.6}, held out {:.6}",
            free.iter().filter(|&&f| f).count(),
            error(&data.fit, &w, tempo, k),
            error(&data.held, &w, tempo, k)
        );
    }
    // z: how many standard errors the error's gradient at the current weights is from 0.
    let _ = writeln!(
        out,
        "{:<14} {:>8} {:>8} {:>8}",
        "weight", "now", "fitted", "z now"
    );
    for (i, name) in EvalWeights::NAMES.iter().enumerate() {
        let _ = writeln!(out, "{name:<14} {:>8} {:>8} {:>8.2}", start[i], w[i], z0[i]);
    }
    let _ = writeln!(out, "{:#?}", EvalWeights::from_array(w, tempo));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of `quill match --pgn` (Gladiator, 27 plies), with its round number.
    fn game(round: u32, result: &str) -> String {
        format!(
            "[Event \"quill match gladiator\"]\n[Round \"{round}\"]\n[Result \"{result}\"]\n\
             [Variant \"gladiator\"]\n[SetUp \"1\"]\n\
             [FEN \"r1bqkb1r/2pp1pp1/1p1p2p1/n1Pp3Q/7R/1P2P1P1/1P1PP1P1/RNBnKBN1 w - - 0 4\"]\n\n\
             4. {{b2g7}} 4... {{f7g7,d8g8}} 5. {{e3d5,h5a2}} 5... {{d6g3,g8h2}} 6. {{b3g3,a2a3}}\n\
             6... {{g6f6,h2d8}} 7. {{c5b6,a3a2}} 7... {{c7b6,a8h3}} 8. {{d2g5,a1h5}} 8... {{g7g5}}\n\
             9. {{g3g5,b1a8}} 9... {{f6g5,d1a4}} 10. {{d5g5,g1d1}} 10... {{b6b4,d8a3}}\n\
             11. {{g2e4,a2b1}} 11... {{b4b3,a3a2}} 12. {{g5f5,h4h7}} 12... {{b3b6,a2a7}}\n\
             13. {{e2d2,h5h6}} 13... {{d7f5}} 14. {{e4f5}} 14... {{b6b3,a7a2}} 15. {{f5d5,b1g8}}\n\
             15... {{b3g3,a2h2}} 16. {{d2g2,h7h1}} 16... {{g3g2}} 17. {{d5g2}}\n\
             {{Black has no pawns left}} {result}\n\n"
        )
    }

    fn read_text(text: &str, skip: u32) -> Data {
        let mut data = Data::default();
        data.read(text, skip, std::path::Path::new("t.pgn"))
            .expect("the games replay");
        data
    }

    #[test]
    fn a_repeated_game_is_read_once() {
        let once = read_text(&game(1, "1-0"), 0);
        assert_eq!((once.games, once.repeats), (1, 0));
        let twice = read_text(&(game(1, "1-0") + &game(2, "1-0")), 0);
        assert_eq!((twice.games, twice.repeats), (1, 1));
        assert_eq!(
            twice.fit.len() + twice.held.len(),
            once.fit.len() + once.held.len()
        );
        // The same moves with another result are another game, and share the opening's side
        // of the split.
        let other = read_text(&(game(1, "1-0") + &game(2, "0-1")), 0);
        assert_eq!((other.games, other.repeats), (2, 0));
        assert!(other.fit.is_empty() || other.held.is_empty());
        // 27 plies, some of them captures: fewer positions than plies, and none when the
        // opening plies skipped cover the game.
        let n = once.fit.len() + once.held.len();
        assert!(n > 0 && n < 27, "{n}");
        let skipped = read_text(&game(1, "1-0"), 27);
        assert_eq!(skipped.fit.len() + skipped.held.len(), 0);
    }

    #[test]
    fn labels_are_for_the_side_to_move() {
        let data = read_text(&game(1, "1-0"), 0);
        for s in data.fit.iter().chain(&data.held) {
            let white = s.position.side_to_move() == quill::variant::Side::White;
            assert_eq!(s.result, if white { 1.0 } else { 0.0 });
        }
    }

    #[test]
    fn a_bad_game_names_its_fault() {
        let mut data = Data::default();
        let text = game(1, "1-0").replace("{b2g7}", "{b2b2}");
        let e = data
            .read(&text, 0, std::path::Path::new("t.pgn"))
            .expect_err("b2b2 is no turn");
        assert!(e.to_string().starts_with("t.pgn: game 1: 'b2b2'"), "{e}");
        let text = game(1, "1-0").replace("gladiator\"]", "pagan\"]");
        let e = Data::default()
            .read(&text, 0, std::path::Path::new("t.pgn"))
            .expect_err("pagan is not tuned");
        assert_eq!(e.to_string(), "t.pgn: game 1: variant pagan is not tuned");
    }

    /// Synthetic samples whose labels are the predictions of known weights `truth`.
    fn synthetic(truth: &[i32; EVAL_TERMS], k: f64) -> Vec<Sample> {
        let position = Position::start(Rules::Gladiator);
        let mut seed = 12345u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % 7) as i32 - 3
        };
        (0..2000)
            .map(|i| {
                let mut s = Sample {
                    game: i / 10,
                    position: position.clone(),
                    terms: [0; EVAL_TERMS].map(|_| next()),
                    pawns: next() / 2,
                    result: 0.0,
                };
                s.result = sigmoid(k * eval(&s, truth, 0) / 400.0);
                s
            })
            .collect()
    }

    #[test]
    fn the_line_search_finds_the_weights_that_made_the_labels() {
        let truth = [20, -5, 13, 0, 7, -12, 3, 9, -40, 25, -1];
        let samples = synthetic(&truth, 1.0);
        let centre = [0; EVAL_TERMS];
        let search = Search {
            samples: &samples,
            centre: &centre,
            radius: 50,
            lambda: 0.0,
            tempo: 0,
            k: 1.0,
        };
        let mut w = centre;
        search.line_search(&mut w, &[true; EVAL_TERMS]);
        assert_eq!(w, truth);
        // Held weights stay; a radius bounds the others.
        let mut w = centre;
        let mut free = [true; EVAL_TERMS];
        free[0] = false;
        let near = Search {
            radius: 10,
            ..search
        };
        near.line_search(&mut w, &free);
        assert_eq!(w[0], 0);
        assert!(w.iter().all(|v| v.abs() <= 10), "{w:?}");
        // A pull toward the centre shrinks the fit.
        let pulled = Search {
            lambda: 1.0,
            ..search
        };
        let mut w = centre;
        pulled.line_search(&mut w, &[true; EVAL_TERMS]);
        assert!(w.iter().zip(&truth).all(|(a, b)| a.abs() <= b.abs()));
        assert_ne!(w, truth);
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let truth = [20, -5, 13, 0, 7, -12, 3, 9, -40, 25, -1];
        let samples = synthetic(&truth, 2.0);
        let w = [0; EVAL_TERMS];
        let (grad, z) = gradient(&samples, &w, 0, 2.0);
        for i in 0..EVAL_TERMS {
            let (mut up, mut down) = (w, w);
            up[i] += 1;
            down[i] -= 1;
            let slope = (error(&samples, &up, 0, 2.0) - error(&samples, &down, 0, 2.0)) / 2.0;
            assert!(
                (slope - grad[i]).abs() <= 1e-3 * slope.abs().max(1e-9),
                "{i}: {slope} {}",
                grad[i]
            );
        }
        // At the weights that made the labels the gradient vanishes.
        let (at_truth, _) = gradient(&samples, &truth, 0, 2.0);
        assert!(at_truth.iter().all(|g| g.abs() < 1e-12), "{at_truth:?}");
        // Far from them, strong weights are sure of their direction.
        assert!(z[8] > 5.0 && z[0] < -5.0, "{z:?}");
    }
}
