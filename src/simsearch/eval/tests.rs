//! The evaluation's tests: its terms against an independent square-by-square count, the
//! payoff table against its formula, and balances worked by hand.

use super::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(Rules::Seed, fen).unwrap()
}

/// Whether a knight's jump joins squares `a` and `b` (indices `rank * 5 + file`).
fn jump(a: u32, b: u32) -> bool {
    let (df, dr) = ((a % 5).abs_diff(b % 5), (a / 5).abs_diff(b / 5));
    (df, dr) == (1, 2) || (df, dr) == (2, 1)
}

/// The squares of a bitboard.
fn squares(b: u32) -> Vec<u32> {
    (0..25).filter(|i| b >> i & 1 == 1).collect()
}

/// The terms of [`heuristic`]'s documentation counted square by square, White's minus
/// Black's, for comparison with [`eval_terms`].
fn by_squares(p: &Position) -> [i32; TERMS] {
    let side = |s: Side| {
        let f = p.footmen(s).count_ones() as i32;
        let lone = f == 1;
        let exposed = (p.horsemen(s) & footman_attacks(p.footmen(s.opponent()), s.opponent()))
            .count_ones() as i32;
        let enemy = squares(p.horsemen(s.opponent()));
        let hit = squares(p.footmen(s))
            .into_iter()
            .filter(|&q| enemy.iter().any(|&h| jump(q, h)))
            .count() as i32;
        [
            f,
            i32::from(lone),
            p.horsemen(s).count_ones() as i32,
            exposed,
            if lone { 0 } else { hit },
            i32::from(lone && hit > 0),
            i32::from(p.penalties(s)),
            if lone { 0 } else { p.footman_advance(s) as i32 },
            p.horseman_mobility(s) as i32,
        ]
    };
    let (w, b) = (side(Side::White), side(Side::Black));
    std::array::from_fn(|i| w[i] - b[i])
}

/// The logistic of the floating-point formula of [`heuristic`]'s documentation under
/// the position's weights ([`weights_of`]), for comparison.
fn by_formula(p: &Position) -> f64 {
    let d: f64 = by_squares(p)
        .iter()
        .zip(weights_of(p).to_array())
        .map(|(&t, w)| f64::from(t) * f64::from(w) / 100.0)
        .sum();
    1.0 / (1.0 + (-0.8 * d).exp())
}

/// Positions from random play of both rule sets: every position of 60 games, each from
/// the start, with a seeded uniform choice of each side's legal moves (and, one turn in
/// twenty, an illegal one, for the penalty term).
fn from_play() -> Vec<Position> {
    let mut rng = crate::rng::Rng::new(14);
    let mut out = Vec::new();
    for game in 0..60 {
        let rules = if game % 2 == 0 {
            Rules::Seed
        } else {
            Rules::Classic
        };
        let mut p = Position::start(rules);
        let mut moves = Vec::new();
        while p.end().is_none() && out.len() < 100_000 {
            out.push(p.clone());
            let mut pick = |side| {
                p.legal_moves(side, &mut moves);
                if moves.is_empty() || rng.below(20) == 0 {
                    return Err(crate::variants::apocalypse::Illegal::CannotMove);
                }
                Ok(moves[rng.below(moves.len() as u64) as usize])
            };
            let (w, b) = (pick(Side::White), pick(Side::Black));
            p = p.resolve(w, b);
        }
    }
    out
}

#[test]
fn the_terms_times_the_weights_are_the_balance_on_positions_from_play() {
    let positions = from_play();
    assert!(positions.len() > 1000, "{}", positions.len());
    let mut seen = [false; TERMS];
    let mut rule_sets = [false; 2];
    for p in &positions {
        let w = weights_of(p).to_array();
        rule_sets[usize::from(p.rules() == Rules::Classic)] = true;
        let terms = eval_terms(p);
        assert_eq!(terms, by_squares(p), "{}", p.fen());
        let dot: i32 = terms.iter().zip(w).map(|(t, w)| t * w).sum();
        assert_eq!(dot, balance(p), "{}", p.fen());
        assert!((heuristic(p) - by_formula(p)).abs() < 1e-12, "{}", p.fen());
        for (seen, t) in seen.iter_mut().zip(terms) {
            *seen |= t != 0;
        }
    }
    // Every term and both rule sets are exercised.
    assert_eq!(seen, [true; TERMS]);
    assert_eq!(rule_sets, [true; 2]);
}

#[test]
fn the_weights_round_trip_through_their_list() {
    for rules in [Rules::Seed, Rules::Classic] {
        assert_eq!(
            Weights::from_array(weights(rules).to_array()),
            *weights(rules)
        );
    }
    let list: [i32; TERMS] = std::array::from_fn(|i| i as i32 * 7 - 20);
    assert_eq!(Weights::from_array(list).to_array(), list);
    assert_eq!(Weights::from_array(list).hit_lone_footman, list[5]);
}

#[test]
fn the_table_gives_the_formula_on_positions_from_play() {
    let fens = [
        "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0",
        "n1p1n/p1p1p/1P3/P3P/N2PN w - - 0 4 1/0",
        "4n/1p3/5/2P2/N4 w - - 0 1 0/0",
        "n3n/1P1P1/5/1p1p1/N3N w - - 0 1 0/1",
        "2n2/P4/5/4p/2N2 w - - 0 1 0/0",
        "5/1p3/3N1/P4/4n w - - 0 1 0/0",
        "n3n/5/1P1P1/5/2N2 w - - 0 1 0/0",
    ];
    for fen in fens {
        let p = pos(fen);
        assert!((heuristic(&p) - by_formula(&p)).abs() < 1e-12, "{fen}");
        for side in [Side::White, Side::Black] {
            assert_eq!(
                advance(p.footmen(side), side),
                p.footman_advance(side) as i32
            );
            assert_eq!(
                Material::of(&p, side).mobility,
                p.horseman_mobility(side) as i32
            );
        }
    }
}

#[test]
fn balances_by_hand() {
    // White: lone footman c2 (no advance bonus), horseman a1 (b3, c2 own → 1 square).
    // Black: lone footman b4, horseman e5 (c4, d3 → 2 squares). No threats.
    let p = pos("4n/1p3/5/2P2/N4 w - - 0 1 0/0");
    let w = endgame_weights(Rules::Seed);
    let white = w.footman + w.lone_footman + w.horseman + w.mobility;
    let black = w.footman + w.lone_footman + w.horseman + 2 * w.mobility;
    assert_eq!(balance(&p), white - black);
    // White's horseman d3 attacks Black's lone footman b4 (and b2 c1 c5 e1 e5: 6
    // squares); Black's horseman e1 attacks c2 and d3 (2 squares), not the footman a2.
    let p = pos("5/1p3/3N1/P4/4n w - - 0 1 0/0");
    let white = w.footman + w.lone_footman + w.horseman + 6 * w.mobility;
    let black = w.footman + w.lone_footman + w.horseman + w.hit_lone_footman + 2 * w.mobility;
    assert_eq!(balance(&p), white - black);
    // Two White footmen b3 d3 (advanced 2 ranks each); Black's horseman c1 reaches a2 b3
    // d3 e2, so both are hit, 0.15 each.
    let p = pos("5/5/1P1P1/5/2n2 w - - 0 1 0/0");
    let [white, black] = [Side::White, Side::Black].map(|side| Material::of(&p, side));
    assert_eq!(
        side_score(&white, &black, 0, w),
        2 * w.footman + 2 * w.hit_footman + 4 * w.advance
    );
    assert_eq!(logistic(0), 0.5);
    assert!(logistic(REACH) < 1.0 && logistic(REACH + 1) == logistic(REACH));
    assert!(logistic(-1) < logistic(0) && logistic(0) < logistic(1));
}

#[test]
fn the_leaf_after_a_turn_is_the_evaluation_of_the_resolved_position() {
    // `after` plays the turn and tests the end from the evaluation's own horseman moves; it
    // must give, bit for bit, the payoff of the turn resolved by the rules and then
    // evaluated: every pair of legal moves on positions from play.
    let (mut white, mut black) = (Vec::new(), Vec::new());
    let (mut pairs, mut ended, mut drawn_stuck) = (0u32, 0u32, 0u32);
    for p in from_play().iter().step_by(3) {
        p.legal_moves(Side::White, &mut white);
        p.legal_moves(Side::Black, &mut black);
        for &w in &white {
            for &b in &black {
                let next = p.resolve(Ok(w), Ok(b));
                let want = evaluate(&next);
                let got = after(p, w, b);
                assert_eq!(got.to_bits(), want.to_bits(), "{} {w} {b}", p.fen());
                pairs += 1;
                ended += u32::from(next.end().is_some());
                drawn_stuck += u32::from(matches!(next.end(), Some(End::Draw(_))));
            }
        }
    }
    assert!(pairs > 20_000, "only {pairs} pairs");
    // Finished games (wins and draws) are among them, not only estimates.
    assert!(
        ended > 100 && drawn_stuck > 0,
        "{ended} ended, {drawn_stuck} drawn"
    );
}

#[test]
fn the_frontier_gives_the_leaf_after_a_turn_bit_for_bit() {
    // One frontier for every position, as in the search: each position's cells are valued
    // in a shuffled order (halves worked out at first use, then reused), and must equal the
    // turn resolved by the rules and evaluated, bit for bit.
    let mut rng = crate::rng::Rng::new(41);
    let (mut white, mut black, mut order) = (Vec::new(), Vec::new(), Vec::new());
    let mut f = Frontier::default();
    let (mut pairs, mut touched, mut ended, mut into_endgame) = (0u32, 0u32, 0u32, 0u32);
    let pieces = |p: &Position| p.pieces();
    for p in from_play().iter().step_by(2) {
        p.legal_moves(Side::White, &mut white);
        p.legal_moves(Side::Black, &mut black);
        f.prepare(p, &white, &black);
        order.clear();
        order.extend((0..white.len()).flat_map(|i| (0..black.len()).map(move |j| (i, j))));
        for k in (1..order.len()).rev() {
            order.swap(k, rng.below(k as u64 + 1) as usize);
        }
        for &(i, j) in &order {
            let (w, b) = (white[i], black[j]);
            let next = p.resolve(Ok(w), Ok(b));
            let want = evaluate(&next);
            let got = frontier_payoff(p, &f, (i, w), (j, b));
            assert_eq!(got.to_bits(), want.to_bits(), "{} {w} {b}", p.fen());
            pairs += 1;
            ended += u32::from(next.end().is_some());
            into_endgame += u32::from(
                next.end().is_none()
                    && pieces(p) > ENDGAME_PIECES
                    && pieces(&next) <= ENDGAME_PIECES,
            );
            let solo = |s: usize, m| p.solo(s, m);
            touched += u32::from(matches!(
                (solo(0, w), solo(1, b)),
                (Some(x), Some(y)) if !x.untouched_by(&y) || !y.untouched_by(&x)
            ));
        }
    }
    assert!(pairs > 30_000, "only {pairs} pairs");
    // Captures and collisions, finished games, and turns into the endgame weights' range
    // are among them.
    assert!(
        touched > 1000 && ended > 100 && into_endgame > 100,
        "{touched} touched, {ended} ended, {into_endgame} into the endgame"
    );
}

#[test]
fn positions_of_at_most_five_pieces_are_valued_by_the_endgame_weights() {
    // Six pieces: the main set; five and fewer: the endgame set, fitted to exact values.
    for (fen, pieces) in [
        ("5/1p1n1/5/1P1P1/2N1n w - - 0 1 0/0", 6),
        ("5/1p1n1/5/1P1P1/2N2 w - - 0 1 0/0", 5),
        ("5/1p1n1/5/1P3/2N2 w - - 0 1 0/0", 4),
    ] {
        for rules in [Rules::Seed, Rules::Classic] {
            let p = Position::from_fen(rules, fen).unwrap();
            let want = if pieces > ENDGAME_PIECES {
                weights(rules)
            } else {
                endgame_weights(rules)
            };
            assert_eq!(weights_of(&p), want, "{fen}");
            let dot: i32 = eval_terms(&p)
                .iter()
                .zip(want.to_array())
                .map(|(t, w)| t * w)
                .sum();
            assert_eq!(balance(&p), dot, "{fen}");
        }
    }
    assert_ne!(endgame_weights(Rules::Seed), weights(Rules::Seed));
    assert_ne!(endgame_weights(Rules::Classic), weights(Rules::Classic));
}
