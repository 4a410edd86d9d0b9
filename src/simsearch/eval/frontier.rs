//! The leaves of a node one turn above them, valued cell by cell from what each side's move
//! does on its own.
//!
//! Most of a leaf's evaluation depends on one side's move alone: that side's pieces after
//! it, their attacks, its horsemen's mobility, and the score terms that read only them
//! (footmen, horsemen, penalties, advance, mobility). A node's [`Frontier`] works these out
//! once per move of each side, the first time a cell needs them, and each cell (`w`, `b`)
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

/// The per-move parts of a node one turn above the leaves, worked out at first use: see the
/// module documentation. Prepared for each node by `Frontier::prepare`.
#[derive(Default)]
pub struct Frontier {
    /// The node being valued: halves of another stamp belong to an earlier node.
    stamp: u64,
    /// Each side's moves on their own, by index into the node's move lists.
    halves: [Vec<Half>; 2],
}

impl Frontier {
    /// Makes this the frontier of a new node with `white` and `black` moves, forgetting the
    /// earlier node's halves.
    pub(crate) fn prepare(&mut self, white: usize, black: usize) {
        self.stamp += 1;
        for (halves, n) in self.halves.iter_mut().zip([white, black]) {
            if halves.len() < n {
                halves.resize(n, Half::EMPTY);
            }
        }
    }

    /// Works out the half of `side`'s move `mv`, index `k` in its list, if this node has
    /// not yet.
    #[inline(always)]
    fn ensure(&mut self, p: &Position, side: Side, (k, mv): (usize, Move), w: &Weights) {
        let stamp = self.stamp;
        let list = &mut self.halves[side.index()];
        if k >= list.len() {
            // Not prepared for this many moves (a caller's slip): grown, not refused.
            list.resize(k + 1, Half::EMPTY);
        }
        if list[k].stamp != stamp {
            list[k] = Half::of(p, side, mv, w, stamp);
        }
    }
}

/// One side's move on its own, with the score parts of its pieces after it.
#[derive(Clone, Copy, Debug)]
struct Half {
    /// The node it was worked out for ([`Frontier::stamp`]).
    stamp: u64,
    /// The move on its own; `None` for a pass.
    solo: Option<Solo>,
    /// The side's score parts when the other move does not touch its pieces.
    parts: Parts,
}

impl Half {
    /// A slot not yet worked out (stamps start at 1).
    const EMPTY: Half = Half {
        stamp: 0,
        solo: None,
        parts: Parts {
            material: Material {
                side: Side::White,
                footmen: 0,
                horsemen: 0,
                footman_attacks: 0,
                horseman_attacks: 0,
                mobility: 0,
            },
            lone: false,
            own: 0,
            lost: true,
        },
    };

    #[inline(always)]
    fn of(p: &Position, side: Side, mv: Move, w: &Weights, stamp: u64) -> Half {
        let solo = p.solo(side.index(), mv);
        let men = solo.map_or([0, 0], |s| {
            [s.rest[0] | s.landed[0], s.rest[1] | s.landed[1]]
        });
        Half {
            stamp,
            solo,
            parts: Parts::of(p, side, men, w),
        }
    }
}

/// A side's pieces after a turn as the score sees them: its [`Material`] and the terms that
/// depend on it alone, weighed.
#[derive(Clone, Copy, Debug)]
struct Parts {
    material: Material,
    /// The side has one footman.
    lone: bool,
    /// Footmen, lone footman, horsemen, penalty, advance and mobility terms, weighed.
    own: i32,
    /// The side has lost: no footman left, or two penalty points.
    lost: bool,
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
        Parts {
            material,
            lone,
            own,
            lost: men[0] == 0 || penalties >= 2,
        }
    }

    /// The weighed threat terms of this side against `enemy`: its horsemen the enemy's
    /// footmen attack, its footmen the enemy's horsemen attack (a lone one's hit its own).
    #[inline(always)]
    fn threats(&self, enemy: &Parts, w: &Weights) -> i32 {
        let own = &self.material;
        let exposed = (own.horsemen & enemy.material.footman_attacks).count_ones() as i32;
        let hit = own.footmen & enemy.material.horseman_attacks;
        let hits = if self.lone {
            w.hit_lone_footman * i32::from(hit != 0)
        } else {
            w.hit_footman * hit.count_ones() as i32
        };
        w.exposed_horseman * exposed + hits
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
    f: &mut Frontier,
    white: (usize, Move),
    black: (usize, Move),
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        #[target_feature(enable = "popcnt")]
        fn fast(p: &Position, f: &mut Frontier, white: (usize, Move), black: (usize, Move)) -> f64 {
            cell(p, f, white, black)
        }
        // SAFETY: the CPU has popcnt (detected just above).
        return unsafe { fast(p, f, white, black) };
    }
    cell(p, f, white, black)
}

/// [`frontier_payoff`], each weight set inlined as constants. A node of at most
/// [`ENDGAME_PIECES`] pieces has only such leaves, valued by the endgame weights; above it,
/// the halves are weighed with the main weights, and a cell whose turn takes the count down
/// to the endgame's goes through [`super::after`] (a capture at the boundary: rare).
#[inline(always)]
fn cell(p: &Position, f: &mut Frontier, white: (usize, Move), black: (usize, Move)) -> f64 {
    let pieces = [Side::White, Side::Black]
        .map(|s| (p.footmen(s) | p.horsemen(s)).count_ones())
        .iter()
        .sum::<u32>();
    match (p.rules(), pieces <= ENDGAME_PIECES) {
        (Rules::Seed, false) => cell_under(p, f, white, black, &SEED_WEIGHTS, false),
        (Rules::Seed, true) => cell_under(p, f, white, black, &SEED_ENDGAME_WEIGHTS, true),
        (Rules::Classic, false) => cell_under(p, f, white, black, &CLASSIC_WEIGHTS, false),
        (Rules::Classic, true) => {
            cell_under(p, f, white, black, &CLASSIC_ENDGAME_WEIGHTS, true)
        }
    }
}

#[inline(always)]
fn cell_under(
    p: &Position,
    f: &mut Frontier,
    white: (usize, Move),
    black: (usize, Move),
    w: &Weights,
    endgame: bool,
) -> f64 {
    f.ensure(p, Side::White, white, w);
    f.ensure(p, Side::Black, black, w);
    let (hw, hb) = (&f.halves[0][white.0], &f.halves[1][black.0]);
    let (Some(sw), Some(sb)) = (&hw.solo, &hb.solo) else {
        return passed(p, white.1, black.1);
    };
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
    if !endgame && wp.material.pieces() + bp.material.pieces() <= ENDGAME_PIECES {
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
    logistic(wp.own + wp.threats(bp, w) - (bp.own + bp.threats(wp, w)))
}
