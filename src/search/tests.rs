//! Tests of the search against a plain alpha-beta reference, on positions of every
//! alternating variant.

use super::*;
use crate::notation::parse_move;
use crate::variants::gladiator::{self, Rules};
use crate::variants::pagan;

mod reference;
mod repetition;

use self::reference::reference;

/// A search to `depth`; without a table also without reductions, so that it is plain
/// alpha-beta in its results.
fn depth_search<P: Searchable>(pos: &P, depth: u32, table: Option<&mut TransTable>) -> Found {
    history_search(pos, &[], depth, table)
}

/// As `depth_search`, after a game whose earlier positions have the keys `history`.
fn history_search<P: Searchable>(
    pos: &P,
    history: &[u64],
    depth: u32,
    table: Option<&mut TransTable>,
) -> Found {
    let reduce = table.is_some();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    run(
        pos,
        history,
        &[],
        limits,
        &AtomicBool::new(false),
        table,
        reduce,
        &mut |_| {},
    )
    .expect("a move")
}

fn glad(rules: Rules, fen: &str) -> gladiator::Position {
    gladiator::Position::from_fen(rules, fen).expect("a valid FEN")
}

fn pagan_pos(fen: &str) -> pagan::Position {
    pagan::Position::from_fen(fen).expect("a valid FEN")
}

const GLADIATOR_FENS: [&str; 3] = [
    gladiator::START_FEN,
    "rnnq1bk1/rp1p1p2/2P1p1p1/1p2p2B/5P2/NPp1P1P1/RP3P2/RN1QKB1b w - - 0 6",
    "rnbqkbnr/1pp2pp1/1p2p1p1/3p4/3P4/1P2P1P1/1PP2PP1/RNBQKBNR b - - 0 3",
];
const BRAWL_FENS: [&str; 2] = [
    gladiator::START_FEN,
    "rnb1kb1r/1pp3Np/1p2p1p1/4P3/p2R2n1/pP1P1P1P/RB1PP1P1/3QKBNq w - - 0 6",
];
const PAGAN_FENS: [&str; 3] = [
    pagan::START_FEN,
    "k1WP3/w3A2/2p1P2/4P2/1pP4/*******/*******/*1p2G*/*p3K*/*ag3*/*5* w - - 0 23",
    "kp4P/ap3W1/gp2P1G/w4PA/p4PK/*******/*******/*5*/*5*/*5*/*5* b - - 1 2",
];

fn same_as_reference<P: Searchable>(pos: &P, depth: u32) {
    let found = depth_search(pos, depth, None);
    let expected = reference(
        pos,
        &mut Vec::new(),
        found.depth as i32,
        0,
        -INFINITY,
        INFINITY,
    );
    assert_eq!(found.score, expected, "depth {}", found.depth);
}

#[test]
fn pvs_scores_equal_plain_alpha_beta_in_gladiator_and_brawl() {
    for fen in GLADIATOR_FENS {
        same_as_reference(&glad(Rules::Gladiator, fen), 2);
    }
    for fen in BRAWL_FENS {
        same_as_reference(&glad(Rules::Brawl, fen), 2);
    }
    same_as_reference(&glad(Rules::Gladiator, GLADIATOR_FENS[1]), 3);
}

#[test]
fn pvs_scores_equal_plain_alpha_beta_in_pagan() {
    for fen in PAGAN_FENS {
        for depth in 1..=4 {
            same_as_reference(&pagan_pos(fen), depth);
        }
    }
}

#[test]
fn wins_are_found_and_scored_by_distance() {
    // Gladiator and Brawl: the rook-powered c3 pawn takes Black's last pawn.
    let last_pawn = "7k/8/2p5/8/8/2P5/8/R6K w - - 0 1";
    for rules in [Rules::Gladiator, Rules::Brawl] {
        let found = depth_search(&glad(rules, last_pawn), 4, None);
        assert_eq!(
            (found.mv.to_string(), found.score),
            ("c3c6".into(), WIN - 1)
        );
    }
    // Pagan: the dead wazir mates the dead black king (b1) from d1, the dead white king
    // guarding b2 and c2.
    let mate = "7/p6/7/6P/7/*******/*******/*5*/*1K3*/*2W2*/*k4* w - - 0 1";
    let found = depth_search(&pagan_pos(mate), 4, None);
    assert_eq!(
        (found.mv.to_string(), found.score),
        ("d2d1".into(), WIN - 1)
    );
    // Black to move cannot stop it: c1 (the alchemist on e3), b2 and c2 (the king) are
    // covered, so after any pawn move d2d1 (or d2b2) mates: two plies away.
    let to_be_mated = "7/p6/7/5P1/7/*******/*******/*5*/*1K1A1*/*2W2*/*k4* b - - 0 1";
    let found = depth_search(&pagan_pos(to_be_mated), 4, None);
    assert_eq!(found.score, -(WIN - 2));
    let mate = found.pv.get(1).map(ToString::to_string);
    assert!(matches!(mate.as_deref(), Some("d2d1" | "d2b2")), "{mate:?}");
}

#[test]
fn quiescence_takes_a_hanging_pawn() {
    // White's c3 pawn (powered by the a1 rook) can take c6; Black's pawns then cannot move.
    let pos = glad(Rules::Gladiator, "7k/8/2p5/5p2/8/2P5/8/R6K w - - 0 1");
    let stop = AtomicBool::new(false);
    let mut s = Searcher::<gladiator::Position>::new(Limits::default(), &stop, None);
    let q = s.quiesce(&pos, 0, -INFINITY, INFINITY);
    let mut noisy = Vec::new();
    pos.noisy(&mut noisy);
    assert_eq!(noisy.len(), 1);
    let after = pos.after(noisy[0]);
    assert!(-after.evaluate() > pos.evaluate() + 50);
    assert_eq!(q, -after.evaluate());
    assert_eq!(s.pv[0].as_slice(), noisy.as_slice());
}

#[test]
fn the_table_carries_over_between_searches() {
    let pos = glad(Rules::Gladiator, GLADIATOR_FENS[1]);
    let mut table = TransTable::new(4).unwrap();
    let first = depth_search(&pos, 3, Some(&mut table));
    let second = depth_search(&pos, 3, Some(&mut table));
    assert!(
        second.nodes < first.nodes,
        "{} then {}",
        first.nodes,
        second.nodes
    );
    assert_eq!(first.mv, second.mv);
    // A fresh table gives the same search again.
    let third = depth_search(&pos, 3, Some(&mut TransTable::new(4).unwrap()));
    assert_eq!((first.nodes, first.score), (third.nodes, third.score));
}

#[test]
fn keys_follow_the_side_to_move_and_the_clock() {
    let a = glad(Rules::Gladiator, gladiator::START_FEN);
    let b = glad(
        Rules::Gladiator,
        &gladiator::START_FEN.replace(" w ", " b "),
    );
    let c = glad(
        Rules::Gladiator,
        &gladiator::START_FEN.replace(" 0 1", " 2 1"),
    );
    let d = glad(Rules::Brawl, gladiator::START_FEN);
    let keys = [a.key(), b.key(), c.key(), d.key()];
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(keys[i], keys[j]);
        }
    }
    let p = pagan_pos(pagan::START_FEN);
    let q = pagan_pos(&pagan::START_FEN.replace(" w ", " b "));
    assert_ne!(p.key(), q.key());
    // The same position reached by two move orders has one key.
    let play = |pos: &pagan::Position, moves: &[&str]| {
        moves.iter().fold(pos.clone(), |x, m| {
            let mv = x.read_wire(&parse_move(m).unwrap()).expect("a legal move");
            x.after(mv)
        })
    };
    let one = play(&p, &["f7e7", "b11c11", "f9e9"]);
    let two = play(&p, &["f9e9", "b11c11", "f7e7"]);
    assert_eq!(one.fen(), two.fen());
    assert_eq!(one.key(), two.key());
}

#[test]
fn a_stop_ends_the_search_with_a_move() {
    let pos = glad(Rules::Brawl, gladiator::START_FEN);
    let stop = AtomicBool::new(true);
    let found = run(
        &pos,
        &[],
        &[],
        Limits::default(),
        &stop,
        None,
        true,
        &mut |_| {},
    )
    .expect("a move");
    assert!(pos.read_wire(&found.mv).is_some());
}

/// The search stopped by its node budget near the end of an iteration whose best turn differs
/// from the last completed one's: the answer is the new turn (the stopped iteration's turns
/// searched to the end are not thrown away), and the depth is the last completed one.
#[test]
fn a_stopped_iteration_gives_its_better_turn() {
    let mut checked = 0;
    let positions: Vec<gladiator::Position> = GLADIATOR_FENS
        .iter()
        .map(|f| glad(Rules::Gladiator, f))
        .chain(BRAWL_FENS.iter().map(|f| glad(Rules::Brawl, f)))
        .collect();
    for pos in &positions {
        for depth in 2..5 {
            let shallow = depth_search(pos, depth, Some(&mut TransTable::new(1).unwrap()));
            let deep = depth_search(pos, depth + 1, Some(&mut TransTable::new(1).unwrap()));
            if shallow.mv == deep.mv {
                continue;
            }
            // The same tree as the deep search, stopped just before its last node.
            let limits = Limits {
                nodes: Some(deep.nodes - 1),
                ..Limits::default()
            };
            let stopped = search(
                pos,
                &[],
                &[],
                limits,
                &AtomicBool::new(false),
                &mut TransTable::new(1).unwrap(),
                &mut |_| {},
            )
            .expect("a move");
            assert_eq!(stopped.depth, depth, "{} depth {depth}", pos.fen());
            assert_eq!(stopped.mv, deep.mv, "{} depth {depth}", pos.fen());
            checked += 1;
        }
    }
    assert!(checked >= 2, "only {checked} changes of mind");
}

/// Random games of `start`'s variant: every position met whose key was met before has the
/// same evaluation as then (what [`Searchable::CACHE_EVALUATION`] promises); returns how
/// many positions were met again, for the caller to see that the check had something to
/// check.
fn evaluation_by_key<P: Searchable>(start: &P, seed: u64) -> usize {
    let mut rng = crate::rng::Rng::new(seed);
    let mut seen = std::collections::HashMap::new();
    let mut again = 0;
    let mut moves = Vec::new();
    for _ in 0..300 {
        let mut pos = start.clone();
        for _ in 0..80 {
            let score = pos.evaluate();
            if let Some(&before) = seen.get(&pos.key()) {
                assert_eq!(before, score, "key {:#x}", pos.key());
                again += 1;
            }
            seen.insert(pos.key(), score);
            if pos.over().is_some() {
                break;
            }
            pos.all_candidates(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.after(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    again
}

/// The games whose evaluations the search keeps by key evaluate a position met again, by
/// another path (other move counters, another history), as the first time.
#[test]
fn games_that_keep_evaluations_evaluate_by_the_key_alone() {
    const { assert!(gladiator::Position::CACHE_EVALUATION && pagan::Position::CACHE_EVALUATION) };
    for rules in [Rules::Gladiator, Rules::Brawl] {
        let again = evaluation_by_key(&gladiator::Position::start(rules), 0xe7a1);
        assert!(again > 100, "{rules:?}: {again} positions met again");
    }
    let again = evaluation_by_key(&pagan::Position::start(), 0xe7a2);
    assert!(again > 100, "Pagan: {again} positions met again");
}
