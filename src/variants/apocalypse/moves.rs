//! Move generation: each side's legal moves, and whether it has one.

use super::{ALL, FILE_A, FILE_E, KNIGHT, Move, NONE, Position, RANK_1, RANK_5, Rules};
use crate::board::bits;
use crate::variant::Side;

impl Position {
    /// Appends the legal moves of a side (a forced pass in the seed rules; nothing in the
    /// classic rules when the side is stuck) to `out`, which is cleared first.
    pub fn legal_moves(&self, side: Side, out: &mut Vec<Move>) {
        out.clear();
        self.generate(side.index(), out);
        if out.is_empty() && self.rules == Rules::Seed {
            out.push(Move::PASS);
        }
    }

    /// Whether the side has a move other than a pass.
    pub(crate) fn has_move(&self, side: Side) -> bool {
        self.footman_has_move(side) || self.horseman_has_move(side)
    }

    /// Whether one of the side's footmen has a legal move.
    #[inline]
    pub(crate) fn footman_has_move(&self, side: Side) -> bool {
        let s = side.index();
        let men = [self.footmen[s], self.horsemen[s]];
        footman_can_move(self.rules, side, men, self.occupied(1 - s))
    }

    /// Whether one of the side's horsemen has a legal move (a square not its own side's).
    fn horseman_has_move(&self, side: Side) -> bool {
        let s = side.index();
        let mut h = self.horsemen[s];
        while h != 0 {
            let sq = h.trailing_zeros() as usize;
            if KNIGHT[sq] & !self.occupied(s) != 0 {
                return true;
            }
            h &= h - 1;
        }
        false
    }

    pub(super) fn generate(&self, s: usize, out: &mut Vec<Move>) {
        let o = 1 - s;
        let own = self.occupied(s);
        let enemy = self.occupied(o);
        let occ = own | enemy;
        let far = if s == 0 { RANK_5 } else { RANK_1 };
        let few_horsemen = self.horsemen[s].count_ones() < 2;
        let lone = self.footmen[s].count_ones() == 1;
        let mut f = self.footmen[s];
        while f != 0 {
            let from = f.trailing_zeros();
            f &= f - 1;
            let (fwd, capl, capr) = footman_targets(s, 1 << from);
            let targets = (fwd & !occ) | ((capl | capr) & enemy);
            let mut t = targets;
            while t != 0 {
                let to = t.trailing_zeros();
                t &= t - 1;
                let promotes = far >> to & 1 == 1;
                if !promotes || few_horsemen || self.rules == Rules::Seed {
                    if promotes && few_horsemen && lone && self.rules == Rules::Classic {
                        continue;
                    }
                    out.push(Move {
                        from: from as u8,
                        to: to as u8,
                        redeploy: NONE,
                    });
                } else {
                    // Classic with two horsemen: redeploy to a square vacant once the footman
                    // has left, not on the far rank.
                    let vacant = (!occ | 1 << from) & ALL & !far;
                    out.extend(bits(u64::from(vacant)).map(|q| Move {
                        from: from as u8,
                        to: to as u8,
                        redeploy: q,
                    }));
                }
            }
        }
        for from in bits(u64::from(self.horsemen[s])) {
            out.extend(
                bits(u64::from(KNIGHT[usize::from(from)] & !own)).map(|to| Move {
                    from,
                    to,
                    redeploy: NONE,
                }),
            );
        }
    }
}

/// Whether one of the footmen of `side`, whose footmen and horsemen are `men`, has a legal
/// move under `rules` with the enemy's pieces on `enemy` ([`Position::footman_has_move`],
/// also for the sealed search's leaves, which know the pieces without a position).
#[inline]
pub(crate) fn footman_can_move(rules: Rules, side: Side, men: [u32; 2], enemy: u32) -> bool {
    let s = side.index();
    let [f, h] = men;
    let occ = f | h | enemy;
    let (fwd, capl, capr) = footman_targets(s, f);
    let mut targets = (fwd & !occ) | ((capl | capr) & enemy);
    // A classic lone footman may not advance to the far rank with fewer than 2 horsemen
    // (with 2 it always has a redeploy square: its own origin).
    if rules == Rules::Classic && f.count_ones() == 1 && h.count_ones() < 2 {
        targets &= !if s == 0 { RANK_5 } else { RANK_1 };
    }
    targets != 0
}

/// Forward, left-capture and right-capture targets of the footmen `f` of side `s`.
fn footman_targets(s: usize, f: u32) -> (u32, u32, u32) {
    if s == 0 {
        (
            (f << 5) & ALL,
            ((f & !FILE_A) << 4) & ALL,
            ((f & !FILE_E) << 6) & ALL,
        )
    } else {
        (f >> 5, (f & !FILE_A) >> 6, (f & !FILE_E) >> 4)
    }
}
