//! The Pagan player: what its evaluation counts, and whole games against a random mover.

use crate::rng::Rng;
use crate::search::Searchable;
use crate::search::{Limits, TransTable, search};
use crate::variant::Side;
use crate::variants::pagan::Position;
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
    // K+G against K is a draw (a lone Pagan cannot mate); K+G+G against K wins.
    let one = Position::from_fen("6K/7/3G3/7/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let two = Position::from_fen("6K/7/3G3/3G3/k6/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let (one, two) = (one.unwrap().evaluate(), two.unwrap().evaluate());
    assert!(one.abs() < 150, "K+G against K scores {one}");
    assert!(two > 600, "K+G+G against K scores {two}");
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
