//! The tables of both rule sets built into the binary: every Apocalypse position of at most
//! 5 pieces is valued exactly, and a root inside them played at its equilibrium, with no file
//! to find or build (protocol-docs/tablebase.md, "The built-in tables").
//!
//! They are the files `quill tablebase build --pieces 4` and `--pieces 5` write for each rule
//! set, compressed with zlib (`scripts/pack-builtin-tables.sh` makes them): about 0.8 MB for
//! the two 4-piece tables (6.6 MB whole) and 25.5 MB for the two 5-piece ones (145 MB whole).
//!
//! - A 4-piece table (about 20 ms to inflate and check) is loaded on a thread of its own
//!   when a sealed search of its rule set first starts (`prepare`), and that search waits
//!   for it as below, so a `stop` or `quit` is answered while it inflates; a session that
//!   never searches Apocalypse pays nothing, and a probe from elsewhere inflates it there.
//! - A 5-piece table takes about half a second and 69 MiB to inflate, so it is loaded on a
//!   thread of its own (`prepare`) once a search starts from a root of at most
//!   [`LOAD_FROM`] pieces, and that search (and every later one) waits for it before it
//!   starts: a search by time waits at most half its time and the wait counts against it, a
//!   search by nodes or depth waits until the table is there (so its result does not depend
//!   on the machine's load), and none waits past a `stop`. A search whose wait was cut short
//!   probes the 4-piece table until the 5-piece one is there.
//!
//! The test `the_built_in_tables_are_what_the_builder_makes` (run by `.ci/run`) builds both
//! 4-piece tables anew and compares them value for value; `five_piece_tables_extend_the_four_
//! piece_ones` holds the 5-piece tables' first 4 pieces to the 4-piece tables, and
//! `five_piece_values_are_the_value_of_their_turn` checks a sample of their 5-piece values
//! against the one-turn game over the table's own values (a rebuild takes hours).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Once, OnceLock};
use std::time::{Duration, Instant};

use super::{Tablebase, Tables, format};
use crate::variants::apocalypse::Rules;

/// The compressed 4-piece table of the seed rules (`apocalypse`).
static SEED: &[u8] = include_bytes!("builtin/apocalypse-4.qtb.zlib");
/// The compressed 4-piece table of Elliott's rules (`apocalypse-classic`).
static CLASSIC: &[u8] = include_bytes!("builtin/apocalypse-classic-4.qtb.zlib");
/// The compressed 5-piece table of the seed rules.
static SEED_FIVE: &[u8] = include_bytes!("builtin/apocalypse-5.qtb.zlib");
/// The compressed 5-piece table of Elliott's rules.
static CLASSIC_FIVE: &[u8] = include_bytes!("builtin/apocalypse-classic-5.qtb.zlib");

/// The pieces of a position the small built-in tables hold at most.
pub const PIECES: u32 = 4;

/// The pieces of a position the large built-in tables hold at most.
pub const FIVE: u32 = 5;

/// A search from a root of at most this many pieces loads the 5-piece table of its rule set
/// and waits for it: two turns (a turn removes at most two pieces) from a 5-piece position,
/// so a game reaches it at least one move before its positions can be probed.
pub const LOAD_FROM: u32 = FIVE + 4;

/// The most bytes a 4-piece table may inflate to (each is 3,319,952): a damaged stream stops
/// there instead of filling the memory.
const MAX_BYTES: usize = 4 << 20;

/// The most bytes a 5-piece table may inflate to (each is 72,286,072).
const MAX_BYTES_FIVE: usize = 80 << 20;

/// How often a search waiting for a table looks at its stop flag.
const POLL: Duration = Duration::from_millis(1);

/// The loading of one built-in table: started once, finished once.
struct Loader {
    started: Once,
    /// The table, or `None` when it could not be read (logged).
    table: OnceLock<Option<Arc<Tablebase>>>,
    rules: Rules,
    pieces: u32,
    z: &'static [u8],
    limit: usize,
}

impl Loader {
    const fn new(rules: Rules, pieces: u32, z: &'static [u8], limit: usize) -> Self {
        Loader {
            started: Once::new(),
            table: OnceLock::new(),
            rules,
            pieces,
            z,
            limit,
        }
    }
}

/// The 4-piece tables, then the 5-piece ones, each of the seed rules and Elliott's.
static LOADERS: [Loader; 4] = [
    Loader::new(Rules::Seed, PIECES, SEED, MAX_BYTES),
    Loader::new(Rules::Classic, PIECES, CLASSIC, MAX_BYTES),
    Loader::new(Rules::Seed, FIVE, SEED_FIVE, MAX_BYTES_FIVE),
    Loader::new(Rules::Classic, FIVE, CLASSIC_FIVE, MAX_BYTES_FIVE),
];

/// The loader of the table of `rules` of [`PIECES`] or [`FIVE`] pieces.
fn loader(rules: Rules, pieces: u32) -> &'static Loader {
    let large = usize::from(pieces > PIECES);
    let classic = usize::from(rules == Rules::Classic);
    &LOADERS[2 * large + classic]
}

impl Loader {
    /// Inflates and checks the table here, once (or waits for the thread that does).
    fn load(&'static self) -> Option<&'static Arc<Tablebase>> {
        self.table
            .get_or_init(|| checked(self.rules, self.pieces, self.z, self.limit).map(Arc::new))
            .as_ref()
    }

    /// The table if it is there, never waiting for it.
    fn loaded(&self) -> Option<&Tablebase> {
        self.table.get()?.as_deref()
    }

    /// The table if it is there; if no loading has begun, inflated here; while a thread is
    /// loading it, `None` (never waiting for that thread).
    fn available(&'static self) -> Option<&'static Tablebase> {
        if self.started.is_completed() {
            return self.loaded();
        }
        self.load().map(|t| &**t)
    }

    /// Starts the loading on a thread of its own, once (on this thread when no thread can
    /// be had).
    fn start(&'static self) {
        self.started.call_once(|| {
            let spawned = std::thread::Builder::new()
                .name("tablebase".into())
                .spawn(move || {
                    let began = Instant::now();
                    if self.load().is_some() {
                        log::info!(
                            "built-in {:?} {}-piece tablebase loaded in {} ms",
                            self.rules,
                            self.pieces,
                            began.elapsed().as_millis()
                        );
                    }
                });
            if let Err(e) = spawned {
                log::warn!("cannot start a thread to load the tablebase ({e}): loading it here");
                self.load();
            }
        });
    }
}

/// Both 4-piece tables, inflated and checked (here, if no search has loaded them). One that
/// fails (a damaged build: it cannot happen with the files the test checks) is left out,
/// with an error logged.
pub fn tables() -> &'static Tables {
    static TABLES: LazyLock<Tables> = LazyLock::new(|| Tables {
        seed: loader(Rules::Seed, PIECES).load().cloned(),
        classic: loader(Rules::Classic, PIECES).load().cloned(),
    });
    &TABLES
}

/// The built-in table of `rules` that holds a position of `pieces` pieces, if it is loaded.
/// Never waits for a table a thread is loading ([`prepare`] does); a 4-piece table whose
/// loading no search has begun is inflated here, at its first probe, and a 5-piece one is
/// there only once [`prepare`] or [`five`] has loaded it.
pub(crate) fn holding(rules: Rules, pieces: u32) -> Option<&'static Tablebase> {
    if pieces <= PIECES {
        loader(rules, PIECES).available()
    } else if pieces <= FIVE {
        loader(rules, FIVE).loaded()
    } else {
        None
    }
}

/// The built-in 5-piece table of `rules`, loaded here (and waited for) if it is not yet;
/// `None` only if it cannot be read, which the tests rule out.
pub fn five(rules: Rules) -> Option<&'static Tablebase> {
    let l = loader(rules, FIVE);
    l.start();
    l.load().map(|t| &**t)
}

/// Makes the built-in tables of `rules` ready for a search from a root of `pieces` pieces:
/// the 4-piece table always, and the 5-piece one from a root of at most [`LOAD_FROM`]
/// pieces or once its loading has begun. Each is loaded on a thread of its own if it is not
/// yet, and waited for until it is there, `stop` is set or `until` has passed, so that a
/// `stop` or `quit` is answered while a table inflates. Returns whether they are there: if
/// not, the search probes without the missing ones (and a later search waits again).
pub(crate) fn prepare(
    rules: Rules,
    pieces: u32,
    until: Option<Instant>,
    stop: &AtomicBool,
) -> bool {
    let both = [loader(rules, PIECES), loader(rules, FIVE)];
    let wanted = if pieces <= LOAD_FROM || both[1].started.is_completed() {
        &both[..]
    } else {
        &both[..1]
    };
    wait(wanted, until, stop)
}

/// Starts the loading of each of `loaders` that has not begun and waits until all are
/// there (true), or `stop` is set or `until` has passed (false).
fn wait(loaders: &[&'static Loader], until: Option<Instant>, stop: &AtomicBool) -> bool {
    let ready = || loaders.iter().all(|l| l.table.get().is_some());
    if ready() {
        return true;
    }
    for l in loaders {
        l.start();
    }
    while !ready() {
        if stop.load(Ordering::Relaxed) || until.is_some_and(|t| Instant::now() >= t) {
            return false;
        }
        std::thread::sleep(POLL);
    }
    true
}

/// The probe of the built-in tables alone, as the sealed search asks it when no table is
/// loaded (it inflates them at its first question, not here).
pub(crate) fn probe() -> crate::simsearch::SharedProbe {
    static PROBE: LazyLock<crate::simsearch::SharedProbe> = LazyLock::new(|| {
        Arc::new(super::Probing {
            loaded: Tables::default(),
            builtin: true,
        })
    });
    PROBE.clone()
}

/// One compressed table, inflated and decoded, if it is a table of `rules` and `pieces`
/// pieces (an error is logged when not).
fn checked(rules: Rules, pieces: u32, z: &[u8], limit: usize) -> Option<Tablebase> {
    match table(z, limit) {
        Ok(t) if t.rules() == rules && t.pieces() == pieces => Some(t),
        Ok(_) => {
            log::error!("the built-in {rules:?} {pieces}-piece tablebase holds another table");
            None
        }
        Err(e) => {
            log::error!("the built-in {rules:?} {pieces}-piece tablebase cannot be read: {e}");
            None
        }
    }
}

/// One compressed table, inflated (to at most `limit` bytes) and decoded.
fn table(z: &[u8], limit: usize) -> Result<Tablebase, String> {
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(z, limit)
        .map_err(|e| format!("inflating: {e}"))?;
    format::decode(&bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests;
