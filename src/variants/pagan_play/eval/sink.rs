//! The sinks of the Pagan evaluation's walk: a sum under weights (the search's score) or a
//! count per term (the tuner's view), and a sink seen from one side.

use super::super::weights::{TERMS, Term};

/// The evaluation of a position as the tuner sees it: `(fixed + terms · w) / divisor`, for
/// the side to move, under the weights `w` the divisor was judged at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTerms {
    /// What no weight scales: 100 a live pawn, and the tempo.
    pub fixed: i32,
    /// The count of each term, the side to move's minus its opponent's, in the order of
    /// [`Weights::to_array`](super::super::weights::Weights::to_array).
    pub terms: [i32; TERMS],
    /// 1, [`DRAWISH`](super::DRAWISH) where the side ahead under the weights cannot win, or
    /// [`THIN`](super::THIN) where it has no unit to spare.
    pub divisor: i32,
}

/// What the walk over a position feeds: the fixed part and each term's count, signed for
/// the side to move.
pub(super) trait Sink {
    /// Adds `cp` to the fixed part.
    fn fixed(&mut self, cp: i32);
    /// Adds `count` of `term`.
    fn add(&mut self, term: Term, count: i32);
}

/// The score under weights: every term times its weight, summed.
pub(super) struct Weighed<'w> {
    pub(super) w: &'w [i32; TERMS],
    pub(super) total: i32,
}

impl Sink for Weighed<'_> {
    #[inline(always)]
    fn fixed(&mut self, cp: i32) {
        self.total += cp;
    }

    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.total += self.w[term.index()] * count;
    }
}

/// The count of each term.
pub(super) struct Counted {
    pub(super) fixed: i32,
    pub(super) terms: [i32; TERMS],
}

impl Sink for Counted {
    fn fixed(&mut self, cp: i32) {
        self.fixed += cp;
    }

    fn add(&mut self, term: Term, count: i32) {
        self.terms[term.index()] += count;
    }
}

/// A sink seen from one side: what it adds counts for the side to move if `sign` is 1,
/// against it if −1.
pub(super) struct Signed<'s, S> {
    pub(super) sink: &'s mut S,
    pub(super) sign: i32,
}

impl<S: Sink> Signed<'_, S> {
    #[inline(always)]
    pub(super) fn fixed(&mut self, cp: i32) {
        self.sink.fixed(self.sign * cp);
    }

    #[inline(always)]
    pub(super) fn add(&mut self, term: Term, count: i32) {
        self.sink.add(term, self.sign * count);
    }
}
