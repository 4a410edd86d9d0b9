//! The moves each piece has in a Gladiator or Brawl position: a pawn's, borrowed from the
//! friendly supporters that see it, and a supporter's in the second part of a turn.

use super::reach::{KING_REACH, KNIGHT_REACH, bishop_reach, rook_reach};
use super::*;

impl Position {
    /// Squares the pawn on `from` may move to (one entry however many supporters give it).
    pub(crate) fn pawn_targets(&self, from: u8) -> u64 {
        let s = if self.sides[0] & self.kinds[0] & bit(from) != 0 {
            0
        } else if self.sides[1] & self.kinds[0] & bit(from) != 0 {
            1
        } else {
            return 0;
        };
        self.targets_of(s, from, self.occupied())
    }

    /// The targets of side `s`'s pawn on `from`, given the occupied squares.
    #[inline]
    pub(crate) fn targets_of(&self, s: usize, from: u8, occupied: u64) -> u64 {
        self.targets_and_reads(s, from, occupied).0
    }

    /// The targets of side `s`'s pawn on `from` ([`Position::targets_of`]) and the squares
    /// whose contents decide them: its own, its diagonal reach (the first piece each way
    /// included: it may power it) and every square it borrows a move to (a rook's reach ends
    /// on its first piece too). A piece put on or taken off any other square leaves its
    /// targets as they are.
    #[inline(always)]
    pub(crate) fn targets_and_reads(&self, s: usize, from: u8, occupied: u64) -> (u64, u64) {
        let diagonals = bishop_reach(from, occupied);
        let powering = diagonals & self.supporters(s);
        let rook = || rook_reach(from, occupied);
        let borrowed = self.borrowed(from, powering, diagonals, rook);
        (
            self.allowed_targets(s, borrowed),
            diagonals | borrowed | bit(from),
        )
    }

    /// The squares a pawn on `from` reaches with the moves of the supporters `powering`
    /// (before [`Position::allowed_targets`]), `diagonals` being its bishop reach and `rook`
    /// giving its rook reach (asked only when a rook or queen powers it): one lookup per kind
    /// among them, not one per supporter (the kinds overlap: a queen is a rook and a bishop).
    #[inline]
    pub(crate) fn borrowed(
        &self,
        from: u8,
        powering: u64,
        diagonals: u64,
        rook: impl FnOnce() -> u64,
    ) -> u64 {
        if powering == 0 {
            return 0;
        }
        borrowed_by(self.kinds_among(powering), from, diagonals, rook)
    }

    /// The supporter kinds among the pieces `among`, as a [`KindSet`].
    #[inline(always)]
    pub(crate) fn kinds_among(&self, among: u64) -> KindSet {
        let mut set = 0;
        for k in 1..6 {
            set |= u8::from(among & self.kinds[k] != 0) << k;
        }
        set
    }

    /// The squares among `targets` side `s`'s pawns may end on: not on an own piece, and in
    /// Gladiator not off the arena nor on an enemy supporter.
    #[inline]
    pub(crate) fn allowed_targets(&self, s: usize, targets: u64) -> u64 {
        targets & self.target_mask(s)
    }

    /// The squares side `s`'s pawns may end on ([`Position::allowed_targets`]), as one mask
    /// for a loop over its pawns to take once.
    #[inline]
    pub(crate) fn target_mask(&self, s: usize) -> u64 {
        let free = !self.sides[s];
        match self.rules {
            // Supporters are never captured; pawns never leave the arena.
            Rules::Gladiator => free & ARENA & !self.supporters(1 - s),
            Rules::Brawl => free,
        }
    }

    /// The pawn moves of the side to move: one `(from, to)` per target, however many
    /// supporters give it.
    pub(crate) fn pawn_moves(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        bits(self.pieces(self.to_move, Kind::Pawn))
            .flat_map(move |from| bits(self.pawn_targets(from)).map(move |to| (from, to)))
    }

    /// Whether the side to move has a pawn move.
    pub(crate) fn has_pawn_move(&self) -> bool {
        let mut pawns = self.pieces(self.to_move, Kind::Pawn);
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            if self.pawn_targets(from) != 0 {
                return true;
            }
            pawns &= pawns - 1;
        }
        false
    }

    /// Moves of the mover's supporters in the second part, as (from, to) pairs.
    pub(super) fn supporter_moves(&self, out: &mut Vec<(u8, u8)>) {
        out.clear();
        let s = self.to_move.index();
        let occupied = self.occupied();
        let mut sup = self.supporters(s);
        while sup != 0 {
            let from = sup.trailing_zeros() as u8;
            sup &= sup - 1;
            let mut targets = match self.rules {
                Rules::Gladiator => BORDER & !occupied,
                Rules::Brawl => {
                    let kind = self.kind_at(from).expect("a supporter");
                    reach(kind, from, occupied) & !occupied
                }
            };
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push((from, to));
            }
        }
    }
}

/// A set of supporter kinds: bit `k` for the kind of index `k` (knight 1 to king 5).
pub(crate) type KindSet = u8;

/// [`Position::borrowed`] for supporters of the kinds `kinds` (not empty), found with
/// [`Position::kinds_among`]: each kind's moves are one mask, without a branch but for the
/// rook's reach, which is computed only when a rook or queen is among them.
#[inline(always)]
pub(crate) fn borrowed_by(
    kinds: KindSet,
    from: u8,
    diagonals: u64,
    rook: impl FnOnce() -> u64,
) -> u64 {
    let all = |set: u8| 0u64.wrapping_sub(u64::from(kinds & set != 0));
    let bit = |k: Kind| 1u8 << k as u8;
    let from = usize::from(from);
    let mut targets = KNIGHT_REACH[from] & all(bit(Kind::Knight))
        | diagonals & all(bit(Kind::Bishop) | bit(Kind::Queen))
        | KING_REACH[from] & all(bit(Kind::King));
    if kinds & (bit(Kind::Rook) | bit(Kind::Queen)) != 0 {
        targets |= rook();
    }
    targets
}
