//! CPU-time clocks and the figures the benches print: medians and their spread.
//!
//! The machines these benches run on are shared: a wall clock counts the time other processes
//! took from us, and its figures spread 5–40x under load. The CPU time of this thread (or of
//! the process) counts only our own work, so its figures spread by little more than cache and
//! frequency effects.

// Each bench uses a part of this module: what one leaves unused is not dead.
#![allow(dead_code)]

use std::time::Duration;

/// A CPU clock of the kernel.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
    Thread,
    /// CPU time of the whole process, every thread summed (`CLOCK_PROCESS_CPUTIME_ID`).
    Process,
}

/// Reads a CPU clock, in seconds.
pub fn cpu_seconds(clock: Clock) -> f64 {
    let id = match clock {
        Clock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
        Clock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
    };
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; both clock ids exist on Linux.
    let rc = unsafe { libc::clock_gettime(id, &mut t) };
    assert_eq!(rc, 0, "clock_gettime failed");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Runs `work` and returns its result with the CPU seconds this thread spent on it.
pub fn thread_time<T>(work: impl FnOnce() -> T) -> (T, f64) {
    let start = cpu_seconds(Clock::Thread);
    let out = work();
    (out, cpu_seconds(Clock::Thread) - start)
}

/// Sets `flag` once the process has spent `budget` of CPU time since `start` (a reading of
/// [`Clock::Process`]); polls every millisecond, sleeping in between (the poller's own CPU
/// time is a few microseconds a poll).
pub fn stop_after_cpu(
    start: f64,
    budget: Duration,
    flag: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while cpu_seconds(Clock::Process) - start < budget.as_secs_f64()
            && !flag.load(std::sync::atomic::Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    })
}

/// The median, the smallest and the largest of some figures, and their spread.
#[derive(Clone, Copy, Debug)]
pub struct Figures {
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The smallest figure.
    pub min: f64,
    /// The largest figure.
    pub max: f64,
    /// How many figures.
    pub count: usize,
}

impl Figures {
    /// Sums up some figures (at least one).
    pub fn of(mut v: Vec<f64>) -> Figures {
        assert!(!v.is_empty(), "no figures");
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Figures {
            median,
            min: v[0],
            max: v[n - 1],
            count: n,
        }
    }

    /// The spread, `(max − min) / median`, in per cent.
    pub fn spread_percent(&self) -> f64 {
        100.0 * (self.max - self.min) / self.median
    }

    /// Prints the figures as `median UNIT (median of N by CPU time; min .., max .., spread ..%)`.
    pub fn text(&self, digits: usize, unit: &str) -> String {
        format!(
            "{:.digits$} {unit} (median of {} by CPU time; min {:.digits$}, max {:.digits$}, \
             spread {:.1}%)",
            self.median,
            self.count,
            self.min,
            self.max,
            self.spread_percent()
        )
    }
}
