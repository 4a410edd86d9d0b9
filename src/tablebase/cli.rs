//! `quill tablebase`: build a table, show what one holds, probe positions.

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};

use super::build::{self, MAX_BUILD_PIECES};
use super::index::Signature;
use super::{SCALE, Tablebase, format};
use crate::board::FenError;
use crate::variant::Side;
use crate::variants::apocalypse::{Position, Rules};

/// Arguments of `quill tablebase`.
#[derive(Debug, Args)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    command: TablebaseCommand,
}

#[derive(Debug, Subcommand)]
enum TablebaseCommand {
    /// Solve every Apocalypse position of at most N pieces and write the table.
    Build(BuildArgs),
    /// Show a table's header and what its values are, signature by signature.
    Stats(FileArgs),
    /// Print the value (for White) and both equilibrium strategies of positions.
    Probe(ProbeArgs),
}

/// The rule set of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum VariantName {
    /// The seed rules.
    Apocalypse,
    /// Elliott's rules.
    ApocalypseClassic,
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// The most pieces of a position in the table (both sides together).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_BUILD_PIECES)))]
    pieces: u32,
    /// The rule set.
    #[arg(long, value_enum, default_value_t = VariantName::Apocalypse)]
    variant: VariantName,
    /// Full value-iteration sweeps of a signature at most, after its work list (the
    /// residual reached is printed and stored in the file).
    #[arg(long, default_value_t = build::MAX_SWEEPS as u32, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_sweeps: u32,
    /// Where to write the table (default `VARIANT-N.qtb` in the current directory, with
    /// `--family` `VARIANT-N-SIGNATURES.qtb`).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Build a partial table: every position of fewer pieces, and the families of these
    /// signatures (each four digits: White footmen, White horsemen, Black footmen, Black
    /// horsemen, e.g. 1211; several separated by commas), each signature and those it
    /// reaches. `--pieces` is then the signatures'.
    #[arg(long, value_name = "WFWHBFBH,...", value_parser = parse_signature, value_delimiter = ',', num_args = 1..=16)]
    family: Vec<Signature>,
}

/// A `--family` argument that is not four digits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NotASignature(String);

impl fmt::Display for NotASignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a signature is four digits (WF WH BF BH, e.g. 1211), got {:?}",
            self.0
        )
    }
}

impl std::error::Error for NotASignature {}

/// Why `quill tablebase` failed.
#[derive(Debug)]
enum CliError {
    /// The table cannot be built.
    Build(build::BuildError),
    /// The table cannot be written.
    Write(format::WriteError),
    /// A table file cannot be read.
    Read(PathBuf, format::ReadError),
    /// A position to probe is not a FEN of the table's rule set.
    Fen(String, FenError),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Build(e) => write!(f, "{e}"),
            CliError::Write(e) => write!(f, "{e}"),
            CliError::Read(p, e) => write!(f, "{}: {e}", p.display()),
            CliError::Fen(fen, e) => write!(f, "{fen}: {e}"),
        }
    }
}

/// A signature written as four digits, WF WH BF BH.
fn parse_signature(text: &str) -> Result<Signature, NotASignature> {
    let digits: Vec<u8> = text
        .bytes()
        .map(|b| b.is_ascii_digit().then(|| b - b'0'))
        .collect::<Option<_>>()
        .filter(|d: &Vec<u8>| d.len() == 4)
        .ok_or_else(|| NotASignature(text.to_owned()))?;
    Ok(Signature {
        wf: digits[0],
        wh: digits[1],
        bf: digits[2],
        bh: digits[3],
    })
}

#[derive(Debug, Args)]
struct FileArgs {
    /// A table file.
    file: PathBuf,
}

#[derive(Debug, Args)]
struct ProbeArgs {
    /// A table file.
    file: PathBuf,
    /// Positions (Apocalypse FENs of the table's rule set).
    #[arg(required = true)]
    fens: Vec<String>,
}

/// Runs `quill tablebase`.
pub fn run(args: &TablebaseArgs) -> ExitCode {
    let result = match &args.command {
        TablebaseCommand::Build(a) => run_build(a),
        TablebaseCommand::Stats(a) => run_stats(a),
        TablebaseCommand::Probe(a) => run_probe(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quill tablebase: {e}");
            ExitCode::from(2)
        }
    }
}

fn rules_name(r: Rules) -> &'static str {
    match r {
        Rules::Seed => "apocalypse",
        Rules::Classic => "apocalypse-classic",
    }
}

fn run_build(a: &BuildArgs) -> Result<(), CliError> {
    let rules = match a.variant {
        VariantName::Apocalypse => Rules::Seed,
        VariantName::ApocalypseClassic => Rules::Classic,
    };
    let (pieces, out) = out_path(a, rules);
    let checkpoint = checkpoint_path(&out);
    let t0 = build::cpu_seconds();
    let wall = std::time::Instant::now();
    let built = if a.family.is_empty() {
        build::build(
            rules,
            a.pieces,
            a.max_sweeps as usize,
            Some(&checkpoint),
            &mut print_signature,
        )
    } else {
        build::build_family(
            rules,
            &a.family,
            a.max_sweeps as usize,
            Some(&checkpoint),
            &mut print_signature,
        )
    }
    .map_err(CliError::Build)?;
    let bytes = format::write(&built.table, &out).map_err(CliError::Write)?;
    if let Err(e) = std::fs::remove_file(&checkpoint) {
        log::warn!("{}: not removed: {e}", checkpoint.display());
    }
    crate::outln!(
        "{}: {pieces} pieces{}, {} signatures, {} positions, residual {:.1e}; {:.2} CPU s \
         ({:.2} s wall); peak memory {} MiB; wrote {} ({bytes} bytes)",
        rules_name(rules),
        if a.family.is_empty() {
            ""
        } else {
            " (partial)"
        },
        built.table.signatures().len(),
        built.table.len(),
        built.table.residual(),
        build::cpu_seconds() - t0,
        wall.elapsed().as_secs_f64(),
        peak_mib(),
        out.display()
    );
    Ok(())
}

/// The table's piece count and the file to write: `--out`, else `VARIANT-N.qtb`, or
/// `VARIANT-N-WFWHBFBH….qtb` for a family.
fn out_path(a: &BuildArgs, rules: Rules) -> (u32, PathBuf) {
    let digits = |s: &Signature| format!("{}{}{}{}", s.wf, s.wh, s.bf, s.bh);
    let (pieces, name) = match a.family.first() {
        None => (a.pieces, String::new()),
        Some(s) => (
            s.pieces(),
            a.family.iter().map(|s| format!("-{}", digits(s))).collect(),
        ),
    };
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}-{pieces}{name}.qtb", rules_name(rules))));
    (pieces, out)
}

/// Where a build writing `out` keeps its checkpoint: `out` with `.part` added.
fn checkpoint_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// Prints one solved signature's line of the build's report.
fn print_signature(s: &build::SignatureStats) {
    crate::outln!(
        "{}{}{}{}: {} positions ({} finished, {} solved once, {} iterated, {} cells), \
         {} updates, {} sweeps, {} exact rounds, {} in closed loops{}, residual {:.1e}, {:.2} CPU s{}",
        s.signature.wf,
        s.signature.wh,
        s.signature.bf,
        s.signature.bh,
        s.positions,
        s.finished,
        s.direct,
        s.iterated,
        s.cells,
        s.updates,
        s.sweeps,
        s.rounds,
        s.looping,
        if s.unsettled > 0 {
            format!(
                " ({} left unsettled: the discounted solves did not converge)",
                s.unsettled
            )
        } else {
            String::new()
        },
        s.residual,
        s.cpu_seconds,
        if s.resumed {
            " (from the checkpoint)"
        } else {
            ""
        }
    );
}

/// The peak resident memory of this process in MiB (Linux `VmHWM`; 0 elsewhere).
fn peak_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

fn run_stats(a: &FileArgs) -> Result<(), CliError> {
    let t = format::read(&a.file).map_err(|e| CliError::Read(a.file.clone(), e))?;
    crate::outln!(
        "{}: {}, up to {} pieces, {} signatures, {} positions, residual {:.1e}",
        a.file.display(),
        rules_name(t.rules()),
        t.pieces(),
        t.signatures().len(),
        t.len(),
        t.residual()
    );
    crate::outln!(
        "signature (WF WH BF BH): positions, White wins, draws, Black wins, other values"
    );
    let (one, half) = (SCALE as u32, (SCALE / 2.0) as u32);
    for &s in t.signatures() {
        let v = t.signature_values(s).expect("a signature of the table");
        let count = |q: u32| v.iter().filter(|&&x| x == q).count();
        let (w, d, b) = (count(one), count(half), count(0));
        crate::outln!(
            "{} {} {} {}: {}, {w}, {d}, {b}, {}",
            s.wf,
            s.wh,
            s.bf,
            s.bh,
            v.len(),
            v.len() - w - d - b
        );
    }
    Ok(())
}

fn run_probe(a: &ProbeArgs) -> Result<(), CliError> {
    let t: Tablebase = format::read(&a.file).map_err(|e| CliError::Read(a.file.clone(), e))?;
    for fen in &a.fens {
        let pos = Position::from_fen(t.rules(), fen).map_err(|e| CliError::Fen(fen.clone(), e))?;
        let Some(v) = t.value(&pos) else {
            crate::outln!("{}: not in the table", pos.fen());
            continue;
        };
        let (mut white, mut black) = (Vec::new(), Vec::new());
        pos.legal_moves(Side::White, &mut white);
        pos.legal_moves(Side::Black, &mut black);
        let mut line = format!("{}: value {v:.9}", pos.fen());
        if let Some(sol) = t.solve_root(&pos, &white, &black) {
            let show = |moves: &[crate::variants::apocalypse::Move], p: &[f64]| {
                moves
                    .iter()
                    .zip(p)
                    .filter(|(_, p)| **p > 0.0)
                    .map(|(m, p)| format!(" {m}:{p:.6}"))
                    .collect::<String>()
            };
            line += &format!(
                "; White{}; Black{}",
                show(&white, &sol.rows),
                show(&black, &sol.cols)
            );
        }
        crate::outln!("{line}");
    }
    Ok(())
}
