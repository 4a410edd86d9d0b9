//! What a position of an alternating game offers the search.

use crate::notation::WireMove;

/// What a position of an alternating game offers the search.
pub trait Searchable: Clone {
    /// A move (a whole turn).
    type Move: Copy + PartialEq;

    /// The candidate turns the search considers (a variant may prune sub-decisions here, as
    /// long as every position keeps at least one legal turn when it has one), without their
    /// refinements. Clears `out`.
    fn candidates(&self, out: &mut Vec<Self::Move>);

    /// Appends the variations of a candidate turn that the search tries after it, if it gets
    /// that far (a turn's optional sub-moves, say). Generating them only for the turns that
    /// are searched saves their cost at nodes that are cut off early. Variations have none.
    fn refinements(&self, _mv: Self::Move, _out: &mut Vec<Self::Move>) {}

    /// The code of the candidate turn that a variation refines (see
    /// [`Searchable::refinements`]); a candidate's own code for a candidate.
    fn base_code(code: u64) -> u64 {
        code
    }

    /// Completes a candidate turn just before the search tries it: a part that is costly to
    /// choose and would be wasted on the turns a cutoff leaves untried (where Brawl puts a
    /// displaced supporter, say) may be left open by [`Searchable::candidates`] and chosen
    /// here. [`Searchable::after`] and [`Searchable::refinements`] accept an open turn too.
    /// Turns are complete by default.
    fn settle(&self, mv: Self::Move) -> Self::Move {
        mv
    }

    /// Whether the candidate `mv`, complete or not (see [`Searchable::settle`]), is the
    /// complete turn `done`.
    fn same(&self, mv: Self::Move, done: Self::Move) -> bool {
        mv == done
    }

    /// Whether the candidate `mv`, complete or not (see [`Searchable::settle`]), is the turn
    /// with the code `code`.
    fn has_code(&self, mv: Self::Move, code: u64) -> bool {
        Self::code(mv) == code
    }

    /// The candidate turns quiescence considers: captures. Clears `out`.
    fn noisy(&self, out: &mut Vec<Self::Move>);

    /// The position after a candidate turn.
    fn after(&self, mv: Self::Move) -> Self;

    /// For a game that has ended in a way seen without generating moves: the score for the
    /// side to move (`-WIN` lost, 0 drawn, `WIN` won).
    fn over(&self) -> Option<i32>;

    /// The score for the side to move when it has no candidate turn (mated, stalemated …).
    fn stuck(&self) -> i32;

    /// Every candidate turn with its refinements.
    fn all_candidates(&self, out: &mut Vec<Self::Move>) {
        self.candidates(out);
        for i in 0..out.len() {
            let mv = out[i];
            self.refinements(mv, out);
        }
    }

    /// For a finished game: the score for the side to move.
    fn terminal(&self) -> Option<i32> {
        self.over().or_else(|| {
            let mut moves = Vec::new();
            self.candidates(&mut moves);
            moves.is_empty().then(|| self.stuck())
        })
    }

    /// A static score for the side to move, in centipawns.
    fn evaluate(&self) -> i32;

    /// Whether [`Searchable::evaluate`] is a function of [`Searchable::key`] alone, so that
    /// a search may keep the scores it computed by key and read them back for a position
    /// it meets again (false, the default: it evaluates every time).
    const CACHE_EVALUATION: bool = false;

    /// A hash of everything that decides the legal turns and the end of the game.
    fn key(&self) -> u64;

    /// The [`Searchable::key`] of the position after the candidate `mv`, when it is cheap to
    /// know without playing the turn; `None` (the default) when it is not. The search uses it
    /// only to prefetch table buckets ahead of time, so a `None` costs nothing but the wait.
    fn key_after(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// At least the number of turns since the last irreversible one (after which no earlier
    /// position can recur by the rules): the repetition scan looks no further back. The
    /// default, `u32::MAX`, bounds nothing.
    fn reversible_plies(&self) -> u32 {
        u32::MAX
    }

    /// A number naming a move among the candidates of a position (for the table), below
    /// 2^55 (the table keeps 56 bits of it, the code plus one).
    fn code(mv: Self::Move) -> u64;

    /// For a capture, an ordering score below 2^20 (most valuable victim, least valuable
    /// attacker first); `None` for a quiet turn.
    fn capture_order(&self, mv: Self::Move) -> Option<i32>;

    /// The slot of a turn in the history table, below `HISTORY_SIZE`.
    fn history_index(&self, mv: Self::Move) -> usize;

    /// The wire form of a candidate turn.
    fn wire(&self, mv: Self::Move) -> WireMove;

    /// The legal turn a written move stands for, if any.
    fn read_wire(&self, mv: &WireMove) -> Option<Self::Move>;
}
