//! A turn: judging each written move, resolving the two together, and the game's end.

use super::{
    End, Illegal, Judgement, Kind, Move, NONE, NotAMove, Position, RANK_1, RANK_5, Rules, index_of,
};
use crate::notation::WireMove;
use crate::variant::Side;

impl Position {
    /// Judges a written move of a side on this position.
    ///
    /// # Errors
    /// [`NotAMove`] when the text is not an Apocalypse move at all.
    pub(crate) fn judge(&self, side: Side, mv: &WireMove) -> Result<Judgement, NotAMove> {
        let mut legal = Vec::new();
        self.legal_moves(side, &mut legal);
        let (legs, promotion) = match mv {
            WireMove::Pass => {
                return Ok(if legal == [Move::PASS] {
                    Ok(Move::PASS)
                } else {
                    Err(Illegal::BadPass)
                });
            }
            WireMove::Drop { .. } => return Err(NotAMove),
            WireMove::Legs { legs, promotion } => (legs, promotion),
        };
        if legs.len() > 2 || promotion.is_some() {
            return Err(NotAMove);
        }
        let squares: Option<Vec<u8>> = legs
            .iter()
            .flat_map(|l| [l.from, l.to])
            .map(index_of)
            .collect();
        let Some(sq) = squares else {
            return Ok(Err(Illegal::OffBoard));
        };
        let s = side.index();
        if self.occupied(s) >> sq[0] & 1 == 0 {
            return Ok(Err(Illegal::NotYourPiece));
        }
        if sq.len() == 4 && sq[2] != sq[1] {
            return Ok(Err(Illegal::BadRedeploy));
        }
        let candidate = Move {
            from: sq[0],
            to: sq[1],
            redeploy: sq.get(3).copied().unwrap_or(NONE),
        };
        if legal.contains(&candidate) {
            return Ok(Ok(candidate));
        }
        // Name the fault: the step itself, or its redeploy leg.
        let step_ok = legal
            .iter()
            .any(|m| m.from == candidate.from && m.to == candidate.to);
        Ok(Err(
            if step_ok || self.promotion_step_needs_redeploy(s, &candidate) {
                Illegal::BadRedeploy
            } else {
                Illegal::CannotMove
            },
        ))
    }

    fn promotion_step_needs_redeploy(&self, s: usize, m: &Move) -> bool {
        m.redeploy != NONE && {
            let single = Move {
                redeploy: NONE,
                ..*m
            };
            let mut moves = Vec::new();
            self.generate(s, &mut moves);
            moves.contains(&single)
        }
    }

    /// The game's end, if it has ended (end conditions first, then the no-legal-move draws).
    pub fn end(&self) -> Option<End> {
        self.end_given(|side| self.has_move(side))
    }

    /// [`Position::end`], with `has_move` telling whether a side has a move other than a
    /// pass (the search's leaf knows the horsemen's moves already, from its evaluation).
    #[inline(always)]
    pub(crate) fn end_given(&self, has_move: impl Fn(Side) -> bool) -> Option<End> {
        let lost = |s: usize| {
            if self.footmen[s] == 0 {
                Some("no footmen left")
            } else if self.penalties[s] >= 2 {
                Some("two penalty points")
            } else {
                None
            }
        };
        match (lost(0), lost(1)) {
            (Some(_), Some(_)) => return Some(End::Draw("both players lost at once")),
            (Some(why), None) => return Some(End::Win(Side::Black, white_reason(why))),
            (None, Some(why)) => return Some(End::Win(Side::White, black_reason(why))),
            (None, None) => {}
        }
        // Black's moves are looked at only when White's do not settle it (a leaf of the
        // search asks this of every position).
        let (w, b) = (|| has_move(Side::White), || has_move(Side::Black));
        match self.rules {
            Rules::Seed if !w() && !b() => Some(End::Draw("neither player has a legal move")),
            Rules::Classic if !w() || !b() => Some(End::Draw("a player has no legal move")),
            _ => None,
        }
    }

    /// Plays one turn of judged moves and returns the next position. A void move (illegal)
    /// is passed as its [`Illegal`] and costs a penalty point.
    pub fn resolve(&self, white: Judgement, black: Judgement) -> Position {
        let moves = [
            white.ok().filter(|m| !m.is_pass()),
            black.ok().filter(|m| !m.is_pass()),
        ];
        let mut penalties = self.penalties;
        for (s, j) in [white, black].iter().enumerate() {
            if j.is_err() {
                penalties[s] = penalties[s].saturating_add(1);
            }
        }
        // The pieces are worked on in locals and the position is built once at the end: a
        // clone updated field by field in memory stalls on store forwarding when copied out.
        let mut men = Men {
            footmen: self.footmen,
            horsemen: self.horsemen,
        };
        let kinds = self.lift(&mut men, moves);
        let advanced = (moves.iter().zip(kinds)).any(|(m, k)| m.is_some() && k == Kind::Footman);
        let captured = self.capture(&mut men, moves);
        let collided = self.land(&mut men, moves, kinds);
        Position {
            rules: self.rules,
            footmen: men.footmen,
            horsemen: men.horsemen,
            penalties,
            quiet: if advanced || captured || collided {
                0
            } else {
                self.quiet + 1
            },
            turn: self.turn.saturating_add(1),
        }
    }

    /// The position after a turn of two legal moves, each a piece's move (a pass goes
    /// through [`Position::resolve`]): the same position `resolve` gives, worked on the
    /// bitboards in one pass. Both movers are lifted, then each destination is cleared of the
    /// other side's pieces (a mover that left it is already lifted, so it escapes), then the
    /// movers are put down, a collision on one landing square settled by the pieces' kinds.
    /// The search plays every cell this way (inlined, so that its leaves are evaluated
    /// straight from registers).
    #[inline(always)]
    pub(crate) fn play(&self, white: Move, black: Move) -> Position {
        if white.is_pass() || black.is_pass() {
            return self.resolve(Ok(white), Ok(black));
        }
        let (wf, bf) = (1u32 << white.from, 1u32 << black.from);
        let (wt, bt) = (1u32 << white.to, 1u32 << black.to);
        let (w_foot, b_foot) = (self.footmen[0] & wf != 0, self.footmen[1] & bf != 0);
        let captured = (self.occupied(1) & !bf & wt) | (self.occupied(0) & !wf & bt) != 0;
        let mut footmen = [self.footmen[0] & !wf & !bt, self.footmen[1] & !bf & !wt];
        let mut horsemen = [self.horsemen[0] & !wf & !bt, self.horsemen[1] & !bf & !wt];
        let (lw, lb) = (white.landing(), black.landing());
        let collided = lw == lb;
        // On a collision a horseman beats a footman; two of a kind are both removed.
        let stays = if collided {
            [!w_foot && b_foot, w_foot && !b_foot]
        } else {
            [true, true]
        };
        for (s, m, foot, land) in [(0, white, w_foot, lw), (1, black, b_foot, lb)] {
            if !stays[s] {
                continue;
            }
            let kind = if foot { Kind::Footman } else { Kind::Horseman };
            if kind == Kind::Horseman || self.promotes(s, m, kind) {
                horsemen[s] |= 1 << land;
            } else {
                footmen[s] |= 1 << land;
            }
        }
        Position {
            rules: self.rules,
            footmen,
            horsemen,
            penalties: self.penalties,
            quiet: if w_foot || b_foot || captured || collided {
                0
            } else {
                self.quiet + 1
            },
            turn: self.turn.saturating_add(1),
        }
    }

    /// Side `s`'s move `m` on its own ([`Solo`]); `None` for a pass.
    #[inline(always)]
    pub(crate) fn solo(&self, s: usize, m: Move) -> Option<Solo> {
        if m.is_pass() {
            return None;
        }
        let from = 1u32 << m.from;
        let footman = self.footmen[s] & from != 0;
        let landing = m.landing();
        let bit = 1u32 << landing;
        // Whether the mover lands as a horseman ([`Position::promotes`]), without a branch:
        // the kind of the piece a move moves is anyone's guess.
        let far = if s == 0 { RANK_5 } else { RANK_1 };
        let promotes =
            (m.redeploy == NONE) & (far >> m.to & 1 == 1) & (self.horsemen[s].count_ones() < 2);
        let horse = 0u32.wrapping_sub(u32::from(!footman | promotes));
        let landed = [bit & !horse, bit & horse];
        Some(Solo {
            to: 1 << m.to,
            landing,
            footman,
            rest: [self.footmen[s] & !from, self.horsemen[s] & !from],
            landed,
        })
    }

    /// Takes each moving piece off its square in `next`; returns their kinds (before any
    /// promotion; a footman for a side that does not move).
    #[inline]
    fn lift(&self, next: &mut Men, moves: [Option<Move>; 2]) -> [Kind; 2] {
        let mut kinds = [Kind::Footman; 2];
        for s in 0..2 {
            if let Some(m) = moves[s] {
                let bit = 1u32 << m.from;
                kinds[s] = if self.footmen[s] & bit != 0 {
                    Kind::Footman
                } else {
                    Kind::Horseman
                };
                next.footmen[s] &= !bit;
                next.horsemen[s] &= !bit;
            }
        }
        kinds
    }

    /// Removes from `next` each piece a move lands on, if it stayed on its square (one that
    /// moved away escapes); whether anything was captured.
    #[inline]
    fn capture(&self, next: &mut Men, moves: [Option<Move>; 2]) -> bool {
        let mut captured = false;
        for s in 0..2 {
            let o = 1 - s;
            if let Some(m) = moves[s] {
                let target = 1u32 << m.to;
                let escaped = moves[o].is_some_and(|om| om.from == m.to);
                if self.occupied(o) & target != 0 && !escaped {
                    next.footmen[o] &= !target;
                    next.horsemen[o] &= !target;
                    captured = true;
                }
            }
        }
        captured
    }

    /// Puts each moving piece on its landing square in `next` (a redeploy square if it has
    /// one), promoted where it must be, the loser of a collision removed; whether the two
    /// collided.
    #[inline]
    fn land(&self, next: &mut Men, moves: [Option<Move>; 2], kinds: [Kind; 2]) -> bool {
        let land = Move::landing;
        let place = |next: &mut Men, s: usize, m: Move, kind: Kind| {
            let bit = 1u32 << m.landing();
            if kind == Kind::Horseman || self.promotes(s, m, kind) {
                next.horsemen[s] |= bit;
            } else {
                next.footmen[s] |= bit;
            }
        };
        match moves {
            [Some(w), Some(b)] if land(w) == land(b) => {
                match kinds {
                    [Kind::Horseman, Kind::Footman] => place(next, 0, w, Kind::Horseman),
                    [Kind::Footman, Kind::Horseman] => place(next, 1, b, Kind::Horseman),
                    _ => {}
                }
                true
            }
            _ => {
                for s in 0..2 {
                    if let Some(m) = moves[s] {
                        place(next, s, m, kinds[s]);
                    }
                }
                false
            }
        }
    }

    /// Whether side `s`'s move `m` of a piece of `kind` promotes it to a horseman: a footman
    /// reaching the far rank with no redeploy leg while its side has fewer than 2 horsemen.
    #[inline]
    fn promotes(&self, s: usize, m: Move, kind: Kind) -> bool {
        let far = if s == 0 { RANK_5 } else { RANK_1 };
        kind == Kind::Footman
            && m.redeploy == NONE
            && far >> m.to & 1 == 1
            && self.horsemen[s].count_ones() < 2
    }
}

fn white_reason(why: &'static str) -> &'static str {
    match why {
        "no footmen left" => "White has no footmen left",
        _ => "White has two penalty points",
    }
}

fn black_reason(why: &'static str) -> &'static str {
    match why {
        "no footmen left" => "Black has no footmen left",
        _ => "Black has two penalty points",
    }
}

/// One side's move (not a pass) on its own, worked out once for every move of the other
/// side: the side's other pieces and what its mover lands as. With the other side's move it
/// gives that side's pieces after the turn as [`Position::play`] leaves them
/// ([`Solo::after`]), and they are the move's own (`rest` and `landed`) when the other move
/// does not touch them ([`Solo::untouched_by`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Solo {
    /// The square the mover steps to, as a bit (what it captures there).
    pub(crate) to: u32,
    /// The square the mover ends on (its redeploy square if it has one).
    pub(crate) landing: u8,
    /// Whether the mover is a footman (before any promotion).
    pub(crate) footman: bool,
    /// The side's footmen and horsemen but the mover.
    pub(crate) rest: [u32; 2],
    /// The mover's landing square among the side's footmen or among its horsemen (promoted).
    pub(crate) landed: [u32; 2],
}

impl Solo {
    /// Whether the other side's move `other` leaves this side's pieces as this move alone
    /// leaves them: it captures none of them (a mover that left is not there to capture)
    /// and the two movers do not land on one square.
    #[inline(always)]
    pub(crate) fn untouched_by(&self, other: &Solo) -> bool {
        self.landing != other.landing && (self.rest[0] | self.rest[1]) & other.to == 0
    }

    /// This side's footmen and horsemen after the turn in which the other side moved
    /// `other`: a piece on the other mover's target is captured, and on a collision a
    /// horseman beats a footman (two of a kind are both removed).
    #[inline(always)]
    pub(crate) fn after(&self, other: &Solo) -> [u32; 2] {
        let stays = self.landing != other.landing || (!self.footman && other.footman);
        let landed = if stays { self.landed } else { [0, 0] };
        [
            self.rest[0] & !other.to | landed[0],
            self.rest[1] & !other.to | landed[1],
        ]
    }
}

/// The pieces of both sides while a turn is resolved.
struct Men {
    footmen: [u32; 2],
    horsemen: [u32; 2],
}
