//! The tables of both rule sets built into the binary: every Apocalypse position of at most
//! 5 pieces is valued exactly, and a root inside them played at its equilibrium, with no file
//! to find or build (protocol-docs/tablebase.md, "The built-in tables").
//!
//! They are the files `quill tablebase build --pieces 4` and `--pieces 5` write for each rule
//! set, compressed with zlib (`scripts/pack-builtin-tables.sh` makes them): about 0.8 MB for
//! the two 4-piece tables (6.6 MB whole) and 25.5 MB for the two 5-piece ones (145 MB whole).
//!
//! - The 4-piece tables are inflated and checked at their first probe (about 20 ms), as
//!   before: a session that never searches an Apocalypse endgame pays nothing.
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

/// How often a search waiting for a 5-piece table looks at its stop flag.
const POLL: Duration = Duration::from_millis(1);

/// Both 4-piece tables, inflated and checked on first use. One that fails (a damaged build:
/// it cannot happen with the files the test checks) is left out, with an error logged.
static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut tables = Tables::default();
    for (rules, z) in [(Rules::Seed, SEED), (Rules::Classic, CLASSIC)] {
        if let Some(t) = checked(rules, PIECES, z, MAX_BYTES) {
            tables.add(t);
        }
    }
    tables
});

/// The built-in 4-piece tables (inflated at the first call).
pub fn tables() -> &'static Tables {
    &TABLES
}

/// The loading of one rule set's 5-piece table: started once, finished once.
struct Loader {
    started: Once,
    /// The table, or `None` when it could not be read (logged).
    table: OnceLock<Option<Tablebase>>,
    rules: Rules,
    z: &'static [u8],
}

static LOADERS: [Loader; 2] = [
    Loader {
        started: Once::new(),
        table: OnceLock::new(),
        rules: Rules::Seed,
        z: SEED_FIVE,
    },
    Loader {
        started: Once::new(),
        table: OnceLock::new(),
        rules: Rules::Classic,
        z: CLASSIC_FIVE,
    },
];

fn loader(rules: Rules) -> &'static Loader {
    match rules {
        Rules::Seed => &LOADERS[0],
        Rules::Classic => &LOADERS[1],
    }
}

impl Loader {
    /// Inflates and checks the table here, once.
    fn load(&'static self) -> &'static Option<Tablebase> {
        self.table
            .get_or_init(|| checked(self.rules, FIVE, self.z, MAX_BYTES_FIVE))
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
                            "built-in {:?} 5-piece tablebase loaded in {} ms",
                            self.rules,
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

/// The built-in table of `rules` that holds a position of `pieces` pieces, if it is loaded:
/// the 4-piece table (inflated here at the first call), or the 5-piece one once [`prepare`]
/// or [`five`] has loaded it. Never waits for a 5-piece table.
pub(crate) fn holding(rules: Rules, pieces: u32) -> Option<&'static Tablebase> {
    if pieces <= PIECES {
        tables().get(rules)
    } else if pieces <= FIVE {
        loader(rules).table.get()?.as_ref()
    } else {
        None
    }
}

/// The built-in 5-piece table of `rules`, loaded here (and waited for) if it is not yet;
/// `None` only if it cannot be read, which the tests rule out.
pub fn five(rules: Rules) -> Option<&'static Tablebase> {
    let l = loader(rules);
    l.start();
    l.load().as_ref()
}

/// Makes the built-in 5-piece table of `rules` ready for a search from a root of `pieces`
/// pieces: from a root of at most [`LOAD_FROM`] pieces, or once its loading has begun, it is
/// loaded if it is not yet and waited for until it is there, `stop` is set or `until` has
/// passed. Returns whether it is there: if not, the search probes without it (and a later
/// search waits again).
pub(crate) fn prepare(
    rules: Rules,
    pieces: u32,
    until: Option<Instant>,
    stop: &AtomicBool,
) -> bool {
    let l = loader(rules);
    if l.table.get().is_some() {
        return true;
    }
    if pieces > LOAD_FROM && !l.started.is_completed() {
        return false;
    }
    l.start();
    while l.table.get().is_none() {
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
