//! Quill's own endgame solver: hand-checked values, matrix-game values, mixed strategies
//! and exploitability.

use super::*;

#[test]
fn forced_races_have_hand_checked_values() {
    // Each side has one footman and one move a turn. a2 and e4 both reach the far rank on
    // the third turn: both promote their last footman and lose at once, a draw.
    let eg = Endgame::solve(&seed("5/4p/5/P4/5"), 100, 1e-12, 100).unwrap();
    assert_eq!(eg.value(&seed("5/4p/5/P4/5")), Some(0.5));
    assert_eq!(eg.len(), 4);
    // a3 is a turn ahead: White promotes its last footman on the second turn and loses.
    let eg = Endgame::solve(&seed("5/4p/P4/5/5"), 100, 1e-12, 100).unwrap();
    assert_eq!(eg.value(&seed("5/4p/P4/5/5")), Some(0.0));
}

#[test]
fn each_endgame_value_is_the_value_of_its_matrix_game() {
    // White: N c3, P a2; Black: p e5 (and nothing else). The horseman attacks nothing yet;
    // each value must still be a fixed point of its matrix game.
    let pos = seed("4p/5/2N2/P4/5");
    let eg = Endgame::solve(&pos, 100_000, 1e-12, 10_000).unwrap();
    assert!(eg.residual <= 1e-12);
    let (white, black, payoff) = eg.matrix(&pos).unwrap();
    let sol = Solver::new()
        .solve(&payoff, white.len(), black.len())
        .clone();
    assert!((sol.value - eg.value(&pos).unwrap()).abs() < 1e-9);
}

#[test]
fn horsemen_facing_each_other_need_a_mixed_strategy() {
    // White: N b4, P c2; Black: n d4, p c4, reached from the stored 4n/1p3/5/2P2/N4. Each
    // side must keep the other guessing: no pure move is an equilibrium, for either side (the
    // best pure guarantees differ by half the payoff scale).
    let pos = seed("5/1Npn1/5/2P2/5");
    let eg = Endgame::solve(&pos, 1_000_000, 1e-12, 100_000).unwrap();
    let (white, black, payoff) = eg.matrix(&pos).unwrap();
    let sol = Solver::new()
        .solve(&payoff, white.len(), black.len())
        .clone();
    let support = |p: &[f64]| p.iter().filter(|&&x| x > 1e-9).count();
    assert!(
        support(&sol.rows) >= 2 && support(&sol.cols) >= 2,
        "a pure equilibrium: {:?} {:?}",
        sol.rows,
        sol.cols
    );
}

#[test]
fn exploitability_of_an_equilibrium_is_zero_and_of_a_blunder_positive() {
    let pos = seed("4n/1p3/5/2P2/N4");
    let eg = Endgame::solve(&pos, 1_000_000, 1e-12, 100_000).unwrap();
    let (white, black, payoff) = eg.matrix(&pos).unwrap();
    let sol = Solver::new()
        .solve(&payoff, white.len(), black.len())
        .clone();
    let x: Vec<(Move, f64)> = white
        .iter()
        .copied()
        .zip(sol.rows.iter().copied())
        .collect();
    let y: Vec<(Move, f64)> = black
        .iter()
        .copied()
        .zip(sol.cols.iter().copied())
        .collect();
    let ew = eg.exploitability(&pos, Side::White, &x).unwrap();
    let eb = eg.exploitability(&pos, Side::Black, &y).unwrap();
    assert!(
        ew.exploitability < 1e-9 && eb.exploitability < 1e-9,
        "{ew:?} {eb:?}"
    );
    // The worst pure move of White.
    let worst = (0..white.len())
        .min_by(|&a, &b| {
            let row_min = |i: usize| {
                payoff[i * black.len()..(i + 1) * black.len()]
                    .iter()
                    .copied()
                    .fold(f64::INFINITY, f64::min)
            };
            row_min(a).total_cmp(&row_min(b))
        })
        .unwrap();
    let e = eg
        .exploitability(&pos, Side::White, &[(white[worst], 1.0)])
        .unwrap();
    // The blunder loses what its worst reply takes from the game's value.
    let row_min = payoff[worst * black.len()..(worst + 1) * black.len()]
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    assert!(
        (e.exploitability - (sol.value - row_min)).abs() < 1e-9,
        "{e:?}, value {}, worst reply {row_min}",
        sol.value
    );
    assert!(e.exploitability > 0.1, "{e:?}");
}

#[test]
fn a_work_list_stopped_short_is_finished_by_strategy_iteration() {
    // A horseman chase that value iteration converges to only slowly: its value is 0 (the
    // table's `5/1n2p/5/P1N2/5 w`, protocol-docs/tablebase.md), approached as a double root, so
    // a residual r still allows an error of about sqrt(r / 4). With the work list capped at two
    // solves a position, strategy iteration must bring the residual to 1e-10 and the root
    // within 1e-6 of 0, as an uncapped solve does.
    let pos = seed("5/1n2p/5/P1N2/5");
    let full = Endgame::solve(&pos, 1_000_000, 1e-12, 50_000_000).unwrap();
    let capped = Endgame::solve(&pos, 1_000_000, 1e-12, 2 * full.len()).unwrap();
    assert!(capped.residual <= 1e-10, "residual {:e}", capped.residual);
    for eg in [&full, &capped] {
        let v = eg.value(&pos).unwrap();
        assert!(v.abs() <= 1e-6, "value {v}, residual {:e}", eg.residual);
    }
}

#[test]
fn the_endgame_solver_agrees_with_the_built_in_table() {
    // Two of Quill's solvers, sharing the rules and the matrix solver but not the iteration:
    // every position reachable from a 4-piece endgame is in the built-in table, and each
    // solved value must be the table's.
    let limits = crate::search::Limits {
        depth: Some(1),
        ..crate::search::Limits::default()
    };
    for (rules, fen) in [
        (Rules::Seed, "4n/1p3/5/2P2/N4 w - - 0 1"),
        (Rules::Classic, "5/1n2p/5/P1N2/5 w - - 0 1"),
    ] {
        let table = crate::tablebase::builtin::tables()
            .get(rules)
            .expect("a built-in table");
        let r = super::endgame::check(rules, fen, limits, 1_000_000, Some(table), false).unwrap();
        let t = r.table.expect("a table was given");
        assert!(t.compared > 100, "{fen}: {t:?}");
        assert_eq!(t.compared, r.states - finished(rules, fen), "{fen}: {t:?}");
        assert_eq!(t.apart, 0, "{fen}: {t:?}");
        assert!(t.largest < 1e-6, "{fen}: {t:?}");
    }
}

/// The finished positions reachable from `fen` (which the comparison leaves out).
fn finished(rules: Rules, fen: &str) -> usize {
    let pos = Position::from_fen(rules, fen).unwrap();
    let eg = Endgame::solve(&pos, 1_000_000, 1e-10, 50_000_000).unwrap();
    eg.len() - eg.unfinished().count()
}
