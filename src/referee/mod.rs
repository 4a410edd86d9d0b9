//! `quill match`: a referee for engine-vs-engine and human games of every variant Quill knows,
//! sealed ones included. [`seat`] says who plays, `engine` runs an engine and reads its lines,
//! [`game`] referees one game, `pgn` records it, [`results`] keeps the append-only results
//! file, [`stats`] sums a match up; this module runs a whole match: paired seeded openings,
//! concurrency, resumption, progress and the summary. The referee's view of each dialect is in
//! `protocol-docs/referee.md`.
//!
//! Module map:
//! - `config`: [`MatchConfig`] and [`MatchError`]: checks, schedule, openings, game setups.
//! - [`seat`]: who plays a seat (an engine spec and its limits, or a person).
//! - `engine`: an engine's process and the meaning of the lines it prints.
//! - `inbox`: what a game hears from its seats, and the dialogue log.
//! - `human`: what a person types and what they are shown.
//! - `ends`: how games ended, read back from the recorded reasons.
//! - [`game`]: one refereed game, split under `game/`: `clock` (time control, budgets,
//!   margins), `player` (the seat driver: start, handshake per dialect, sync), `terminal` (a
//!   person's terminal), `turn` (asking a seat, checking its answer, the alternating turn),
//!   `sealed` (the sealed turn: commitments and openings), `human_turn` (a person's turn),
//!   `finish` (adjudication and the game's report).
//! - `pgn`, [`results`], [`stats`]: the game's PGN, the results file, the match summary.
//! - `files`: [`read_openings`], and cleaning the PGN file on resumption.
//! - this module: progress and [`run`].

mod config;
pub(crate) mod driver;
pub(crate) mod ends;
pub(crate) mod engine;
mod files;
pub mod game;
pub(crate) mod human;
pub(crate) mod inbox;
pub(crate) mod pgn;
pub mod results;
pub mod seat;
pub mod stats;

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::{self, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::rng::Rng;
use crate::variant::Variant;

pub use config::{ConfigError, MatchConfig, MatchError};
use files::clean_pgn;
pub use files::read_openings;
use game::{Adjudication, GameReport, GameSetup, Opening, Terminal};
use results::{GameRecord, ResultsFile};
use seat::Seat;
use stats::{Decision, Sprt, Summary};

/// `at + d`, or as late as can be told when that is past what an `Instant` holds (a deadline
/// of decades is as good as never; time arithmetic never panics).
pub(crate) fn later(at: Instant, d: Duration) -> Instant {
    at.checked_add(d)
        .or_else(|| at.checked_add(Duration::from_secs(100 * 365 * 86_400)))
        .unwrap_or(at)
}

/// Largest openings file (`--openings`), in bytes.
pub(crate) const MAX_OPENINGS_BYTES: u64 = 64 * 1024 * 1024;
/// Most games in a match.
pub const MAX_GAMES: u32 = 1_000_000;
/// Most games played at once.
pub const MAX_CONCURRENCY: usize = 256;
/// Most random opening turns.
pub const MAX_OPENING_TURNS: u32 = 1_000;
/// Highest turn cap of a game (`--max-turns`).
pub const MAX_TURNS: u32 = 100_000;
/// Longest margin past the clock, in milliseconds (`--margin-ms`).
pub const MAX_MARGIN_MS: u64 = 60_000;
/// Longest move timeout, in seconds (`--move-timeout`): a day.
pub const MAX_MOVE_TIMEOUT: u64 = 86_400;

/// The live progress display on standard error: a bar on a terminal, a line per game otherwise.
struct Progress {
    total: usize,
    tty: bool,
    sprt: Option<Sprt>,
}

impl Progress {
    fn show(&self, records: &[GameRecord], a: &str, latest: &GameRecord) {
        let s = Summary::new(records, a, self.sprt);
        let done = records.len();
        let points = f64::from(s.wins) + f64::from(s.draws) / 2.0;
        let mut score = format!(
            "{a} {points} - {} {}  (+{} ={} -{})",
            f64::from(s.games()) - points,
            if s.opponent.is_empty() {
                "?"
            } else {
                &s.opponent
            },
            s.wins,
            s.draws,
            s.losses
        );
        if let Some(t) = &s.sprt {
            score += &format!("  llr {:.2} ({:.2}, {:.2})", t.llr, t.lower, t.upper);
        }
        let mut err = std::io::stderr().lock();
        if self.tty {
            let width = 30;
            let filled = (done * width)
                .checked_div(self.total)
                .unwrap_or(width)
                .min(width);
            let _ = write!(
                err,
                "\r\x1b[K[{}{}] {done}/{}  {score}",
                "#".repeat(filled),
                ".".repeat(width - filled),
                self.total
            );
            if done == self.total {
                let _ = writeln!(err);
            }
        } else {
            let _ = writeln!(
                err,
                "game {}/{}: {} - {} {} ({})  score: {score}",
                done, self.total, latest.white, latest.black, latest.result, latest.reason
            );
        }
        let _ = err.flush();
    }
}

/// The outcome of a match run: every record of the results file, and its summary.
pub struct MatchOutcome {
    /// All records, earlier runs' included.
    pub records: Vec<GameRecord>,
    /// The summary from seat A's side.
    pub summary: Summary,
    /// When the SPRT stopped the match: the summary at that moment (games still being played
    /// then were finished and recorded, and may move the final figures).
    pub stopped: Option<Summary>,
}

/// Runs (or resumes) a match.
///
/// # Errors
/// A bad configuration, or a results or PGN file that cannot be written or does not belong to
/// this match.
pub fn run(config: &MatchConfig) -> Result<MatchOutcome, MatchError> {
    config.check()?;
    probe_seats(config)?;
    let (mut file, mut records) = open_results(config)?;
    let (schedule, queue) = pending(config, &records)?;
    let openings = config.openings();
    let human = config.seats.iter().any(|s| matches!(s, Seat::Human { .. }));
    let terminal = human.then(Terminal::stdio);
    let concurrency = if human { 1 } else { config.concurrency.max(1) };
    let a = config.seats[0].name().to_string();
    let progress = Progress {
        total: schedule.len(),
        tty: std::io::stderr().is_terminal() && !human,
        sprt: config.sprt,
    };
    let decided = |records: &[GameRecord]| decided(config, records, &a);
    let mut stopped = decided(&records);
    let stop = AtomicBool::new(stopped.is_some());
    let queue = Mutex::new(queue);
    let (tx, rx) = mpsc::channel::<GameReport>();
    let mut failure = None;
    thread::scope(|scope| {
        for _ in 0..concurrency {
            let tx = tx.clone();
            let (queue, stop, terminal) = (&queue, &stop, terminal.as_ref());
            let openings = &openings;
            scope.spawn(move || play_queue(config, openings, queue, stop, terminal, &tx));
        }
        drop(tx);
        for report in rx {
            if failure.is_some() {
                continue;
            }
            if let Err(e) = record_game(config, &mut file, &report) {
                failure = Some(e);
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            records.push(report.record.clone());
            progress.show(&records, &a, &report.record);
            if stopped.is_none() {
                stopped = decided(&records);
                if stopped.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    records.sort_by_key(|r| r.game);
    let summary = Summary::new(&records, &a, config.sprt);
    Ok(MatchOutcome {
        records,
        summary,
        stopped,
    })
}

/// The match's schedule, and the games of it not yet played, once the PGN file is cleaned of
/// games without a results line and the log directory exists.
fn pending(
    config: &MatchConfig,
    records: &[GameRecord],
) -> Result<(Vec<u32>, VecDeque<u32>), MatchError> {
    let done: HashSet<u32> = records.iter().map(|r| r.game).collect();
    if let Some(pgn) = &config.pgn {
        clean_pgn(pgn, &done)?;
    }
    if let Some(dir) = &config.log_dir {
        fs::create_dir_all(dir).map_err(|e| MatchError::Io(dir.clone(), e))?;
    }
    let schedule = config.schedule();
    let queue: VecDeque<u32> = schedule
        .iter()
        .copied()
        .filter(|g| !done.contains(g))
        .collect();
    Ok((schedule, queue))
}

/// The summary, from seat `a`'s side, when the SPRT has decided.
fn decided(config: &MatchConfig, records: &[GameRecord], a: &str) -> Option<Summary> {
    let sprt = config.sprt?;
    let summary = Summary::new(records, a, Some(sprt));
    summary
        .sprt
        .is_some_and(|t| t.decision != Decision::Continue)
        .then_some(summary)
}

/// Starts every engine seat once before any game: one that cannot run, or that refuses an
/// option, would otherwise forfeit every game of the match.
fn probe_seats(config: &MatchConfig) -> Result<(), MatchError> {
    for i in 0..2 {
        let seats = [&config.seats[0], &config.seats[1]];
        game::probe(config.variant, seats, i).map_err(|why| MatchError::Seat {
            name: config.seats[i].name().to_string(),
            why,
        })?;
    }
    Ok(())
}

/// The results file and the games already in it: resumed when asked and it is this match's,
/// else created (never over an existing file).
fn open_results(config: &MatchConfig) -> Result<(ResultsFile, Vec<GameRecord>), MatchError> {
    let signature = config.signature();
    if config.resume && config.results.exists() {
        let (file, records) =
            ResultsFile::open_resume_or_restart(&config.results, Some(&signature))?;
        if file.header_extra() != signature {
            return Err(MatchError::Config(format!(
                "{} is from another match ('{}'); this one is '{signature}': give another \
                 --results file",
                config.results.display(),
                file.header_extra().escape_debug()
            )));
        }
        config.check_records(&file, &records)?;
        Ok((file, records))
    } else {
        if config.results.exists() {
            return Err(MatchError::Config(format!(
                "{} exists: use --resume to continue it (an empty file or a torn header line \
                 is started over), or another file",
                config.results.display()
            )));
        }
        Ok((
            ResultsFile::create(&config.results, &signature)?,
            Vec::new(),
        ))
    }
}

/// A worker: plays games from the queue until it is empty, the match is stopped, or the
/// reports are no longer read.
fn play_queue(
    config: &MatchConfig,
    openings: &HashMap<u32, Opening>,
    queue: &Mutex<VecDeque<u32>>,
    stop: &AtomicBool,
    terminal: Option<&Terminal>,
    tx: &mpsc::Sender<GameReport>,
) {
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let Some(index) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            return;
        };
        let opening = openings
            .get(&(index / 2))
            .cloned()
            .unwrap_or_else(Opening::start);
        let setup = config.setup(index, opening);
        let (white, black) = if index % 2 == 0 { (0, 1) } else { (1, 0) };
        let report = game::play(
            &setup,
            [&config.seats[white], &config.seats[black]],
            terminal,
        );
        if tx.send(report).is_err() {
            return;
        }
    }
}

/// Records a finished game: the PGN first (a game in the PGN without its results line is
/// dropped on resume, so nothing is ever counted twice), then its results line.
fn record_game(
    config: &MatchConfig,
    file: &mut ResultsFile,
    report: &GameReport,
) -> Result<(), MatchError> {
    if let Some(pgn) = &config.pgn {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(pgn)
            .and_then(|mut f| {
                f.write_all(report.pgn.as_bytes())
                    .and_then(|()| f.sync_data())
            })
            .map_err(|e| MatchError::Io(pgn.clone(), e))?;
    }
    file.append(&report.record)?;
    Ok(())
}

#[cfg(test)]
mod tests;
