//! What a side's pieces reach: attacks (a dead king's check), mobility, and the mating force
//! the evaluation weighs.

#[cfg(test)]
use super::Move;
use super::SQUARES;
use super::tables::{
    ALCHEMIST_REACH, KING_REACH, NO, ORDER, ORTHOGONAL, PAGAN_PATHS, PAGAN_STEP, PAWN_FORWARD,
    PAWN_REACH, STEP, WAZIR_PATHS, WAZIR_STEPS, bit,
};
use super::{DEAD_SQUARES, Kind, Piece, Position};
use crate::variant::Side;

/// Occupancy bitboards of a position (bit [`bit`] of a frame index), for the evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Occupancy {
    /// Every piece.
    pub(crate) all: u128,
    /// Each side's pieces, by [`Side::index`].
    pub(crate) side: [u128; 2],
    /// Kings on the dead board (royal: never captured).
    pub(crate) royal: u128,
}

/// Every square a piece of any kind on `s` could attack on some board (a superset of what
/// [`Position::attacks`] marks for it): its king, alchemist, pawn and wazir reach, the
/// wazir's two-step, and the Pagan's neighbours (across the bridge).
const fn any_attack(s: usize) -> u128 {
    let mut m = KING_REACH[s] | ALCHEMIST_REACH[s] | PAWN_REACH[s] | WAZIR_STEPS[s];
    let mut d = 0;
    while d < 8 {
        let one = STEP[s][d];
        if one != NO && STEP[one as usize][d] != NO {
            m |= bit(STEP[one as usize][d]);
        }
        if PAGAN_STEP[s][d] != NO {
            m |= bit(PAGAN_STEP[s][d]);
        }
        d += 1;
    }
    m
}

/// For a king on each square: the squares from which a piece could attack the king or one
/// of the squares around it ([`KING_REACH`]), by [`any_attack`].
const ATTACKER_ZONE: [u128; SQUARES] = {
    let mut reach = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        reach[s] = any_attack(s);
        s += 1;
    }
    let mut zone = [0u128; SQUARES];
    let mut k = 0;
    while k < SQUARES {
        let around = KING_REACH[k] | bit(k as u8);
        let mut s = 0;
        while s < SQUARES {
            if reach[s] & around != 0 {
                zone[k] |= bit(s as u8);
            }
            s += 1;
        }
        k += 1;
    }
    zone
};

/// The union of `f` over the squares of `b`.
#[inline(always)]
fn union_of(mut b: u128, f: impl Fn(usize) -> u128) -> u128 {
    let mut map = 0;
    while b != 0 {
        map |= f(b.trailing_zeros() as usize);
        b &= b - 1;
    }
    map
}

impl Position {
    /// Whether `side`'s piece on `target` is attacked (pseudo-legally) by the other side.
    pub(crate) fn attacked(&self, target: u8, side: Side) -> bool {
        let them = side.opponent();
        let t = usize::from(target);
        let enemy = |kind: Kind| self.pieces(them, kind);
        // The king, the alchemist and the wazir's step reach back along their own patterns.
        if KING_REACH[t] & enemy(Kind::King) != 0
            || ALCHEMIST_REACH[t] & enemy(Kind::Alchemist) != 0
            || WAZIR_STEPS[t] & enemy(Kind::Wazir) != 0
        {
            return true;
        }
        // Pawns capture sideways: a pawn one rank up or down on the same file (a sideways
        // step is its own way back).
        if PAWN_REACH[t] & enemy(Kind::Pawn) != 0 {
            return true;
        }
        let wazirs = enemy(Kind::Wazir);
        let pagans = enemy(Kind::Pagan);
        if wazirs == 0 && pagans == 0 {
            return false;
        }
        for d in 0..8 {
            if wazirs != 0 && ORTHOGONAL.contains(&d) {
                let one = STEP[t][d];
                if one != NO && self.empty(one) {
                    let two = STEP[usize::from(one)][d];
                    if two != NO && wazirs & bit(two) != 0 {
                        return true;
                    }
                }
            }
            // A Pagan adjacent (across the bridge too) that can withdraw: the square one step
            // directly away from the target exists and is empty.
            let pagan_sq = PAGAN_STEP[t][d];
            if pagan_sq != NO && pagans & bit(pagan_sq) != 0 {
                let away = PAGAN_STEP[usize::from(pagan_sq)][d];
                if away != NO && self.empty(away) {
                    return true;
                }
            }
        }
        false
    }

    /// Every square on which a piece of `victim`'s would be attacked by the other side, as
    /// [`Position::attacked`] judges one square, in one pass over the attackers.
    #[inline(always)]
    pub(crate) fn attacks(&self, victim: Side) -> u128 {
        self.attacks_from(victim, !0)
    }

    /// [`Position::attacks`] on the squares of [`Position::king_reach`]`(king)` and `king`
    /// itself (what the evaluation asks about a king), and perhaps some others: only the
    /// attackers that can reach one of those squares are looked at (most of a side's pieces
    /// are far from the enemy king).
    #[inline(always)]
    pub(crate) fn attacks_near(&self, victim: Side, king: u8) -> u128 {
        self.attacks_from(victim, ATTACKER_ZONE[usize::from(king)])
    }

    /// The squares the other side's pieces on `zone` attack ([`Position::attacks`]).
    #[inline(always)]
    fn attacks_from(&self, victim: Side, zone: u128) -> u128 {
        let them = victim.opponent();
        let empty = |q: u8| q != NO && self.board[usize::from(q)].is_none();
        let of = |kind: Kind| self.pieces(them, kind) & zone;
        let wazirs = union_of(of(Kind::Wazir), |s| {
            let mut m = WAZIR_STEPS[s];
            for d in ORTHOGONAL {
                let one = STEP[s][d];
                if empty(one) && STEP[usize::from(one)][d] != NO {
                    m |= bit(STEP[usize::from(one)][d]);
                }
            }
            m
        });
        // A Pagan attacks its neighbour in direction d when the square in the opposite
        // direction, where it withdraws to, exists and is empty.
        let pagans = union_of(of(Kind::Pagan), |s| {
            let mut m = 0;
            for d in 0..8 {
                let near = PAGAN_STEP[s][d];
                if near != NO && empty(PAGAN_STEP[s][7 - d]) {
                    m |= bit(near);
                }
            }
            m
        });
        union_of(of(Kind::King), |s| KING_REACH[s])
            | union_of(of(Kind::Alchemist), |s| ALCHEMIST_REACH[s])
            | union_of(of(Kind::Pawn), |s| PAWN_REACH[s])
            | wazirs
            | pagans
    }

    /// Whether the side to move's king stands on the dead board under attack.
    pub(crate) fn in_check(&self) -> bool {
        self.dead_king(self.to_move)
            .is_some_and(|k| self.attacked(k, self.to_move))
    }

    /// The occupancy bitboards.
    pub(crate) fn occupancy(&self) -> Occupancy {
        let side = [self.side_bits(Side::White), self.side_bits(Side::Black)];
        let kings = self.pieces(Side::White, Kind::King) | self.pieces(Side::Black, Kind::King);
        Occupancy {
            all: side[0] | side[1],
            side,
            royal: kings & DEAD_SQUARES,
        }
    }

    /// How many pseudo-legal moves the piece on `sq` has (0 for a king), whoever is to move,
    /// counted without generating them (a promotion once).
    #[inline(always)]
    pub(crate) fn piece_mobility(sq: u8, piece: Piece, occ: &Occupancy) -> i32 {
        let s = usize::from(sq);
        let me = piece.side.index();
        let land = !occ.side[me] & !occ.royal;
        let count = match piece.kind {
            Kind::King => 0,
            Kind::Alchemist => (ALCHEMIST_REACH[s] & land).count_ones(),
            // A slide of two needs the square between empty; a missing step has no bits, so
            // it counts nothing.
            Kind::Wazir => {
                let twos = WAZIR_PATHS[s]
                    .iter()
                    .map(|&(one, two)| u32::from(one & occ.all == 0 && two & land != 0));
                (WAZIR_STEPS[s] & land).count_ones() + twos.sum::<u32>()
            }
            Kind::Pagan => PAGAN_PATHS[s]
                .iter()
                .map(|&(one, two)| {
                    let first = one != 0 && one & occ.all == 0;
                    u32::from(first) + u32::from(first && two != 0 && two & occ.all == 0)
                })
                .sum(),
            Kind::Pawn => {
                let n = u32::from(PAWN_FORWARD[me][s] & !occ.all != 0);
                let prey = occ.side[1 - me] & !occ.royal;
                n + (PAWN_REACH[s] & prey).count_ones()
            }
        };
        count as i32
    }

    /// The squares a king (no crossing) steps to from `sq`.
    pub(crate) fn king_reach(sq: u8) -> u128 {
        KING_REACH[usize::from(sq)]
    }

    /// How many pseudo-legal moves `side`'s pieces but its king have, whoever is to move, by
    /// generating them (the reference for `Position::piece_mobility`); a promotion counts
    /// once.
    #[cfg(test)]
    pub(crate) fn mobility(&self, side: Side, scratch: &mut Vec<Move>) -> i32 {
        scratch.clear();
        for sq in 0..SQUARES as u8 {
            if self
                .at(sq)
                .is_some_and(|p| p.side == side && p.kind != Kind::King)
            {
                self.piece_moves(sq, scratch);
            }
        }
        scratch
            .iter()
            .filter(|m| m.promotion.is_none() || m.promotion == Some(Kind::Pagan))
            .count() as i32
    }

    /// The dead-board square a piece of `side` captured on the game board would go to.
    pub(crate) fn next_slot(&self, side: Side) -> Option<u8> {
        ORDER[side.index()]
            .iter()
            .copied()
            .find(|&q| self.board[usize::from(q)].is_none())
    }

    /// How many of `side`'s pieces can take part in a mate on the dead board: its Pagans,
    /// wherever they stand (they cross the bridge), its dead pieces (its king too, once it is
    /// dead) and its live pawns (each may become a Pagan). Its other live pieces never reach
    /// the dead board unless the enemy captures them, which the enemy decides. A live pawn
    /// that cannot promote (`Position::unpromoting_pawns`) is no unit.
    #[inline(always)]
    pub(crate) fn mating_force(&self, side: Side) -> u32 {
        let own = self.side_bits(side);
        let pawns = self.pieces(side, Kind::Pawn) & !self.unpromoting_pawns(side);
        (self.pieces(side, Kind::Pagan) | pawns | own & DEAD_SQUARES).count_ones()
    }

    /// Whether `side` can still win: two units toward a mate (`Position::mating_force`),
    /// and the enemy king already dead or two pieces that can capture it on the game board
    /// (live pieces but the king, which never captures a king, and Pagans, which come back
    /// from the dead board). One is not enough against a king that takes care: a lone Pagan
    /// captures only by withdrawing from next to the king, where the king takes it first; a
    /// lone Alchemist keeps to squares of one colour, which the king leaves; a lone Wazir or
    /// pawn the king steps away from. With two, one guards the other. A pawn that cannot
    /// promote is no capturer: it takes only on its file, which the king avoids. (A Pagan and
    /// a king against a lone live king win from 48 of 39,270 placements with the king to
    /// move, `tests/reference/pagan_kgk_ref.py`: the king keeps away from the Pagan.)
    /// The evaluation reads the rule through [`Position::win_margin`] (`>= 1`); this is its
    /// yes-or-no form, which the tests state positions in.
    #[cfg(test)]
    pub(crate) fn can_win(&self, side: Side) -> bool {
        self.win_margin(side) >= 1
    }

    /// How many units `side` could lose and still be able to win (`Position::can_win`),
    /// plus one: 0 when it cannot win, 1 when it has just enough (two mating units, and two
    /// capturers while the enemy king lives), more with spares.
    #[inline(always)]
    pub(crate) fn win_margin(&self, side: Side) -> u32 {
        let own = self.side_bits(side);
        let capturers =
            own & !DEAD_SQUARES & !self.pieces(side, Kind::King) & !self.unpromoting_pawns(side)
                | self.pieces(side, Kind::Pagan);
        let capture = if self.dead_king(side.opponent()).is_some() {
            u32::MAX
        } else {
            capturers.count_ones()
        };
        self.mating_force(side).min(capture).saturating_sub(1)
    }

    /// `side`'s live pawns that never promote: a pawn steps along its rank, and the end of
    /// White's frame rank 7 (a7) and of Black's rank 11 (g11) is no promotion square. Only a
    /// sideways capture takes one off that rank.
    #[inline(always)]
    pub(crate) fn unpromoting_pawns(&self, side: Side) -> u128 {
        const RANK: u128 = (1 << 7) - 1;
        let rank = match side {
            Side::White => RANK << (6 * 7),
            Side::Black => RANK << (10 * 7),
        };
        self.pieces(side, Kind::Pawn) & rank
    }
}
