//! The indexing scheme of the Apocalypse tablebase (`protocol-docs/tablebase.md`, "Indexing").
//!
//! Positions are grouped by *material signature*: the numbers of White footmen, White
//! horsemen, Black footmen and Black horsemen. A signature is in a table of `N` pieces when both
//! sides have a footman (without one a side has already lost) and the four numbers sum to at
//! most `N`. Inside a signature a position's index is a mixed-radix number of four
//! combinatorial ranks:
//!
//! 1. the White footmen's square set, ranked among the *canonical* sets of that size (those no
//!    greater, as a bit set, than their left-right mirror), in increasing order;
//! 2. the White horsemen's squares, ranked (combinadic) among the squares the White footmen
//!    leave free;
//! 3. the Black footmen's squares among the squares still free;
//! 4. the Black horsemen's squares among the squares still free.
//!
//! Positions whose White footman set is not canonical are mirrored first (the rules are
//! symmetric under the mirror a↔e), so the table holds about half the positions. Penalty
//! points and counters are not part of the index: with deliberately illegal moves not counted as
//! strategies (as in perft and the search), penalty points never change during play, and a
//! position's value does not depend on them while both are below 2 (see the format page).

use crate::variant::Side;
use crate::variants::apocalypse::Position;

/// Squares of the board.
const SQUARES: u32 = 25;
/// The largest piece count an index is defined for (the binomial table's reach).
pub(crate) const MAX_PIECES: u32 = 6;

/// Binomial coefficients `C(n, k)` for `n` ≤ 25, `k` ≤ [`MAX_PIECES`].
const fn binomials() -> [[u64; MAX_PIECES as usize + 1]; SQUARES as usize + 1] {
    let mut c = [[0u64; MAX_PIECES as usize + 1]; SQUARES as usize + 1];
    let mut n = 0;
    while n <= SQUARES as usize {
        c[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES as usize {
            c[n][k] = if n == 0 {
                0
            } else {
                c[n - 1][k - 1] + c[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    c
}

const BINOMIAL: [[u64; MAX_PIECES as usize + 1]; SQUARES as usize + 1] = binomials();

fn choose(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The left-right mirror of a set of squares (file a ↔ e on every rank).
pub(crate) fn mirror(bb: u32) -> u32 {
    let mut out = 0;
    for rank in 0..5 {
        let row = (bb >> (rank * 5)) & 0b11111;
        let mut rev = 0;
        for f in 0..5 {
            if row >> f & 1 == 1 {
                rev |= 1 << (4 - f);
            }
        }
        out |= rev << (rank * 5);
    }
    out
}

/// A material signature: how many pieces of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// White footmen.
    pub wf: u8,
    /// White horsemen.
    pub wh: u8,
    /// Black footmen.
    pub bf: u8,
    /// Black horsemen.
    pub bh: u8,
}

impl Signature {
    /// The signature of a position.
    pub fn of(pos: &Position) -> Signature {
        let n = |bb: u32| bb.count_ones() as u8;
        Signature {
            wf: n(pos.footmen(Side::White)),
            wh: n(pos.horsemen(Side::White)),
            bf: n(pos.footmen(Side::Black)),
            bh: n(pos.horsemen(Side::Black)),
        }
    }

    /// Pieces on the board.
    pub fn pieces(self) -> u32 {
        u32::from(self.wf) + u32::from(self.wh) + u32::from(self.bf) + u32::from(self.bh)
    }

    /// Every signature of a table of at most `pieces` pieces, in table order: fewer pieces
    /// first, then fewer footmen (so that every move leads to an earlier signature or stays
    /// in its own), then by the four numbers.
    pub(crate) fn all(pieces: u32) -> Vec<Signature> {
        let top = pieces.min(MAX_PIECES) as u8;
        let mut out = Vec::new();
        for wf in 1..=top {
            for bf in 1..=top {
                for wh in 0..=top {
                    for bh in 0..=top {
                        let s = Signature { wf, wh, bf, bh };
                        if s.pieces() <= u32::from(top) {
                            out.push(s);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|s| (s.pieces(), s.wf + s.bf, *s));
        out
    }

    /// Whether a position of this signature can become one of `s` (or is one): no side gains
    /// footmen, nor footmen and horsemen together (moves capture and promote, nothing else).
    pub(crate) fn reaches(self, s: Signature) -> bool {
        s.wf <= self.wf
            && s.bf <= self.bf
            && s.wf + s.wh <= self.wf + self.wh
            && s.bf + s.bh <= self.bf + self.bh
    }

    /// A small number naming the signature, for direct lookup tables.
    pub(crate) fn slot(self) -> usize {
        let b = MAX_PIECES as usize + 1;
        ((usize::from(self.wf) * b + usize::from(self.wh)) * b + usize::from(self.bf)) * b
            + usize::from(self.bh)
    }

    /// The size of [`Signature::slot`]'s range.
    pub(crate) const SLOTS: usize = (MAX_PIECES as usize + 1).pow(4);
}

/// The canonical White footman sets of each size, for ranking and unranking.
pub(crate) struct Footmen {
    sets: Vec<Vec<u32>>,
}

impl Footmen {
    /// The canonical sets of every size up to `max` footmen.
    pub(crate) fn new(max: u32) -> Footmen {
        let max = max.min(MAX_PIECES);
        let mut sets = vec![Vec::new(); max as usize + 1];
        sets[0].push(0);
        for (k, list) in sets.iter_mut().enumerate().skip(1) {
            for_each_subset(k as u32, &mut |bb| {
                if bb <= mirror(bb) {
                    list.push(bb);
                }
            });
            list.sort_unstable();
        }
        Footmen { sets }
    }

    fn count(&self, k: u8) -> u64 {
        self.sets.get(usize::from(k)).map_or(0, |s| s.len() as u64)
    }
}

/// Calls `f` with every set of `k` squares.
fn for_each_subset(k: u32, f: &mut dyn FnMut(u32)) {
    fn go(start: u32, k: u32, acc: u32, f: &mut dyn FnMut(u32)) {
        if k == 0 {
            f(acc);
            return;
        }
        for sq in start..=SQUARES - k {
            go(sq + 1, k - 1, acc | 1 << sq, f);
        }
    }
    go(0, k, 0, f);
}

/// The pieces of a position as four square sets: White footmen, White horsemen, Black
/// footmen, Black horsemen.
pub(crate) type Pieces = [u32; 4];

/// The pieces of a position.
pub(crate) fn pieces_of(pos: &Position) -> Pieces {
    [
        pos.footmen(Side::White),
        pos.horsemen(Side::White),
        pos.footmen(Side::Black),
        pos.horsemen(Side::Black),
    ]
}

/// The canonical orientation of a position's pieces: mirrored when that makes the White
/// footman set smaller.
pub(crate) fn canonical(p: Pieces) -> Pieces {
    if mirror(p[0]) < p[0] {
        p.map(mirror)
    } else {
        p
    }
}

/// The combinadic rank of the set `set` among the `avail` squares.
fn rank_in(set: u32, avail: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    let mut s = set;
    while s != 0 {
        let bit = s & s.wrapping_neg();
        let c = (avail & (bit - 1)).count_ones();
        rank += choose(c, i);
        i += 1;
        s &= s - 1;
    }
    rank
}

/// The set of `k` squares among `avail` with combinadic rank `rank`.
fn unrank_in(mut rank: u64, k: u32, avail: u32) -> u32 {
    let n = avail.count_ones();
    let mut set = 0;
    let mut hi = n;
    for i in (1..=k).rev() {
        // The largest c < hi with C(c, i) ≤ rank.
        let mut c = hi - 1;
        while choose(c, i) > rank {
            c -= 1;
        }
        rank -= choose(c, i);
        set |= nth_bit(avail, c);
        hi = c;
    }
    set
}

/// The `n`-th (from 0) set bit of `bb`, as a one-bit set.
fn nth_bit(mut bb: u32, n: u32) -> u32 {
    for _ in 0..n {
        bb &= bb - 1;
    }
    bb & bb.wrapping_neg()
}

impl Footmen {
    /// The number of positions (canonical orientations) of a signature.
    pub(crate) fn positions(&self, s: Signature) -> u64 {
        let free1 = SQUARES - u32::from(s.wf);
        let free2 = free1 - u32::from(s.wh);
        let free3 = free2 - u32::from(s.bf);
        self.count(s.wf)
            * choose(free1, u32::from(s.wh))
            * choose(free2, u32::from(s.bf))
            * choose(free3, u32::from(s.bh))
    }

    /// The index of canonical pieces `p` (of signature `s`) inside their signature.
    pub(crate) fn index(&self, s: Signature, p: Pieces) -> Option<u64> {
        let sets = self.sets.get(usize::from(s.wf))?;
        let r0 = sets.binary_search(&p[0]).ok()? as u64;
        let mut avail = ((1u32 << SQUARES) - 1) & !p[0];
        let r1 = rank_in(p[1], avail);
        avail &= !p[1];
        let r2 = rank_in(p[2], avail);
        avail &= !p[2];
        let r3 = rank_in(p[3], avail);
        let free1 = SQUARES - u32::from(s.wf);
        let free2 = free1 - u32::from(s.wh);
        let free3 = free2 - u32::from(s.bf);
        Some(
            ((r0 * choose(free1, u32::from(s.wh)) + r1) * choose(free2, u32::from(s.bf)) + r2)
                * choose(free3, u32::from(s.bh))
                + r3,
        )
    }

    /// The pieces at `index` of signature `s` (the inverse of [`Footmen::index`]).
    pub(crate) fn pieces(&self, s: Signature, index: u64) -> Pieces {
        let free1 = SQUARES - u32::from(s.wf);
        let free2 = free1 - u32::from(s.wh);
        let free3 = free2 - u32::from(s.bf);
        let (n1, n2, n3) = (
            choose(free1, u32::from(s.wh)),
            choose(free2, u32::from(s.bf)),
            choose(free3, u32::from(s.bh)),
        );
        let r3 = index % n3;
        let rest = index / n3;
        let r2 = rest % n2;
        let rest = rest / n2;
        let r1 = rest % n1;
        let r0 = rest / n1;
        let wf = self.sets[usize::from(s.wf)][r0 as usize];
        let mut avail = ((1u32 << SQUARES) - 1) & !wf;
        let wh = unrank_in(r1, u32::from(s.wh), avail);
        avail &= !wh;
        let bf = unrank_in(r2, u32::from(s.bf), avail);
        avail &= !bf;
        let bh = unrank_in(r3, u32::from(s.bh), avail);
        [wf, wh, bf, bh]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_swaps_files() {
        // a1 ↔ e1, b2 ↔ d2, c3 stays.
        assert_eq!(mirror(1), 1 << 4);
        assert_eq!(mirror(1 << 6), 1 << 8);
        assert_eq!(mirror(1 << 12), 1 << 12);
        assert_eq!(mirror(mirror(0x1234567)), 0x1234567 & ((1 << 25) - 1));
    }

    #[test]
    fn counts_are_those_of_the_format_page() {
        let f = Footmen::new(4);
        // One footman: 15 canonical squares (files a–c); two: (300 + 20 symmetric) / 2, the
        // symmetric pairs being the 10 mirror pairs and the 10 pairs on file c.
        assert_eq!(f.count(1), 15);
        assert_eq!(f.count(2), 160);
        let s = Signature {
            wf: 1,
            wh: 1,
            bf: 1,
            bh: 0,
        };
        assert_eq!(f.positions(s), 15 * 24 * 23);
        assert_eq!(Signature::all(2).len(), 1);
        // Three pieces: 1 + (2,0,1,0) (1,1,1,0) (1,0,2,0) (1,0,1,1).
        assert_eq!(Signature::all(3).len(), 5);
    }

    #[test]
    fn index_and_pieces_are_inverse() {
        let f = Footmen::new(4);
        for s in Signature::all(4) {
            let n = f.positions(s);
            let step = (n / 997).max(1);
            let mut i = 0;
            while i < n {
                let p = f.pieces(s, i);
                assert_eq!(canonical(p), p, "{s:?} {i}");
                let counts = p.map(u32::count_ones);
                assert_eq!(counts, [s.wf, s.wh, s.bf, s.bh].map(u32::from), "{s:?} {i}");
                assert_eq!((p[0] | p[1] | p[2] | p[3]).count_ones(), s.pieces());
                assert_eq!(f.index(s, p), Some(i), "{s:?} {p:?}");
                i += step;
            }
        }
    }
}
