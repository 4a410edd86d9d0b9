//! Pagan Chess moves: generation (the bridge is in the step tables), playing one (withdrawal,
//! reincarnation, promotion) and legality (a dead king may not be left attacked).

use super::tables::{
    DIAGONAL, DIRS, NO, ORDER, ORTHOGONAL, PAGAN_BEHIND, PAGAN_STEP, STEP, exists, index, is_dead,
    promotion_square,
};
use super::{Kind, Move, Piece, Position};
use crate::variant::Side;

/// Appends the move of `piece` from `from` to `to`, once for each promotion where a pawn
/// must promote.
fn push_move(piece: Piece, from: u8, to: u8, out: &mut Vec<Move>) {
    if piece.kind == Kind::Pawn && promotion_square(piece.side, to) && !is_dead(from) {
        for kind in [Kind::Wazir, Kind::Alchemist, Kind::Pagan] {
            out.push(Move {
                from,
                to,
                promotion: Some(kind),
            });
        }
    } else {
        out.push(Move {
            from,
            to,
            promotion: None,
        });
    }
}

impl Position {
    /// Appends the pseudo-legal moves of the piece on `from` (royalty not yet checked).
    pub(super) fn piece_moves(&self, from: u8, out: &mut Vec<Move>) {
        let Some(piece) = self.at(from) else { return };
        let mut push = |to: u8| push_move(piece, from, to, out);
        match piece.kind {
            Kind::King => self.king_targets(piece, from, &mut push),
            Kind::Wazir => self.wazir_targets(piece, from, &mut push),
            Kind::Alchemist => self.alchemist_targets(piece, from, &mut push),
            Kind::Pagan => self.pagan_targets(from, &mut push),
            Kind::Pawn => self.pawn_targets(piece, from, &mut push),
        }
    }

    /// Appends the pseudo-legal captures (by landing or by withdrawal) of the piece on
    /// `from`: the moves of [`Position::piece_moves`] that take a piece, in the same order.
    fn piece_captures(&self, from: u8, out: &mut Vec<Move>) {
        let Some(piece) = self.at(from) else { return };
        // Every piece but the Pagan captures by landing on its victim, and only so.
        let mut push = |to: u8| {
            if self.at(to).is_some() {
                push_move(piece, from, to, out);
            }
        };
        match piece.kind {
            Kind::King => self.king_targets(piece, from, &mut push),
            Kind::Wazir => self.wazir_targets(piece, from, &mut push),
            Kind::Alchemist => self.alchemist_targets(piece, from, &mut push),
            Kind::Pagan => self.pagan_captures(piece, from, out),
            Kind::Pawn => self.pawn_targets(piece, from, &mut push),
        }
    }

    /// Appends the withdrawals of the Pagan `piece` on `from` that capture: its moves away
    /// from an enemy next to it (`Position::withdrawal_victim`), in `pagan_targets`' order.
    fn pagan_captures(&self, piece: Piece, from: u8, out: &mut Vec<Move>) {
        let steps = &PAGAN_STEP[usize::from(from)];
        for (d, &one) in steps.iter().enumerate() {
            if one == NO || !self.empty(one) {
                continue;
            }
            let behind = steps[7 - d];
            let prey = self.at(behind).is_some_and(|v| {
                v.side != piece.side && !(v.kind == Kind::King && is_dead(behind))
            });
            if !prey {
                continue;
            }
            push_move(piece, from, one, out);
            let two = PAGAN_STEP[usize::from(one)][d];
            if two != NO && self.empty(two) {
                push_move(piece, from, two, out);
            }
        }
    }

    /// Whether `piece` may land on `to`: an empty square, or an enemy that may be taken by
    /// landing there (never a king by a king, never a king on the dead board).
    fn can_land(&self, piece: Piece, to: u8) -> bool {
        match self.at(to) {
            None => true,
            Some(v) => {
                v.side != piece.side
                    && !(v.kind == Kind::King && (piece.kind == Kind::King || is_dead(to)))
            }
        }
    }

    /// The squares a king on `from` may move to: one step, in any of the 8 directions.
    fn king_targets(&self, piece: Piece, from: u8, push: &mut impl FnMut(u8)) {
        for &to in &STEP[usize::from(from)] {
            if to != NO && self.can_land(piece, to) {
                push(to);
            }
        }
    }

    /// The squares a Wazir on `from` may move to: 1 or 2 orthogonally, the middle one empty.
    fn wazir_targets(&self, piece: Piece, from: u8, push: &mut impl FnMut(u8)) {
        for d in ORTHOGONAL {
            let one = STEP[usize::from(from)][d];
            if one == NO {
                continue;
            }
            if self.can_land(piece, one) {
                push(one);
            }
            let two = STEP[usize::from(one)][d];
            if self.empty(one) && two != NO && self.can_land(piece, two) {
                push(two);
            }
        }
    }

    /// The squares an Alchemist on `from` may move to: a diagonal step or a 2-square leap.
    fn alchemist_targets(&self, piece: Piece, from: u8, push: &mut impl FnMut(u8)) {
        for d in DIAGONAL {
            let one = STEP[usize::from(from)][d];
            if one != NO && self.can_land(piece, one) {
                push(one);
            }
            // The leap passes over anything, holes included.
            let (f, r) = (
                (from % 7) as i8 + 2 * DIRS[d].0,
                (from / 7) as i8 + 1 + 2 * DIRS[d].1,
            );
            if exists(f, r) && self.can_land(piece, index(f, r)) {
                push(index(f, r));
            }
        }
    }

    /// The squares a Pagan on `from` may move to: 1 or 2 in any direction, across the bridge,
    /// empty ones only (it never captures by landing).
    fn pagan_targets(&self, from: u8, push: &mut impl FnMut(u8)) {
        for (d, &one) in PAGAN_STEP[usize::from(from)].iter().enumerate() {
            if one == NO || !self.empty(one) {
                continue;
            }
            push(one);
            let two = PAGAN_STEP[usize::from(one)][d];
            if two != NO && self.empty(two) {
                push(two);
            }
        }
    }

    /// The squares a pawn on `from` may move to: one step forward onto an empty square, or
    /// sideways onto an enemy.
    fn pawn_targets(&self, piece: Piece, from: u8, push: &mut impl FnMut(u8)) {
        let forward = if piece.side == Side::White { 4 } else { 3 };
        let to = STEP[usize::from(from)][forward];
        if to != NO && self.empty(to) {
            push(to);
        }
        for d in [1, 6] {
            let to = STEP[usize::from(from)][d];
            if to != NO
                && self.at(to).is_some_and(|v| v.side != piece.side)
                && self.can_land(piece, to)
            {
                push(to);
            }
        }
    }

    /// The piece a move sends to the dead board and the square it reincarnates on, if any.
    pub(crate) fn reincarnation(&self, mv: Move) -> Option<(Piece, u8)> {
        let next = self.play(mv);
        (0..28u8).find_map(|sq| match (self.at(sq), next.at(sq)) {
            (None, Some(p)) if sq != mv.to => Some((p, sq)),
            _ => None,
        })
    }

    /// The square a withdrawing Pagan captures on, if the move withdraws from an enemy.
    pub(crate) fn withdrawal_victim(&self, mv: Move) -> Option<u8> {
        let piece = self.at(mv.from)?;
        if piece.kind != Kind::Pagan {
            return None;
        }
        let behind = PAGAN_BEHIND[usize::from(mv.from)][usize::from(mv.to)];
        if behind == NO {
            return None;
        }
        match self.at(behind) {
            Some(v) if v.side != piece.side && !(v.kind == Kind::King && is_dead(behind)) => {
                Some(behind)
            }
            _ => None,
        }
    }

    /// Plays a pseudo-legal move: the mover lands (promoting), then its victim, if any,
    /// reincarnates (from the game board) or leaves the game (from the dead board).
    pub(crate) fn play(&self, mv: Move) -> Position {
        let mut next = self.clone();
        let mut piece = next.board[usize::from(mv.from)]
            .take()
            .expect("a piece to move");
        next.set_bit(piece, mv.from, false);
        let victim_sq = match self.at(mv.to) {
            Some(_) => Some(mv.to),
            None => self.withdrawal_victim(mv),
        };
        let victim = victim_sq.and_then(|sq| next.board[usize::from(sq)].take());
        if let (Some(v), Some(sq)) = (victim, victim_sq) {
            next.set_bit(v, sq, false);
        }
        if let Some(kind) = mv.promotion {
            piece.kind = kind;
        }
        next.board[usize::from(mv.to)] = Some(piece);
        next.set_bit(piece, mv.to, true);
        if let (Some(v), Some(sq)) = (victim, victim_sq)
            && !is_dead(sq)
        {
            let order = &ORDER[v.side.index()];
            if let Some(&free) = order
                .iter()
                .find(|&&q| next.board[usize::from(q)].is_none())
            {
                next.board[usize::from(free)] = Some(v);
                next.set_bit(v, free, true);
            }
        }
        next.halfmove = if victim.is_some() || piece.kind == Kind::Pawn || mv.promotion.is_some() {
            0
        } else {
            self.halfmove + 1
        };
        // Irreversible: whatever lowers, for good, the number of pieces in the game, of live
        // pieces but Pagans (only a Pagan comes back from the dead board), of pawns, or the
        // steps pawns have left. A captured live Pagan can walk back, so taking one is not.
        let irreversible = match (victim, victim_sq) {
            (Some(v), Some(sq)) => is_dead(sq) || v.kind != Kind::Pagan,
            _ => piece.kind == Kind::Pawn || mv.promotion.is_some(),
        } || mv.promotion.is_some();
        next.reversible = if irreversible {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        if self.to_move == Side::Black {
            next.fullmove += 1;
        }
        next.flip_side();
        next
    }

    /// Every legal move of the side to move.
    pub(crate) fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.bare_kings() {
            return;
        }
        let me = self.to_move;
        if self.dead_king(me).is_none() {
            // A live king stays live through its own side's move: nothing to check.
            self.pseudo_moves(out);
            return;
        }
        self.pseudo_moves(out);
        out.retain(|&mv| self.is_legal(mv));
    }

    /// Whether the side to move has a legal move (legality checked only until one passes).
    pub(crate) fn has_legal_move(&self) -> bool {
        let mut moves = Vec::new();
        self.pseudo_moves(&mut moves);
        !self.bare_kings() && moves.iter().any(|&mv| self.is_legal(mv))
    }

    /// Appends the pseudo-legal moves of the side to move.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let mut own = self.side_bits(self.to_move);
        while own != 0 {
            let sq = own.trailing_zeros() as u8;
            own &= own - 1;
            self.piece_moves(sq, out);
        }
    }

    /// Appends the pseudo-legal captures of the side to move: the moves of
    /// [`Position::pseudo_moves`] that take a piece, in the same order.
    pub(crate) fn pseudo_captures(&self, out: &mut Vec<Move>) {
        let mut own = self.side_bits(self.to_move);
        while own != 0 {
            let sq = own.trailing_zeros() as u8;
            own &= own - 1;
            self.piece_captures(sq, out);
        }
    }

    /// Whether a pseudo-legal move of the side to move leaves its dead king safe.
    pub(crate) fn is_legal(&self, mv: Move) -> bool {
        let me = self.to_move;
        self.dead_king(me).is_none_or(|_| {
            let next = self.play(mv);
            next.dead_king(me).is_none_or(|k| !next.attacked(k, me))
        })
    }
}
