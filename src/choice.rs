//! What a search decided ([`Choice`]) and its [`Score`] as the protocols report it, from the
//! mover's side. Below both searches and [`crate::player`], so that the sealed search does not
//! depend on the player that calls it.

use crate::notation::{WireMove, WireTurn};
use crate::search;

/// What the player decided, with the figures a protocol reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move to play.
    pub(crate) mv: WireMove,
    /// The mixed strategy it was drawn from: each move with its probability (support only).
    pub(crate) strategy: Vec<(WireMove, f64)>,
    /// Expected payoff for the player who moves, 0 (loss) … 1 (win).
    pub(crate) value: f64,
    /// The score as a protocol reports it, from the mover's side.
    pub(crate) score: Score,
    /// Positions evaluated.
    pub(crate) nodes: u64,
    /// Search depth in turns.
    pub(crate) depth: u32,
    /// Microseconds spent.
    pub(crate) micros: u64,
    /// How full the transposition table is, per mille of the entries `Hash` gave it
    /// (UCI `hashfull`).
    pub(crate) hashfull: u32,
    /// Positions whose value came from a tablebase (UCI `tbhits`).
    pub(crate) tbhits: u64,
    /// The principal line as turns, printed only by the session (in a sealed game joint
    /// turns: this move with the opponent's most likely one, then each side's most likely).
    pub(crate) pv: Vec<WireTurn>,
}

/// A score from the mover's side, as both protocols report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An estimate in centipawns.
    Cp(i32),
    /// A forced end of the game in this many of the mover's turns: positive when the mover
    /// wins, negative when it loses. In a sealed game "forced" means with probability 1
    /// under the equilibrium strategies, within that many joint turns.
    Mate(i32),
}

impl Score {
    /// A score of the alternating search ([`search::WIN`] minus the plies to the end for a
    /// won game).
    pub(crate) fn from_search(score: i32) -> Score {
        if score.abs() < search::MATE_BOUND {
            return Score::Cp(score);
        }
        let plies = search::WIN - score.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if score > 0 { moves } else { -moves.max(1) })
    }

    /// A payoff of the sealed search (0 … 1 for the mover) searched `depth` joint turns
    /// deep: a decided game is a mate within `depth` turns, or, when a tablebase took part
    /// (`table`), a win or loss whose length the table does not know, reported as
    /// ±[`TABLE_WIN`] centipawns (as engines report tablebase wins).
    pub(crate) fn from_value(value: f64, depth: u32, table: bool) -> Score {
        let depth = i32::try_from(depth).unwrap_or(i32::MAX).max(1);
        let decided = |sign: i32| {
            if table {
                Score::Cp(sign * TABLE_WIN)
            } else {
                Score::Mate(sign * depth)
            }
        };
        if value >= 1.0 {
            decided(1)
        } else if value <= 0.0 {
            decided(-1)
        } else {
            Score::Cp(centipawns(value))
        }
    }

    /// The centipawns of a score, a won or lost game counted as ±`search::WIN` (for
    /// comparisons and adjudication).
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => search::WIN - n,
            Score::Mate(n) => -search::WIN - n,
        }
    }
}

/// The centipawns of a sealed game a tablebase shows won, of unknown length: above any
/// estimate (at most 1600), below any mate.
pub const TABLE_WIN: i32 = 10_000;

/// A payoff strictly between 0 and 1 as centipawns (logistic scale, clamped to ±1600).
fn centipawns(value: f64) -> i32 {
    let v = value.clamp(1e-4, 1.0 - 1e-4);
    (400.0 * (v / (1.0 - v)).log10()).round() as i32
}
