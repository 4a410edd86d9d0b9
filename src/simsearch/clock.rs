//! The time policy of the sealed search's iterative deepening: whether the next iteration
//! is worth starting under a clock's budget.

use std::time::Duration;

/// The time policy of a clock's budget (`go wtime …`; `go movetime` uses its time whole).
///
/// The budget is a hard limit of twice the move's typical share. Each iteration costs a
/// roughly constant multiple of the previous one (measured: 9–18x in the middle game), so the
/// next one's cost is planned as the last one's times the last measured ratio. An iteration
/// starts when it is planned to end within the budget, or when at least half the typical
/// share is left anyway: a stopped iteration is not lost, its last restricted root game
/// still answers ([`super::Analysis::partial`]).
#[derive(Default)]
pub(super) struct Clock {
    last: Option<Duration>,
    growth: Option<f64>,
}

impl Clock {
    /// The growth assumed before two iterations have been timed.
    const GROWTH: f64 = 12.0;

    /// Records an iteration that took `took`.
    pub(super) fn completed(&mut self, took: Duration) {
        if let Some(last) = self.last
            && last >= Duration::from_millis(1)
        {
            self.growth = Some((took.as_secs_f64() / last.as_secs_f64()).clamp(2.0, 40.0));
        }
        self.last = Some(took);
    }

    /// Whether the next iteration should start, `elapsed` into a move of `budget`.
    pub(super) fn worth_starting(&self, elapsed: Duration, budget: Duration) -> bool {
        let last = self.last.unwrap_or_default().as_secs_f64();
        let planned = last * self.growth.unwrap_or(Self::GROWTH);
        let (elapsed, budget) = (elapsed.as_secs_f64(), budget.as_secs_f64());
        elapsed + planned <= budget || elapsed <= budget / 4.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_plans_from_the_measured_growth() {
        let ms = Duration::from_millis;
        let mut c = Clock::default();
        c.completed(ms(10));
        // Assumed growth 12: 10 ms more plans 120 ms.
        assert!(c.worth_starting(ms(20), ms(141)));
        assert!(
            c.worth_starting(ms(30), ms(120)),
            "a quarter of the budget or less"
        );
        assert!(!c.worth_starting(ms(40), ms(150)));
        c.completed(ms(50));
        // Measured growth 5: 250 ms planned.
        assert!(c.worth_starting(ms(99), ms(350)));
        assert!(!c.worth_starting(ms(110), ms(350)));
        c.completed(ms(1000));
        // Growth 20: 20 s planned.
        assert!(!c.worth_starting(ms(6000), ms(23_000)));
        assert!(c.worth_starting(ms(6000), ms(26_001)));
    }
}
