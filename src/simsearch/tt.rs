//! The transposition table of the simultaneous search: bounds on a position's value at a
//! given depth, and each side's most likely move there (for move ordering).
//!
//! The key is the game's own ([`super::SealedRules::key`]). The search prefetches a node's
//! bucket before its end test and move generation ([`JointTable::prefetch`]). The table does
//! not ask for transparent huge pages: measured at `Hash 256`, depth 5 from the start, they
//! saved ~0.05 s of user time and cost 0.8–1.5 s of system time (faulting and compacting
//! huge pages on this machine); at `Hash 16` no difference showed.

use crate::variants::apocalypse::Move;

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry<M = Move> {
    /// The position's key (0: an empty slot).
    pub(crate) key: u64,
    /// The depth, in joint turns, that the bounds hold for.
    pub(crate) depth: u32,
    /// The value is at least this.
    pub(crate) lower: f64,
    /// The value is at most this.
    pub(crate) upper: f64,
    /// White's most likely move in the last solve, if any.
    pub(crate) white: Option<M>,
    /// Black's most likely move in the last solve, if any.
    pub(crate) black: Option<M>,
}

/// A stored entry with the search that wrote it, packed in 40 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot<M> {
    key: u64,
    lower: f64,
    upper: f64,
    depth: u16,
    generation: u8,
    white: Option<M>,
    black: Option<M>,
}

impl<M: Copy> Slot<M> {
    const EMPTY: Slot<M> = Slot {
        key: 0,
        lower: 0.0,
        upper: 1.0,
        depth: 0,
        generation: 0,
        white: None,
        black: None,
    };

    fn entry(&self) -> Entry<M> {
        Entry {
            key: self.key,
            depth: u32::from(self.depth),
            lower: self.lower,
            upper: self.upper,
            white: self.white,
            black: self.black,
        }
    }
}

/// Slots per bucket: the first keeps the deepest entry of the current search, the second
/// takes whatever comes.
const WAYS: usize = 2;

/// Why the sealed search's table cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JointTableError {
    /// A size outside 1..=`max` MiB.
    Size {
        /// The size asked for.
        mib: usize,
        /// The largest size allowed.
        max: usize,
    },
    /// The memory cannot be had.
    NoMemory {
        /// The bytes the table needs.
        bytes: usize,
    },
}

impl std::fmt::Display for JointTableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JointTableError::Size { mib, max } => {
                write!(f, "the sealed table needs 1..{max} MiB, got {mib}")
            }
            JointTableError::NoMemory { bytes } => {
                write!(f, "cannot allocate {bytes} bytes for the sealed table")
            }
        }
    }
}

impl std::error::Error for JointTableError {}

/// The sealed search's transposition table, sized in MiB (the `Hash` option) and kept
/// between the moves of a game: entries hold for their position and depth whatever the
/// history, so a later search may use them. Memory is taken by `JointTable::allocate` (a
/// session does so when it plays a sealed variant; a session playing alternating games never
/// pays for it) or else at the first search.
///
/// Buckets of two slots (depth-preferred and always-replace); the bucket of a key is its
/// high bits multiplied into the bucket count, so any count works and the size is within one
/// bucket of what was asked.
#[derive(Clone, Debug)]
pub struct JointTable<M = Move> {
    slots: Vec<Slot<M>>,
    buckets: usize,
    generation: u8,
    /// Slots that hold an entry (of any search).
    filled: usize,
    /// Probes that found their position.
    pub(crate) hits: u64,
}

impl<M: Copy> Default for JointTable<M> {
    /// The table of a one-off search (`quill bench`, the referee's players): 2^17 slots.
    fn default() -> JointTable<M> {
        JointTable::with_buckets(1 << 16)
    }
}

impl<M: Copy> JointTable<M> {
    /// The largest size, in MiB.
    pub(crate) const MAX_MIB: usize = 4096;
    /// Bytes of one slot.
    pub(crate) const SLOT_BYTES: usize = std::mem::size_of::<Slot<M>>();

    /// A table of `mib` MiB (allocated at first use).
    ///
    /// # Errors
    /// A size of 0 or above `JointTable::MAX_MIB`.
    pub fn with_mib(mib: usize) -> Result<JointTable<M>, JointTableError> {
        if !(1..=Self::MAX_MIB).contains(&mib) {
            return Err(JointTableError::Size {
                mib,
                max: Self::MAX_MIB,
            });
        }
        Ok(JointTable::with_buckets(
            (mib << 20) / (WAYS * Self::SLOT_BYTES),
        ))
    }

    fn with_buckets(buckets: usize) -> JointTable<M> {
        JointTable {
            slots: Vec::new(),
            buckets: buckets.max(1),
            generation: 0,
            filled: 0,
            hits: 0,
        }
    }

    /// The table's size in bytes once allocated.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets * WAYS * Self::SLOT_BYTES
    }

    /// Whether the memory has been taken.
    #[cfg(test)]
    pub(crate) fn is_allocated(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Empties the table (`ucinewgame`, `new`, `Clear Hash`), keeping its memory for the
    /// next search.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(Slot::EMPTY);
        self.filled = 0;
        self.hits = 0;
    }

    /// How full the table is, per mille of its slots: those that hold an entry of this
    /// search or an earlier one (UCI `hashfull`); 0 before its memory is taken.
    pub(crate) fn permille(&self) -> u32 {
        crate::search::permille(self.filled, self.slots.len())
    }

    /// Takes the table's memory now if it has not been taken (the session does so when `Hash`
    /// or the variant is set, so that no move's time pays for it).
    ///
    /// # Errors
    /// When the memory cannot be had (the table stays empty, and usable: every probe misses
    /// and nothing is stored).
    pub(crate) fn allocate(&mut self) -> Result<(), JointTableError> {
        if self.slots.is_empty() {
            let n = self.buckets * WAYS;
            let mut slots = Vec::new();
            slots
                .try_reserve_exact(n)
                .map_err(|_| JointTableError::NoMemory {
                    bytes: self.bytes(),
                })?;
            slots.resize(n, Slot::EMPTY);
            self.slots = slots;
        }
        Ok(())
    }

    /// Prepares a search: takes the memory if needed and ages the entries of earlier ones
    /// (they stay usable, but any new entry may replace them).
    ///
    /// # Errors
    /// When the memory cannot be had (the table stays empty, and usable: every probe misses
    /// and nothing is stored).
    pub(crate) fn new_search(&mut self) -> Result<(), JointTableError> {
        self.hits = 0;
        self.generation = self.generation.wrapping_add(1);
        self.allocate()
    }

    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets as u128) >> 64) as usize * WAYS
    }

    /// Starts loading the bucket of `key` into the cache, for a probe soon after (a hint:
    /// nothing on targets other than x86-64). A bucket of two 40-byte slots may span two
    /// cache lines; both are asked for.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        if !self.slots.is_empty() {
            let first: *const Slot<M> = &self.slots[self.bucket(key)];
            // The first and the last byte of the bucket.
            crate::search::prefetch_line(first);
            crate::search::prefetch_line(first.wrapping_add(WAYS).cast::<u8>().wrapping_sub(1));
        }
    }

    /// The entry of a key, if the table holds it.
    pub(crate) fn probe(&mut self, key: u64) -> Option<Entry<M>> {
        if self.slots.is_empty() || key == 0 {
            return None;
        }
        let b = self.bucket(key);
        let found = self.slots[b..b + WAYS]
            .iter()
            .find(|s| s.key == key)
            .map(Slot::entry);
        self.hits += u64::from(found.is_some());
        found
    }

    /// Stores an entry: over its own key's slot if present, else in the depth-preferred
    /// slot when it is at least as deep or from an earlier search, else in the other.
    pub(crate) fn store(&mut self, entry: Entry<M>) {
        if self.slots.is_empty() {
            return;
        }
        let b = self.bucket(entry.key);
        let generation = self.generation;
        let bucket = &mut self.slots[b..b + WAYS];
        let held = |bucket: &[Slot<M>]| bucket.iter().filter(|s| s.key != 0).count();
        let before = held(bucket);
        let i = if let Some(i) = bucket.iter().position(|s| s.key == entry.key) {
            i
        } else if bucket[0].generation != generation || entry.depth >= u32::from(bucket[0].depth) {
            // The displaced entry may still serve: it moves to the always-replace slot.
            bucket[1] = bucket[0];
            0
        } else {
            1
        };
        bucket[i] = Slot {
            key: entry.key,
            lower: entry.lower,
            upper: entry.upper,
            // Depths are at most MAX_DEPTH (64).
            depth: entry.depth.min(u32::from(u16::MAX)) as u16,
            generation,
            white: entry.white,
            black: entry.black,
        };
        // A slot of key 0 counts as empty, as a probe of key 0 always misses.
        self.filled = self.filled + held(bucket) - before;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u32) -> Entry {
        Entry {
            key,
            depth,
            ..Slot::<Move>::EMPTY.entry()
        }
    }

    #[test]
    fn the_size_is_what_was_asked() {
        assert_eq!(JointTable::<Move>::SLOT_BYTES, 40);
        for mib in [1, 3, 16, 100, 1000] {
            let t: JointTable = JointTable::with_mib(mib).unwrap();
            let asked = (mib << 20) as f64;
            let got = t.bytes() as f64;
            assert!(got <= asked && got > 0.99 * asked, "{mib} MiB: {got} bytes");
        }
        assert_eq!(
            JointTable::<Move>::with_mib(0).unwrap_err().to_string(),
            format!(
                "the sealed table needs 1..{} MiB, got 0",
                JointTable::<Move>::MAX_MIB
            )
        );
        assert!(JointTable::<Move>::with_mib(JointTable::<Move>::MAX_MIB + 1).is_err());
        let mut t: JointTable = JointTable::with_mib(1).unwrap();
        assert!(!t.is_allocated());
        t.new_search().unwrap();
        assert!(t.is_allocated());
        assert_eq!(t.slots.len() * JointTable::<Move>::SLOT_BYTES, t.bytes());
    }

    #[test]
    fn entries_survive_a_new_search_and_go_with_clear() {
        let mut t: JointTable = JointTable::with_mib(1).unwrap();
        assert_eq!(t.probe(7), None);
        t.new_search().unwrap();
        t.store(entry(7, 3));
        t.new_search().unwrap();
        assert_eq!(t.probe(7), Some(entry(7, 3)));
        t.clear();
        t.new_search().unwrap();
        assert_eq!(t.probe(7), None);
    }

    #[test]
    fn the_fill_counts_the_slots_that_hold_an_entry() {
        // One bucket of two slots: 500 per mille a slot.
        let mut t: JointTable = JointTable::with_buckets(1);
        assert_eq!(t.permille(), 0, "no memory yet");
        t.new_search().unwrap();
        let fill = |t: &JointTable| (t.filled, t.permille());
        assert_eq!(fill(&t), (0, 0));
        t.store(entry(1, 5));
        assert_eq!(fill(&t), (1, 500));
        // Its own key's slot again, then a second key.
        t.store(entry(1, 6));
        assert_eq!(fill(&t), (1, 500));
        t.store(entry(2, 1));
        assert_eq!(fill(&t), (2, 1000));
        // A third key replaces one: still full, and again in the next search, where the
        // deep entry moves to the other slot.
        t.store(entry(3, 1));
        assert_eq!(fill(&t), (2, 1000));
        t.new_search().unwrap();
        t.store(entry(4, 1));
        assert_eq!(fill(&t), (2, 1000));
        assert_eq!(t.probe(1), Some(entry(1, 6)));
        t.clear();
        assert_eq!(fill(&t), (0, 0));
        // A table of 1 MiB: 26,214 slots of 40 bytes.
        let mut t: JointTable = JointTable::with_mib(1).unwrap();
        t.new_search().unwrap();
        assert_eq!(t.slots.len(), 26_214);
        for key in 1..=100 {
            t.store(entry(key * 0x9e37_79b9_7f4a_7c15, 1));
        }
        let held = t.slots.iter().filter(|s| s.key != 0).count();
        assert_eq!(t.filled, held);
        assert_eq!(t.permille() as usize, held * 1000 / 26_214);
    }

    #[test]
    fn a_deep_entry_keeps_its_slot_within_a_search() {
        // One bucket: every key collides.
        let mut t: JointTable = JointTable::with_buckets(1);
        t.new_search().unwrap();
        t.store(entry(1, 5));
        t.store(entry(2, 1));
        t.store(entry(3, 1));
        assert_eq!(t.probe(1), Some(entry(1, 5)));
        assert_eq!(t.probe(2), None);
        assert_eq!(t.probe(3), Some(entry(3, 1)));
        // In the next search a shallow entry may take the deep one's slot; the deep one
        // moves to the other slot.
        t.new_search().unwrap();
        t.store(entry(4, 1));
        assert_eq!(t.probe(4), Some(entry(4, 1)));
        assert_eq!(t.probe(1), Some(entry(1, 5)));
        assert_eq!(t.probe(3), None);
    }
}
