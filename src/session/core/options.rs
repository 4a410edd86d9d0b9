//! The options a GUI sets in either dialect (`Seed`, `Hash`, `SealedCommit`,
//! `TablebasePath`, …), each value checked with a typed refusal.

use super::{Core, MAX_SEED, fresh_seed};
use crate::rng::Rng;
use crate::search::TransTable;
use crate::session::error::OptionError;

impl Core {
    /// Resizes (and so empties) the transposition table.
    ///
    /// # Errors
    /// A size outside 1 to [`TransTable::MAX_MIB`] MiB, or memory that cannot be had (the old
    /// table is kept then).
    pub(crate) fn set_hash(&mut self, mib: u64) -> Result<(), OptionError> {
        let mib = usize::try_from(mib)
            .ok()
            .filter(|m| (1..=TransTable::MAX_MIB).contains(m))
            .ok_or(OptionError::OutOfRange {
                option: "Hash",
                unit: "MiB",
                min: 1,
                max: TransTable::MAX_MIB as u64,
                got: mib,
            })?;
        // New tables, not the old ones resized: a running search may still hold those.
        let made = super::tables(self.variant(), mib)?;
        self.set_tables(made);
        self.options.hash_mib = mib;
        Ok(())
    }

    /// Sets an option by name (`Seed`, `SealedCommit`, `Hash`, `Contempt`; case-insensitive
    /// as in UCI).
    ///
    /// # Errors
    /// An unknown name or a bad value.
    pub(crate) fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), OptionError> {
        let value = value.unwrap_or("").trim();
        match name.to_ascii_lowercase().as_str() {
            "seed" => self.set_seed(value),
            "contempt" => self.set_contempt(value),
            "hash" => {
                let mib = value.parse::<u64>().map_err(|_| OptionError::NotANumber {
                    option: "Hash",
                    unit: "MiB",
                    value: value.to_string(),
                })?;
                self.set_hash(mib)
            }
            // The Apocalypse tablebase (protocol-docs/tablebase.md): a file or a directory.
            "tablebasepath" => load_tablebase(value),
            // The built-in 4-piece tables, probed where the loaded ones hold nothing.
            "builtintablebase" => {
                self.options.builtin_tables = check(name, value)?;
                Ok(())
            }
            "sealedcommit" => {
                self.options.commit = check(name, value)?;
                Ok(())
            }
            "clear hash" => {
                self.clear_tables();
                Ok(())
            }
            // One search thread and one line: only these values are true (uci.md).
            "threads" | "multipv" => only_one(name, value),
            // Accepted and without effect (uci.md): Quill ponders when asked by `go
            // ponder`, and analyses the same way in either mode.
            "ponder" | "uci_analysemode" => check(name, value).map(|_| ()),
            _ => Err(OptionError::Unknown {
                name: name.to_string(),
            }),
        }
    }

    /// Sets the contempt (0 to [`crate::search::MAX_CONTEMPT`] centipawns).
    fn set_contempt(&mut self, value: &str) -> Result<(), OptionError> {
        self.options.contempt = value
            .parse::<i32>()
            .ok()
            .filter(|c| (0..=crate::search::MAX_CONTEMPT).contains(c))
            .ok_or_else(|| OptionError::NotInRange {
                option: "Contempt",
                min: 0,
                max: crate::search::MAX_CONTEMPT as u64,
                value: value.to_string(),
            })?;
        Ok(())
    }

    /// Sets the sampler's seed (0: a fresh one each game) and reseeds it.
    fn set_seed(&mut self, value: &str) -> Result<(), OptionError> {
        let seed = value
            .parse::<u64>()
            .ok()
            .filter(|&s| s <= MAX_SEED)
            .ok_or_else(|| OptionError::NotInRange {
                option: "Seed",
                min: 0,
                max: MAX_SEED,
                value: value.to_string(),
            })?;
        self.options.seed = seed;
        self.rng = Rng::new(fresh_seed(&self.options));
        Ok(())
    }
}

/// Loads the tablebase at `path` and makes it the one the sealed search consults.
fn load_tablebase(path: &str) -> Result<(), OptionError> {
    let tables = crate::tablebase::Tables::load(path).map_err(OptionError::Tablebase)?;
    crate::tablebase::set_active(tables);
    Ok(())
}

/// An option whose only true value is `1` (`Threads`, `MultiPV`).
fn only_one(name: &str, value: &str) -> Result<(), OptionError> {
    match value {
        "1" => Ok(()),
        _ => Err(OptionError::OnlyValue {
            name: name.to_string(),
            only: "1",
            value: value.to_string(),
        }),
    }
}

/// A check option's value: `true`/`false` (UCI) or `1`/`0` (CECP).
fn check(name: &str, value: &str) -> Result<bool, OptionError> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(OptionError::NotACheck {
            name: name.to_string(),
            value: value.to_string(),
        }),
    }
}
