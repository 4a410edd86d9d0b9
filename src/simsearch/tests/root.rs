//! The root: key, strategy, restrictions, stopped searches, the kept table and the probe.

use super::*;

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

/// What `choose` answers for `side` in `pos`, every move allowed, with the random draw seeded.
fn chosen(
    pos: &Position,
    side: Side,
    limits: Limits,
    stop: &AtomicBool,
    seed: u64,
) -> crate::choice::Choice {
    choose(
        pos,
        side,
        &[],
        limits,
        stop,
        &mut Rng::new(seed),
        &mut |_| {},
    )
    .unwrap()
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
            let pick = |seed: u64| chosen(&pos, side, limits, &stop, seed);
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
            chosen(&pos, Side::Black, limits, &stop, seed)
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
