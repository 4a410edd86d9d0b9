//! The Pagan player: what its evaluation counts, and whole games against a random mover.

use crate::rng::Rng;
use crate::search::Searchable;
use crate::search::{Limits, TransTable, search};
use crate::variant::Side;
use crate::variants::pagan::Position;
use crate::variants::pagan_play::{TERMS, THIN, WEIGHTS, Weights};
use std::sync::atomic::AtomicBool;

/// Plays White by a 20,000-node search against a Black that moves uniformly at random
/// (a fixed seed), from `fen`, for at most `turns` turns; the result of the game, if it
/// ended.
fn against_random(fen: &str, seed: u64, turns: usize) -> Option<crate::game::End> {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut rng = Rng::new(seed);
    let mut history = Vec::new();
    let mut table = TransTable::new(16).unwrap();
    let mut moves = Vec::new();
    for _ in 0..2 * turns {
        if let Some(end) = pos.end() {
            return Some(end);
        }
        history.push(pos.key());
        let mv = if pos.side_to_move() == Side::White {
            let limits = Limits {
                nodes: Some(20_000),
                ..Limits::default()
            };
            let stop = AtomicBool::new(false);
            let found = search(&pos, &history, &[], limits, &stop, &mut table, &mut |_| {})
                .expect("a move");
            pos.read_wire(&found.mv).expect("a legal move")
        } else {
            pos.legal_moves(&mut moves);
            moves[rng.below(moves.len() as u64) as usize]
        };
        pos = pos.play(mv);
    }
    pos.end()
}

#[test]
fn mating_force_counts_what_can_reach_the_dead_board() {
    // White: K g11, W f11, A e10 (live: they never reach the dead board by themselves),
    // G d9 (crosses), P c8 (may become a Pagan), a dead W b4: 3. Black: a dead p e4 and
    // its dead king e3: 2.
    let fen = "5WK/4A2/3G3/2P4/7/*******/*******/*W2p1*/*3k1*/*5*/*5* w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(pos.mating_force(Side::White), 3);
    assert_eq!(pos.mating_force(Side::Black), 2);
}

#[test]
fn an_edge_that_cannot_mate_is_worth_little() {
    // K+G against K is a draw (a lone Pagan cannot mate); K+G+G against K wins, but a lost
    // Pagan would make it a draw (no spare: the edge divided by THIN); K+G+G+G has one.
    let score = |fen: &str| Position::from_fen(fen).unwrap().evaluate();
    let one = score("6K/7/3G3/7/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let two = score("6K/7/3G3/3G3/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let three = score("6K/3G3/3G3/3G3/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    assert!(one.abs() < 150, "K+G against K scores {one}");
    assert!(two > 300, "K+G+G against K scores {two}");
    assert!(
        three > 3 * two,
        "K+G+G+G against K scores {three}, K+G+G {two}"
    );
    let margin = |fen: &str| Position::from_fen(fen).unwrap().win_margin(Side::White);
    assert_eq!(
        [
            margin("6K/7/3G3/7/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1"),
            margin("6K/7/3G3/3G3/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1"),
            margin("6K/3G3/3G3/3G3/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1"),
        ],
        [0, 1, 2]
    );
}

#[test]
fn pagans_cross_the_bridge_and_mate_a_bare_dead_king() {
    // The position the landed build never won: a bare Black king on the dead board,
    // White's Pagans, alchemist and wazir all on the game board.
    let fen = "7/1G1G3/2A2W1/2G4/6K/*******/*******/*1k3*/*5*/*5*/*5* w - - 0 40";
    for seed in 1..=3 {
        let end = against_random(fen, seed, 60);
        assert!(
            matches!(end, Some(crate::game::End::Win(Side::White, _))),
            "seed {seed}: {end:?}"
        );
    }
}

/// The terms of `fen` under the landed weights: each named term's count (the others 0), the
/// fixed part and the divisor, as counted by hand.
fn assert_terms(fen: &str, counts: &[(&str, i32)], fixed: i32, divisor: i32) {
    let pos = Position::from_fen(fen).unwrap();
    let mut expected = [0; TERMS];
    for &(name, count) in counts {
        let i = Weights::NAMES.iter().position(|&n| n == name).expect(name);
        expected[i] = count;
    }
    let e = pos.eval_terms(&WEIGHTS);
    let named = |t: &[i32; TERMS]| -> Vec<(&str, i32)> {
        Weights::NAMES
            .iter()
            .zip(t)
            .filter(|(_, c)| **c != 0)
            .map(|(n, c)| (*n, *c))
            .collect()
    };
    assert_eq!(named(&e.terms), named(&expected), "{fen}");
    assert_eq!((e.fixed, e.divisor), (fixed, divisor), "{fen}");
}

#[test]
fn the_terms_of_two_positions_are_those_counted_by_hand() {
    // White: K g11, a lone live Pagan d7 (one unit: it cannot win, so the edge is divided);
    // Black: its king dead on c3. The Pagan reaches 16 squares (2 in each of 8 directions,
    // across the bridge too: d4 d3, c4 b3, e4 f3), is 2 Pagan steps from the king (9 − 2),
    // which stands on frame rank 3 (index 2), one file from the middle, and has 6 of its 8
    // squares left (the Pagan attacks c4 and d4, withdrawing to e8 and d8).
    assert_terms(
        "6K/7/7/7/3G3/*******/*******/*5*/*1k3*/*5*/*5* w - - 0 1",
        &[
            ("pagan", 1),
            ("mobility_hunting", 16),
            ("hunt", 1),
            ("hunt_pagan", 7),
            ("bridge_rank", 2),
            ("side_file", 1),
            ("hunt_room", 2),
        ],
        10,
        8,
    );
    // White: K g11, W c10, P e9 (4 files from its edge file g: advance.2), a dead P f4;
    // Black: k a9, p b8. Mobility: W 4 steps + c8 a10 e10, P d9, dead P e4: 9; Black's p
    // c8: 1. The W is 2 from the king (pressure 4 − 2). White has two units (the pawns) and
    // two capturers (W, P), so the net counts: of the king's 5 squares, W covers a10 and
    // b10, its own pawn blocks b8: room 2, net 8 − 2. The pawns' 100 each cancel. Two units
    // and two capturers are just enough (a lost pawn and White cannot win): the edge, White's,
    // is divided by THIN.
    assert_terms(
        "6K/2W4/k3P2/1p5/7/*******/*******/*4P*/*5*/*5*/*5* w - - 0 1",
        &[
            ("wazir", 1),
            ("dead_pawn", 1),
            ("advance.2", 1),
            ("mobility", 8),
            ("pressure", 2),
            ("net", 6),
        ],
        10,
        THIN,
    );
}

/// Positions from play: random games, and games of a short search against itself.
fn positions_from_play() -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = Rng::new(17);
    let mut moves = Vec::new();
    for _ in 0..60 {
        let mut pos = Position::start();
        for _ in 0..300 {
            if pos.end().is_some() {
                break;
            }
            out.push(pos.clone());
            pos.legal_moves(&mut moves);
            pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    let mut table = TransTable::new(1).unwrap();
    let mut pos = Position::start();
    let mut history = Vec::new();
    for _ in 0..120 {
        if pos.end().is_some() {
            break;
        }
        out.push(pos.clone());
        history.push(pos.key());
        let limits = Limits {
            nodes: Some(300),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let found =
            search(&pos, &history, &[], limits, &stop, &mut table, &mut |_| {}).expect("a move");
        pos = pos.play(pos.read_wire(&found.mv).expect("a legal move"));
    }
    out
}

#[test]
fn the_terms_times_the_weights_are_the_evaluation() {
    let positions = positions_from_play();
    let hunts = positions
        .iter()
        .filter(|p| {
            p.dead_king(Side::White)
                .or(p.dead_king(Side::Black))
                .is_some()
        })
        .count();
    assert!(hunts > 1000, "{hunts} positions with a dead king");
    // The landed weights, and weights drawn at random (so that no term hides behind a weight
    // of 0 or a count that another term's weight happens to cancel).
    let mut rng = Rng::new(5);
    let mut sets = vec![WEIGHTS.to_array()];
    for _ in 0..4 {
        sets.push(std::array::from_fn(|_| rng.below(801) as i32 - 400));
    }
    let mut divided = 0;
    for w in &sets {
        let weights = Weights::from_array(*w, WEIGHTS.tempo);
        for pos in &positions {
            let e = pos.eval_terms(&weights);
            let dot: i32 = e.terms.iter().zip(w).map(|(t, w)| t * w).sum();
            assert_eq!(
                (e.fixed + dot) / e.divisor,
                pos.score_with(w),
                "{}",
                pos.fen()
            );
            divided += usize::from(e.divisor != 1);
        }
    }
    assert!(divided > 100, "{divided} positions divided");
    for pos in &positions {
        assert_eq!(pos.score_with(&WEIGHTS.to_array()), pos.evaluate());
    }
}

#[test]
fn the_kept_key_is_the_key_from_scratch() {
    let positions = positions_from_play();
    for pos in &positions {
        assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
    }
    // Each side to move has its own key.
    let start = Position::start();
    let black = Position::from_fen(&start.fen().replace(" w ", " b ")).unwrap();
    assert_ne!(start.key(), black.key());
    assert_eq!(black.key(), black.key_from_scratch());
}

#[test]
fn the_captures_are_the_moves_that_take_a_piece() {
    let (mut all, mut captures) = (Vec::new(), Vec::new());
    let mut some = 0;
    for pos in &positions_from_play() {
        all.clear();
        pos.pseudo_moves(&mut all);
        all.retain(|&mv| pos.victim(mv).is_some());
        captures.clear();
        pos.pseudo_captures(&mut captures);
        assert_eq!(captures, all, "{}", pos.fen());
        some += usize::from(!all.is_empty());
    }
    assert!(some > 1000, "{some} positions with a capture");
}

#[test]
fn a_pagan_and_a_pawn_that_cannot_promote_do_not_win() {
    // G d9 and a pawn on c7 (White's rank 7 ends on a7, no promotion square) against a bare
    // live king: a lone Pagan never captures a king that takes care, so the edge is divided
    // by DRAWISH; the same pawn on c9 may become a second Pagan, and the edge counts, divided
    // only by THIN (two units, two capturers, none to spare).
    let stuck = Position::from_fen("k6/7/3G2K/7/2P4/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let free = Position::from_fen("k6/7/2PG2K/7/7/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let (stuck, free) = (stuck.unwrap().evaluate(), free.unwrap().evaluate());
    assert!(stuck < 150, "G and a stuck pawn score {stuck}");
    assert!(
        free > 2 * stuck,
        "G and a free pawn score {free}, stuck {stuck}"
    );
}

#[test]
fn a_defender_with_a_spare_move_is_hunted_by_the_second_table() {
    // Black's king dead on b4 against White's Pagans on b1 and d3, White to move: with
    // nothing else of Black's that moves, the two-Pagan table mates in 5 plies (the king,
    // forced to step, walks into it; `pagan_hunt_ref.py`), so the guide counts 24 − 5. Give
    // Black a live pawn that can step (c9-d9) and the king may stay put: the second table
    // (`--pass defender`) mates in 3, its stalemates being no more, and the guide counts
    // 24 − 3. A pawn that cannot step (blocked on c9 by White's wazir on d9) is no spare move.
    // The search agrees: `go depth 9` finds `score mate 3` (b1c1 b4b3 c1c2 b3b4 c2c4) and,
    // with the pawn, `score mate 2` (b1c2 c9d9 c2c4).
    let mate_path = |fen: &str| {
        let i = Weights::NAMES
            .iter()
            .position(|&n| n == "mate_path")
            .unwrap();
        Position::from_fen(fen).unwrap().eval_terms(&WEIGHTS).terms[i]
    };
    assert_eq!(
        mate_path("6K/7/7/7/7/*******/*******/*k4*/*2G2*/*5*/*G4* w - - 0 1"),
        19
    );
    assert_eq!(
        mate_path("6K/7/2p4/7/7/*******/*******/*k4*/*2G2*/*5*/*G4* w - - 0 1"),
        21
    );
    assert_eq!(
        mate_path("6K/7/2pW3/7/7/*******/*******/*k4*/*2G2*/*5*/*G4* w - - 0 1"),
        19
    );
}
