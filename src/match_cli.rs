//! The command lines of `quill match` and `quill merge`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use quill::referee::game::Adjudication;
use quill::referee::seat::{Seat, SeatError, parse_seat, split_words};
use quill::referee::stats::{Decision, Sprt, Summary, merge};
use quill::referee::{self, MatchConfig};
use quill::variant::Variant;

/// `quill match`: games between two seats, refereed with Quill's rules.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// A seat, as one argument of words: `'cmd=COMMAND [name=N] [proto=uci|cecp]
    /// [option.NAME=VALUE]… [tc=[MOVES/]SECS[+INC]] [st=SECS] [depth=N] [nodes=N] [dir=DIR]'`, or
    /// `'human [name=N]'`; quote a value with spaces (`cmd="./quill --log q.log"`). Give it
    /// twice: seat A, then seat B. A plays White in even-numbered games (0, 2, …), B in odd ones.
    #[arg(long, required = true, value_name = "WORDS")]
    engine: Vec<String>,

    /// Seat words given to both seats (before their own words).
    #[arg(long, value_name = "WORDS")]
    each: Option<String>,

    /// The variant.
    #[arg(long, default_value = Variant::DEFAULT.name(), value_parser = super::parse_variant)]
    variant: Variant,

    /// Games to play (pairs of games share an opening, colours swapped).
    #[arg(long, default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(referee::MAX_GAMES)))]
    games: u32,

    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = parse_concurrency)]
    concurrency: usize,

    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Random turns from the start position that make each pair's opening (0: the start
    /// position itself). Default: 2, or 0 when a person plays.
    #[arg(long,
          value_parser = clap::value_parser!(u32).range(..=i64::from(referee::MAX_OPENING_TURNS)))]
    opening_turns: Option<u32>,

    /// A file of opening FENs, one a line, used in turn (one per pair) instead of random turns.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,

    /// Turns after which a game is drawn.
    #[arg(long, default_value_t = 300,
          value_parser = clap::value_parser!(u32).range(..=i64::from(referee::MAX_TURNS)))]
    max_turns: u32,

    /// A position (move counters aside) seen this many times draws the game (0: never).
    #[arg(long, default_value_t = 3)]
    repetitions: u32,

    /// `CP:N`: a player scoring -CP or worse for N of its moves in a row loses.
    #[arg(long, value_name = "CP:N", value_parser = parse_resign)]
    resign: Option<(i32, u32)>,

    /// `AFTER:CP:N`: from turn AFTER, both scores within CP of 0 for N turns draws.
    #[arg(long, value_name = "AFTER:CP:N", value_parser = parse_draw)]
    draw: Option<(u32, i32, u32)>,

    /// Milliseconds an engine may overstep its clock before it loses on time (with `st=`, at
    /// least half the time per move).
    #[arg(long, default_value_t = 500,
          value_parser = clap::value_parser!(u64).range(..=referee::MAX_MARGIN_MS))]
    margin_ms: u64,

    /// Seconds an engine with only a depth or node limit may think on a move.
    #[arg(long, default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=referee::MAX_MOVE_TIMEOUT))]
    move_timeout: u64,

    /// The results file (append-only; one line per finished game).
    #[arg(long, default_value = "match-results.txt")]
    results: PathBuf,

    /// Write the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,

    /// Continue the match whose results file is given (after a crash or a kill).
    #[arg(long)]
    resume: bool,

    /// `ELO0:ELO1:ALPHA:BETA`: stop as soon as this SPRT decides.
    #[arg(long, value_name = "ELO0:ELO1:ALPHA:BETA", value_parser = parse_sprt)]
    sprt: Option<Sprt>,

    /// Write each game's dialogue to DIR/game-N.log.
    #[arg(long, value_name = "DIR")]
    log_dir: Option<PathBuf>,

    /// `I/N`: play only shard I of N (the pairs P with P mod N = I), for splitting a match
    /// over machines; `quill merge` joins the results files.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, default_value = "0/1")]
    shard: (u32, u32),
}

/// `quill merge`: one summary from the results files of a match's shards.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Results files written by `quill match`.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Write the merged records to this results file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Whose point of view the summary takes (default: White of the first game).
    #[arg(long, value_name = "NAME")]
    engine: Option<String>,

    /// `ELO0:ELO1:ALPHA:BETA`: evaluate this SPRT on the merged games.
    #[arg(long, value_name = "ELO0:ELO1:ALPHA:BETA", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
}

/// Why an option's value of `quill match` or `quill merge` is refused.
#[derive(Debug)]
enum ArgError {
    /// Not the `what` (`CP:N`, …) of numbers the option wants.
    NotNumbers { text: String, what: &'static str },
    /// A concurrency outside `1..=MAX_CONCURRENCY`.
    Concurrency(String),
    /// A number too large for its field.
    Range(std::num::TryFromIntError),
    /// SPRT parameters out of their ranges.
    Sprt(String),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::NotNumbers { text, what } => write!(f, "'{text}' is not {what}"),
            ArgError::Concurrency(text) => write!(
                f,
                "'{text}' is not a number of games from 1 to {}",
                referee::MAX_CONCURRENCY
            ),
            ArgError::Range(e) => write!(f, "{e}"),
            ArgError::Sprt(text) => write!(
                f,
                "'{text}': want -2000 <= ELO0 < ELO1 <= 2000 and 0 < ALPHA, BETA < 0.5"
            ),
        }
    }
}

impl std::error::Error for ArgError {}

/// Why `quill match`'s command line makes no match.
#[derive(Debug)]
enum CliError {
    /// `--engine` given other than twice.
    EngineCount(usize),
    /// A seat's words.
    Seat(SeatError),
    /// The openings file.
    Openings(referee::MatchError),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::EngineCount(n) => {
                write!(f, "give --engine twice (seat A, then seat B); got {n}")
            }
            CliError::Seat(e) => write!(f, "{e}"),
            CliError::Openings(e) => write!(f, "{e}"),
        }
    }
}

fn numbers<T: std::str::FromStr>(
    text: &str,
    n: usize,
    what: &'static str,
) -> Result<Vec<T>, ArgError> {
    let parts: Vec<&str> = text.split([':', '/']).collect();
    let parsed: Option<Vec<T>> = parts.iter().map(|p| p.parse().ok()).collect();
    parsed
        .filter(|v| v.len() == n)
        .ok_or_else(|| ArgError::NotNumbers {
            text: text.to_owned(),
            what,
        })
}

fn parse_concurrency(text: &str) -> Result<usize, ArgError> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=referee::MAX_CONCURRENCY).contains(n))
        .ok_or_else(|| ArgError::Concurrency(text.to_owned()))
}

fn parse_resign(text: &str) -> Result<(i32, u32), ArgError> {
    let v: Vec<u32> = numbers(text, 2, "CP:N")?;
    Ok((i32::try_from(v[0]).map_err(ArgError::Range)?, v[1]))
}

fn parse_draw(text: &str) -> Result<(u32, i32, u32), ArgError> {
    let v: Vec<u32> = numbers(text, 3, "AFTER:CP:N")?;
    Ok((v[0], i32::try_from(v[1]).map_err(ArgError::Range)?, v[2]))
}

fn parse_shard(text: &str) -> Result<(u32, u32), ArgError> {
    let v: Vec<u32> = numbers(text, 2, "I/N")?;
    Ok((v[0], v[1]))
}

fn parse_sprt(text: &str) -> Result<Sprt, ArgError> {
    let v: Vec<f64> = numbers(text, 4, "ELO0:ELO1:ALPHA:BETA")?;
    let ok = v.iter().all(|x| x.is_finite())
        && v[0].abs() <= 2000.0
        && v[1].abs() <= 2000.0
        && v[0] < v[1]
        && (0.0..0.5).contains(&v[2])
        && (0.0..0.5).contains(&v[3])
        && v[2] > 0.0
        && v[3] > 0.0;
    if !ok {
        return Err(ArgError::Sprt(text.to_owned()));
    }
    Ok(Sprt {
        elo0: v[0],
        elo1: v[1],
        alpha: v[2],
        beta: v[3],
    })
}

fn config(args: &MatchArgs) -> Result<MatchConfig, CliError> {
    if args.engine.len() != 2 {
        return Err(CliError::EngineCount(args.engine.len()));
    }
    let each = split_words(args.each.as_deref().unwrap_or("")).map_err(CliError::Seat)?;
    let seat = |words: &str, name| {
        parse_seat(&split_words(words).map_err(CliError::Seat)?, &each, name)
            .map_err(CliError::Seat)
    };
    let a = seat(&args.engine[0], "engine1")?;
    let b = seat(&args.engine[1], "engine2")?;
    let openings = match &args.openings {
        Some(path) => Some(referee::read_openings(path, args.variant).map_err(CliError::Openings)?),
        None => None,
    };
    Ok(MatchConfig {
        variant: args.variant,
        seats: [a.clone(), b.clone()],
        games: args.games,
        concurrency: args.concurrency,
        seed: args.seed,
        // A person meets the start position (the README's moves are its moves) unless an
        // opening is asked for; engines get two random turns, for variety.
        opening_turns: args.opening_turns.unwrap_or(
            if [&a, &b].iter().any(|s| matches!(s, Seat::Human { .. })) {
                0
            } else {
                2
            },
        ),
        openings,
        adjudication: Adjudication {
            max_turns: args.max_turns,
            repetitions: args.repetitions,
            resign: args.resign,
            draw: args.draw,
        },
        margin: Duration::from_millis(args.margin_ms),
        move_timeout: Duration::from_secs(args.move_timeout),
        results: args.results.clone(),
        pgn: args.pgn.clone(),
        resume: args.resume,
        sprt: args.sprt,
        log_dir: args.log_dir.clone(),
        shard: args.shard,
    })
}

/// Runs `quill match`: exit 0 when the match ran (whatever its score), 2 on a bad command line
/// or an unusable file.
pub fn run_match(args: &MatchArgs) -> ExitCode {
    let config = match config(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("quill match: {e}");
            return ExitCode::from(2);
        }
    };
    match referee::run(&config) {
        Ok(outcome) => {
            quill::outln!("{}", outcome.summary);
            if let Some(at) = &outcome.stopped
                && let Some(t) = &at.sprt
            {
                let counted = at.games() + at.skipped;
                quill::outln!(
                    "The SPRT stopped the match after {counted} games: llr {:.2} (bounds {:.2}, \
                     {:.2}) [{:.1}, {:.1}], {}",
                    t.llr,
                    t.lower,
                    t.upper,
                    t.sprt.elo0,
                    t.sprt.elo1,
                    t.decision
                );
                let late =
                    (outcome.summary.games() + outcome.summary.skipped).saturating_sub(counted);
                if late > 0 {
                    quill::outln!(
                        "({late} games in play at the stop finished after it: they are in the \
                         results and the score above, not in the verdict)"
                    );
                }
            }
            quill::outln!("results: {}", config.results.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("quill match: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs `quill merge`.
pub fn run_merge(args: &MergeArgs) -> ExitCode {
    let records = match merge(&args.files) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("quill merge: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(first) = records.first() else {
        eprintln!("quill merge: no games in the files");
        return ExitCode::from(2);
    };
    let engine = args.engine.clone().unwrap_or_else(|| first.white.clone());
    if let Some(out) = &args.out {
        let written = referee::results::ResultsFile::create(out, "merged")
            .and_then(|mut f| records.iter().try_for_each(|r| f.append(r)));
        if let Err(e) = written {
            eprintln!("quill merge: {e}");
            return ExitCode::from(2);
        }
    }
    let summary = Summary::new(&records, &engine, args.sprt);
    quill::outln!("{summary}");
    if summary
        .sprt
        .is_some_and(|t| t.decision == Decision::Continue)
    {
        quill::outln!("(the SPRT has not decided yet)");
    }
    ExitCode::SUCCESS
}
