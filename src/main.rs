//! The `quill` command: with no subcommand, the engine on standard input and output; with a
//! subcommand, a tool (`replay` checks transcripts against the engine).
//!
//! In engine mode nothing but protocol lines goes to standard output. Diagnostics go to standard
//! error through `env_logger`, at `warn` and above unless `RUST_LOG` says otherwise (XBoard
//! merges standard error into the engine's pipe, so by default it stays quiet).

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use log::{debug, warn};

mod match_cli;
mod tune_cli;

use quill::session::{Input, MAX_INPUT_LINE, Session};
use quill::transcript::{self, Logger};
#[cfg(feature = "transcript")]
use quill::transcript::{External, InProcess, Options, Transport};

/// Quill: an engine for chess variants, speaking UCI and XBoard (CECP) on stdin/stdout.
#[derive(Debug, Parser)]
#[command(version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    engine: EngineArgs,
}

/// Options of engine mode (no subcommand).
#[derive(Debug, Args)]
struct EngineArgs {
    /// Write the dialogue to FILE as a transcript (`> ` lines in, `< ` lines out) that
    /// `quill replay` accepts.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Start on this variant instead of the default (apocalypse); a GUI may still choose
    /// another (UCI_Variant, CECP variant).
    #[arg(long, value_parser = parse_variant)]
    variant: Option<quill::variant::Variant>,
}

/// Tools. Each variant holds its own argument struct and has its own `run_*` function.
#[derive(Debug, Subcommand)]
enum Command {
    /// Replay transcripts against the engine and report which pass.
    #[cfg(feature = "transcript")]
    Replay(ReplayArgs),
    /// Count move sequences (perft) from a position, split by the first turn.
    Perft(PerftArgs),
    /// Check a sealed-move commitment: exit 0 and print `valid` when it matches.
    Verify(VerifyArgs),
    /// Search a fixed set of positions to a fixed depth and print a node-count signature.
    Bench(BenchArgs),
    /// Referee games between two engines (or an engine and you), with Quill's rules.
    Match(match_cli::MatchArgs),
    /// Serve a local web page to play every variant in a browser (prints its address).
    Gui(quill::gui::GuiArgs),
    /// Sum up the results files of a match's shards.
    Merge(match_cli::MergeArgs),
    /// Fit the Gladiator/Brawl evaluation's weights to the results of games (`quill match
    /// --pgn`), by Texel's method.
    Tune(tune_cli::TuneArgs),
    /// Solve small Apocalypse endgames exactly and measure how exploitable the search's root
    /// strategy is there (best-response value against the game value, scale 0..1).
    Exploit(ExploitArgs),
    /// Build, inspect and probe the Apocalypse tablebase (protocol-docs/tablebase.md).
    Tablebase(quill::tablebase::cli::TablebaseArgs),
}

#[derive(Debug, Args)]
struct ExploitArgs {
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
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// Depth of the alternating searches (at most the search's `MAX_PLY`).
    #[arg(default_value_t = 3, value_parser = depth_parser())]
    depth: u32,
}

#[derive(Debug, Args)]
struct PerftArgs {
    /// Depth in turns (at most 32: deeper counts would never finish, and their stacks
    /// would not fit).
    #[arg(value_parser = clap::value_parser!(u32).range(..=i64::from(quill::session::MAX_PERFT_DEPTH)))]
    depth: u32,

    /// The variant.
    #[arg(long, default_value = quill::variant::Variant::DEFAULT.name(), value_parser = parse_variant)]
    variant: quill::variant::Variant,

    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,

    /// Turns to play first, as in `position … moves` (`a2a3|e4e3`).
    #[arg(long = "moves", value_name = "TURN", num_args = 1..)]
    moves: Vec<String>,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    /// The commitment (64 hex digits), as printed before the reveal.
    commitment: String,
    /// The move, as revealed.
    r#move: String,
    /// The nonce (64 hex digits), as revealed.
    nonce: String,
}

pub(crate) fn parse_variant(name: &str) -> Result<quill::variant::Variant, String> {
    quill::variant::Variant::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = quill::variant::Variant::ALL
            .iter()
            .map(|v| v.name())
            .collect();
        format!("unknown variant '{name}' (known: {})", names.join(", "))
    })
}

#[cfg(feature = "transcript")]
#[derive(Debug, Args)]
struct ReplayArgs {
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

/// A search depth of at most the search's `MAX_PLY`.
fn depth_parser() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=quill::search::MAX_PLY as i64)
}

/// Positive seconds, at most a day.
#[cfg(feature = "transcript")]
fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|secs| secs.is_finite() && *secs > 0.0 && *secs <= 86_400.0)
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| format!("`{text}` is not a positive number of seconds up to 86400"))
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => run_engine(&cli.engine),
        #[cfg(feature = "transcript")]
        Some(Command::Replay(args)) => run_replay(&args),
        Some(Command::Perft(args)) => run_perft(&args),
        Some(Command::Verify(args)) => run_verify(&args),
        Some(Command::Bench(args)) => run_bench(&args),
        Some(Command::Match(args)) => match_cli::run_match(&args),
        Some(Command::Gui(args)) => match quill::gui::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("quill gui: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Merge(args)) => match_cli::run_merge(&args),
        Some(Command::Tune(args)) => tune_cli::run_tune(&args),
        Some(Command::Exploit(args)) => run_exploit(&args),
        Some(Command::Tablebase(args)) => quill::tablebase::cli::run(&args),
    }
}

// ---------------------------------------------------------------------------------------------
// Engine mode
// ---------------------------------------------------------------------------------------------

/// Bytes of input read but not yet handled, past which the reader waits: with
/// [`MAX_INPUT_LINE`], the most input the engine ever holds.
const MAX_PENDING_INPUT: usize = 4 << 20;

/// Input read but not yet handled, in bytes: the reader waits while it is above
/// [`MAX_PENDING_INPUT`], so a client that floods the engine only fills the pipe.
#[derive(Default)]
struct Pending {
    bytes: Mutex<usize>,
    drained: Condvar,
}

impl Pending {
    fn add(&self, n: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        while *bytes > MAX_PENDING_INPUT {
            bytes = self
                .drained
                .wait(bytes)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *bytes += n;
    }

    fn done(&self, n: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        *bytes = bytes.saturating_sub(n);
        // The reader waits above the bound and is woken once half of it has drained.
        if *bytes <= MAX_PENDING_INPUT / 2 {
            self.drained.notify_all();
        }
    }
}

/// What an input counts for in [`Pending`] (the reader adds it, the handler takes it away).
/// A line counts its bytes and a share for the message that carries it, so that many short
/// lines are bounded as well as a few long ones.
fn pending_size(input: &Input) -> usize {
    const MESSAGE: usize = 64;
    match input {
        Input::Line(line) => line.len() + MESSAGE,
        Input::Overlong(_) => MESSAGE,
        Input::Eof | Input::Search(_) => 0,
    }
}

/// Reads one line (up to and without its newline) into `buf`, keeping at most
/// [`MAX_INPUT_LINE`] bytes: returns the line's whole length, or `None` at the end of input.
fn read_bounded_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((total > 0).then_some(total));
        }
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let room = (MAX_INPUT_LINE + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        total = total.saturating_add(part.len());
        let used = part.len();
        input.consume(used);
        if found {
            return Ok(Some(total));
        }
    }
}

/// Reads standard input line by line into `inputs`, then sends [`Input::Eof`]. A line longer
/// than [`MAX_INPUT_LINE`] is dropped and reported as [`Input::Overlong`].
fn read_stdin(inputs: Sender<Input>, pending: Arc<Pending>) {
    let stdin = io::stdin();
    let mut stdin = stdin.lock();
    let mut buf = Vec::new();
    loop {
        match read_bounded_line(&mut stdin, &mut buf) {
            Ok(None) => break,
            Ok(Some(total)) => {
                // The bound is on the bytes read, line ending included.
                let input = if total > MAX_INPUT_LINE {
                    Input::Overlong(total as u64)
                } else {
                    Input::Line(transcript::decode_line(&buf))
                };
                pending.add(pending_size(&input));
                if inputs.send(input).is_err() {
                    return;
                }
            }
            Err(e) => {
                warn!("reading standard input: {e}");
                break;
            }
        }
    }
    let _ = inputs.send(Input::Eof);
}

/// Writes to the `--log` file, if any; on a write error, warns once and stops logging.
struct Log(Option<Logger>);

impl Log {
    fn with(&mut self, write: impl FnOnce(&mut Logger) -> io::Result<()>) {
        if let Some(logger) = &mut self.0
            && let Err(e) = write(logger)
        {
            warn!("writing the log: {e}; logging stops");
            self.0 = None;
        }
    }
}

fn run_engine(args: &EngineArgs) -> ExitCode {
    let mut log = Log(None);
    if let Some(path) = &args.log {
        match Logger::create(path) {
            Ok(logger) => log.0 = Some(logger),
            Err(e) => {
                eprintln!("quill: cannot create log file {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }

    let (sender, inputs) = mpsc::channel();
    let mut session = Session::new(sender.clone());
    if let Some(variant) = args.variant {
        session.start_on(variant);
    }
    if io::stdin().is_terminal() {
        // A person, not a GUI: stderr never disturbs the protocol on stdout.
        eprintln!(
            "Quill {}: type 'uci' for UCI or 'xboard' for XBoard (CECP), or 'help'; 'quit' ends.",
            env!("CARGO_PKG_VERSION")
        );
    }
    let pending = Arc::new(Pending::default());
    let reader_pending = Arc::clone(&pending);
    if let Err(e) = thread::Builder::new()
        .name("stdin".to_string())
        .spawn(move || read_stdin(sender, reader_pending))
    {
        eprintln!("quill: cannot start the input thread: {e}");
        return ExitCode::FAILURE;
    }

    let stdout = io::stdout();
    let mut stdout = stdout.lock();
    let mut input_closed = false;
    while let Ok(input) = inputs.recv() {
        pending.done(pending_size(&input));
        match &input {
            Input::Line(line) => {
                debug!(">> {line}");
                log.with(|l| l.input(line));
            }
            Input::Overlong(bytes) => {
                debug!(">> (a line of {bytes} bytes, dropped)");
            }
            Input::Eof => {
                debug!(">> (end of input)");
                input_closed = true;
                log.with(Logger::eof);
            }
            Input::Search(_) => {}
        }
        let lines = session.handle(input);
        for line in &lines {
            debug!("<< {line}");
            log.with(|l| l.output(line));
            if let Err(e) = writeln!(stdout, "{line}") {
                warn!("writing standard output: {e}");
                return ExitCode::FAILURE;
            }
        }
        if let Err(e) = stdout.flush() {
            warn!("writing standard output: {e}");
            return ExitCode::FAILURE;
        }
        // Stop once idle and finished; also once idle with no more input, since then nothing
        // could ever arrive again.
        if !session.is_busy() && (session.is_finished() || input_closed) {
            break;
        }
    }
    log.with(Logger::exit);
    ExitCode::SUCCESS
}

// ---------------------------------------------------------------------------------------------
// quill replay
// ---------------------------------------------------------------------------------------------

/// The transcript files the arguments name, in order; directories expanded.
#[cfg(feature = "transcript")]
fn replay_files(args: &[PathBuf]) -> Vec<Result<PathBuf, String>> {
    let mut files = Vec::new();
    for path in args {
        if path.is_dir() {
            match transcript::find_transcripts(path) {
                Ok(found) => files.extend(found.into_iter().map(Ok)),
                Err(e) => files.push(Err(format!("{}: cannot read: {e}", path.display()))),
            }
        } else {
            files.push(Ok(path.clone()));
        }
    }
    files
}

/// Replays one file; `Err` holds the report of what went wrong.
#[cfg(feature = "transcript")]
fn replay_one(
    path: &std::path::Path,
    engine: Option<&str>,
    options: &Options,
) -> Result<(), String> {
    let transcript = transcript::load(path).map_err(|e| e.to_string())?;
    let mut transport: Box<dyn Transport> = match engine {
        None => Box::new(InProcess::new()),
        Some(command) => Box::new(
            External::spawn(command).map_err(|e| format!("cannot start `{command}`: {e}"))?,
        ),
    };
    transcript::run_with(&transcript, transport.as_mut(), options).map_err(|e| e.to_string())
}

#[cfg(feature = "transcript")]
fn run_replay(args: &ReplayArgs) -> ExitCode {
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
            Err(message) => (message.clone(), Err(message)),
        };
        let written = match result {
            Ok(()) => {
                passed += 1;
                writeln!(out, "ok   - {shown}")
            }
            Err(report) => {
                failed += 1;
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

fn run_perft(args: &PerftArgs) -> ExitCode {
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
        println!("{line}");
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

fn run_verify(args: &VerifyArgs) -> ExitCode {
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
        println!("valid: {} commits to {}", args.commitment, args.r#move);
        ExitCode::SUCCESS
    } else {
        println!(
            "INVALID: {} does not commit to {} with that nonce",
            args.commitment, args.r#move
        );
        ExitCode::FAILURE
    }
}

fn run_bench(args: &BenchArgs) -> ExitCode {
    let lines = quill::bench::run(args.depth);
    let (mut nodes, mut micros) = (0u64, 0u64);
    for line in &lines {
        println!(
            "{:<20} {:<16} {:>10} nodes {:>8} us",
            line.variant.name(),
            line.best,
            line.nodes,
            line.micros
        );
        nodes += line.nodes;
        micros += line.micros;
    }
    println!("Signature: {nodes} nodes");
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        micros as f64 / 1e6,
        nodes as f64 * 1e6 / micros.max(1) as f64
    );
    ExitCode::SUCCESS
}

fn run_exploit(args: &ExploitArgs) -> ExitCode {
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
        ..quill::search::Limits::default()
    };
    let fens: Vec<&str> = if args.fens.is_empty() {
        endgame::fens(endgame::ENDGAMES)
    } else {
        args.fens.iter().map(String::as_str).collect()
    };
    let mut worst: f64 = 0.0;
    for fen in fens {
        match endgame::check(rules, fen, limits) {
            Ok(r) => {
                let [w, b] = r.sides;
                println!(
                    "{}: {} positions, value {:.6}; depth {}: White's strategy guarantees {:.6} \
                     (exploitability {:.6}), Black's {:.6} of {:.6} (exploitability {:.6})",
                    r.fen,
                    r.states,
                    w.value,
                    r.analysis.depth,
                    w.guaranteed,
                    w.exploitability,
                    b.guaranteed,
                    b.value,
                    b.exploitability
                );
                worst = worst.max(w.exploitability).max(b.exploitability);
            }
            Err(e) => {
                eprintln!("quill exploit: {fen}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!("Worst exploitability: {worst:.6}");
    ExitCode::SUCCESS
}
