//! Gladiator's and Brawl's evaluation: its weights (which `quill tune` fits) and terms.

use super::*;

/// The weights of the evaluation, in centipawns (a pawn is 100); `quill tune` fits them to
/// the results of self-play games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// What a supporter of each kind (indexed by `Kind`; the pawn's entry is unused) is worth
    /// to the pawn it powers (its borrowed power): the best one counts.
    pub(crate) power: [i32; 6],
    /// Each pawn that no supporter powers.
    pub(crate) unpowered: i32,
    /// Each square a pawn can move to.
    pub(crate) target: i32,
    /// Each enemy pawn a pawn can capture.
    pub(crate) attack: i32,
    /// A side's material when it has 1, 2 or 3 pawns, beyond their 100 each (losing them all
    /// loses).
    pub(crate) last_pawns: [i32; 3],
    /// The side to move's bonus.
    pub tempo: i32,
}

/// Gladiator's evaluation weights.
pub const WEIGHTS: EvalWeights = EvalWeights {
    power: [0, 11, 8, 13, 15, 5],
    unpowered: -15,
    target: 3,
    attack: 5,
    last_pawns: [-200, -80, -20],
    tempo: 10,
};

/// Brawl's evaluation weights: the same terms, fitted on their own by `quill tune` (Brawl's
/// supporters move as in chess and may be displaced, so a kind's power may be worth something
/// else there). Equal to Gladiator's until a fit is accepted: the five fitted on 6,000 Brawl
/// self-play games (2026-12-07) all lost their SPRT against these (−48 to 0 Elo).
pub const BRAWL_WEIGHTS: EvalWeights = WEIGHTS;

/// The weights the evaluation plays `rules` with.
pub const fn weights(rules: Rules) -> &'static EvalWeights {
    match rules {
        Rules::Gladiator => &WEIGHTS,
        Rules::Brawl => &BRAWL_WEIGHTS,
    }
}

/// How many weights [`EvalWeights::to_array`] lists.
pub const EVAL_TERMS: usize = 11;

impl EvalWeights {
    /// The names of the weights, in the order of [`EvalWeights::to_array`].
    pub const NAMES: [&'static str; EVAL_TERMS] = [
        "power.knight",
        "power.bishop",
        "power.rook",
        "power.queen",
        "power.king",
        "unpowered",
        "target",
        "attack",
        "last_pawns.1",
        "last_pawns.2",
        "last_pawns.3",
    ];

    /// The weights as a list (the tempo aside, which the evaluation adds to every position
    /// alike and self-play results cannot separate from the first move's advantage).
    pub fn to_array(&self) -> [i32; EVAL_TERMS] {
        let p = self.power;
        let l = self.last_pawns;
        [
            p[1],
            p[2],
            p[3],
            p[4],
            p[5],
            self.unpowered,
            self.target,
            self.attack,
            l[0],
            l[1],
            l[2],
        ]
    }

    /// The weights from a list in the order of [`EvalWeights::to_array`], with this tempo.
    pub fn from_array(w: [i32; EVAL_TERMS], tempo: i32) -> EvalWeights {
        EvalWeights {
            power: [0, w[0], w[1], w[2], w[3], w[4]],
            unpowered: w[5],
            target: w[6],
            attack: w[7],
            last_pawns: [w[8], w[9], w[10]],
            tempo,
        }
    }
}

impl Position {
    /// Sum of the pawn moves (targets) of a side's pawns (the placement test's reference).
    #[cfg(test)]
    pub(crate) fn pawn_mobility(&self, side: Side) -> u32 {
        let occupied = self.occupied();
        let mut pawns = self.pieces(side, Kind::Pawn);
        let mut total = 0;
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            total += self.targets_of(side.index(), from, occupied).count_ones();
        }
        total
    }

    /// The evaluation ([`Searchable::evaluate`]): material, pawn power and mobility, for the
    /// side to move, under the weights of its rules.
    #[inline(always)]
    pub(super) fn static_score(&self) -> i32 {
        match self.rules() {
            Rules::Gladiator => self.score_under(&WEIGHTS, &BEST_OF),
            Rules::Brawl => self.score_under(&BRAWL_WEIGHTS, &BRAWL_BEST_OF),
        }
    }

    /// [`Position::static_score`] under the weights `w`, whose [`best_of`] is `best`
    /// (constants where this is inlined).
    #[inline(always)]
    fn score_under(&self, w: &EvalWeights, best: &[u8; 64]) -> i32 {
        let me = self.side_to_move();
        let them = me.opponent();
        let pawns = |s| self.pieces(s, Kind::Pawn).count_ones();
        material(w, pawns(me)) - material(w, pawns(them)) + self.activity(me, w, best)
            - self.activity(them, w, best)
            + w.tempo
    }

    /// One side's share of the evaluation under `w`: pawn power and mobility.
    #[inline(always)]
    fn activity(&self, side: Side, w: &EvalWeights, best: &[u8; 64]) -> i32 {
        let mut score = 0;
        self.activity_terms(side, best, |best, targets, attacks| {
            score +=
                best.map_or(w.unpowered, |k| w.power[k]) + w.target * targets + w.attack * attacks;
        });
        score
    }

    /// Calls `each(best, targets, attacks)` for every pawn of `side`: the kind (as an index)
    /// of its powering supporter that counts for it (`best_of` of the set of their kinds,
    /// [`best_of`]; `None` when no supporter powers it), its target squares and the enemy
    /// pawns among them.
    #[inline(always)]
    pub(super) fn activity_terms(
        &self,
        side: Side,
        best_of: &[u8; 64],
        mut each: impl FnMut(Option<usize>, i32, i32),
    ) {
        let s = side.index();
        let occupied = self.occupied();
        let supporters = self.supporters(s);
        let enemy_pawns = self.pieces(side.opponent(), Kind::Pawn);
        let allowed = self.target_mask(s);
        let mut pawns = self.pieces(side, Kind::Pawn);
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let diagonals = reach(Kind::Bishop, from, occupied);
            let powering = diagonals & supporters;
            if powering == 0 {
                each(None, 0, 0);
                continue;
            }
            // Powering supporters are the side's own, so the kind alone tells them apart.
            let kinds: KindSet = self.kinds_among(powering);
            let rook = || reach(Kind::Rook, from, occupied);
            let targets = borrowed_by(kinds, from, diagonals, rook) & allowed;
            each(
                Some(usize::from(best_of[usize::from(kinds)])),
                targets.count_ones() as i32,
                (targets & enemy_pawns).count_ones() as i32,
            );
        }
    }

    /// The evaluation's terms for the side to move, its own minus its opponent's, in the order
    /// of [`EvalWeights::to_array`]: the evaluation under weights `w` is their dot product
    /// with `w.to_array()`, plus `100·(pawn difference)` and `w.tempo`. The supporter that
    /// powers a pawn best is chosen under `w` (call it again after changing their order).
    pub fn eval_terms(&self, w: &EvalWeights) -> [i32; EVAL_TERMS] {
        let me = self.side_to_move();
        let mut terms = [0; EVAL_TERMS];
        let best = best_of(&power_order(w));
        for (side, sign) in [(me, 1), (me.opponent(), -1)] {
            self.activity_terms(side, &best, |best, targets, attacks| {
                match best {
                    Some(k) => terms[k - 1] += sign,
                    None => terms[5] += sign,
                }
                terms[6] += sign * targets;
                terms[7] += sign * attacks;
            });
            let pawns = self.pieces(side, Kind::Pawn).count_ones();
            if (1..=3).contains(&pawns) {
                terms[7 + pawns as usize] += sign;
            }
        }
        terms
    }

    /// The pawns of the side to move minus those of its opponent.
    pub fn pawn_difference(&self) -> i32 {
        let me = self.side_to_move();
        let pawns = |s| self.pieces(s, Kind::Pawn).count_ones() as i32;
        pawns(me) - pawns(me.opponent())
    }
}

/// The supporter kinds (as indices) in the order in which one powering a pawn counts for it
/// under `w`: the highest power first, the lower index first among equal powers.
pub(super) const fn power_order(w: &EvalWeights) -> [usize; 5] {
    let mut order = [1, 2, 3, 4, 5];
    // Insertion sort (a const fn cannot call `sort`), stable on ties.
    let mut i = 1;
    while i < 5 {
        let mut j = i;
        while j > 0 && w.power[order[j]] > w.power[order[j - 1]] {
            let t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    order
}

/// For each set of supporter kinds (a [`KindSet`]), the one that comes first in `order` (0
/// for the empty set).
pub(super) const fn best_of(order: &[usize; 5]) -> [u8; 64] {
    let mut out = [0; 64];
    let mut set = 0;
    while set < 64 {
        let mut i = 0;
        while i < 5 {
            if set >> order[i] & 1 == 1 {
                out[set] = order[i] as u8;
                break;
            }
            i += 1;
        }
        set += 1;
    }
    out
}

/// [`best_of`] the [`power_order`] of [`WEIGHTS`].
const BEST_OF: [u8; 64] = best_of(&power_order(&WEIGHTS));
/// [`best_of`] the [`power_order`] of [`BRAWL_WEIGHTS`].
const BRAWL_BEST_OF: [u8; 64] = best_of(&power_order(&BRAWL_WEIGHTS));

/// Material under `w`: every pawn is worth 100, and the last ones more (losing them all
/// loses).
#[inline(always)]
pub(super) fn material(w: &EvalWeights, pawns: u32) -> i32 {
    100 * pawns as i32
        + match pawns {
            1..=3 => w.last_pawns[pawns as usize - 1],
            _ => 0,
        }
}
