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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::seat::TimeControl as Control;

    fn limits(moves: u32, base_ms: u64, inc_ms: u64) -> Limits {
        Limits {
            clock: Some(Control {
                moves,
                base: Duration::from_millis(base_ms),
                inc: Duration::from_millis(inc_ms),
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_clock_charges_adds_the_increment_and_flags_past_the_margin() {
        let margin = Duration::from_millis(50);
        let mut c = Clock::new(limits(0, 1000, 100));
        assert!(c.charge(Duration::from_millis(300), margin));
        assert_eq!(c.left, Duration::from_millis(800));
        // Inside the margin: taken, and the clock is left at 0 plus the increment.
        assert!(c.charge(Duration::from_millis(840), margin));
        assert_eq!(c.left, Duration::from_millis(100));
        assert!(!c.charge(Duration::from_millis(151), margin));
        assert_eq!(
            c.allowance(margin, Duration::from_secs(60)),
            Duration::from_millis(150)
        );
    }

    #[test]
    fn moves_per_session_refill_the_clock() {
        let mut c = Clock::new(limits(2, 1000, 0));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_millis(400), Duration::ZERO));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_millis(400), Duration::ZERO));
        // The second move ends the session: a new base is added.
        assert_eq!(c.left, Duration::from_millis(1200));
        assert_eq!(c.moves_to_go(), Some(2));
    }

    #[test]
    fn allowance_without_a_clock() {
        let margin = Duration::from_millis(50);
        let st = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(
            Clock::new(st).allowance(margin, Duration::from_secs(9)),
            Duration::from_millis(150)
        );
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut c = Clock::new(depth);
        assert_eq!(
            c.allowance(margin, Duration::from_secs(9)),
            Duration::from_secs(9)
        );
        assert!(
            c.charge(Duration::from_secs(100), margin),
            "no clock, no flag"
        );
    }
}
