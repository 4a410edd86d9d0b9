//! The transposition table: as many 16-byte entries in buckets of two as fit in the size
//! asked for (`Hash 100` is 100 MiB, not 64), indexed by bits 1–27 of a position key and
//! checked by its high 32 bits. The first entry of a bucket keeps the deepest result of the
//! current search, the second the latest other one; the same position keeps its deeper result
//! unless the new one is exact.
//!
//! **Two parts.** Quiescence keeps its results in a part of its own: the largest power of two
//! of buckets of at most a quarter of the table and at most 1 MiB (1 MiB at the default
//! `Hash 16`, which then leaves 15 MiB to the main search), small enough to stay in a core's
//! cache; the main search's nodes use the rest. In Gladiator and Brawl ~97 % of the nodes are
//! quiescence nodes, so when both shared one table their entries filled it, a big table
//! widened past the processor's cache and every probe waited on memory. A main node that has
//! no move in its own part takes the one quiescence found for the same position (it was a
//! quiescence node in the iteration before), and a quiescence node with no capture to try
//! stores nothing (its score is the static one, which the evaluation cache keeps). Measured
//! (`cargo bench --bench alt_search`, 2026-12-08, two interleaved runs against the single
//! table): Gladiator to depth 5 at Hash 16 in 9 % less CPU time and at Hash 256 in 19 % less,
//! at the same speed per node at both sizes (the single table was 12 % slower at 256), Brawl 9 %
//! less; Pagan's depth-10 bench 6 % more, its depth-13 and -14 searches 10 % less. A bigger
//! quiescence part (4 or 8 MiB) saved 1–2 % of the nodes and no time.
//!
//! Memory: a bucket is 32 bytes aligned to 32, so one probe touches one cache line; the
//! search prefetches a child's bucket ([`TransTable::prefetch`]) as soon as it knows the child's
//! key; and on Linux the table asks for transparent huge pages (`madvise(MADV_HUGEPAGE)` on the
//! 2 MiB-aligned part of its allocation, before the first touch), so that a big table does not
//! cost a TLB miss and a page walk at every probe. Where the kernel refuses (THP disabled) the
//! table works the same on ordinary pages.
//!
//! **A big table grows into its memory.** All of it is allocated and touched when it is made,
//! but a table of more than [`GROW_FROM_MIB`] starts by using only its first 16 MiB, and
//! widens one bucket at a time (linear hashing: bucket `i` splits into `i` and `i + 2^k`, by
//! bit `k` of the index bits, which each entry keeps) while more than three quarters of its
//! entries in use are filled, until it uses all of them. A short search so stays in a part of
//! the table that fits in the processor's cache, where most probes of a 256 MiB table used to
//! wait on memory (a Gladiator `go depth 6` from the start at Hash 256: 2.26 million reads
//! that missed a simulated 32 MiB cache before, 0.25 million after; `benches/alt_search.rs`;
//! widening at three quarters rather than half, that search does not widen it at all and
//! walks Hash 16's tree as fast, where widening to 23 MiB cost it 2 %), and a long one, or a
//! game whose table is kept between moves, gets all of it. Nothing is lost when it
//! widens: every entry stays where a probe looks for it. Below that size (the default 16 MiB
//! included) a table uses all its buckets from the start, mapped by a mask when their count is
//! a power of two and by a multiply otherwise.

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

impl Bound {
    /// What a search's `best` score is, for a window opened as (`alpha`, `beta`).
    pub(crate) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    check: u32,
    score: i16,
    depth: u8,
    /// Low two bits: 0 empty; 1, 2, 3 [`Bound::Exact`], [`Bound::Lower`], [`Bound::Upper`].
    /// High six bits: the search that stored it ([`TransTable::new_search`]).
    bound: u8,
    /// Low 56 bits: the best move's code plus one, 0 when none is known. High 8 bits: bits
    /// 19–26 of the key's index bits ([`index_bits`]), by which a growing table splits a
    /// bucket.
    mv: u64,
}

/// The bits of [`Slot::mv`] that hold the move.
const MOVE_BITS: u64 = (1 << 56) - 1;

impl Slot {
    fn used(&self) -> bool {
        self.bound & 3 != 0
    }

    /// The best move's code plus one (0: none).
    fn move_plus_one(&self) -> u64 {
        self.mv & MOVE_BITS
    }

    /// Bit `k` of the index bits of the key it was stored for (`k` from [`GROW_K`] up).
    fn index_bit(&self, k: u32) -> bool {
        (self.mv >> 56) >> (k - GROW_K) & 1 == 1
    }
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Remaining depth the score was searched to.
    pub(crate) depth: u32,
    /// The bound type.
    pub(crate) bound: Bound,
    /// The score, as stored (mate scores relative to the stored node; see `search`).
    pub(crate) score: i32,
    /// The best move's code (see `Searchable::code`), if one is known.
    pub(crate) mv: Option<u64>,
}

/// Two entries that share a cache line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
struct Bucket([Slot; 2]);

/// A transposition table: the main search's part, and quiescence's (see the module
/// documentation).
#[derive(Clone, Debug)]
pub struct TransTable {
    main: Part,
    quiescence: Part,
    mib: usize,
}

/// One part of a [`TransTable`]: buckets, how keys map to them, and how many hold a result.
#[derive(Clone, Debug)]
struct Part {
    buckets: Vec<Bucket>,
    age: u8,
    /// How keys map to buckets, and how many are in use.
    map: Map,
    /// Slots of the buckets in use that hold an entry (of any search).
    filled: usize,
}

/// How a table maps a key's index bits ([`index_bits`]) to a bucket: by a multiply (`scale`:
/// a bucket count that is no power of two, all in use, at most 16 MiB), or by linear hashing
/// over the first `2^k + split` buckets, by the low `k` bits, or `k + 1` below `split` (the
/// buckets already split into `i` and `i + 2^k`). A table of a power of two buckets, all in
/// use, has `split` 0: its bits masked. The masks and the fill that widens it are kept ready
/// for the probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Map {
    scale: bool,
    k: u32,
    split: usize,
    /// `2^k - 1`.
    low: usize,
    /// Buckets in use: `2^k + split`, or all of them when `scale`.
    live: usize,
    /// The filled entries beyond which it widens: `live · 3 / 2` (three quarters of the
    /// entries in use) while it uses fewer buckets than it has, else never.
    grow_at: usize,
}

impl Map {
    /// Linear hashing over `2^k + split` of `count` buckets.
    fn linear(k: u32, split: usize, count: usize) -> Map {
        let live = (1 << k) + split;
        Map {
            scale: false,
            k,
            split,
            low: (1 << k) - 1,
            live,
            grow_at: if live < count {
                live * 3 / 2
            } else {
                usize::MAX
            },
        }
    }

    /// How a table of `count` buckets maps keys when it is new or cleared.
    fn first(count: usize) -> Map {
        if count > 1 << GROW_K {
            Map::linear(GROW_K, 0, count)
        } else if count.is_power_of_two() {
            Map::linear(count.trailing_zeros(), 0, count)
        } else {
            Map {
                scale: true,
                live: count,
                ..Map::linear(0, 0, 1)
            }
        }
    }
}

/// A table of more than this many MiB starts on this many and grows into the rest.
const GROW_FROM_MIB: usize = 16;
/// log2 of the buckets a growing table starts with: 19, 16 MiB of 32-byte buckets (8 bits of
/// index, 19–26, are then kept in each entry).
const GROW_K: u32 = ((GROW_FROM_MIB << 20) / std::mem::size_of::<Bucket>()).trailing_zeros();
const _: () = assert!(GROW_K + 8 == INDEX_BITS);
/// The key bits that index buckets: bits 1–27 (a table has at most 2^27 buckets).
const INDEX_BITS: u32 = 27;

/// A key's index bits: bits 1–27 (bit 0 is left out, as when the index counted entries).
fn index_bits(key: u64) -> usize {
    (key >> 1) as usize & ((1 << INDEX_BITS) - 1)
}

/// Bytes of one bucket (two entries).
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

/// Why a transposition table cannot be made (the `Hash` option, CECP `memory`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// More MiB than a table may have.
    TooLarge {
        /// The size asked for.
        mib: usize,
        /// The largest size allowed.
        max: usize,
    },
    /// The memory cannot be had.
    NoMemory {
        /// The size asked for.
        mib: usize,
        /// The allocator's reason.
        why: String,
    },
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::TooLarge { mib, max } => write!(f, "at most {max} MiB, not {mib}"),
            TableError::NoMemory { mib, why } => write!(f, "cannot allocate {mib} MiB: {why}"),
        }
    }
}

impl std::error::Error for TableError {}

impl TransTable {
    /// Default size in MiB (UCI `Hash`).
    pub(crate) const DEFAULT_MIB: usize = 16;
    /// Largest size in MiB a GUI may ask for.
    pub(crate) const MAX_MIB: usize = 4096;

    /// A table of at most `mib` MiB (at least one bucket a part), every entry empty.
    ///
    /// # Errors
    /// When `mib` exceeds `TransTable::MAX_MIB` or the memory cannot be had.
    pub fn new(mib: usize) -> Result<TransTable, TableError> {
        if mib > Self::MAX_MIB {
            return Err(TableError::TooLarge {
                mib,
                max: Self::MAX_MIB,
            });
        }
        let (main, quiescence) = split_buckets(mib);
        let no_memory = |why: String| TableError::NoMemory { mib, why };
        Ok(TransTable {
            main: Part::new(main).map_err(no_memory)?,
            quiescence: Part::new(quiescence).map_err(no_memory)?,
            mib,
        })
    }

    /// Entries in use: all of them but in a big table that is still growing.
    pub fn in_use(&self) -> usize {
        self.main.in_use() + self.quiescence.in_use()
    }

    /// Entries that hold a result (of this search or an earlier one), of those in use.
    pub fn filled(&self) -> usize {
        self.main.filled() + self.quiescence.filled()
    }

    /// How full the table is, per mille of all its entries (of the whole `Hash`, the part
    /// a big table does not use yet included): those that hold a result of this search or
    /// an earlier one (UCI `hashfull`).
    pub(crate) fn permille(&self) -> u32 {
        super::permille(self.filled(), self.len())
    }

    /// The size asked for, in MiB.
    pub fn mib(&self) -> usize {
        self.mib
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.main.len() + self.quiescence.len()
    }

    /// Whether the table has no entries (never: it has at least one bucket).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Empties every entry (and a big table goes back to its first 16 MiB).
    pub fn clear(&mut self) {
        self.main.clear();
        self.quiescence.clear();
    }

    /// Marks the start of a new search: entries of earlier ones give way to new ones.
    pub(crate) fn new_search(&mut self) {
        self.main.new_search();
        self.quiescence.new_search();
    }

    /// The part that keeps the results of `tier`'s nodes.
    fn part(&self, tier: Tier) -> &Part {
        match tier {
            Tier::Main => &self.main,
            Tier::Quiescence => &self.quiescence,
        }
    }

    /// Starts loading the bucket of `key` in `tier`'s part into the cache, for a probe soon
    /// after (a hint: nothing on targets other than x86-64).
    #[inline]
    pub(crate) fn prefetch(&self, tier: Tier, key: u64) {
        self.part(tier).prefetch(key);
    }

    /// The entry for `key` in `tier`'s part, if any.
    pub(crate) fn probe(&self, tier: Tier, key: u64) -> Option<Hit> {
        self.part(tier).probe(key)
    }

    /// Stores a result for `key` in `tier`'s part (see [`Part::store`]).
    pub(crate) fn store(
        &mut self,
        tier: Tier,
        key: u64,
        depth: u32,
        bound: Bound,
        score: i32,
        mv: Option<u64>,
    ) {
        let part = match tier {
            Tier::Main => &mut self.main,
            Tier::Quiescence => &mut self.quiescence,
        };
        part.store(key, depth, bound, score, mv);
    }
}

/// Which part of a [`TransTable`] a node's result belongs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tier {
    /// A node of the main search (depth 1 or more).
    Main,
    /// A quiescence node.
    Quiescence,
}

/// The most quiescence's part of a table takes: 1 MiB, which a core's second-level cache
/// can hold.
const QUIESCENCE_MAX_BUCKETS: usize = (1 << 20) / BUCKET_BYTES;

/// How the whole buckets of `mib` MiB are shared out: quiescence's part the largest power of
/// two of at most a quarter of them and at most [`QUIESCENCE_MAX_BUCKETS`], at least one; the
/// main search's part the rest, at least one.
fn split_buckets(mib: usize) -> (usize, usize) {
    let all = (mib << 20) / BUCKET_BYTES;
    let quiescence = 1 << (all / 4).clamp(1, QUIESCENCE_MAX_BUCKETS).ilog2();
    ((all - quiescence.min(all)).max(1), quiescence)
}

impl Part {
    /// A part of `count` buckets (at least one), every entry empty.
    ///
    /// # Errors
    /// The allocator's reason when the memory cannot be had.
    fn new(count: usize) -> Result<Part, String> {
        let count = count.max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|e| e.to_string())?;
        advise_huge_pages(&mut buckets);
        buckets.resize(count, Bucket::default());
        Ok(Part {
            buckets,
            age: 0,
            map: Map::first(count),
            filled: 0,
        })
    }

    /// Entries in use: all of them but in a big table that is still growing.
    fn in_use(&self) -> usize {
        self.map.live * 2
    }

    /// Entries that hold a result, of those in use.
    fn filled(&self) -> usize {
        self.filled
    }

    /// Number of entries.
    fn len(&self) -> usize {
        self.buckets.len() * 2
    }

    /// Empties every entry (and a big table goes back to its first 16 MiB).
    fn clear(&mut self) {
        // The buckets past those in use are empty already.
        self.buckets[..self.map.live].fill(Bucket::default());
        self.age = 0;
        self.map = Map::first(self.buckets.len());
        self.filled = 0;
    }

    /// Marks the start of a new search: entries of earlier ones give way to new ones.
    fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    /// The index of the bucket of `key`.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let map = &self.map;
        if map.scale {
            // The low 32 bits scaled to the bucket count (fewer than 2^32 buckets).
            let buckets = self.buckets.len() as u64;
            return (((key & 0xffff_ffff) * buckets) >> 32) as usize;
        }
        let bits = index_bits(key);
        let i = bits & map.low;
        if i < map.split {
            bits & (map.low << 1 | 1)
        } else {
            i
        }
    }

    /// Widens a growing table by one bucket: bucket `split` splits into itself and `split +
    /// 2^k` by bit `k` of its entries' index bits (each keeps its slot order; the new bucket,
    /// never used since the table was made or cleared, is empty), so every entry stays where
    /// [`Part::bucket`] looks for it.
    fn split_one(&mut self) {
        let Map { k, split, live, .. } = self.map;
        if self.map.scale || live == self.buckets.len() {
            return;
        }
        let (low, high) = (split, split + (1 << k));
        let mut parts = [[Slot::default(); 2]; 2];
        let mut counts = [0; 2];
        for slot in self.buckets[low].0 {
            if slot.used() {
                let part = usize::from(slot.index_bit(k));
                parts[part][counts[part]] = slot;
                counts[part] += 1;
            }
        }
        self.buckets[low] = Bucket(parts[0]);
        self.buckets[high] = Bucket(parts[1]);
        let (k, split) = if split + 1 == 1 << k {
            (k + 1, 0)
        } else {
            (k, split + 1)
        };
        self.map = Map::linear(k, split, self.buckets.len());
    }

    /// Starts loading the bucket of `key` into the cache.
    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch_line(&self.buckets[self.bucket(key)]);
    }

    /// The entry stored for `key`, if any.
    fn probe(&self, key: u64) -> Option<Hit> {
        let i = self.bucket(key);
        let check = (key >> 32) as u32;
        let slot = self.buckets[i]
            .0
            .iter()
            .find(|s| s.used() && s.check == check)?;
        let bound = match slot.bound & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            depth: u32::from(slot.depth),
            bound,
            score: i32::from(slot.score),
            mv: slot.move_plus_one().checked_sub(1),
        })
    }

    /// Stores a result for `key`. The same position keeps a deeper result unless the new one
    /// is exact; without a move it keeps its old move. Another position's entry gives way in
    /// the first slot when it is shallower or from an earlier search, else in the second.
    fn store(&mut self, key: u64, depth: u32, bound: Bound, score: i32, mv: Option<u64>) {
        let i = self.bucket(key);
        let check = (key >> 32) as u32;
        let age = self.age;
        // Bits 19-26 of the index bits, for the splits of a growing table.
        let high = ((index_bits(key) >> GROW_K) as u64) << 56;
        let slots = &mut self.buckets[i].0;
        let same = (0..2).find(|&j| slots[j].used() && slots[j].check == check);
        let new = |old_mv: u64| Slot {
            check,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth.min(255) as u8,
            bound: age << 2
                | match bound {
                    Bound::Exact => 1,
                    Bound::Lower => 2,
                    Bound::Upper => 3,
                },
            mv: high | mv.map_or(old_mv, |code| code.wrapping_add(1) & MOVE_BITS),
        };
        if let Some(j) = same {
            let old = slots[j];
            if bound == Bound::Exact || u32::from(old.depth) <= depth {
                slots[j] = new(old.move_plus_one());
            }
            return;
        }
        // Either way the second slot is overwritten: the table holds one entry more unless
        // it held one there.
        self.filled += usize::from(!slots[1].used());
        let first = slots[0];
        if !first.used() || first.bound >> 2 != age || u32::from(first.depth) <= depth {
            slots[1] = first;
            slots[0] = new(0);
        } else {
            slots[1] = new(0);
        }
        // A growing table widens while more than three quarters of the entries in use hold
        // one: by two buckets (four entries, three more before the next widening) a store,
        // faster than stores fill them.
        if self.filled > self.map.grow_at {
            self.split_one();
            self.split_one();
        }
    }
}

/// Asks Linux to back the part of `buf`'s allocation that covers whole 2 MiB pages with
/// transparent huge pages. Advice only: a refusal leaves ordinary pages (logged at debug).
fn advise_huge_pages<T>(buf: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = buf.as_mut_ptr() as usize;
        let end = start + buf.capacity() * std::mem::size_of::<T>();
        let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if last > first {
            // SAFETY: the range lies inside the allocation `buf` owns and nothing refers to
            // it yet; MADV_HUGEPAGE changes only how the kernel backs it, not its contents.
            let rc = unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                )
            };
            if rc != 0 {
                log::debug!(
                    "no huge pages for the table: {}",
                    std::io::Error::last_os_error()
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}

impl Default for TransTable {
    fn default() -> TransTable {
        TransTable::new(TransTable::DEFAULT_MIB).expect("the default table fits in memory")
    }
}

/// Starts loading the cache line that holds `at` (a hint: nothing on targets other than
/// x86-64). The one place both transposition tables prefetch through.
#[inline(always)]
pub(crate) fn prefetch_line<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch only hints the cache, whatever the address; it never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of one entry.
    const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

    /// A part of `mib` MiB, all its buckets in use.
    fn part(mib: usize) -> Part {
        Part::new((mib << 20) / BUCKET_BYTES).unwrap()
    }

    #[test]
    fn a_table_fills_the_size_asked_for_with_16_byte_entries() {
        assert_eq!(SLOT_BYTES, 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
        assert_eq!(std::mem::align_of::<Bucket>(), 32);
        assert_eq!(TransTable::new(1).unwrap().len(), 65_536);
        assert_eq!(TransTable::new(3).unwrap().len(), 196_608);
        assert_eq!(TransTable::new(100).unwrap().len() * SLOT_BYTES, 100 << 20);
        assert_eq!(TransTable::new(0).unwrap().len(), 4, "a bucket a part");
        // Quiescence's part: a quarter, a power of two, at most 1 MiB.
        for (mib, quiescence) in [(0, 1), (1, 8192), (3, 16_384), (16, 32_768), (256, 32_768)] {
            let t = TransTable::new(mib).unwrap();
            assert_eq!(t.quiescence.buckets.len(), quiescence, "{mib} MiB");
            assert_eq!(
                t.main.buckets.len(),
                ((mib << 20) / 32).saturating_sub(quiescence).max(1),
                "{mib} MiB"
            );
        }
        assert_eq!(
            TransTable::new(TransTable::MAX_MIB + 1)
                .unwrap_err()
                .to_string(),
            "at most 4096 MiB, not 4097"
        );
    }

    #[test]
    fn every_key_maps_into_a_table_of_any_size() {
        for mib in [1, 3, 100] {
            let mut t = part(mib);
            for key in [
                0,
                1,
                u64::MAX,
                0xffff_ffff,
                0x8000_0000_0000_0000,
                0x1234_5678_9abc,
            ] {
                let i = t.bucket(key);
                assert!(i < t.len() / 2, "{mib} MiB, key {key:x}: {i}");
                t.store(key, 3, Bound::Exact, 11, Some(5));
                assert_eq!(t.probe(key).map(|h| h.score), Some(11));
            }
        }
        // Keys that differ only in their low bits spread over the whole table.
        let t = part(3);
        let top = (0..4096u64).map(|k| t.bucket(k << 20)).max().unwrap();
        assert!(top > t.len() / 2 * 9 / 10, "{top} of {}", t.len() / 2);
    }

    /// A key whose index bits are `bits` and whose check is `check`.
    fn key_of(bits: usize, check: u32) -> u64 {
        u64::from(check) << 32 | (bits as u64) << 1
    }

    #[test]
    fn a_big_table_starts_on_16_mib_and_grows_into_all_of_it_losing_nothing() {
        // 17 MiB: 2^19 + 2^15 buckets, a count that is no power of two.
        for (mib, power_of_two) in [(17, false), (32, true)] {
            let mut t = part(mib);
            let all = t.len();
            assert_eq!(all * SLOT_BYTES, mib << 20);
            assert_eq!(t.in_use(), 2 << GROW_K);
            // Keys spread over every index bit, each stored once with its own move (twice as
            // many as it has entries: some fall on a full bucket).
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            let mut keys = Vec::new();
            for n in 0..2 * all as u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let key = x;
                t.store(
                    key,
                    1 + (n % 50) as u32,
                    Bound::Exact,
                    (n % 1000) as i32,
                    Some(n),
                );
                keys.push((key, n));
                let live = t.in_use() / 2;
                assert!(
                    t.bucket(key) < live,
                    "{mib} MiB: key {key:x} out of the part in use"
                );
                // It widens only while more than three quarters of what it uses is filled.
                assert!(t.filled() <= t.in_use() * 3 / 4 + 4 || t.in_use() == all);
            }
            assert_eq!(t.in_use(), all, "{mib} MiB: grown to all of it");
            assert_eq!(t.map.split == 0, power_of_two);
            assert_eq!(t.map.grow_at, usize::MAX);
            // Every entry still there is found under its own key, with its own move, and
            // the count of filled entries is what the table holds.
            let held = t
                .buckets
                .iter()
                .flat_map(|b| b.0)
                .filter(Slot::used)
                .count();
            assert_eq!(held, t.filled());
            // `hashfull` counts them per mille of the whole table.
            assert!(held > all / 2, "{mib} MiB: {held} of {all}");
            assert_eq!(
                crate::search::permille(t.filled(), t.len()) as usize,
                held * 1000 / all
            );
            let found = keys
                .iter()
                .filter(|&&(key, n)| t.probe(key).is_some_and(|h| h.mv == Some(n)))
                .count();
            assert_eq!(found, held, "{mib} MiB: every held entry is found");
            // Clearing takes it back to its first 16 MiB, empty.
            t.clear();
            assert_eq!((t.in_use(), t.filled()), (2 << GROW_K, 0));
            assert!(keys.iter().all(|&(key, _)| t.probe(key).is_none()));
            assert!(t.buckets.iter().all(|b| !b.0[0].used() && !b.0[1].used()));
        }
    }

    #[test]
    fn a_split_sends_each_entry_by_its_own_index_bit() {
        let mut t = part(32);
        // Bucket 0 holds two keys that differ in index bit 19 only.
        let (stay, go) = (key_of(0, 7), key_of(1 << GROW_K, 8));
        t.store(stay, 4, Bound::Lower, 1, Some(3));
        t.store(go, 2, Bound::Upper, 2, Some(4));
        assert_eq!((t.bucket(stay), t.bucket(go)), (0, 0));
        t.split_one();
        assert_eq!(
            (t.map.k, t.map.split, t.in_use()),
            (GROW_K, 1, (2 << GROW_K) + 2)
        );
        assert_eq!((t.bucket(stay), t.bucket(go)), (0, 1 << GROW_K));
        assert_eq!(t.probe(stay).map(|h| (h.depth, h.mv)), Some((4, Some(3))));
        assert_eq!(t.probe(go).map(|h| (h.depth, h.mv)), Some((2, Some(4))));
        assert!(!t.buckets[0].0[1].used());
        // A move code of 55 bits survives the index bits kept beside it.
        let long = key_of((1 << INDEX_BITS) - 1, 9);
        t.store(long, 1, Bound::Exact, 0, Some((1 << 55) - 1));
        assert_eq!(t.probe(long).unwrap().mv, Some((1 << 55) - 1));
    }

    #[test]
    fn store_probe_round_trip() {
        let mut t = part(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(t.probe(key), None);
        t.store(key, 5, Bound::Lower, -29_990, Some(42));
        let hit = t.probe(key).unwrap();
        assert_eq!(
            hit,
            Hit {
                depth: 5,
                bound: Bound::Lower,
                score: -29_990,
                mv: Some(42)
            }
        );
        // Another position in the same slot is not mistaken for it.
        assert_eq!(t.probe(key ^ (1 << 40)), None);
        // A shallower bound for the same position keeps the deeper one.
        t.store(key, 3, Bound::Upper, 7, None);
        assert_eq!(t.probe(key).unwrap().depth, 5);
        // A deeper one replaces it and keeps the move when it has none.
        t.store(key, 6, Bound::Exact, 7, None);
        let hit = t.probe(key).unwrap();
        assert_eq!(
            (hit.depth, hit.bound, hit.score, hit.mv),
            (6, Bound::Exact, 7, Some(42))
        );
        // Two more positions of the same bucket: the shallower goes to the second slot, and
        // a third one replaces it there while the deep one stays.
        let (other, third) = (key ^ (1 << 40), key ^ (1 << 41));
        t.store(other, 1, Bound::Exact, 0, Some(0));
        assert_eq!(t.probe(other).unwrap().mv, Some(0));
        assert_eq!(t.probe(key).unwrap().depth, 6);
        t.store(third, 2, Bound::Upper, 1, None);
        assert_eq!(t.probe(other), None);
        assert_eq!(t.probe(key).unwrap().depth, 6);
        assert_eq!(t.probe(third).unwrap().mv, None);
        // In a later search the deep entry gives way.
        t.new_search();
        t.store(other, 1, Bound::Exact, 0, Some(0));
        assert_eq!(t.probe(other).unwrap().depth, 1);
        assert_eq!(t.probe(key).unwrap().depth, 6);
        assert_eq!(t.probe(third), None);
        // Clearing empties it.
        t.clear();
        assert_eq!(t.probe(key), None);
    }

    #[test]
    fn quiescence_keeps_its_results_in_its_own_part() {
        let mut t = TransTable::new(256).unwrap();
        let (key, other) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        t.store(Tier::Quiescence, key, 0, Bound::Lower, 40, Some(7));
        t.store(Tier::Main, other, 3, Bound::Exact, -5, Some(9));
        assert_eq!(t.probe(Tier::Main, key), None, "not in the main part");
        assert_eq!(
            t.probe(Tier::Quiescence, other),
            None,
            "not in quiescence's"
        );
        assert_eq!(
            t.probe(Tier::Quiescence, key),
            Some(Hit {
                depth: 0,
                bound: Bound::Lower,
                score: 40,
                mv: Some(7)
            })
        );
        assert_eq!(t.probe(Tier::Main, other).map(|h| h.mv), Some(Some(9)));
        // Both count in the fill; a 256 MiB table starts on 16 MiB of its main part and all
        // of quiescence's 1 MiB.
        assert_eq!(t.filled(), 2);
        assert_eq!(t.in_use(), ((16 + 1) << 20) / SLOT_BYTES);
        assert_eq!(t.len() * SLOT_BYTES, 256 << 20);
        t.clear();
        assert_eq!((t.probe(Tier::Quiescence, key), t.filled()), (None, 0));
    }
}
