//! The arguments of CECP commands: results, `exclude` targets, times and the readers of
//! single tokens.

use std::fmt;

use nom::branch::alt;
use nom::character::complete::{char, digit1, u32};
use nom::combinator::{map_opt, opt};
use nom::sequence::{preceded, separated_pair};

use crate::geometry::{Square, square};
use crate::notation::{WireMove, parse_move};
use crate::protocol::whole;
use crate::variant::Side;

/// The result of a game as written in `result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`.
    Unknown,
}

impl WireResult {
    /// Returns the result as written on the wire.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            WireResult::WhiteWins => "1-0",
            WireResult::BlackWins => "0-1",
            WireResult::Draw => "1/2-1/2",
            WireResult::Unknown => "*",
        }
    }

    /// Reads a result token.
    pub(crate) fn from_token(token: &str) -> Option<WireResult> {
        match token {
            "1-0" => Some(WireResult::WhiteWins),
            "0-1" => Some(WireResult::BlackWins),
            "1/2-1/2" => Some(WireResult::Draw),
            "*" => Some(WireResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for WireResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What `exclude` and `include` apply to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExcludeTarget {
    /// `all`: every move.
    All,
    /// One move.
    Move(WireMove),
}

impl fmt::Display for ExcludeTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExcludeTarget::All => f.write_str("all"),
            ExcludeTarget::Move(mv) => write!(f, "{mv}"),
        }
    }
}

/// A duration in whole milliseconds, written on the wire as decimal seconds (`0`, `2`, `0.5`,
/// `1.25`; digits past the third decimal are dropped when read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seconds {
    /// The duration in milliseconds.
    pub(crate) millis: u64,
}

/// The increment of `level`, in the same representation as `st`.
pub type Increment = Seconds;

impl Seconds {
    /// Makes a duration from milliseconds.
    pub const fn from_millis(millis: u64) -> Seconds {
        Seconds { millis }
    }

    /// Reads decimal seconds (`2`, `0.5`); `None` for anything else or on overflow.
    pub(crate) fn from_token(token: &str) -> Option<Seconds> {
        let (int, frac) = whole((digit1, opt(preceded(char('.'), digit1))), token)?;
        let int: u64 = int.parse().ok()?;
        let frac_millis = frac
            .unwrap_or("")
            .bytes()
            .chain(std::iter::repeat(b'0'))
            .take(3)
            .fold(0, |acc, digit| {
                acc * 10 + u64::from(digit.wrapping_sub(b'0') % 10)
            });
        int.checked_mul(1000)?
            .checked_add(frac_millis)
            .map(Seconds::from_millis)
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (int, frac) = (self.millis / 1000, self.millis % 1000);
        if frac == 0 {
            write!(f, "{int}")
        } else {
            let digits = format!("{frac:03}");
            write!(f, "{int}.{}", digits.trim_end_matches('0'))
        }
    }
}

/// Reads the base time of `level`, `M` or `M:SS`, as seconds.
pub(super) fn base_time(token: &str) -> Option<u32> {
    whole(
        alt((
            // Seconds below 60: `5:99` is no time of a clock.
            map_opt(separated_pair(u32, char(':'), u32), |(m, s)| {
                m.checked_mul(60)?.checked_add(s).filter(|_| s < 60)
            }),
            map_opt(u32, |m| m.checked_mul(60)),
        )),
        token,
    )
}

/// Writes a base time in seconds as `M:SS`.
pub(super) struct BaseTime(pub(super) u32);

impl fmt::Display for BaseTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Always `M:SS`, as XBoard shows a clock.
        write!(f, "{}:{:02}", self.0 / 60, self.0 % 60)
    }
}

/// Reads a side word, `white` or `black`.
pub(super) fn side_word(token: &str) -> Option<Side> {
    match token {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

/// Reads one whole token as a square.
pub(super) fn square_token(token: &str) -> Option<Square> {
    whole(square, token)
}

/// Reads `all` or a move.
pub(super) fn exclude_target(token: &str) -> Option<ExcludeTarget> {
    match token {
        "all" => Some(ExcludeTarget::All),
        _ => parse_move(token).map(ExcludeTarget::Move),
    }
}
