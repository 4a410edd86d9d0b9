//! The `quill` command: with no subcommand, the engine on standard input and output; with a
//! subcommand, a tool (`replay` checks transcripts against the engine).
//!
//! In engine mode nothing but protocol lines goes to standard output. Diagnostics go to standard
//! error through `env_logger`, at `warn` and above unless `RUST_LOG` says otherwise (XBoard
//! merges standard error into the engine's pipe, so by default it stays quiet).

use std::fmt;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod engine_cli;
mod match_cli;
mod tools_cli;
mod tune_cli;

use engine_cli::EngineArgs;
#[cfg(feature = "transcript")]
use tools_cli::ReplayArgs;
use tools_cli::{BenchArgs, ExploitArgs, PerftArgs, VerifyArgs};

/// Quill: an engine for chess variants, speaking UCI and XBoard (CECP) on stdin/stdout.
#[derive(Debug, Parser)]
#[command(version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    engine: EngineArgs,
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
    /// Fit a variant's evaluation weights (Gladiator and Brawl, Apocalypse of either rule set,
    /// Pagan) to the results of games (`quill match --pgn`), by Texel's method.
    Tune(tune_cli::TuneArgs),
    /// Solve small Apocalypse endgames exactly and measure how exploitable the search's root
    /// strategy is there (best-response value against the game value, scale 0..1).
    Exploit(ExploitArgs),
    /// Build, inspect and probe the Apocalypse tablebase (protocol-docs/tablebase.md).
    Tablebase(quill::tablebase::cli::TablebaseArgs),
}

/// A variant name that names no variant.
#[derive(Debug)]
pub(crate) struct UnknownVariant(String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = quill::variant::Variant::ALL
            .iter()
            .map(|v| v.name())
            .collect();
        write!(
            f,
            "unknown variant '{}' (known: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// Reads a variant's canonical name (a clap value parser).
///
/// # Errors
/// [`UnknownVariant`] for any other text.
pub(crate) fn parse_variant(name: &str) -> Result<quill::variant::Variant, UnknownVariant> {
    quill::variant::Variant::from_name(name).ok_or_else(|| UnknownVariant(name.to_string()))
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => engine_cli::run_engine(&cli.engine),
        #[cfg(feature = "transcript")]
        Some(Command::Replay(args)) => tools_cli::run_replay(&args),
        Some(Command::Perft(args)) => tools_cli::run_perft(&args),
        Some(Command::Verify(args)) => tools_cli::run_verify(&args),
        Some(Command::Bench(args)) => tools_cli::run_bench(&args),
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
        Some(Command::Exploit(args)) => tools_cli::run_exploit(&args),
        Some(Command::Tablebase(args)) => quill::tablebase::cli::run(&args),
    }
}
