//! Double-double arithmetic: a number held as the unevaluated sum of two `f64`s, `hi + lo` with
//! `|lo| ≤ ½ ulp(hi)`, which carries about 106 bits (32 decimal digits). The solver re-runs a
//! simplex that rounding led astray in it ([`super::Solver::solve`]).
//!
//! The error-free transformations are Knuth's two-sum and Dekker's two-product (by splitting,
//! so no fused multiply-add is needed, which builds for plain x86-64 would emulate in software).

use std::ops::{Add, Div, Mul, Neg, Sub};

/// A double-double number (`hi + lo`, normalised). Ordered by `hi`, then `lo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub(crate) struct Dd {
    hi: f64,
    lo: f64,
}

/// `a + b` exactly, as a rounded sum and its error (Knuth).
fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd {
        hi: s,
        lo: (a - (s - bb)) + (b - bb),
    }
}

/// `a + b` exactly when `|a| ≥ |b|` (Dekker).
fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

/// `a` as the sum of two halves of 26 bits each (Dekker's split).
fn split(a: f64) -> (f64, f64) {
    let t = 134_217_729.0 * a; // 2^27 + 1
    let hi = t - (t - a);
    (hi, a - hi)
}

/// `a · b` exactly, as a rounded product and its error (Dekker).
fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    Dd {
        hi: p,
        lo: ((ah * bh - p) + ah * bl + al * bh) + al * bl,
    }
}

impl Dd {
    /// The double-double equal to `x`.
    pub(crate) fn of(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    /// The nearest `f64`.
    pub(crate) fn to_f64(self) -> f64 {
        self.hi + self.lo
    }
}

impl Add for Dd {
    type Output = Dd;
    fn add(self, b: Dd) -> Dd {
        let s = two_sum(self.hi, b.hi);
        let t = two_sum(self.lo, b.lo);
        let u = quick_two_sum(s.hi, s.lo + t.hi);
        quick_two_sum(u.hi, u.lo + t.lo)
    }
}

impl Neg for Dd {
    type Output = Dd;
    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }
}

impl Sub for Dd {
    type Output = Dd;
    fn sub(self, b: Dd) -> Dd {
        self + -b
    }
}

impl Mul for Dd {
    type Output = Dd;
    fn mul(self, b: Dd) -> Dd {
        let p = two_prod(self.hi, b.hi);
        quick_two_sum(p.hi, p.lo + (self.hi * b.lo + self.lo * b.hi))
    }
}

impl Div for Dd {
    type Output = Dd;
    fn div(self, b: Dd) -> Dd {
        // Long division: three f64 quotient digits, each from the remainder so far.
        let q1 = self.hi / b.hi;
        let r = self - b * Dd::of(q1);
        let q2 = r.hi / b.hi;
        let r = r - b * Dd::of(q2);
        let q3 = r.hi / b.hi;
        quick_two_sum(q1, q2) + Dd::of(q3)
    }
}
