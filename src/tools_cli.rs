//! The small tools of the `quill` command: `replay`, `perft`, `verify`, `bench` and
//! `exploit`, each with its arguments and its `run_*` function.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

#[cfg(feature = "transcript")]
use quill::transcript::{self, External, InProcess, Options, Transport};

/// A search depth of at most the search's `MAX_PLY`.
fn depth_parser() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=quill::search::MAX_PLY as i64)
}

/// Text that is no positive number of seconds up to a day.
#[cfg(feature = "transcript")]
#[derive(Debug)]
pub(crate) struct BadSeconds(String);

#[cfg(feature = "transcript")]
impl std::fmt::Display for BadSeconds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is not a positive number of seconds up to 86400",
            self.0
        )
    }
}

#[cfg(feature = "transcript")]
impl std::error::Error for BadSeconds {}

/// Positive seconds, at most a day.
///
/// # Errors
/// [`BadSeconds`] for anything else.
#[cfg(feature = "transcript")]
fn parse_seconds(text: &str) -> Result<Duration, BadSeconds> {
    text.parse::<f64>()
        .ok()
        .filter(|secs| secs.is_finite() && *secs > 0.0 && *secs <= 86_400.0)
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| BadSeconds(text.to_string()))
}

#[derive(Debug, Args)]
pub(crate) struct ExploitArgs {
    /// Endgame FENs to check (default: the built-in list).
    #[arg(long = "fen", value_name = "FEN")]
    fens: Vec<String>,
    /// Use the classic rules instead of the seed rules.
    #[arg(long)]
    classic: bool,
    /// Milliseconds of search per position (at most a day).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: u64,
    /// Search depth in joint turns instead of a time limit (at most the search's `MAX_PLY`).
    #[arg(long, value_parser = depth_parser())]
    depth: Option<u32>,
    /// A tablebase file or directory for the search to probe, as the `TablebasePath` option
    /// (protocol-docs/tablebase.md); the exact values the search is measured against are
    /// solved anew either way.
    #[arg(long, value_name = "PATH")]
    tablebase: Option<String>,
    /// The most reachable positions an endgame may have to be solved (default 1,000,000, at
    /// most 10,000,000: about 750 bytes each); a bigger one is named and skipped.
    #[arg(long, value_name = "N", default_value_t = quill::simsearch::endgame::DEFAULT_MAX_POSITIONS as u64,
          value_parser = clap::value_parser!(u64).range(1..=quill::simsearch::endgame::MAX_POSITIONS as u64))]
    max_positions: u64,
    /// Search without the built-in 4-piece tables, as `BuiltinTablebase` false (the bare
    /// search, or only the tables of `--tablebase`).
    #[arg(long)]
    no_builtin_tablebase: bool,
    /// Also print the exploitability of every iteration the search completed before its
    /// answer (how it falls with depth), one line each.
    #[arg(long)]
    each_depth: bool,
    /// Value play that loops forever as the tablebase does (the vanishing discount,
    /// protocol-docs/tablebase.md, step 5) before measuring.
    #[arg(long)]
    endless: bool,
}

#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// Depth of the alternating searches (at most the search's `MAX_PLY`).
    #[arg(default_value_t = 3, value_parser = depth_parser())]
    depth: u32,
}

#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// Depth in turns (at most 32: deeper counts would never finish, and their stacks
    /// would not fit).
    #[arg(value_parser = clap::value_parser!(u32).range(..=i64::from(quill::session::MAX_PERFT_DEPTH)))]
    depth: u32,

    /// The variant.
    #[arg(long, default_value = quill::variant::Variant::DEFAULT.name(), value_parser = crate::parse_variant)]
    variant: quill::variant::Variant,

    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,

    /// Turns to play first, as in `position … moves` (`a2a3|e4e3`).
    #[arg(long = "moves", value_name = "TURN", num_args = 1..)]
    moves: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// The commitment (64 hex digits), as printed before the reveal.
    commitment: String,
    /// The move, as revealed.
    r#move: String,
    /// The nonce (64 hex digits), as revealed.
    nonce: String,
}

#[cfg(feature = "transcript")]
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// Transcript files; a directory means every `*.txt` under it, recursively, sorted.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Run this command line (through `sh -c`) as the engine instead of replaying in-process.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,

    /// Seconds an expectation waits for output, for transcripts without a `# timeout:` header.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

// ---------------------------------------------------------------------------------------------
// quill replay
// ---------------------------------------------------------------------------------------------

/// Why one transcript could not be replayed.
#[cfg(feature = "transcript")]
#[derive(Debug)]
enum ReplayError {
    /// A directory named on the command line cannot be read.
    Unreadable(PathBuf, io::Error),
    /// The file is no transcript.
    Format(transcript::FormatError),
    /// The `--engine` command does not start.
    Start(String, io::Error),
    /// The engine does not do what the transcript says.
    Failed(transcript::Failure),
}

#[cfg(feature = "transcript")]
impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Unreadable(path, e) => write!(f, "{}: cannot read: {e}", path.display()),
            ReplayError::Format(e) => write!(f, "{e}"),
            ReplayError::Start(command, e) => write!(f, "cannot start `{command}`: {e}"),
            ReplayError::Failed(e) => write!(f, "{e}"),
        }
    }
}

/// The transcript files the arguments name, in order; directories expanded.
#[cfg(feature = "transcript")]
fn replay_files(args: &[PathBuf]) -> Vec<Result<PathBuf, ReplayError>> {
    let mut files = Vec::new();
    for path in args {
        if path.is_dir() {
            match transcript::find_transcripts(path) {
                Ok(found) => files.extend(found.into_iter().map(Ok)),
                Err(e) => files.push(Err(ReplayError::Unreadable(path.clone(), e))),
            }
        } else {
            files.push(Ok(path.clone()));
        }
    }
    files
}

/// Replays one file.
///
/// # Errors
/// What went wrong, as [`ReplayError`].
#[cfg(feature = "transcript")]
fn replay_one(
    path: &std::path::Path,
    engine: Option<&str>,
    options: &Options,
) -> Result<(), ReplayError> {
    let transcript = transcript::load(path).map_err(ReplayError::Format)?;
    let mut transport: Box<dyn Transport> = match engine {
        None => Box::new(InProcess::new()),
        Some(command) => Box::new(
            External::spawn(command).map_err(|e| ReplayError::Start(command.to_string(), e))?,
        ),
    };
    transcript::run_with(&transcript, transport.as_mut(), options).map_err(ReplayError::Failed)
}

#[cfg(feature = "transcript")]
pub(crate) fn run_replay(args: &ReplayArgs) -> ExitCode {
    let mut options = Options::default();
    if let Some(timeout) = args.timeout {
        options.timeout = timeout;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for file in replay_files(&args.files) {
        let (shown, result) = match file {
            Ok(path) => {
                let result = replay_one(&path, args.engine.as_deref(), &options);
                (path.display().to_string(), result)
            }
            Err(e) => (e.to_string(), Err(e)),
        };
        let written = match result {
            Ok(()) => {
                passed += 1;
                writeln!(out, "ok   - {shown}")
            }
            Err(e) => {
                failed += 1;
                let report = e.to_string();
                let indented: Vec<String> =
                    report.lines().map(|line| format!("    {line}")).collect();
                writeln!(out, "FAIL - {shown}\n{}", indented.join("\n"))
            }
        };
        if written.and_then(|()| out.flush()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

// ---------------------------------------------------------------------------------------------
// quill perft, quill verify
// ---------------------------------------------------------------------------------------------

pub(crate) fn run_perft(args: &PerftArgs) -> ExitCode {
    let mut turns = Vec::new();
    for text in &args.moves {
        match quill::notation::parse_turn(text) {
            Some(turn) => turns.push(turn),
            None => {
                eprintln!("quill perft: '{text}' is not a turn");
                return ExitCode::from(2);
            }
        }
    }
    let mut core = quill::session::Core::new();
    core.set_variant(args.variant);
    if let Err(e) = core.set_position(args.fen.as_deref(), &turns) {
        eprintln!("quill perft: {e}");
        return ExitCode::from(2);
    }
    let started = std::time::Instant::now();
    let divide = core.perft(args.depth);
    let elapsed = started.elapsed();
    for line in divide.lines() {
        quill::outln!("{line}");
    }
    let nodes = divide.total();
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        if secs > 0.0 { nodes as f64 / secs } else { 0.0 }
    );
    ExitCode::SUCCESS
}

/// Whether `text` is 64 hexadecimal digits, the form of a digest and of a nonce.
fn is_hex64(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

pub(crate) fn run_verify(args: &VerifyArgs) -> ExitCode {
    for (what, text) in [("commitment", &args.commitment), ("nonce", &args.nonce)] {
        if !is_hex64(text) {
            eprintln!(
                "quill verify: the {what} '{}' is not 64 hexadecimal digits ({} characters)",
                text.chars().take(80).collect::<String>(),
                text.chars().count()
            );
            return ExitCode::from(2);
        }
    }
    if quill::notation::parse_move(&args.r#move).is_none() {
        eprintln!("quill verify: '{}' is not a move", args.r#move);
        return ExitCode::from(2);
    }
    if quill::commit::verify(&args.commitment, &args.r#move, &args.nonce) {
        quill::outln!("valid: {} commits to {}", args.commitment, args.r#move);
        ExitCode::SUCCESS
    } else {
        quill::outln!(
            "INVALID: {} does not commit to {} with that nonce",
            args.commitment,
            args.r#move
        );
        ExitCode::FAILURE
    }
}

pub(crate) fn run_bench(args: &BenchArgs) -> ExitCode {
    let lines = quill::bench::run(args.depth);
    let (mut nodes, mut micros) = (0u64, 0u64);
    for line in &lines {
        quill::outln!(
            "{:<20} {:<16} {:>10} nodes {:>8} us",
            line.variant.name(),
            line.best,
            line.nodes,
            line.micros
        );
        nodes += line.nodes;
        micros += line.micros;
    }
    quill::outln!("Signature: {nodes} nodes");
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        micros as f64 / 1e6,
        nodes as f64 * 1e6 / micros.max(1) as f64
    );
    ExitCode::SUCCESS
}

pub(crate) fn run_exploit(args: &ExploitArgs) -> ExitCode {
    use quill::simsearch::endgame;
    let rules = if args.classic {
        quill::variants::apocalypse::Rules::Classic
    } else {
        quill::variants::apocalypse::Rules::Seed
    };
    let limits = quill::search::Limits {
        depth: args.depth,
        time: args
            .depth
            .is_none()
            .then(|| Duration::from_millis(args.movetime)),
        nodes: None,
        // As `go movetime`: the time is used whole.
        exact: args.depth.is_none(),
        builtin_tables: !args.no_builtin_tablebase,
        ..quill::search::Limits::default()
    };
    let mut table = None;
    if let Some(path) = &args.tablebase {
        match quill::tablebase::Tables::load(path) {
            Ok(tables) => {
                table = tables.shared(rules);
                quill::tablebase::set_active(tables);
            }
            Err(e) => {
                eprintln!("quill exploit: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if limits.builtin_tables {
        // What is measured is the search with the tables, not its wait for the 5-piece one
        // (half a second, which a search by time would cut short on a loaded machine).
        quill::tablebase::builtin::five(rules);
    }
    let fens: Vec<&str> = if args.fens.is_empty() {
        endgame::fens(endgame::ENDGAMES)
    } else {
        args.fens.iter().map(String::as_str).collect()
    };
    let mut worst: f64 = 0.0;
    let mut skipped = 0usize;
    for fen in fens {
        match endgame::check(
            rules,
            fen,
            limits,
            args.max_positions as usize,
            table.as_deref(),
            args.endless,
        ) {
            Ok(r) => {
                if args.each_depth {
                    for (depth, [w, b]) in &r.iterations {
                        quill::outln!(
                            "{}: depth {depth}: exploitability {:.6} (White), {:.6} (Black)",
                            r.fen,
                            w.exploitability,
                            b.exploitability
                        );
                    }
                }
                let [w, b] = r.sides;
                quill::outln!(
                    "{}: {} positions (residual {:.1e} after {} solves{}), value {:.6}; depth {}: \
                     White's strategy guarantees {:.6} (exploitability {:.6}), Black's {:.6} of \
                     {:.6} (exploitability {:.6})",
                    r.fen,
                    r.states,
                    r.residual,
                    r.updates,
                    if args.endless {
                        format!(", {} re-valued for endless play", r.looping)
                    } else {
                        String::new()
                    },
                    w.value,
                    r.analysis.depth,
                    w.guaranteed,
                    w.exploitability,
                    b.guaranteed,
                    b.value,
                    b.exploitability
                );
                if let Some(t) = &r.table {
                    quill::outln!(
                        "{}: against the tablebase: {} positions compared, {} apart by more than \
                         1e-6, largest difference {:.3e}{}",
                        r.fen,
                        t.compared,
                        t.apart,
                        t.largest,
                        t.at.as_ref().map_or(String::new(), |f| format!(" at {f}"))
                    );
                }
                worst = worst.max(w.exploitability).max(b.exploitability);
            }
            Err(e) => {
                // The others are still measured: one position too big or malformed does not
                // throw away a long list's results.
                eprintln!("quill exploit: {fen}: {e}");
                skipped += 1;
            }
        }
    }
    if skipped > 0 {
        let s = if skipped == 1 { "" } else { "s" };
        quill::outln!("Worst exploitability: {worst:.6} ({skipped} position{s} skipped)");
        return ExitCode::from(2);
    }
    quill::outln!("Worst exploitability: {worst:.6}");
    ExitCode::SUCCESS
}
