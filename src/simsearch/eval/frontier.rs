//! The leaves of a node one turn above them, valued cell by cell from what each side's move
//! does on its own.
//!
//! Most of a leaf's evaluation depends on one side's move alone: that side's pieces after
//! it, their attacks, its horsemen's mobility, and the score terms that read only them
//! (footmen, horsemen, penalties, advance, mobility). A node's [`Frontier`] works these out
//! once per move of each side when the node is prepared (a node's cells read most of them,
//! and a test per cell of whether its halves were done cost more), and each cell (`w`, `b`)
//! adds only what joins the two moves: the threat terms (a side's horsemen exposed to the
//! other's footmen, its footmen hit by the other's horsemen) and the end test. When one move
//! touches the other side's pieces (a capture, or both movers landing on one square), the
//! touched side's part is worked out again from its pieces after the turn ([`Solo::after`]);
//! a pass goes through [`super::after`].
//!
//! The payoff is [`super::after`]'s bit for bit: the balance is the same integer (the same
//! terms, summed in another order) read from the same logistic table, and the end test is
//! [`Position::end_given`]'s (tested on every cell of positions from play).

use super::{
    CLASSIC_ENDGAME_WEIGHTS, CLASSIC_WEIGHTS, ENDGAME_PIECES, Material, SEED_ENDGAME_WEIGHTS,
    SEED_WEIGHTS, Weights, advance, after, logistic,
};
use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position, Rules, Solo, footman_can_move};

/// The per-move parts of a node one turn above the leaves: see the module documentation.
/// Worked out for each node by `Frontier::prepare`.
#[derive(Default)]
pub struct Frontier {
    /// Each side's moves on their own, by index into the node's move lists.
    halves: [Vec<Half>; 2],
    /// The node has at most [`ENDGAME_PIECES`] pieces: its halves are weighed with the
    /// endgame weights (every leaf below it has as few).
    endgame: bool,
}

impl Frontier {
    /// Makes this the frontier of `p` over the moves `white` × `black`: every move's half
    /// worked out (a node's cells read most of them), the earlier node's forgotten.
    /// Compiled a second time with `popcnt`, as [`super::balance`] is.
    pub(crate) fn prepare(&mut self, p: &Position, white: &[Move], black: &[Move]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            #[target_feature(enable = "popcnt")]
            fn fast(f: &mut Frontier, p: &Position, white: &[Move], black: &[Move]) {
                f.prepare_with(p, white, black);
            }
            // SAFETY: the CPU has popcnt (detected just above).
            return unsafe { fast(self, p, white, black) };
        }
        self.prepare_with(p, white, black);
    }

    /// [`Frontier::prepare`], each weight set inlined as constants.
    #[inline(always)]
    fn prepare_with(&mut self, p: &Position, white: &[Move], black: &[Move]) {
        self.endgame = super::in_endgame(p);
        let w = weights_for(p.rules(), self.endgame);
        let [hw, hb] = &mut self.halves;
        fill(hw, p, Side::White, white, w);
        fill(hb, p, Side::Black, black, w);
    }
}

/// The halves of `side`'s `moves` into `halves` (emptied first), `side` a constant where
/// this is inlined.
#[inline(always)]
fn fill(halves: &mut Vec<Half>, p: &Position, side: Side, moves: &[Move], w: &Weights) {
    halves.clear();
    // A plain loop: an iterator's `fold` would not be inlined here, and compiled without
    // `popcnt`.
    for &mv in moves {
        halves.push(Half::of(p, side, mv, w));
    }
}

/// One side's move on its own, with the score parts of its pieces after it.
#[derive(Clone, Copy, Debug)]
struct Half {
    /// The move is a pass (`solo` is then empty).
    pass: bool,
    /// The move on its own.
    solo: Solo,
    /// The side's score parts when the other move does not touch its pieces.
    parts: Parts,
}

impl Half {
    #[inline(always)]
    fn of(p: &Position, side: Side, mv: Move, w: &Weights) -> Half {
        let solo = p.solo(side.index(), mv);
        let men = solo.map_or([0, 0], |s| {
            [s.rest[0] | s.landed[0], s.rest[1] | s.landed[1]]
        });
        Half {
            pass: solo.is_none(),
            solo: solo.unwrap_or_default(),
            parts: Parts::of(p, side, men, w),
        }
    }
}

/// A side's pieces after a turn as the score sees them: its [`Material`] and the terms that
/// depend on it alone, weighed.
#[derive(Clone, Copy, Debug)]
struct Parts {
    material: Material,
    /// The weight of each of its footmen an enemy horseman attacks: a lone footman's (which
    /// is hit or not: its count of hits is 0 or 1) or the weight of one of several.
    hit: i32,
    /// Footmen, lone footman, horsemen, penalty, advance and mobility terms, weighed.
    own: i32,
    /// The side has lost: no footman left, or two penalty points.
    lost: bool,
    /// The side has not lost and has a horseman's move, whatever the enemy's pieces: a cell
    /// of two such sides is neither finished nor stuck, and is only weighed.
    sure: bool,
}

impl Parts {
    #[inline(always)]
    fn of(p: &Position, side: Side, men: [u32; 2], w: &Weights) -> Parts {
        let material = Material::from_men(side, men);
        let count = men[0].count_ones() as i32;
        let lone = count == 1;
        let penalties = p.penalties(side);
        let advanced = if lone { 0 } else { advance(men[0], side) };
        let own = w.footman * count
            + w.lone_footman * i32::from(lone)
            + w.horseman * men[1].count_ones() as i32
            + w.penalty * i32::from(penalties)
            + w.advance * advanced
            + w.mobility * material.mobility;
        let lost = men[0] == 0 || penalties >= 2;
        Parts {
            material,
            hit: if lone {
                w.hit_lone_footman
            } else {
                w.hit_footman
            },
            own,
            lost,
            sure: !lost && material.mobility > 0,
        }
    }

    /// The weighed threat terms of this side against `enemy`: its horsemen the enemy's
    /// footmen attack, its footmen the enemy's horsemen attack (a lone one's hit its own).
    #[inline(always)]
    fn threats(&self, enemy: &Parts, w: &Weights) -> i32 {
        let own = &self.material;
        let exposed = (own.horsemen & enemy.material.footman_attacks).count_ones() as i32;
        let hits = (own.footmen & enemy.material.horseman_attacks).count_ones() as i32;
        w.exposed_horseman * exposed + self.hit * hits
    }

    /// Whether the side has a move other than a pass, the enemy's pieces being `enemy`'s.
    #[inline(always)]
    fn has_move(&self, rules: Rules, enemy: &Parts) -> bool {
        let (own, other) = (&self.material, &enemy.material);
        own.mobility > 0
            || footman_can_move(
                rules,
                own.side,
                [own.footmen, own.horsemen],
                other.footmen | other.horsemen,
            )
    }
}

/// The payoff after the turn `white`, `black` of `p` ([`super::after`]'s, bit for bit),
/// from the halves `f` keeps; `i` and `j` are the moves' indices in the lists `f` was
/// prepared for. Compiled a second time with `popcnt`, as [`super::balance`] is.
pub(crate) fn frontier_payoff(
    p: &Position,
    f: &Frontier,
    white: (usize, Move),
    black: (usize, Move),
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        #[target_feature(enable = "popcnt")]
        fn fast(p: &Position, f: &Frontier, white: (usize, Move), black: (usize, Move)) -> f64 {
            cell(p, f, white, black)
        }
        // SAFETY: the CPU has popcnt (detected just above).
        return unsafe { fast(p, f, white, black) };
    }
    cell(p, f, white, black)
}

/// The weight set of a node of `rules`: the endgame weights when it has at most
/// [`ENDGAME_PIECES`] pieces (`endgame`), a constant where this is inlined.
#[inline(always)]
fn weights_for(rules: Rules, endgame: bool) -> &'static Weights {
    match (rules, endgame) {
        (Rules::Seed, false) => &SEED_WEIGHTS,
        (Rules::Seed, true) => &SEED_ENDGAME_WEIGHTS,
        (Rules::Classic, false) => &CLASSIC_WEIGHTS,
        (Rules::Classic, true) => &CLASSIC_ENDGAME_WEIGHTS,
    }
}

/// [`frontier_payoff`] without the processor test, inlined into its caller (fast where
/// that is compiled with `popcnt`, as the sealed search's pure-strategy bounds are), each
/// weight set inlined as constants. A node of at most [`ENDGAME_PIECES`] pieces has only
/// such leaves, valued by the endgame weights; above it, the halves are weighed with the
/// main weights, and a cell whose turn takes the count down to the endgame's goes through
/// [`super::after`] (a capture at the boundary: rare).
#[inline(always)]
pub(crate) fn cell(p: &Position, f: &Frontier, white: (usize, Move), black: (usize, Move)) -> f64 {
    match (p.rules(), f.endgame) {
        (Rules::Seed, false) => cell_under(p, f, white, black, &SEED_WEIGHTS),
        (Rules::Seed, true) => cell_under(p, f, white, black, &SEED_ENDGAME_WEIGHTS),
        (Rules::Classic, false) => cell_under(p, f, white, black, &CLASSIC_WEIGHTS),
        (Rules::Classic, true) => cell_under(p, f, white, black, &CLASSIC_ENDGAME_WEIGHTS),
    }
}

#[inline(always)]
fn cell_under(
    p: &Position,
    f: &Frontier,
    white: (usize, Move),
    black: (usize, Move),
    w: &Weights,
) -> f64 {
    let (hw, hb) = (&f.halves[0][white.0], &f.halves[1][black.0]);
    if hw.pass || hb.pass {
        return passed(p, white.1, black.1);
    }
    let (sw, sb) = (&hw.solo, &hb.solo);
    let (touched_w, touched_b) = (!sw.untouched_by(sb), !sb.untouched_by(sw));
    if !touched_w && !touched_b {
        return settle(p.rules(), &hw.parts, &hb.parts, w);
    }
    let wp = if touched_w {
        Parts::of(p, Side::White, sw.after(sb), w)
    } else {
        hw.parts
    };
    let bp = if touched_b {
        Parts::of(p, Side::Black, sb.after(sw), w)
    } else {
        hb.parts
    };
    if !f.endgame && wp.material.pieces() + bp.material.pieces() <= ENDGAME_PIECES {
        return into_endgame(p, white.1, black.1);
    }
    settle(p.rules(), &wp, &bp, w)
}

/// The payoff of a turn with a pass, through the full resolution (rare: a side without a
/// move in the seed rules).
#[cold]
#[inline(never)]
fn passed(p: &Position, white: Move, black: Move) -> f64 {
    after(p, white, black)
}

/// The payoff of a turn that takes the pieces down to [`ENDGAME_PIECES`], valued by the
/// endgame weights through the full resolution.
#[cold]
#[inline(never)]
fn into_endgame(p: &Position, white: Move, black: Move) -> f64 {
    after(p, white, black)
}

/// The payoff of a turn after which White's pieces are `wp` and Black's `bp`: the end test
/// of [`Position::end_given`], else the logistic of the balance.
#[inline(always)]
fn settle(rules: Rules, wp: &Parts, bp: &Parts, w: &Weights) -> f64 {
    if !(wp.sure && bp.sure) {
        return settle_ended(rules, wp, bp, w);
    }
    weigh(wp, bp, w)
}

/// The logistic of the balance after a turn that leaves White's pieces `wp` and Black's `bp`.
#[inline(always)]
fn weigh(wp: &Parts, bp: &Parts, w: &Weights) -> f64 {
    logistic(wp.own + wp.threats(bp, w) - (bp.own + bp.threats(wp, w)))
}

/// [`settle`] of a cell in which a side may have lost or be stuck (a side without a
/// horseman's move): the end test, then the balance.
fn settle_ended(rules: Rules, wp: &Parts, bp: &Parts, w: &Weights) -> f64 {
    match (wp.lost, bp.lost) {
        (true, true) => return 0.5,
        (true, false) => return 0.0,
        (false, true) => return 1.0,
        (false, false) => {}
    }
    // The no-move draws, Black's moves looked at only when needed.
    let stuck = match rules {
        Rules::Seed => !wp.has_move(rules, bp) && !bp.has_move(rules, wp),
        Rules::Classic => !wp.has_move(rules, bp) || !bp.has_move(rules, wp),
    };
    if stuck {
        return 0.5;
    }
    weigh(wp, bp, w)
}
