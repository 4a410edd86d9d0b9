//! The transposition table: as many 16-byte entries in buckets of two as fit in the size
//! asked for (`Hash 100` is 100 MiB, not 64), indexed by the low 32 bits of a position key
//! (masked when the bucket count is a power of two, else mapped by a multiply) and checked by
//! its high 32 bits. The first
//! entry of a bucket keeps the deepest result of the current search, the second the latest
//! other one; the same position keeps its deeper result unless the new one is exact.
//!
//! Memory: a bucket is 32 bytes aligned to 32, so one probe touches one cache line; the
//! search prefetches a child's bucket ([`TransTable::prefetch`]) as soon as it knows the child's
//! key; and on Linux the table asks for transparent huge pages (`madvise(MADV_HUGEPAGE)` on the
//! 2 MiB-aligned part of its allocation, before the first touch), so that a big table does not
//! cost a TLB miss and a page walk at every probe. Where the kernel refuses (THP disabled) the
//! table works the same on ordinary pages.

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
    /// The best move's code plus one; 0 when none is known.
    mv: u64,
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

/// A transposition table.
#[derive(Clone, Debug)]
pub struct TransTable {
    buckets: Vec<Bucket>,
    mib: usize,
    age: u8,
    /// Whether the bucket count is a power of two (the index is then a mask of the key).
    power_of_two: bool,
}

/// Bytes of one entry.
const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

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

    /// A table of at most `mib` MiB (at least one bucket), every entry empty.
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
        // Whole buckets of two entries, at least one.
        let count = ((mib << 20) / SLOT_BYTES / 2).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|e| TableError::NoMemory {
                mib,
                why: e.to_string(),
            })?;
        advise_huge_pages(&mut buckets);
        buckets.resize(count, Bucket::default());
        Ok(TransTable {
            buckets,
            mib,
            age: 0,
            power_of_two: count.is_power_of_two(),
        })
    }

    /// The size asked for, in MiB.
    pub fn mib(&self) -> usize {
        self.mib
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.buckets.len() * 2
    }

    /// Whether the table has no entries (never: it has at least one bucket).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.age = 0;
    }

    /// Marks the start of a new search: entries of earlier ones give way to new ones.
    pub(crate) fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    /// The index of the bucket of `key`.
    fn bucket(&self, key: u64) -> usize {
        if self.power_of_two {
            // Bits 1 and up, as when the index counted entries (the same trees as before).
            (key as usize >> 1) & (self.buckets.len() - 1)
        } else {
            // The low 32 bits scaled to the bucket count (fewer than 2^32 buckets).
            let buckets = self.buckets.len() as u64;
            (((key & 0xffff_ffff) * buckets) >> 32) as usize
        }
    }

    /// Starts loading the bucket of `key` into the cache, for a probe soon after (a hint:
    /// nothing on targets other than x86-64).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch_line(&self.buckets[self.bucket(key)]);
    }

    /// The entry stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let i = self.bucket(key);
        let check = (key >> 32) as u32;
        let slot = self.buckets[i]
            .0
            .iter()
            .find(|s| s.bound & 3 != 0 && s.check == check)?;
        let bound = match slot.bound & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            depth: u32::from(slot.depth),
            bound,
            score: i32::from(slot.score),
            mv: slot.mv.checked_sub(1),
        })
    }

    /// Stores a result for `key`. The same position keeps a deeper result unless the new one
    /// is exact; without a move it keeps its old move. Another position's entry gives way in
    /// the first slot when it is shallower or from an earlier search, else in the second.
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: u32,
        bound: Bound,
        score: i32,
        mv: Option<u64>,
    ) {
        let i = self.bucket(key);
        let check = (key >> 32) as u32;
        let used = |s: &Slot| s.bound & 3 != 0;
        let age = self.age;
        let slots = &mut self.buckets[i].0;
        let same = (0..2).find(|&j| used(&slots[j]) && slots[j].check == check);
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
            mv: mv.map_or(old_mv, |code| code.wrapping_add(1)),
        };
        if let Some(j) = same {
            let old = slots[j];
            if bound == Bound::Exact || u32::from(old.depth) <= depth {
                slots[j] = new(old.mv);
            }
            return;
        }
        let first = slots[0];
        if !used(&first) || first.bound >> 2 != age || u32::from(first.depth) <= depth {
            slots[1] = first;
            slots[0] = new(0);
        } else {
            slots[1] = new(0);
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

    #[test]
    fn a_table_fills_the_size_asked_for_with_16_byte_entries() {
        assert_eq!(SLOT_BYTES, 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
        assert_eq!(std::mem::align_of::<Bucket>(), 32);
        assert_eq!(TransTable::new(1).unwrap().len(), 65_536);
        assert_eq!(TransTable::new(3).unwrap().len(), 196_608);
        assert_eq!(TransTable::new(100).unwrap().len() * SLOT_BYTES, 100 << 20);
        assert_eq!(TransTable::new(0).unwrap().len(), 2);
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
            let mut t = TransTable::new(mib).unwrap();
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
        let t = TransTable::new(3).unwrap();
        let top = (0..4096u64).map(|k| t.bucket(k << 20)).max().unwrap();
        assert!(top > t.len() / 2 * 9 / 10, "{top} of {}", t.len() / 2);
    }

    #[test]
    fn store_probe_round_trip() {
        let mut t = TransTable::new(1).unwrap();
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
}
