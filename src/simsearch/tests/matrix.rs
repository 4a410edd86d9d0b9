//! The matrix games of the search: the solver against an independent oracle, the double
//! oracle, windows, serialized bounds and the table against plain backward induction.

use super::*;

// --- The solver against an independent oracle -------------------------------------------

/// Solves `a x = b` (k×k, row-major) by Gaussian elimination with partial pivoting.
fn linear_solve(mut a: Vec<f64>, mut b: Vec<f64>, k: usize) -> Option<Vec<f64>> {
    for c in 0..k {
        let p = (c..k).max_by(|&i, &j| a[i * k + c].abs().total_cmp(&a[j * k + c].abs()))?;
        if a[p * k + c].abs() < 1e-12 {
            return None;
        }
        for j in 0..k {
            a.swap(c * k + j, p * k + j);
        }
        b.swap(c, p);
        for r in 0..k {
            if r != c {
                let f = a[r * k + c] / a[c * k + c];
                for j in 0..k {
                    a[r * k + j] -= f * a[c * k + j];
                }
                b[r] -= f * b[c];
            }
        }
    }
    Some((0..k).map(|i| b[i] / a[i * k + i]).collect())
}

/// The value of a zero-sum game by support enumeration: for every pair of equal-size
/// supports, solve the indifference equations and keep a pair in equilibrium.
fn oracle_value(a: &[f64], m: usize, n: usize) -> Option<f64> {
    for k in 1..=m.min(n) {
        for rs in (0u32..1 << m).filter(|s| s.count_ones() as usize == k) {
            for cs in (0u32..1 << n).filter(|s| s.count_ones() as usize == k) {
                let rows: Vec<usize> = (0..m).filter(|i| rs >> i & 1 == 1).collect();
                let cols: Vec<usize> = (0..n).filter(|j| cs >> j & 1 == 1).collect();
                // Unknowns: x on rows, then v. Equations: each support column pays v; Σx = 1.
                let size = k + 1;
                let mut ax = vec![0.0; size * size];
                let mut ay = vec![0.0; size * size];
                for (e, &j) in cols.iter().enumerate() {
                    for (u, &i) in rows.iter().enumerate() {
                        ax[e * size + u] = a[i * n + j];
                    }
                    ax[e * size + k] = -1.0;
                }
                for (e, &i) in rows.iter().enumerate() {
                    for (u, &j) in cols.iter().enumerate() {
                        ay[e * size + u] = a[i * n + j];
                    }
                    ay[e * size + k] = -1.0;
                }
                for u in 0..k {
                    ax[k * size + u] = 1.0;
                    ay[k * size + u] = 1.0;
                }
                let mut rhs = vec![0.0; size];
                rhs[k] = 1.0;
                let (Some(x), Some(y)) = (
                    linear_solve(ax, rhs.clone(), size),
                    linear_solve(ay, rhs, size),
                ) else {
                    continue;
                };
                if x[..k].iter().chain(&y[..k]).any(|&p| p < -1e-12) {
                    continue;
                }
                let v = x[k];
                let row_ok = (0..m).all(|i| {
                    cols.iter()
                        .zip(&y)
                        .map(|(&j, q)| q * a[i * n + j])
                        .sum::<f64>()
                        <= v + 1e-9
                });
                let col_ok = (0..n).all(|j| {
                    rows.iter()
                        .zip(&x)
                        .map(|(&i, p)| p * a[i * n + j])
                        .sum::<f64>()
                        >= v - 1e-9
                });
                if row_ok && col_ok {
                    return Some(v);
                }
            }
        }
    }
    None
}

#[test]
fn solver_matches_support_enumeration_on_random_games() {
    let mut rng = Rng::new(0x5eed);
    let mut solver = Solver::new();
    let mut mixed = 0;
    for _ in 0..3000 {
        let m = 1 + rng.below(5) as usize;
        let n = 1 + rng.below(5) as usize;
        let a: Vec<f64> = (0..m * n).map(|_| rng.next_f64()).collect();
        let sol = solver.solve(&a, m, n).clone();
        let want = oracle_value(&a, m, n).expect("a nondegenerate game has an equilibrium");
        assert!(
            (sol.value - want).abs() < 1e-6,
            "{m}x{n}: {} vs {want}",
            sol.value
        );
        // The solver's strategies are in equilibrium: each guarantees the value.
        for j in 0..n {
            let pay: f64 = (0..m).map(|i| sol.rows[i] * a[i * n + j]).sum();
            assert!(pay >= want - 1e-6);
        }
        for i in 0..m {
            let pay: f64 = (0..n).map(|j| sol.cols[j] * a[i * n + j]).sum();
            assert!(pay <= want + 1e-6);
        }
        assert!((sol.rows.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((sol.cols.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        mixed += usize::from(sol.rows.iter().filter(|p| **p > 0.0).count() > 1);
    }
    assert!(mixed > 500, "{mixed} mixed equilibria");
}

// --- The search -------------------------------------------------------------------------

#[test]
fn double_oracle_equals_the_full_matrix_value() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new();
    for pos in positions() {
        for depth in 1..=2 {
            let want = full_matrix(&pos, depth, &mut solver);
            let mut s = Searcher::new(Limits::default(), &stop);
            let got = s.value(&pos, depth, FULL.0, FULL.1);
            assert!(
                (got - want).abs() < 1e-6,
                "{} depth {depth}: {got} vs {want}",
                pos.fen()
            );
            // And at the root, through iterative deepening.
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let a = analyse(&pos, &[], &[], limits, &stop, &mut |_| {}).unwrap();
            assert!(
                (a.value - want).abs() < 1e-6,
                "{}: root {}",
                pos.fen(),
                a.value
            );
        }
    }
}

#[test]
fn double_oracle_equals_the_full_matrix_value_three_turns_deep() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new();
    for fen in ["4n/1p3/5/2P2/N4", "2n2/3p1/5/1P3/5", "n4/2p2/5/2P2/4N"] {
        let pos = seed(fen);
        let want = full_matrix(&pos, 3, &mut solver);
        let got = Searcher::new(Limits::default(), &stop).value(&pos, 3, FULL.0, FULL.1);
        assert!((got - want).abs() < 1e-6, "{fen}: {got} vs {want}");
    }
}

#[test]
fn windows_give_correct_fail_soft_bounds() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new();
    for pos in positions() {
        let want = full_matrix(&pos, 2, &mut solver);
        for (alpha, beta) in [
            (want + 0.01, 1.5),
            (-0.5, want - 0.01),
            (want - 0.02, want + 0.02),
        ] {
            let got = Searcher::new(Limits::default(), &stop).value(&pos, 2, alpha, beta);
            if got <= alpha {
                assert!(
                    want <= got + 1e-9,
                    "{}: fail low {got} but {want}",
                    pos.fen()
                );
            } else if got >= beta {
                assert!(
                    want >= got - 1e-9,
                    "{}: fail high {got} but {want}",
                    pos.fen()
                );
            } else {
                assert!((got - want).abs() < 1e-6, "{}: {got} vs {want}", pos.fen());
            }
        }
    }
}

#[test]
fn pure_bounds_bracket_the_true_value() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new();
    let mut strict = 0;
    for pos in positions() {
        let want = full_matrix(&pos, 1, &mut solver);
        let (mut white, mut black) = (Vec::new(), Vec::new());
        pos.legal_moves(Side::White, &mut white);
        pos.legal_moves(Side::Black, &mut black);
        let mut s = Searcher::new(Limits::default(), &stop);
        let mut cells = oracle::Cells::new(white.len(), black.len());
        s.prepare_frontier(&pos, (&white, &black));
        let (lower, _) = s.pure(&pos, true, FULL, (&white, &black), &mut cells);
        let (upper, _) = s.pure(&pos, false, FULL, (&white, &black), &mut cells);
        assert!(
            lower <= want + 1e-9 && want <= upper + 1e-9,
            "{lower} {want} {upper}"
        );
        strict += usize::from(upper - lower > 1e-6);
    }
    // The bounds are not trivially equal everywhere.
    assert!(strict > 0);
}

#[test]
fn a_table_hit_gives_the_same_result() {
    let stop = AtomicBool::new(false);
    for pos in positions() {
        let mut s = Searcher::new(Limits::default(), &stop);
        let first = s.value(&pos, 2, FULL.0, FULL.1);
        let hits = s.stats().tt_hits;
        let second = s.value(&pos, 2, FULL.0, FULL.1);
        assert_eq!(first.to_bits(), second.to_bits(), "{}", pos.fen());
        assert!(s.stats().tt_hits > hits);
        let fresh = Searcher::new(Limits::default(), &stop).value(&pos, 2, FULL.0, FULL.1);
        assert_eq!(first.to_bits(), fresh.to_bits());
    }
}

/// The cuts keep values exact: the root value at a fixed depth, and the fail-soft value in
/// narrow windows about it, against plain backward induction over every cell, on the start,
/// a middle game and both rule sets. A cut that dropped a needed cell, or took a bound from
/// the wrong side of its window, moves one of these values.
#[test]
fn the_cuts_keep_the_root_value_of_plain_backward_induction() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new();
    let cases: &[(Rules, &str, u32)] = &[
        (Rules::Seed, "npppn/p3p/5/P3P/NPPPN", 3),
        (Rules::Seed, "n1p1n/p1p1p/1P3/P3P/N2PN", 3),
        // Two turns: its promotions with redeploys make perft 3 some 580 M leaves.
        (Rules::Classic, "n3n/1P1P1/5/1p1p1/N3N", 2),
        (Rules::Seed, "n4/2p2/5/2P2/4N w - - 0 1 1/0", 4),
        (Rules::Seed, "2n2/1pp2/5/1PP2/2N2", 3),
    ];
    for &(rules, fen, depth) in cases {
        let pos = Position::from_fen(rules, fen).unwrap();
        let want = full_matrix(&pos, depth, &mut solver);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let a = analyse(&pos, &[], &[], limits, &stop, &mut |_| {}).unwrap();
        assert!(
            (a.value - want).abs() < 1e-9,
            "{fen}: root {} vs {want}",
            a.value
        );
        for (alpha, beta) in [
            (want - 1e-3, want + 1e-3),
            (want + 1e-3, 2.0),
            (-1.0, want - 1e-3),
        ] {
            let got = Searcher::new(Limits::default(), &stop).value(&pos, depth, alpha, beta);
            let ok = if got <= alpha {
                want <= got + 1e-9
            } else if got >= beta {
                want >= got - 1e-9
            } else {
                (got - want).abs() < 1e-9
            };
            assert!(ok, "{fen} in ({alpha}, {beta}): {got} vs {want}");
        }
    }
}
