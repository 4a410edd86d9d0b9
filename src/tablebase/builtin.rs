//! The 4-piece tables of both rule sets, built into the binary: every Apocalypse position of
//! at most 4 pieces is valued exactly, and a root inside them played at its equilibrium, with
//! no file to find or build (protocol-docs/tablebase.md, "The built-in tables").
//!
//! They are the files `quill tablebase build --pieces 4` writes for each rule set, compressed
//! with zlib (`scripts/pack-builtin-tables.sh` makes them), about 0.8 MB in all against
//! 6.6 MB whole. They are inflated and checked on first use, not at start-up: a session
//! that never searches an Apocalypse position pays nothing. The test
//! `the_built_in_tables_are_what_the_builder_makes` (run by `.ci/run`) builds both anew and
//! compares them value for value.

use std::sync::{Arc, LazyLock};

use super::{Tables, format};
use crate::variants::apocalypse::Rules;

/// The compressed table of the seed rules (`apocalypse`).
static SEED: &[u8] = include_bytes!("builtin/apocalypse-4.qtb.zlib");
/// The compressed table of Elliott's rules (`apocalypse-classic`).
static CLASSIC: &[u8] = include_bytes!("builtin/apocalypse-classic-4.qtb.zlib");

/// The pieces of a position the built-in tables hold at most.
pub const PIECES: u32 = 4;

/// The most bytes a built-in table may inflate to (each is 3,319,952): a damaged stream
/// stops there instead of filling the memory.
const MAX_BYTES: usize = 4 << 20;

/// Both tables, inflated and checked on first use. One that fails (a damaged build: it
/// cannot happen with the files the test checks) is left out, with an error logged.
static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut tables = Tables::default();
    for (rules, z) in [(Rules::Seed, SEED), (Rules::Classic, CLASSIC)] {
        match table(z) {
            Ok(t) if t.rules() == rules && t.pieces() == PIECES => tables.add(t),
            Ok(_) => log::error!("the built-in {rules:?} tablebase holds another table"),
            Err(e) => log::error!("the built-in {rules:?} tablebase cannot be read: {e}"),
        }
    }
    tables
});

/// The built-in tables (inflated at the first call).
pub fn tables() -> &'static Tables {
    &TABLES
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

/// One compressed table, inflated and decoded.
fn table(z: &[u8]) -> Result<super::Tablebase, String> {
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(z, MAX_BYTES)
        .map_err(|e| format!("inflating: {e}"))?;
    format::decode(&bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::build::build;

    #[test]
    fn both_built_in_tables_load() {
        let t = tables();
        for rules in [Rules::Seed, Rules::Classic] {
            let table = t.get(rules).expect("a built-in table");
            assert_eq!(table.pieces(), PIECES);
            assert_eq!(table.len(), 829_940);
        }
    }

    /// The built-in tables are the builder's, value for value (about a minute of CPU: run by
    /// `.ci/run` with `--ignored`).
    #[test]
    #[ignore = "builds both 4-piece tables (about a minute); .ci/run runs it"]
    fn the_built_in_tables_are_what_the_builder_makes() {
        for rules in [Rules::Seed, Rules::Classic] {
            let built = build(
                rules,
                PIECES,
                crate::tablebase::build::MAX_SWEEPS,
                None,
                &mut |_| {},
            )
            .expect("a valid piece count");
            let embedded = tables().get(rules).expect("a built-in table");
            assert_eq!(
                format::encode(&built.table),
                format::encode(embedded),
                "{rules:?}: rebuild with scripts/pack-builtin-tables.sh"
            );
        }
    }
}
