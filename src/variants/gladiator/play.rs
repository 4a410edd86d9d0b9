//! Making a turn on a Gladiator or Brawl position, and the position's hash kept up to date
//! move by move.

use super::*;

impl Position {
    /// A hash of everything that decides the legal turns and the end of the game: the
    /// pieces, the side to move, the quiet-turn clock (up to 4) and the rules. Kept up to date
    /// move by move; equal to [`Position::zobrist_from_scratch`].
    pub(crate) fn zobrist(&self) -> u64 {
        self.key
    }

    /// The key of [`Position::zobrist`], computed from the whole position.
    pub(crate) fn zobrist_from_scratch(&self) -> u64 {
        let mut key = 0;
        for s in 0..2 {
            for kind in 0..6 {
                let mut bb = self.kinds[kind] & self.sides[s];
                while bb != 0 {
                    key ^= piece_key(s, kind, bb.trailing_zeros() as u8);
                    bb &= bb - 1;
                }
            }
        }
        if self.to_move == Side::Black {
            key ^= KEYS[SIDE_KEY];
        }
        if self.rules == Rules::Brawl {
            key ^= KEYS[BRAWL_KEY];
        }
        key ^ quiet_key(self.quiet)
    }

    /// Plays the pawn part: returns the position and the kind of an enemy supporter that the
    /// pawn landed on (Brawl), which the caller must place.
    pub(crate) fn after_pawn(&self, from: u8, to: u8) -> (Position, Option<Kind>) {
        let mut next = self.clone();
        let displaced = next.move_pawn(from, to);
        (next, displaced)
    }

    /// Moves the pawn of the side to move from `from` to `to`, taking what stands there;
    /// returns the kind of an enemy supporter it took (Brawl), which the caller must place.
    #[inline(always)]
    pub(crate) fn move_pawn(&mut self, from: u8, to: u8) -> Option<Kind> {
        let me = self.to_move.index();
        let o = 1 - me;
        let mut displaced = None;
        if self.sides[o] & bit(to) != 0 {
            let kind = self.kind_at(to).expect("a piece on an occupied square");
            self.kinds[kind as usize] &= !bit(to);
            self.sides[o] &= !bit(to);
            self.key ^= piece_key(o, kind as usize, to);
            if kind != Kind::Pawn {
                displaced = Some(kind);
            }
        }
        self.shift(me, Kind::Pawn as usize, from, to);
        displaced
    }

    /// Plays the pawn part of `turn` (which moves a pawn): the pawn's move and the placement
    /// of an enemy supporter it displaced.
    #[inline(always)]
    pub(crate) fn play_pawn_part(&mut self, turn: Turn) {
        if let Some(kind) = self.move_pawn(turn.pawn.0, turn.pawn.1) {
            self.place(kind, turn.place);
        }
    }

    pub(crate) fn place(&mut self, kind: Kind, sq: u8) {
        let o = 1 - self.to_move.index();
        self.kinds[kind as usize] |= bit(sq);
        self.sides[o] |= bit(sq);
        self.key ^= piece_key(o, kind as usize, sq);
    }

    /// Ends a turn that moved a pawn or not, and captured one or not.
    fn finish(mut self, moved_pawn: bool, captured_pawn: bool) -> Position {
        self.reversible = if captured_pawn {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        let quiet = if moved_pawn { 0 } else { self.quiet + 1 };
        self.key ^= quiet_key(self.quiet) ^ quiet_key(quiet) ^ KEYS[SIDE_KEY];
        self.quiet = quiet;
        if self.to_move == Side::Black {
            self.fullmove += 1;
        }
        self.to_move = self.to_move.opponent();
        debug_assert_eq!(self.key, self.zobrist_from_scratch());
        self
    }

    /// The [`Position::zobrist`] key after a legal turn, without playing it; `None` for a
    /// turn whose placement is not a square (the search's open placement).
    pub(crate) fn key_after(&self, turn: Turn) -> Option<u64> {
        let me = self.to_move.index();
        let o = 1 - me;
        let mut key = self.key;
        let moved_pawn = turn.pawn.0 != NONE;
        if moved_pawn {
            let (from, to) = turn.pawn;
            if let Some(kind) = self.kind_at(to) {
                key ^= piece_key(o, kind as usize, to);
                if kind != Kind::Pawn {
                    if usize::from(turn.place) >= 64 {
                        return None;
                    }
                    key ^= piece_key(o, kind as usize, turn.place);
                }
            }
            key ^= piece_key(me, 0, from) ^ piece_key(me, 0, to);
        }
        if turn.support.0 != NONE {
            let (from, to) = turn.support;
            let kind = self.kind_at(from)? as usize;
            key ^= piece_key(me, kind, from) ^ piece_key(me, kind, to);
        }
        let quiet = if moved_pawn { 0 } else { self.quiet + 1 };
        Some(key ^ quiet_key(self.quiet) ^ quiet_key(quiet) ^ KEYS[SIDE_KEY])
    }

    /// Plays a legal turn.
    pub fn play(&self, turn: Turn) -> Position {
        let them = self.to_move.opponent();
        let captured = turn.moves_pawn() && self.pieces(them, Kind::Pawn) & bit(turn.pawn.1) != 0;
        // One copy of the position, changed in place.
        let mut next = self.clone();
        if turn.pawn.0 != NONE {
            next.play_pawn_part(turn);
        }
        if turn.support.0 != NONE {
            next.move_piece(turn.support.0, turn.support.1);
        }
        next.finish(turn.pawn.0 != NONE, captured)
    }
}
