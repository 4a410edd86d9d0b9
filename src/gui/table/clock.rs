//! A seat's clock in the GUI: the time left, charged after each move, and how long a seat may
//! take before it loses on time or is taken for hung.

use std::time::Duration;

/// Margin past an engine's clock.
pub(super) const MARGIN: Duration = Duration::from_millis(500);

/// A seat's clock.
#[derive(Clone, Copy, Debug)]
pub(super) struct SeatClock {
    /// Time left, when the seat has a clock.
    pub(super) left: Option<Duration>,
    /// Increment per move.
    pub(super) inc: Duration,
    base: Duration,
    per: u32,
    moves: u32,
    movetime: Option<Duration>,
}

impl SeatClock {
    /// A clock of `clock` (base, increment, moves per period), or none; `movetime` a fixed
    /// time per move.
    pub(super) fn new(
        clock: Option<(Duration, Duration, u32)>,
        movetime: Option<Duration>,
    ) -> SeatClock {
        SeatClock {
            left: clock.map(|c| c.0),
            base: clock.map_or(Duration::ZERO, |c| c.0),
            inc: clock.map_or(Duration::ZERO, |c| c.1),
            per: clock.map_or(0, |c| c.2),
            moves: 0,
            movetime,
        }
    }

    /// How long the seat may take before it loses on time or is considered hung.
    pub(super) fn allowance(&self, move_timeout: Duration) -> Duration {
        let margin = self.movetime.map_or(MARGIN, |t| MARGIN.max(t / 2));
        match (self.left, self.movetime) {
            (Some(l), Some(t)) => l.min(t).saturating_add(margin),
            (Some(l), None) => l.saturating_add(margin),
            (None, Some(t)) => t.saturating_add(margin),
            (None, None) => move_timeout,
        }
    }

    /// Charges a move; `false` when the clock was overstepped.
    pub(super) fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        let Some(left) = self.left else {
            return true;
        };
        if used > left.saturating_add(margin) {
            self.left = Some(Duration::ZERO);
            return false;
        }
        let mut left = left.saturating_sub(used).saturating_add(self.inc);
        self.moves += 1;
        if self.per > 0 && self.moves.is_multiple_of(self.per) {
            left = left.saturating_add(self.base);
        }
        self.left = Some(left);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_charged_with_its_increment_and_the_period_refills() {
        let s = Duration::from_secs;
        // 2 moves in 10 s, 1 s a move.
        let mut c = SeatClock::new(Some((s(10), s(1), 2)), None);
        assert!(c.charge(s(3), Duration::ZERO));
        assert_eq!(c.left, Some(s(8)));
        assert!(c.charge(s(3), Duration::ZERO));
        assert_eq!(c.left, Some(s(16)));
        assert!(!c.charge(s(17), Duration::ZERO));
        assert_eq!(c.left, Some(Duration::ZERO));
    }
}
