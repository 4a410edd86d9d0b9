//! Payoffs of Apocalypse positions for the simultaneous search, on the scale 0 … 1 for White
//! (1: White wins, 0: Black wins, ½: a draw).

use crate::variant::Side;
use crate::variants::apocalypse::{End, Position};

/// The exact payoff of a finished game, `None` while it goes on.
pub fn terminal(p: &Position) -> Option<f64> {
    p.end().map(|end| match end {
        End::Win(Side::White, _) => 1.0,
        End::Win(Side::Black, _) => 0.0,
        End::Draw(_) => 0.5,
    })
}

/// The payoff of a position: exact when the game is over, else [`heuristic`].
pub fn evaluate(p: &Position) -> f64 {
    terminal(p).unwrap_or_else(|| heuristic(p))
}

/// A static estimate for a game still going on, strictly between 0 and 1: a logistic of a
/// material balance in footman units.
///
/// Terms, for each side: footmen 1 each (a side whose last footman goes loses, so a lone
/// footman is worth 0.4 less), horsemen 1.25 each, a penalty point −1.5 (a second one loses),
/// footman advance 0.05 a rank, and horseman mobility 0.02 a square. A horseman standing
/// where an enemy footman captures it next turn is worth 0.3 less (knight safety).
pub fn heuristic(p: &Position) -> f64 {
    let d = side_score(p, Side::White) - side_score(p, Side::Black);
    1.0 / (1.0 + (-0.8 * d).exp())
}

fn side_score(p: &Position, side: Side) -> f64 {
    let footmen = p.footmen(side).count_ones();
    let lone = if footmen == 1 { 0.4 } else { 0.0 };
    let exposed = (p.horsemen(side) & footman_attacks(p, side.opponent())).count_ones();
    f64::from(footmen) - lone + 1.25 * f64::from(p.horsemen(side).count_ones())
        - 0.3 * f64::from(exposed)
        - 1.5 * f64::from(p.penalties(side))
        + 0.05 * f64::from(p.footman_advance(side))
        + 0.02 * f64::from(p.horseman_mobility(side))
}

/// Squares a side's footmen attack (diagonally forward).
fn footman_attacks(p: &Position, side: Side) -> u32 {
    const ALL: u32 = (1 << 25) - 1;
    const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
    const FILE_E: u32 = FILE_A << 4;
    let f = p.footmen(side);
    match side {
        Side::White => (((f & !FILE_A) << 4) | ((f & !FILE_E) << 6)) & ALL,
        Side::Black => ((f & !FILE_A) >> 6) | ((f & !FILE_E) >> 4),
    }
}
