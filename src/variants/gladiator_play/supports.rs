//! Choosing the supporter moves and placements the search tries: the pruned sub-decisions
//! of a Gladiator or Brawl turn.

use super::*;

/// What a supporter landing on each square would give one side's pawns in a position: for
/// every empty square on a pawn's diagonals (within the area asked for), the new targets a
/// supporter of each kind there adds to the pawns it would power, summed over them. Computed
/// at once for every pawn and kind asked for: Gladiator weighs every kind on every landing
/// square anyway, and Brawl nearly so.
pub(super) struct Gains {
    /// The squares from which a supporter would power one of the pawns (the empty ones on
    /// their diagonals, within the area asked for).
    landing: u64,
    /// Per landing square, byte `k` (bits `8k..8k+8`) holds the new targets a supporter of
    /// kind `k` there gives the pawns. A square is on the diagonals of at most four pawns (the
    /// first piece each way) and a pawn gains at most 27 targets, so a byte holds the sum.
    sum: [u64; 64],
}

/// The kinds whose moves include a rook's.
const ROOKISH: KindSet = 1 << Kind::Rook as u8 | 1 << Kind::Queen as u8;

impl Gains {
    /// What a supporter of one of the `kinds` landing in `area` would give `side`'s pawns
    /// in `pos`.
    #[inline(always)]
    pub(super) fn new(pos: &Position, side: Side, area: u64, kinds: KindSet) -> Gains {
        let occupied = pos.occupied();
        let s = side.index();
        let allowed = pos.target_mask(s);
        let supporters = pos.supporters(s);
        let mut gains = Gains {
            landing: 0,
            sum: [0; 64],
        };
        let mut pawns = pos.pieces(side, Kind::Pawn);
        while pawns != 0 {
            let p = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let diagonals = reach(Kind::Bishop, p, occupied);
            // A supporter on an empty square powers the pawns whose diagonals reach it (a
            // diagonal reach is symmetric).
            let mut on = diagonals & !occupied & area;
            if on == 0 {
                continue;
            }
            gains.landing |= on;
            let powering = diagonals & supporters;
            let powered_by = if powering == 0 {
                0
            } else {
                pos.kinds_among(powering)
            };
            let rook = if (kinds | powered_by) & ROOKISH != 0 {
                reach(Kind::Rook, p, occupied)
            } else {
                0
            };
            let current = if powering == 0 {
                0
            } else {
                borrowed_by(powered_by, p, diagonals, || rook)
            };
            let fresh = allowed & !current;
            // Each kind's count in its byte (0 for a kind the side lacks); a queen's is a
            // bishop's and a rook's together, their lines sharing no square.
            let count = |moves: u64| u64::from((moves & fresh).count_ones());
            let (bishop, rook) = (count(diagonals), count(rook));
            let packed = [
                (Kind::Knight, count(reach(Kind::Knight, p, occupied))),
                (Kind::Bishop, bishop),
                (Kind::Rook, rook),
                (Kind::Queen, bishop + rook),
                (Kind::King, count(reach(Kind::King, p, occupied))),
            ]
            .into_iter()
            .fold(0, |packed, (kind, n)| {
                packed | (u64::from(kinds >> kind as u8 & 1) * n) << (8 * kind as u32)
            });
            while on != 0 {
                gains.sum[on.trailing_zeros() as usize] += packed;
                on &= on - 1;
            }
        }
        gains
    }

    /// New targets a supporter of `kind` on the landing square `st` gives the pawns.
    #[inline(always)]
    fn landing_on(&self, kind: Kind, st: u8) -> u32 {
        u32::from((self.sum[usize::from(st)] >> (8 * kind as u32)) as u8)
    }
}

/// The [`SUPPORT_CHOICES`] supporter moves of the highest gain so far, each added to `base`:
/// the earlier one first among equal gains; none of gain 0.
struct Choices {
    base: Turn,
    best: [(u32, Turn); SUPPORT_CHOICES],
}

impl Choices {
    fn new(base: Turn) -> Choices {
        Choices {
            base,
            best: [(0, base); SUPPORT_CHOICES],
        }
    }

    #[inline(always)]
    fn consider(&mut self, gain: u32, sf: u8, st: u8) {
        // Most moves weighed gain no more than the last one kept: one comparison for them.
        if gain <= self.best[SUPPORT_CHOICES - 1].0 {
            return;
        }
        if let Some(i) = self.best.iter().position(|(g, _)| gain > *g) {
            self.best[i..].rotate_right(1);
            self.best[i] = (
                gain,
                Turn {
                    support: (sf, st),
                    ..self.base
                },
            );
        }
    }

    fn emit(&self, out: &mut Vec<Turn>) {
        out.extend(self.best.iter().filter(|(g, _)| *g > 0).map(|(_, t)| *t));
    }
}

impl Position {
    /// The kind of the enemy supporter a pawn landing on `to` displaces (Brawl), if any.
    pub(super) fn displaced(&self, to: u8) -> Option<Kind> {
        let them = self.side_to_move().opponent().index();
        if self.supporters(them) >> to & 1 == 0 {
            return None;
        }
        self.kind_at(to)
    }

    /// Adds the few most promising supporter moves after the pawn part `base` (position
    /// `after`): a supporter that lands where it powers our pawns, scored by the new moves
    /// those pawns gain. In Gladiator any supporter of a kind can jump anywhere, so only one
    /// of each kind is tried: one that powers no pawn now (not in `busy`), if there is one.
    #[inline(always)]
    pub(super) fn best_supports(
        &self,
        after: &Position,
        busy: u64,
        base: Turn,
        out: &mut Vec<Turn>,
    ) {
        let area = match self.rules() {
            Rules::Gladiator => BORDER,
            Rules::Brawl => !0,
        };
        let me = self.side_to_move();
        let kinds = after.kinds_among(after.supporters(me.index()));
        let gains = Gains::new(after, me, area, kinds);
        if gains.landing == 0 {
            return;
        }
        let mut choices = Choices::new(base);
        match self.rules() {
            Rules::Gladiator => gladiator_supports(after, me, &gains, busy, &mut choices),
            Rules::Brawl => brawl_supports(after, me, &gains, &mut choices),
        }
        choices.emit(out);
    }
}

/// Gladiator: a jump of one supporter per kind (one not in `busy`, if there is one) to every
/// landing square, in square order, then kind order.
#[inline(always)]
fn gladiator_supports(pos: &Position, side: Side, gains: &Gains, busy: u64, choices: &mut Choices) {
    let supporters = pos.supporters(side.index());
    let mut movers = [NONE; 6];
    for kind in &KINDS[1..] {
        let all = supporters & pos.pieces(side, *kind);
        if let Some(b) = [all & !busy, all].into_iter().find(|&b| b != 0) {
            movers[*kind as usize] = b.trailing_zeros() as u8;
        }
    }
    let mut dest = gains.landing;
    while dest != 0 {
        let st = dest.trailing_zeros() as u8;
        dest &= dest - 1;
        for kind in &KINDS[1..] {
            let sf = movers[*kind as usize];
            if sf != NONE {
                choices.consider(gains.landing_on(*kind, st), sf, st);
            }
        }
    }
}

/// Brawl: every quiet move of every supporter to a landing square, in supporter order, then
/// square order.
#[inline(always)]
fn brawl_supports(pos: &Position, side: Side, gains: &Gains, choices: &mut Choices) {
    let occupied = pos.occupied();
    let mut sup = pos.supporters(side.index());
    while sup != 0 {
        let sf = sup.trailing_zeros() as u8;
        sup &= sup - 1;
        let kind = pos.kind_at(sf).expect("a supporter");
        let mut dest = reach(kind, sf, occupied) & !occupied & gains.landing;
        while dest != 0 {
            let st = dest.trailing_zeros() as u8;
            dest &= dest - 1;
            choices.consider(gains.landing_on(kind, st), sf, st);
        }
    }
}

/// Where to put an enemy supporter a pawn landed on (Brawl): the vacant square that leaves
/// the enemy the fewest pawn moves (the lowest such square). Only a square that an enemy pawn's
/// targets read ([`Position::targets_and_reads`]: its diagonal runs, its borrowed moves) can
/// change its moves, so each such square is weighed by scoring again only the pawns that read
/// it; every other square leaves them as they are without the piece.
#[inline(always)]
pub(super) fn best_placement_by(after: &Position, kind: Kind) -> u8 {
    let them = after.side_to_move().opponent();
    let t = them.index();
    let occupied = after.occupied();
    let vacant = !occupied;
    let pawns = after.pieces(them, Kind::Pawn);
    let mut moves = [0u32; 64];
    let mut reads = [0u64; 64];
    let (mut mobility, mut touching) = (0, 0);
    let mut left = pawns;
    while left != 0 {
        let p = left.trailing_zeros() as usize;
        left &= left - 1;
        let (targets, read) = after.targets_and_reads(t, p as u8, occupied);
        moves[p] = targets.count_ones();
        reads[p] = read;
        mobility += moves[p];
        touching |= read;
    }
    touching &= vacant;
    let neutral = vacant & !touching;
    let mut best = if neutral != 0 {
        (mobility, neutral.trailing_zeros() as u8)
    } else {
        (u32::MAX, NONE)
    };
    let mut squares = touching;
    while squares != 0 {
        let q = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let mut placed = after.clone();
        placed.place(kind, q);
        let occupied = placed.occupied();
        let mut changed = mobility;
        let mut left = pawns;
        while left != 0 {
            let p = left.trailing_zeros() as usize;
            left &= left - 1;
            if reads[p] >> q & 1 == 1 {
                let now = placed.targets_of(t, p as u8, occupied).count_ones();
                changed = changed - moves[p] + now;
            }
        }
        if changed < best.0 || changed == best.0 && q < best.1 {
            best = (changed, q);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bits;
    use crate::rng::Rng;

    /// Every landing square's gain for every kind, on positions of random games of both rule
    /// sets, against the sum taken pawn by pawn: the pawns whose diagonal reach holds the
    /// square, each counting the squares that kind's moves from the pawn add to its targets
    /// now (the move generator's).
    #[test]
    fn a_landing_gain_is_the_sum_of_the_new_targets_of_the_pawns_it_powers() {
        let mut rng = Rng::new(0x6761_696e);
        let (mut checked, mut gaining) = (0, 0);
        for game in 0..40 {
            let rules = [Rules::Gladiator, Rules::Brawl][game % 2];
            let area = [BORDER, !0][game % 2];
            let mut pos = Position::start(rules);
            for _ in 0..60 {
                if pos.end().is_some() {
                    break;
                }
                let occupied = pos.occupied();
                for side in [Side::White, Side::Black] {
                    let s = side.index();
                    let kinds = pos.kinds_among(pos.supporters(s));
                    let gains = Gains::new(&pos, side, area, kinds);
                    let pawns: Vec<u8> = bits(pos.pieces(side, Kind::Pawn)).collect();
                    let diagonal = |p: u8| reach(Kind::Bishop, p, occupied);
                    let landing = pawns.iter().fold(0, |l, &p| l | diagonal(p));
                    assert_eq!(gains.landing, landing & !occupied & area, "{}", pos.fen());
                    for st in bits(gains.landing) {
                        for &kind in &KINDS[1..] {
                            if kinds >> kind as u8 & 1 == 0 {
                                continue;
                            }
                            let mut expected = 0;
                            for &p in pawns.iter().filter(|&&p| diagonal(p) >> st & 1 == 1) {
                                let now = pos.targets_of(s, p, occupied);
                                let with = pos.allowed_targets(s, reach(kind, p, occupied));
                                expected += (with & !now).count_ones();
                            }
                            assert_eq!(gains.landing_on(kind, st), expected, "{}", pos.fen());
                            checked += 1;
                            gaining += usize::from(expected > 0);
                        }
                    }
                }
                let turns = pos.turns();
                pos = pos.play(turns[rng.below(turns.len() as u64) as usize]);
            }
        }
        assert!(checked > 20_000 && gaining > 5_000, "{checked} {gaining}");
    }

    /// The placement of a displaced supporter, on positions of random Brawl games after every
    /// pawn move that lands on one, against every vacant square tried with all the enemy
    /// pawns' moves counted afresh: the fewest, the lowest square among equals.
    #[test]
    fn a_placement_leaves_the_fewest_enemy_pawn_moves() {
        let mut rng = Rng::new(0x706c_6163);
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = Position::start(Rules::Brawl);
            for _ in 0..80 {
                if pos.end().is_some() {
                    break;
                }
                let them = pos.side_to_move().opponent();
                for (from, to) in pos.pawn_moves().collect::<Vec<_>>() {
                    let (after, displaced) = pos.after_pawn(from, to);
                    let Some(kind) = displaced else { continue };
                    let mut best = (u32::MAX, NONE);
                    for q in bits(!after.occupied()) {
                        let mut placed = after.clone();
                        placed.place(kind, q);
                        best = best.min((placed.pawn_mobility(them), q));
                    }
                    assert_eq!(best_placement_by(&after, kind), best.1, "{}", pos.fen());
                    checked += 1;
                }
                let turns = pos.turns();
                pos = pos.play(turns[rng.below(turns.len() as u64) as usize]);
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
