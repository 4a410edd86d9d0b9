//! Payoffs of Apocalypse positions for the simultaneous search, on the scale 0 … 1 for White
//! (1: White wins, 0: Black wins, ½: a draw).
//!
//! The static estimate is a logistic of a material balance. Every weight is a whole number of
//! hundredths of a footman, so the balance is an integer and the logistic is read from a
//! table built once: no transcendental function runs in the search, and the
//! values are those of `1 / (1 + e^(−0.8 d))` exactly as before, in the same order.

use std::sync::LazyLock;

use crate::variant::Side;
use crate::variants::apocalypse::{End, KNIGHT, Move, Position, Rules};

/// The exact payoff of a finished game, `None` while it goes on.
pub(crate) fn terminal(p: &Position) -> Option<f64> {
    p.end().map(payoff)
}

/// The payoff of a game's end.
fn payoff(end: End) -> f64 {
    match end {
        End::Win(Side::White, _) => 1.0,
        End::Win(Side::Black, _) => 0.0,
        End::Draw(_) => 0.5,
    }
}

/// The payoff of a position: exact when the game is over, else `heuristic`.
pub fn evaluate(p: &Position) -> f64 {
    terminal(p).unwrap_or_else(|| heuristic(p))
}

/// The payoff of the position after the turn of `white` and `black` (two legal moves) in
/// `p`: [`evaluate`] of [`Position::play`], computed as one pass over the new position
/// (the end test reads the horsemen's moves from the evaluation's), compiled a second time
/// with `popcnt` as [`balance`] is. The search values every leaf this way.
pub(crate) fn after(p: &Position, white: Move, black: Move) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        #[target_feature(enable = "popcnt")]
        fn fast(p: &Position, white: Move, black: Move) -> f64 {
            evaluate_of(&p.play(white, black))
        }
        // SAFETY: the CPU has popcnt (detected just above).
        return unsafe { fast(p, white, black) };
    }
    evaluate_of(&p.play(white, black))
}

/// [`evaluate`], each side's pieces looked at once for the end test and the balance.
#[inline(always)]
fn evaluate_of(p: &Position) -> f64 {
    let (w, b) = (Material::of(p, Side::White), Material::of(p, Side::Black));
    let has_move = |side: Side| {
        let horsemen = match side {
            Side::White => &w,
            Side::Black => &b,
        };
        horsemen.mobility > 0 || p.footman_has_move(side)
    };
    match p.end_given(has_move) {
        Some(end) => payoff(end),
        None => logistic(balance_of_material(p, (&w, &b))),
    }
}

/// A static estimate for a game still going on, strictly between 0 and 1: a logistic of a
/// material balance in footman units.
///
/// Terms, for each side (their weights, in hundredths of a footman, are [`weights`], one set
/// per rule set, fitted by `quill tune`): each footman (a side whose last footman goes loses,
/// so a lone footman has its own weight), each horseman, each penalty point (a second one
/// loses), each rank a footman has advanced (none for a lone footman: pushing it only brings
/// it to the far rank, where it promotes away the side's last footman or sticks), and each
/// square a horseman can jump to. Threats: each horseman standing where an enemy footman
/// captures it next turn (knight safety), each footman an enemy horseman attacks, and a lone
/// one so attacked (its capture ends the game). Without the threat terms a threat that
/// resolves next turn is seen only at every other depth, so even and odd depths disagreed.
pub(crate) fn heuristic(p: &Position) -> f64 {
    logistic(balance(p))
}

/// The weights of the static estimate, in hundredths of a footman; `quill tune` fits them to
/// the results of self-play games, one set per rule set. The balance is the dot product of
/// [`eval_terms`] with [`Weights::to_array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each footman.
    pub footman: i32,
    /// A side's only footman, beyond its `footman`.
    pub lone_footman: i32,
    /// Each horseman.
    pub horseman: i32,
    /// Each horseman standing where an enemy footman captures it next turn.
    pub exposed_horseman: i32,
    /// Each footman an enemy horseman attacks (a side with two or more footmen).
    pub hit_footman: i32,
    /// A side's only footman when an enemy horseman attacks it.
    pub hit_lone_footman: i32,
    /// Each penalty point.
    pub penalty: i32,
    /// Each rank a footman has advanced from its side's back rank (a side with two or more
    /// footmen).
    pub advance: i32,
    /// Each square a horseman can jump to (not its own side's).
    pub mobility: i32,
}

/// The weights the search plays with under the seed rules (`apocalypse`).
pub const SEED_WEIGHTS: Weights = Weights {
    footman: 100,
    lone_footman: -55,
    horseman: 108,
    exposed_horseman: -20,
    hit_footman: -23,
    hit_lone_footman: -90,
    penalty: -150,
    advance: -4,
    mobility: 3,
};

/// The weights the search plays with under Elliott's rules (`apocalypse-classic`).
pub const CLASSIC_WEIGHTS: Weights = Weights {
    footman: 100,
    lone_footman: -40,
    horseman: 125,
    exposed_horseman: -30,
    hit_footman: -15,
    hit_lone_footman: -60,
    penalty: -150,
    advance: 5,
    mobility: 2,
};

/// The most pieces (both sides together) of a position that the endgame weights value.
pub const ENDGAME_PIECES: u32 = 5;

/// The weights of positions of at most [`ENDGAME_PIECES`] pieces under the seed rules:
/// fitted to the exact values of every position reachable from twelve random endgames
/// (`examples/fit_endgame.rs`; protocol-docs/variants/apocalypse.md), then every weight
/// but the penalty's multiplied by 2.5 (a steeper logistic). The fit calibrates each
/// position's payoff on its own, and calls a certain win 0.95–0.99; the root's mixed
/// strategy depends on the differences between its cells, which the flat logistic blurred:
/// steeper, the exploitability of the root strategy fell on every endgame measured.
pub const SEED_ENDGAME_WEIGHTS: Weights = Weights {
    footman: 680,
    lone_footman: -850,
    horseman: 430,
    exposed_horseman: -12,
    hit_footman: -330,
    hit_lone_footman: -582,
    penalty: -150,
    advance: -118,
    mobility: 15,
};

/// The weights of positions of at most [`ENDGAME_PIECES`] pieces under Elliott's rules,
/// fitted as [`SEED_ENDGAME_WEIGHTS`], then multiplied by 4 (the penalty's excepted) for the
/// same reason.
pub const CLASSIC_ENDGAME_WEIGHTS: Weights = Weights {
    footman: 1072,
    lone_footman: -1060,
    horseman: 1204,
    exposed_horseman: -36,
    hit_footman: -480,
    hit_lone_footman: -656,
    penalty: -150,
    advance: -108,
    mobility: 16,
};

/// The weights the search plays with under `rules` in positions of more than
/// [`ENDGAME_PIECES`] pieces (the set `quill tune` fits).
pub const fn weights(rules: Rules) -> &'static Weights {
    match rules {
        Rules::Seed => &SEED_WEIGHTS,
        Rules::Classic => &CLASSIC_WEIGHTS,
    }
}

/// The weights of positions of `rules` with at most [`ENDGAME_PIECES`] pieces.
pub const fn endgame_weights(rules: Rules) -> &'static Weights {
    match rules {
        Rules::Seed => &SEED_ENDGAME_WEIGHTS,
        Rules::Classic => &CLASSIC_ENDGAME_WEIGHTS,
    }
}

/// Whether `p` has at most [`ENDGAME_PIECES`] pieces, valued by [`endgame_weights`].
#[inline(always)]
pub fn in_endgame(p: &Position) -> bool {
    p.pieces() <= ENDGAME_PIECES
}

/// The weights that value `p`: [`endgame_weights`] [`in_endgame`], else [`weights`].
pub fn weights_of(p: &Position) -> &'static Weights {
    if in_endgame(p) {
        endgame_weights(p.rules())
    } else {
        weights(p.rules())
    }
}

/// How many weights [`Weights::to_array`] lists.
pub const TERMS: usize = 9;

impl Weights {
    /// The names of the weights, in the order of [`Weights::to_array`].
    pub const NAMES: [&'static str; TERMS] = [
        "footman",
        "lone_footman",
        "horseman",
        "exposed_horseman",
        "hit_footman",
        "hit_lone_footman",
        "penalty",
        "advance",
        "mobility",
    ];

    /// The weights as a list.
    pub const fn to_array(&self) -> [i32; TERMS] {
        [
            self.footman,
            self.lone_footman,
            self.horseman,
            self.exposed_horseman,
            self.hit_footman,
            self.hit_lone_footman,
            self.penalty,
            self.advance,
            self.mobility,
        ]
    }

    /// The weights from a list in the order of [`Weights::to_array`].
    pub const fn from_array(w: [i32; TERMS]) -> Weights {
        Weights {
            footman: w[0],
            lone_footman: w[1],
            horseman: w[2],
            exposed_horseman: w[3],
            hit_footman: w[4],
            hit_lone_footman: w[5],
            penalty: w[6],
            advance: w[7],
            mobility: w[8],
        }
    }
}

/// The evaluation's terms, White's minus Black's, in the order of [`Weights::to_array`]:
/// the search's balance is their dot product with the position's [`weights`].
pub fn eval_terms(p: &Position) -> [i32; TERMS] {
    let (w, b) = (Material::of(p, Side::White), Material::of(p, Side::Black));
    let (tw, tb) = (
        side_terms(&w, &b, p.penalties(Side::White)),
        side_terms(&b, &w, p.penalties(Side::Black)),
    );
    std::array::from_fn(|i| tw[i] - tb[i])
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
    balance_of_material(p, (&w, &b))
}

/// [`balance`] from both sides' [`Material`], under [`weights_of`]'s set (each set inlined
/// into its own arm, as constants).
#[inline(always)]
fn balance_of_material(p: &Position, (w, b): (&Material, &Material)) -> i32 {
    let endgame = w.pieces() + b.pieces() <= ENDGAME_PIECES;
    match (p.rules(), endgame) {
        (Rules::Seed, false) => balance_from(p, (w, b), &SEED_WEIGHTS),
        (Rules::Seed, true) => balance_from(p, (w, b), &SEED_ENDGAME_WEIGHTS),
        (Rules::Classic, false) => balance_from(p, (w, b), &CLASSIC_WEIGHTS),
        (Rules::Classic, true) => balance_from(p, (w, b), &CLASSIC_ENDGAME_WEIGHTS),
    }
}

/// [`balance_under`] from both sides' [`Material`], White's first.
#[inline(always)]
fn balance_from(p: &Position, (w, b): (&Material, &Material), weights: &Weights) -> i32 {
    side_score(w, b, p.penalties(Side::White), weights)
        - side_score(b, w, p.penalties(Side::Black), weights)
}

/// What one side's score needs of its pieces, each horseman looked at once.
#[derive(Clone, Copy, Debug)]
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
    /// Its pieces.
    #[inline(always)]
    fn pieces(&self) -> u32 {
        (self.footmen | self.horsemen).count_ones()
    }

    #[inline(always)]
    fn of(p: &Position, side: Side) -> Material {
        Material::from_men(side, [p.footmen(side), p.horsemen(side)])
    }

    /// The material of `side` with the footmen and horsemen `men`.
    #[inline(always)]
    fn from_men(side: Side, [footmen, horsemen]: [u32; 2]) -> Material {
        let own = footmen | horsemen;
        let second = horsemen & horsemen.wrapping_sub(1);
        let (attacks, mobility) = if second & second.wrapping_sub(1) == 0 {
            // At most two horsemen (a side never promotes a third): both looked up without a
            // loop, whose exit the processor would mispredict (a missing one reads 0).
            let (a, b) = (
                KNIGHT33[horsemen.trailing_zeros() as usize],
                KNIGHT33[second.trailing_zeros() as usize],
            );
            (a | b, (a & !own).count_ones() + (b & !own).count_ones())
        } else {
            let (mut attacks, mut mobility) = (0, 0);
            let mut h = horsemen;
            while h != 0 {
                let targets = KNIGHT33[h.trailing_zeros() as usize];
                attacks |= targets;
                mobility += (targets & !own).count_ones();
                h &= h - 1;
            }
            (attacks, mobility)
        };
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

/// [`KNIGHT`] padded to 33 entries, so that a square from `trailing_zeros` needs no bounds
/// check (and that of an empty board, 32, has no targets).
static KNIGHT33: [u32; 33] = {
    let mut t = [0u32; 33];
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
#[inline]
pub(crate) fn logistic(balance: i32) -> f64 {
    LOGISTIC[(balance.clamp(-REACH, REACH) + REACH) as usize]
}

const ALL: u32 = (1 << 25) - 1;
const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
const FILE_E: u32 = FILE_A << 4;

/// A side's score in hundredths of a footman, against `enemy`, with `penalties` points: its
/// [`side_terms`] under `weights`.
#[inline(always)]
fn side_score(own: &Material, enemy: &Material, penalties: u8, weights: &Weights) -> i32 {
    let terms = side_terms(own, enemy, penalties);
    let w = weights.to_array();
    let mut score = 0;
    for i in 0..TERMS {
        score += w[i] * terms[i];
    }
    score
}

/// A side's terms against `enemy`, with `penalties` points, in the order of
/// [`Weights::to_array`].
#[inline(always)]
fn side_terms(own: &Material, enemy: &Material, penalties: u8) -> [i32; TERMS] {
    let count = own.footmen.count_ones() as i32;
    let exposed = (own.horsemen & enemy.footman_attacks).count_ones() as i32;
    let hit = own.footmen & enemy.horseman_attacks;
    // A lone footman: worth less, pushing it gains nothing (it only nears the far rank,
    // where it promotes away the side's last footman or sticks), and a horseman's threat on
    // it is a threat on the game.
    let (lone, advanced, hits, lone_hit) = if count == 1 {
        (1, 0, 0, i32::from(hit != 0))
    } else {
        (
            0,
            advance(own.footmen, own.side),
            hit.count_ones() as i32,
            0,
        )
    };
    [
        count,
        lone,
        own.horsemen.count_ones() as i32,
        exposed,
        hits,
        lone_hit,
        i32::from(penalties),
        advanced,
        own.mobility,
    ]
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

mod frontier;
#[cfg(test)]
mod tests;

pub use frontier::Frontier;
pub(crate) use frontier::{cell as frontier_cell, frontier_payoff};
