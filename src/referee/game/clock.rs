//! A seat's clock during a game: what is left, the margin past a time per move, how long a
//! seat may take before it is out of time, and charging a move.

use super::*;

/// A seat's clock.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    pub(super) limits: Limits,
    pub(super) left: Duration,
    pub(super) moves: u32,
}

impl Clock {
    pub(super) fn new(limits: Limits) -> Clock {
        Clock {
            limits,
            left: limits.clock.map_or(Duration::ZERO, |c| c.base),
            moves: 0,
        }
    }

    /// The margin past a fixed time per move: `floor`, or half the move time when that is
    /// more (a loaded machine delays a short move by a share of its length, not by a constant).
    pub(super) fn margin(&self, floor: Duration) -> Duration {
        self.limits.movetime.map_or(floor, |t| floor.max(t / 2))
    }

    /// How long the seat may take before it is out of time or considered hung.
    pub(super) fn allowance(&self, margin: Duration, move_timeout: Duration) -> Duration {
        let margin = self.margin(margin);
        match (self.limits.clock, self.limits.movetime) {
            (Some(_), Some(t)) => self.left.min(t).saturating_add(margin),
            (Some(_), None) => self.left.saturating_add(margin),
            (None, Some(t)) => t.saturating_add(margin),
            (None, None) => move_timeout,
        }
    }

    /// Charges a move; `false` when the player overstepped its clock.
    pub(super) fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        let Some(c) = self.limits.clock else {
            return true;
        };
        if used > self.left.saturating_add(margin) {
            return false;
        }
        self.left = self.left.saturating_sub(used).saturating_add(c.inc);
        self.moves += 1;
        if c.moves > 0 && self.moves.is_multiple_of(c.moves) {
            self.left = self.left.saturating_add(c.base);
        }
        true
    }

    pub(super) fn moves_to_go(&self) -> Option<u32> {
        self.limits
            .clock
            .filter(|c| c.moves > 0)
            .map(|c| c.moves - self.moves % c.moves)
    }
}
