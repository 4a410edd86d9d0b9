//! Tests of the simultaneous search, its solver use and the endgame solver.

use std::sync::atomic::AtomicBool;

use super::endgame::Endgame;
use super::*;
use crate::rng::Rng;
use crate::solver::Solver;
use crate::variants::apocalypse::Rules;

fn seed(fen: &str) -> Position {
    Position::from_fen(Rules::Seed, fen).unwrap()
}

const POSITIONS: &[(Rules, &str)] = &[
    (Rules::Seed, "npppn/p3p/5/P3P/NPPPN"),
    (Rules::Seed, "n1p1n/p1p1p/1P3/P3P/N2PN"),
    (Rules::Seed, "4n/1p3/5/2P2/N4"),
    (Rules::Seed, "2n2/3p1/5/1P3/5"),
    (Rules::Classic, "n3n/1P1P1/5/1p1p1/N3N"),
    (Rules::Seed, "n4/2p2/5/2P2/4N w - - 0 1 1/0"),
];

fn positions() -> impl Iterator<Item = Position> {
    POSITIONS
        .iter()
        .map(|&(rules, fen)| Position::from_fen(rules, fen).unwrap())
}

/// Plain backward induction: every cell of every matrix, no bounds, no table.
fn full_matrix(pos: &Position, depth: u32, solver: &mut Solver) -> f64 {
    if let Some(v) = eval::terminal(pos) {
        return v;
    }
    if depth == 0 {
        return eval::heuristic(pos);
    }
    let (mut white, mut black) = (Vec::new(), Vec::new());
    pos.legal_moves(Side::White, &mut white);
    pos.legal_moves(Side::Black, &mut black);
    let mut payoff = Vec::new();
    for &w in &white {
        for &b in &black {
            payoff.push(full_matrix(&pos.resolve(Ok(w), Ok(b)), depth - 1, solver));
        }
    }
    solver.solve(&payoff, white.len(), black.len()).value
}

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
fn serialized_bounds_bracket_the_true_value() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new();
    let mut strict = 0;
    for pos in positions() {
        for depth in 1..=2 {
            let want = full_matrix(&pos, depth, &mut solver);
            let mut s = Searcher::new(Limits::default(), &stop);
            let lower = s.serial(&pos, depth, true, FULL.0, FULL.1, true);
            let upper = s.serial(&pos, depth, false, FULL.0, FULL.1, true);
            assert!(
                lower <= want + 1e-9 && want <= upper + 1e-9,
                "{lower} {want} {upper}"
            );
            strict += usize::from(upper - lower > 1e-6);
        }
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

#[test]
fn the_key_ignores_counters_but_not_penalties() {
    let a = seed("n4/2p2/5/2P2/4N w - - 0 1 0/0");
    let b = seed("n4/2p2/5/2P2/4N w - - 7 30 0/0");
    let c = seed("n4/2p2/5/2P2/4N w - - 0 1 1/0");
    let d = Position::from_fen(Rules::Classic, "n4/2p2/5/2P2/4N w - - 0 1 0/0").unwrap();
    assert_eq!(key(&a), key(&b));
    assert_ne!(key(&a), key(&c));
    assert_ne!(key(&a), key(&d));
}

#[test]
fn the_root_strategy_sums_to_one_and_the_seed_fixes_the_move() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    for pos in positions() {
        for side in [Side::White, Side::Black] {
            let pick = |seed: u64| {
                choose(
                    &pos,
                    side,
                    &[],
                    limits,
                    &stop,
                    &mut Rng::new(seed),
                    &mut |_| {},
                )
                .unwrap()
            };
            let a = pick(42);
            let total: f64 = a.strategy.iter().map(|s| s.1).sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
            assert!(a.strategy.iter().any(|s| s.0 == a.mv));
            assert_eq!(a.mv, pick(42).mv);
        }
    }
    // A mixed root: different seeds draw different moves.
    let pos = seed("n1p1n/p1p1p/1P3/P3P/N2PN");
    let moves: std::collections::HashSet<String> = (0..40)
        .map(|seed| {
            choose(
                &pos,
                Side::Black,
                &[],
                limits,
                &stop,
                &mut Rng::new(seed),
                &mut |_| {},
            )
            .unwrap()
            .mv
            .to_string()
        })
        .collect();
    assert!(moves.len() > 1, "{moves:?}");
}

#[test]
fn allowed_moves_restrict_the_root() {
    let stop = AtomicBool::new(false);
    let pos = Position::start(Rules::Seed);
    let allowed = [crate::notation::parse_move("a2a3").unwrap()];
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let c = choose(
        &pos,
        Side::White,
        &allowed,
        limits,
        &stop,
        &mut Rng::new(1),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(c.mv.to_string(), "a2a3");
    assert_eq!(c.strategy.len(), 1);
}

#[test]
fn a_stopped_search_still_answers_from_depth_one() {
    let stop = AtomicBool::new(true);
    let pos = Position::start(Rules::Seed);
    let c = choose(
        &pos,
        Side::Black,
        &[],
        Limits::default(),
        &stop,
        &mut Rng::new(3),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(c.depth, 1);
}

// --- The endgame solver -----------------------------------------------------------------

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
fn a_kept_table_makes_the_next_search_cheaper_and_clearing_it_undoes_that() {
    let pos = Position::start(Rules::Seed);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut table = JointTable::with_mib(4).unwrap();
    let nodes = |table: &mut JointTable| {
        let mut rng = Rng::new(1);
        let c = choose_with_table(
            &pos,
            Side::White,
            &[],
            limits,
            &stop,
            &mut rng,
            table,
            &mut |_| {},
        )
        .unwrap();
        c.nodes
    };
    let first = nodes(&mut table);
    let second = nodes(&mut table);
    assert!(second * 2 < first, "{first} then {second}");
    table.clear();
    assert_eq!(nodes(&mut table), first);
}

#[test]
fn a_stopped_iteration_answers_from_its_last_restricted_game() {
    // A middle-game position: depth 3 is searched in full; a node budget that ends inside
    // depth 4 after its first restricted root game gives a partial answer.
    let pos = seed("n1p1n/p1p1p/1P3/P3P/N2PN w - - 0 4 0/0");
    let stop = AtomicBool::new(false);
    let full = |depth| Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let d3 = analyse(&pos, &[], &[], full(3), &stop, &mut |_| {}).unwrap();
    let d4 = analyse(&pos, &[], &[], full(4), &stop, &mut |_| {}).unwrap();
    assert!(!d3.partial && !d4.partial);
    let cut_at = |tenths: u64| {
        let budget = Limits {
            nodes: Some(d3.stats.nodes + (d4.stats.nodes - d3.stats.nodes) * tenths / 10),
            ..Limits::default()
        };
        analyse(&pos, &[], &[], budget, &stop, &mut |_| {}).unwrap()
    };
    // Early in the iteration nothing of it is complete: depth 3's answer stands.
    let early = cut_at(1);
    assert!(!early.partial);
    assert_eq!(
        (early.depth, &early.white, &early.black),
        (3, &d3.white, &d3.black)
    );
    let cut = cut_at(8);
    assert_eq!(cut.depth, 3);
    assert!(
        cut.partial,
        "the depth-4 iteration had solved a restricted game"
    );
    assert_ne!(cut.white, d3.white, "the deeper answer is used");
    let mut legal = Vec::new();
    pos.legal_moves(Side::White, &mut legal);
    let sum: f64 = cut.white.iter().map(|p| p.1).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    assert!(cut.white.iter().all(|(m, p)| legal.contains(m) && *p > 0.0));
}

/// Exact values of one solved endgame, as a tablebase would give them.
struct Solved(Endgame);

impl Probe<Position> for Solved {
    fn probe(&self, pos: &Position) -> Option<f64> {
        self.0.value(pos)
    }
}

#[test]
fn a_probe_makes_one_turn_of_search_exact() {
    // The stored 4n/1p3/5/2P2/N4 needs a mixed strategy; its depth-1 heuristic answer is
    // not the game value, but with every child's exact value probed one turn is exact.
    let pos = seed("4n/1p3/5/2P2/N4");
    let eg = Endgame::solve(&pos, 1_000_000, 1e-12, 50_000_000).unwrap();
    let exact = eg.value(&pos).unwrap();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let plain = analyse(&pos, &[], &[], limits, &stop, &mut |_| {}).unwrap();
    assert!(
        (plain.value - exact).abs() > 1e-3,
        "the test needs a heuristic that is off"
    );
    let probe = Solved(eg);
    let mut s = Searcher::new(limits, &stop).with_probe(&probe);
    let probed = s.analyse(&pos, &[], &[], &mut |_| {}).unwrap();
    assert!(
        (probed.value - exact).abs() < 1e-9,
        "{} vs {exact}",
        probed.value
    );
    assert!(probed.stats.probe_hits > 0);
    let w = probe
        .0
        .exploitability(&pos, Side::White, &probed.white)
        .unwrap();
    let b = probe
        .0
        .exploitability(&pos, Side::Black, &probed.black)
        .unwrap();
    assert!(w.exploitability < 1e-9 && b.exploitability < 1e-9);
}

// --- Hard endgames, solved by the independent reference ----------------------------------

/// One block of `fixtures/endgames/apocalypse-hard.endgame`: the root, its value and the
/// exact values of its joint children, from `tests/reference/endgame_ref.py` (independent
/// rules and solver), and the exploitability bounds the search must keep (`bound D MAX`:
/// at depth D, neither side's root strategy is exploitable by more than MAX).
struct Stored {
    fen: String,
    rules: Rules,
    value: f64,
    white: Vec<String>,
    black: Vec<String>,
    payoff: Vec<f64>,
    bounds: Vec<(u32, f64)>,
}

/// The stored hard endgames (read when the test runs: editing a bound needs no rebuild).
fn hard_endgames() -> Vec<Stored> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/endgames/apocalypse-hard.endgame"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut cur: Option<Stored> = None;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let floats = || -> Vec<f64> { rest.split(' ').map(|v| v.parse().unwrap()).collect() };
        let words = || -> Vec<String> { rest.split(' ').map(str::to_string).collect() };
        match word {
            "fen" => {
                cur = Some(Stored {
                    fen: rest.to_string(),
                    rules: Rules::Seed,
                    value: f64::NAN,
                    white: Vec::new(),
                    black: Vec::new(),
                    payoff: Vec::new(),
                    bounds: Vec::new(),
                })
            }
            "end" => out.push(cur.take().unwrap()),
            _ => {
                let s = cur.as_mut().unwrap();
                match word {
                    "rules" if rest == "apocalypse" => s.rules = Rules::Seed,
                    "rules" if rest == "apocalypse-classic" => s.rules = Rules::Classic,
                    "value" => s.value = floats()[0],
                    "white" => s.white = words(),
                    "black" => s.black = words(),
                    "row" => s.payoff.extend(floats()),
                    "bound" => {
                        let v = floats();
                        s.bounds.push((v[0] as u32, v[1]));
                    }
                    "positions" | "sweeps" => {}
                    _ => panic!("{path}: unknown line {line}"),
                }
            }
        }
    }
    assert!(cur.is_none(), "{path}: a block without `end`");
    out
}

#[test]
fn the_hard_endgames_are_stored_whole_and_agree_with_quills_own_solver() {
    let stored = hard_endgames();
    assert!(stored.len() >= 10, "{} endgames", stored.len());
    for s in &stored {
        let pos = Position::from_fen(s.rules, &s.fen).unwrap();
        assert_eq!(s.payoff.len(), s.white.len() * s.black.len(), "{}", s.fen);
        assert!(!s.bounds.is_empty(), "{}", s.fen);
        let eg = Endgame::solve(&pos, 1_000_000, 1e-12, 50_000_000).unwrap();
        let (white, black, payoff) = eg.matrix(&pos).unwrap();
        // The same moves (the reference lists them sorted), and the same child values.
        let at = |stored: &[String], m: &Move| {
            let name = m.to_string();
            stored.iter().position(|s| *s == name)
        };
        assert_eq!((white.len(), black.len()), (s.white.len(), s.black.len()));
        let mut off: f64 = 0.0;
        for (i, w) in white.iter().enumerate() {
            let si = at(&s.white, w).unwrap_or_else(|| panic!("{}: {w}", s.fen));
            for (j, b) in black.iter().enumerate() {
                let sj = at(&s.black, b).unwrap_or_else(|| panic!("{}: {b}", s.fen));
                let theirs = s.payoff[si * s.black.len() + sj];
                off = off.max((payoff[i * black.len() + j] - theirs).abs());
            }
        }
        assert!(off < 1e-9, "{}: a child value differs by {off}", s.fen);
        assert!(
            (eg.value(&pos).unwrap() - s.value).abs() < 1e-9,
            "{}",
            s.fen
        );
    }
}

/// The worst exploitability of the two sides' root strategies in a stored endgame, searched
/// within `limits` from an empty table: (depth reached, worst, White's, Black's).
fn stored_exploitability(s: &Stored, limits: Limits) -> (u32, f64, f64, f64) {
    let stop = AtomicBool::new(false);
    let pos = Position::from_fen(s.rules, &s.fen).unwrap();
    let white: Vec<&str> = s.white.iter().map(String::as_str).collect();
    let black: Vec<&str> = s.black.iter().map(String::as_str).collect();
    let mut searcher: Searcher = Searcher::new(limits, &stop);
    let a = searcher.analyse(&pos, &[], &[], &mut |_| {}).unwrap();
    let [w, b] = [Side::White, Side::Black].map(|side| {
        let played: Vec<(String, f64)> = a
            .strategy(side)
            .iter()
            .map(|&(m, p)| (m.to_string(), p))
            .collect();
        let played: Vec<(&str, f64)> = played.iter().map(|(m, p)| (m.as_str(), *p)).collect();
        endgame::exploitability(&white, &black, &s.payoff, s.value, side, &played).exploitability
    });
    let decided = a.value <= 0.0 || a.value >= 1.0;
    let depth = if decided {
        limits.depth.unwrap_or(a.depth)
    } else {
        a.depth
    };
    (depth, w.max(b), w, b)
}

#[test]
fn the_hard_endgames_stay_within_their_exploitability_bounds_at_fixed_depth() {
    let mut failures = Vec::new();
    for s in hard_endgames() {
        for &(depth, bound) in &s.bounds {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let (reached, worst, w, b) = stored_exploitability(&s, limits);
            assert_eq!(reached, depth, "{}", s.fen);
            eprintln!(
                "{} {:?} depth {depth}: White {w:.6}, Black {b:.6}",
                s.fen, s.rules
            );
            if worst > bound {
                failures.push(format!(
                    "{} at depth {depth}: exploitability {worst:.6} > {bound}",
                    s.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The figures of issue 14: each stored endgame's worst root exploitability at depths 1–7 and
/// at 100 ms, 300 ms and 1 s (wall clock, as `go movetime`). A measurement, not a check:
/// `cargo test --release --lib hard_endgame_figures -- --ignored --nocapture`.
#[test]
#[ignore]
fn hard_endgame_figures() {
    for s in hard_endgames() {
        let mut line = format!("{} {:?}:", s.fen, s.rules);
        for depth in 1..=7 {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            line += &format!(" d{depth} {:.4}", stored_exploitability(&s, limits).1);
        }
        for ms in [100, 300, 1000] {
            let limits = Limits {
                time: Some(std::time::Duration::from_millis(ms)),
                exact: true,
                ..Limits::default()
            };
            let (depth, worst, ..) = stored_exploitability(&s, limits);
            line += &format!(" {ms}ms {worst:.4} (depth {depth})");
        }
        eprintln!("{line}");
    }
}
