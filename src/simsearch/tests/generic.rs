//! The search on a second sealed game: a one-turn 2x2 matrix game, written as its own
//! [`SealedRules`] implementation and nothing else, searched and chosen through the same
//! entry points as Apocalypse.

use super::*;
use crate::geometry::Square;
use crate::notation::WireMove;

/// One turn: White picks a row, Black a column, and the game ends with payoff
/// `PAYOFF[row][column]` for White. Its equilibrium is mixed: each side plays move 0 with
/// probability 1/3, and the value is 1/3 (by hand: `p · 1 = (1 − p) · ½`).
#[derive(Clone)]
struct Matrix {
    played: Option<(u8, u8)>,
}

const PAYOFF: [[f64; 2]; 2] = [[1.0, 0.0], [0.0, 0.5]];

impl SealedRules for Matrix {
    type Move = u8;
    type Frontier = ();

    fn moves(&self, _side: Side, out: &mut Vec<u8>) {
        out.clear();
        if self.played.is_none() {
            out.extend([0, 1]);
        }
    }

    fn joint(&self, white: u8, black: u8) -> Matrix {
        Matrix {
            played: Some((white, black)),
        }
    }

    fn terminal(&self) -> Option<f64> {
        self.played
            .map(|(w, b)| PAYOFF[usize::from(w)][usize::from(b)])
    }

    fn heuristic(&self) -> f64 {
        0.5
    }

    fn key(&self) -> u64 {
        match self.played {
            None => 1,
            Some((w, b)) => 2 + u64::from(w) * 2 + u64::from(b),
        }
    }

    fn wire(mv: u8) -> WireMove {
        WireMove::simple(Square::new(mv, 1), Square::new(mv, 2))
    }
}

#[test]
fn a_second_sealed_game_is_one_impl_and_is_solved_exactly() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let root = Matrix { played: None };
    let a = analyse(&root, &[], &[], limits, &stop, &mut |_| {}).unwrap();
    assert!((a.value - 1.0 / 3.0).abs() < 1e-9, "value {}", a.value);
    for side in [Side::White, Side::Black] {
        let zero = a.strategy(side).iter().find(|p| p.0 == 0).unwrap().1;
        assert!(
            (zero - 1.0 / 3.0).abs() < 1e-9,
            "{side:?} plays 0 at {zero}"
        );
    }
    let mut rng = Rng::new(7);
    let choice = choose(
        &root,
        Side::Black,
        &[],
        limits,
        &stop,
        &mut rng,
        &mut |_| {},
    )
    .unwrap();
    assert!(
        (choice.value - 2.0 / 3.0).abs() < 1e-9,
        "Black's value {}",
        choice.value
    );
    assert_eq!(choice.strategy.len(), 2);
    let only = [Matrix::wire(1)];
    let forced = choose(
        &root,
        Side::White,
        &only,
        limits,
        &stop,
        &mut rng,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(forced.mv, Matrix::wire(1));
    assert!(
        (forced.value - 0.0).abs() < 1e-9,
        "row 1 alone is met by column 0"
    );
}
