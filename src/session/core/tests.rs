//! The core's history keys and how a repeated position scores.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::channel;

use super::*;
use crate::notation::parse_turn;
use crate::search::Limits;
use crate::session::{Input, Session};

#[test]
fn history_keys_follow_position_startpos_moves() {
    let (events, _keep) = channel();
    let mut session = Session::new(events);
    for line in [
        "uci",
        "setoption name UCI_Variant value pagan",
        "position startpos moves g10f10 a8b8 f10g10 b8a8 g10f10",
    ] {
        session.handle(Input::Line(line.into()));
    }
    let core = &session.core;
    assert_eq!(core.history().len(), 5);
    let keys = core.history_keys();
    // The positions before the current one: the start, then after each of four turns.
    let mut game = Game::start(Variant::Pagan);
    let mut expected = Vec::new();
    for turn in ["g10f10", "a8b8", "f10g10", "b8a8", "g10f10"] {
        expected.push(game.search_key().unwrap());
        game.play(&parse_turn(turn).unwrap()).unwrap();
    }
    assert_eq!(keys, expected);
    assert_eq!(&game, core.game());
    // Two turns each way and back: the start position again, and the current position
    // is the one after the first turn.
    assert_eq!(keys[0], keys[4]);
    assert_eq!(core.game().search_key(), Some(keys[1]));
    assert_ne!(keys[0], keys[1]);
    // A sealed game has none.
    let mut sealed = Core::new();
    sealed.set_variant(Variant::Apocalypse);
    assert!(sealed.history_keys().is_empty());
}

#[test]
fn a_turn_that_repeats_the_game_scores_as_a_repetition() {
    // After g10f10 a8b8 f10g10 b8a8 the start position is back: g10f10 now repeats the
    // position after the first turn.
    let mut core = Core::new();
    core.set_variant(Variant::Pagan);
    let turns: Vec<WireTurn> = ["g10f10", "a8b8", "f10g10", "b8a8"]
        .iter()
        .map(|t| parse_turn(t).unwrap())
        .collect();
    core.set_position(None, &turns).unwrap();
    let allowed = [crate::notation::parse_move("g10f10").unwrap()];
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let choose = |history: &[u64]| {
        crate::player::choose_with_table(
            core.game(),
            history,
            &allowed,
            limits,
            &stop,
            &mut TransTable::new(1).unwrap(),
            &mut |_| {},
        )
        .expect("a choice")
    };
    let repeated = choose(&core.history_keys());
    assert_eq!(repeated.mv.to_string(), "g10f10");
    // A draw, less the default contempt (20) for White, the side to move at the root.
    assert_eq!(repeated.score, crate::player::Score::Cp(-20));
    let fresh = choose(&[]);
    assert_ne!(fresh.score, crate::player::Score::Cp(0));
}
