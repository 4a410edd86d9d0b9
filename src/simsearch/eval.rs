//! Payoffs of Apocalypse positions for the simultaneous search, on the scale 0 … 1 for White
//! (1: White wins, 0: Black wins, ½: a draw).
//!
//! The static estimate is a logistic of a material balance. Every weight is a whole number of
//! hundredths of a footman, so the balance is an integer and the logistic is read from a
//! table built once: no transcendental function runs in the search, and the
//! values are those of `1 / (1 + e^(−0.8 d))` exactly as before, in the same order.

use std::sync::LazyLock;

use crate::variant::Side;
use crate::variants::apocalypse::{End, KNIGHT, Position};

/// The exact payoff of a finished game, `None` while it goes on.
pub(crate) fn terminal(p: &Position) -> Option<f64> {
    p.end().map(|end| match end {
        End::Win(Side::White, _) => 1.0,
        End::Win(Side::Black, _) => 0.0,
        End::Draw(_) => 0.5,
    })
}

/// The payoff of a position: exact when the game is over, else `heuristic`.
pub fn evaluate(p: &Position) -> f64 {
    terminal(p).unwrap_or_else(|| heuristic(p))
}

/// A static estimate for a game still going on, strictly between 0 and 1: a logistic of a
/// material balance in footman units.
///
/// Terms, for each side: footmen 1 each (a side whose last footman goes loses, so a lone
/// footman is worth 0.4 less), horsemen 1.25 each, a penalty point −1.5 (a second one loses),
/// footman advance 0.05 a rank (none for a lone footman: pushing it only brings it to the
/// far rank, where it promotes away the side's last footman or sticks), and horseman
/// mobility 0.02 a square. A horseman standing where an enemy footman captures it next turn
/// is worth 0.3 less (knight safety); a footman an enemy horseman attacks 0.15 less, and a
/// lone one 0.6 less (its capture ends the game). Without the threat terms a threat that
/// resolves next turn is seen only at every other depth, so even and odd depths disagreed.
pub(crate) fn heuristic(p: &Position) -> f64 {
    logistic(balance(p))
}

/// White's material balance minus Black's, in hundredths of a footman (see [`heuristic`]).
///
/// Release builds target baseline x86-64 (so that `cargo run --release` runs on any
/// x86-64), where `count_ones` is a dozen shifts and masks; the evaluation counts bits a
/// dozen times a leaf, so it is compiled a second time with the processor's `popcnt` and
/// that copy runs when the CPU has it (one cached load decides).
pub(crate) fn balance(p: &Position) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        #[target_feature(enable = "popcnt")]
        fn fast(p: &Position) -> i32 {
            balance_of(p)
        }
        // SAFETY: the CPU has popcnt (detected just above).
        return unsafe { fast(p) };
    }
    balance_of(p)
}

/// [`balance`], for the compiler to inline into both of its copies.
#[inline(always)]
fn balance_of(p: &Position) -> i32 {
    let (w, b) = (Material::of(p, Side::White), Material::of(p, Side::Black));
    side_score(&w, &b, p.penalties(Side::White)) - side_score(&b, &w, p.penalties(Side::Black))
}

/// What one side's score needs of its pieces, each horseman looked at once.
struct Material {
    side: Side,
    footmen: u32,
    horsemen: u32,
    /// Squares its footmen attack.
    footman_attacks: u32,
    /// Squares its horsemen attack.
    horseman_attacks: u32,
    /// (horseman, target) pairs, own squares excluded.
    mobility: i32,
}

impl Material {
    #[inline(always)]
    fn of(p: &Position, side: Side) -> Material {
        let (footmen, horsemen) = (p.footmen(side), p.horsemen(side));
        let own = footmen | horsemen;
        let (mut attacks, mut mobility) = (0, 0);
        let mut h = horsemen;
        while h != 0 {
            let targets = KNIGHT32[(h.trailing_zeros() & 31) as usize];
            attacks |= targets;
            mobility += (targets & !own).count_ones();
            h &= h - 1;
        }
        Material {
            side,
            footmen,
            horsemen,
            footman_attacks: footman_attacks(footmen, side),
            horseman_attacks: attacks,
            mobility: mobility as i32,
        }
    }
}

/// [`KNIGHT`] padded to 32 entries, so that a square from `trailing_zeros` needs no bounds
/// check.
static KNIGHT32: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 25 {
        t[i] = KNIGHT[i];
        i += 1;
    }
    t
};

/// The slope of the logistic, per footman.
const SLOPE: f64 = 0.8;
/// Balances beyond this many hundredths read the table's end (`e^(−32)`: within 1.3e-14
/// of a decided game, still strictly inside 0 … 1).
const REACH: i32 = 4000;

/// `1 / (1 + e^(−0.8 k / 100))` for every balance `k` in −[`REACH`] … [`REACH`].
static LOGISTIC: LazyLock<Vec<f64>> = LazyLock::new(|| {
    (-REACH..=REACH)
        .map(|k| 1.0 / (1.0 + (-SLOPE * f64::from(k) / 100.0).exp()))
        .collect()
});

/// The logistic of a balance in hundredths, from the table (balances past ±40 footmen are
/// clamped: the order is kept, ties only where the values already agree to 1e-14).
pub(crate) fn logistic(balance: i32) -> f64 {
    LOGISTIC[(balance.clamp(-REACH, REACH) + REACH) as usize]
}

const ALL: u32 = (1 << 25) - 1;
const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
const FILE_E: u32 = FILE_A << 4;

/// A footman an enemy horseman could capture next turn, in hundredths.
const HIT: i32 = 15;
/// A side's only footman an enemy horseman could capture next turn (which would lose the
/// game), in hundredths.
const LONE_HIT: i32 = 60;

/// A side's score in hundredths of a footman, against `enemy`, with `penalties` points.
#[inline(always)]
fn side_score(own: &Material, enemy: &Material, penalties: u8) -> i32 {
    let count = own.footmen.count_ones() as i32;
    let exposed = (own.horsemen & enemy.footman_attacks).count_ones() as i32;
    let hit = own.footmen & enemy.horseman_attacks;
    // A lone footman: worth less, pushing it gains nothing (it only nears the far rank,
    // where it promotes away the side's last footman or sticks), and a horseman's threat on
    // it is a threat on the game.
    let (lone, advanced, hits) = if count == 1 {
        (40, 0, if hit != 0 { LONE_HIT } else { 0 })
    } else {
        (
            0,
            5 * advance(own.footmen, own.side),
            HIT * hit.count_ones() as i32,
        )
    };
    100 * count - lone + 125 * own.horsemen.count_ones() as i32
        - 30 * exposed
        - hits
        - 150 * i32::from(penalties)
        + advanced
        + 2 * own.mobility
}

/// Sum over the footmen `f` of the ranks each has advanced from its side's back rank
/// (as [`Position::footman_advance`], by rank masks).
#[inline(always)]
fn advance(f: u32, side: Side) -> i32 {
    // Footmen at or beyond each rank, counted once per rank they have passed.
    let beyond = |from: u32| (f & ALL << (5 * from)).count_ones() as i32;
    let short_of = |to: u32| (f & ALL >> (5 * (5 - to))).count_ones() as i32;
    match side {
        Side::White => beyond(1) + beyond(2) + beyond(3) + beyond(4),
        Side::Black => short_of(4) + short_of(3) + short_of(2) + short_of(1),
    }
}

/// Squares the footmen `f` of `side` attack (diagonally forward).
fn footman_attacks(f: u32, side: Side) -> u32 {
    match side {
        Side::White => (((f & !FILE_A) << 4) | ((f & !FILE_E) << 6)) & ALL,
        Side::Black => ((f & !FILE_A) >> 6) | ((f & !FILE_E) >> 4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::apocalypse::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(Rules::Seed, fen).unwrap()
    }

    /// Whether a knight's jump joins squares `a` and `b` (indices `rank * 5 + file`).
    fn jump(a: u32, b: u32) -> bool {
        let (df, dr) = ((a % 5).abs_diff(b % 5), (a / 5).abs_diff(b / 5));
        (df, dr) == (1, 2) || (df, dr) == (2, 1)
    }

    /// The squares of a bitboard.
    fn squares(b: u32) -> Vec<u32> {
        (0..25).filter(|i| b >> i & 1 == 1).collect()
    }

    /// The logistic of the floating-point formula of [`heuristic`]'s documentation, square
    /// by square, for comparison.
    fn by_formula(p: &Position) -> f64 {
        let side = |s: Side| {
            let f = p.footmen(s).count_ones();
            let lone = if f == 1 { 0.4 } else { 0.0 };
            let exposed = (p.horsemen(s) & footman_attacks(p.footmen(s.opponent()), s.opponent()))
                .count_ones();
            let enemy = squares(p.horsemen(s.opponent()));
            let hit = squares(p.footmen(s))
                .into_iter()
                .filter(|&q| enemy.iter().any(|&h| jump(q, h)))
                .count() as f64;
            let hits = match f {
                1 => 0.6 * hit,
                _ => 0.15 * hit,
            };
            let advance = if f == 1 {
                0.0
            } else {
                0.05 * f64::from(p.footman_advance(s))
            };
            f64::from(f) - lone + 1.25 * f64::from(p.horsemen(s).count_ones())
                - 0.3 * f64::from(exposed)
                - hits
                - 1.5 * f64::from(p.penalties(s))
                + advance
                + 0.02 * f64::from(p.horseman_mobility(s))
        };
        let d = side(Side::White) - side(Side::Black);
        1.0 / (1.0 + (-0.8 * d).exp())
    }

    #[test]
    fn the_table_gives_the_formula_on_positions_from_play() {
        let fens = [
            "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0",
            "n1p1n/p1p1p/1P3/P3P/N2PN w - - 0 4 1/0",
            "4n/1p3/5/2P2/N4 w - - 0 1 0/0",
            "n3n/1P1P1/5/1p1p1/N3N w - - 0 1 0/1",
            "2n2/P4/5/4p/2N2 w - - 0 1 0/0",
            "5/1p3/3N1/P4/4n w - - 0 1 0/0",
            "n3n/5/1P1P1/5/2N2 w - - 0 1 0/0",
        ];
        for fen in fens {
            let p = pos(fen);
            assert!((heuristic(&p) - by_formula(&p)).abs() < 1e-12, "{fen}");
            for side in [Side::White, Side::Black] {
                assert_eq!(
                    advance(p.footmen(side), side),
                    p.footman_advance(side) as i32
                );
                assert_eq!(
                    Material::of(&p, side).mobility,
                    p.horseman_mobility(side) as i32
                );
            }
        }
    }

    #[test]
    fn balances_by_hand() {
        // White: lone footman c2 (no advance bonus), horseman a1 (b3, c2 own → 1 square).
        // Black: lone footman b4, horseman e5 (c4, d3 → 2 squares). No threats.
        let p = pos("4n/1p3/5/2P2/N4 w - - 0 1 0/0");
        let white = 100 - 40 + 125 + 2;
        let black = 100 - 40 + 125 + 2 * 2;
        assert_eq!(balance(&p), white - black);
        // White's horseman d3 attacks Black's lone footman b4 (and b2 c1 c5 e1 e5: 6
        // squares); Black's horseman e1 attacks c2 and d3 (2 squares), not the footman a2.
        let p = pos("5/1p3/3N1/P4/4n w - - 0 1 0/0");
        let white = 100 - 40 + 125 + 2 * 6;
        let black = 100 - 40 + 125 - 60 + 2 * 2;
        assert_eq!(balance(&p), white - black);
        // Two White footmen b3 d3 (advanced 2 ranks each); Black's horseman c1 reaches a2 b3
        // d3 e2, so both are hit, 0.15 each.
        let p = pos("5/5/1P1P1/5/2n2 w - - 0 1 0/0");
        let [w, b] = [Side::White, Side::Black].map(|side| Material::of(&p, side));
        assert_eq!(side_score(&w, &b, 0), 2 * 100 - 2 * 15 + 5 * 4);
        assert_eq!(logistic(0), 0.5);
        assert!(logistic(REACH) < 1.0 && logistic(REACH + 1) == logistic(REACH));
        assert!(logistic(-1) < logistic(0) && logistic(0) < logistic(1));
    }
}
