//! The transposition table of the simultaneous search: bounds on a position's value at a
//! given depth, and each side's most likely move there (for move ordering).
//!
//! The key covers everything the value depends on: both sides' footmen and horsemen, the
//! penalty points and the rule set. The quiet-turn count and the turn number are left out on
//! purpose: no rule reads them, so positions that differ only there have the same value.

use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position, Rules};

/// A 64-bit key of everything a position's value depends on.
pub fn key(p: &Position) -> u64 {
    let rules = match p.rules() {
        Rules::Seed => 0u64,
        Rules::Classic => 1,
    };
    let extra =
        rules | u64::from(p.penalties(Side::White)) << 1 | u64::from(p.penalties(Side::Black)) << 3;
    let a =
        u64::from(p.footmen(Side::White)) | u64::from(p.footmen(Side::Black)) << 25 | extra << 50;
    let b = u64::from(p.horsemen(Side::White)) | u64::from(p.horsemen(Side::Black)) << 25;
    mix(a ^ mix(b ^ 0x9e37_79b9_7f4a_7c15))
}

/// The SplitMix64 finaliser: a bijection of 64-bit words that spreads every input bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The position's key (0: an empty slot).
    pub key: u64,
    /// The depth, in joint turns, that the bounds hold for.
    pub depth: u32,
    /// The value is at least this.
    pub lower: f64,
    /// The value is at most this.
    pub upper: f64,
    /// White's most likely move in the last solve, if any.
    pub white: Option<Move>,
    /// Black's most likely move in the last solve, if any.
    pub black: Option<Move>,
}

/// A fixed-size, always-replace table.
#[derive(Clone, Debug)]
pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
    /// Probes that found their position.
    pub hits: u64,
}

impl Table {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> Table {
        let empty = Entry {
            key: 0,
            depth: 0,
            lower: 0.0,
            upper: 1.0,
            white: None,
            black: None,
        };
        Table {
            slots: vec![empty; 1 << bits],
            mask: (1 << bits) - 1,
            hits: 0,
        }
    }

    /// The entry of a key, if the table holds it.
    pub fn probe(&mut self, key: u64) -> Option<Entry> {
        let e = self.slots[key as usize & self.mask];
        (e.key == key && key != 0).then(|| {
            self.hits += 1;
            e
        })
    }

    /// Stores an entry (replacing whatever held its slot).
    pub fn store(&mut self, entry: Entry) {
        self.slots[entry.key as usize & self.mask] = entry;
    }
}
