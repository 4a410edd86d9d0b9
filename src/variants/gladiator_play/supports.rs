//! Choosing the supporter moves and placements the search tries: the pruned sub-decisions
//! of a Gladiator or Brawl turn.

use super::*;

/// New pawn moves a supporter of each kind would give, per powered pawn, computed on demand.
pub(super) struct Gains {
    current: [u64; 64],
    known: u64,
    gain: [[u8; 64]; 6],
    gain_known: [u64; 6],
}

impl Gains {
    pub(super) fn new() -> Gains {
        Gains {
            current: [0; 64],
            known: 0,
            gain: [[0; 64]; 6],
            gain_known: [0; 6],
        }
    }

    /// New targets the pawn on `p` gets from a supporter of `kind` powering it.
    #[inline(always)]
    pub(super) fn of(&mut self, pos: &Position, s: usize, kind: Kind, p: u8) -> u32 {
        let k = kind as usize;
        if self.gain_known[k] >> p & 1 == 0 {
            let occupied = pos.occupied();
            if self.known >> p & 1 == 0 {
                self.current[usize::from(p)] = pos.targets_of(s, p, occupied);
                self.known |= 1 << p;
            }
            let new =
                pos.allowed_targets(s, reach(kind, p, occupied)) & !self.current[usize::from(p)];
            self.gain[k][usize::from(p)] = new.count_ones() as u8;
            self.gain_known[k] |= 1 << p;
        }
        u32::from(self.gain[k][usize::from(p)])
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
    /// of each kind is tried: one that powers no pawn now, if there is one.
    #[inline(always)]
    pub(super) fn best_supports(
        &self,
        after: &Position,
        busy: u64,
        base: Turn,
        out: &mut Vec<Turn>,
    ) {
        let me = self.side_to_move();
        let s = me.index();
        let occupied = after.occupied();
        let mut landing = after.powering_squares(me);
        if self.rules() == Rules::Gladiator {
            landing &= BORDER;
        }
        if landing == 0 {
            return;
        }
        let pawns = after.pieces(me, Kind::Pawn);
        let supporters = after.supporters(s);
        let mut gains = Gains::new();
        let mut best: [(u32, Turn); SUPPORT_CHOICES] = [(0, base); SUPPORT_CHOICES];
        let mut consider = |gain: u32, sf: u8, st: u8| {
            if let Some(i) = best.iter().position(|(g, _)| gain > *g) {
                best[i..].rotate_right(1);
                best[i] = (
                    gain,
                    Turn {
                        support: (sf, st),
                        ..base
                    },
                );
            }
        };
        let mut gain_of = |kind: Kind, powered: u64| {
            let mut powered = powered;
            let mut gain = 0;
            while powered != 0 {
                let p = powered.trailing_zeros() as u8;
                powered &= powered - 1;
                gain += gains.of(after, s, kind, p);
            }
            gain
        };
        match self.rules() {
            Rules::Gladiator => {
                // One supporter per kind: one that powers no pawn now, if there is one.
                let mut movers = [NONE; 6];
                for kind in &KINDS[1..] {
                    let all = supporters & after.pieces(me, *kind);
                    if let Some(b) = [all & !busy, all].into_iter().find(|&b| b != 0) {
                        movers[*kind as usize] = b.trailing_zeros() as u8;
                    }
                }
                let mut dest = landing;
                while dest != 0 {
                    let st = dest.trailing_zeros() as u8;
                    dest &= dest - 1;
                    let powered = reach(Kind::Bishop, st, occupied) & pawns;
                    for kind in &KINDS[1..] {
                        let sf = movers[*kind as usize];
                        if sf != NONE {
                            consider(gain_of(*kind, powered), sf, st);
                        }
                    }
                }
            }
            Rules::Brawl => {
                let mut sup = supporters;
                while sup != 0 {
                    let sf = sup.trailing_zeros() as u8;
                    sup &= sup - 1;
                    let kind = after.kind_at(sf).expect("a supporter");
                    let mut dest = reach(kind, sf, occupied) & !occupied & landing;
                    while dest != 0 {
                        let st = dest.trailing_zeros() as u8;
                        dest &= dest - 1;
                        let powered = reach(Kind::Bishop, st, occupied) & pawns;
                        consider(gain_of(kind, powered), sf, st);
                    }
                }
            }
        }
        out.extend(best.iter().filter(|(g, _)| *g > 0).map(|(_, t)| *t));
    }
}

/// Where to put an enemy supporter a pawn landed on (Brawl): the vacant square that leaves
/// the enemy the fewest pawn moves (the lowest such square). Only a square on an enemy pawn's
/// diagonal run or among its targets can change its moves; every other square leaves them as
/// they are without the piece.
#[inline(always)]
pub(super) fn best_placement_by(after: &Position, kind: Kind) -> u8 {
    let them = after.side_to_move().opponent();
    let occupied = after.occupied();
    let vacant = !occupied;
    let mut touching = after.powering_squares(them);
    let mut pawns = after.pieces(them, Kind::Pawn);
    while pawns != 0 {
        touching |= after.targets_of(them.index(), pawns.trailing_zeros() as u8, occupied);
        pawns &= pawns - 1;
    }
    touching &= vacant;
    let neutral = vacant & !touching;
    let mut best = if neutral != 0 {
        (after.pawn_mobility(them), neutral.trailing_zeros() as u8)
    } else {
        (u32::MAX, NONE)
    };
    let mut squares = touching;
    while squares != 0 {
        let q = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let mut placed = after.clone();
        placed.place(kind, q);
        let mobility = placed.pawn_mobility(them);
        if mobility < best.0 || mobility == best.0 && q < best.1 {
            best = (mobility, q);
        }
    }
    best.1
}
