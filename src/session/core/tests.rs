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
        let ask = crate::player::Ask {
            side: crate::variant::Side::White,
            history,
            allowed: &allowed,
            limits,
        };
        let tables = crate::player::Tables::Kept {
            alternating: &mut TransTable::new(1).unwrap(),
            sealed: &mut crate::simsearch::JointTable::default(),
        };
        let with = crate::player::Thinking {
            stop: &stop,
            rng: &mut crate::rng::Rng::new(1),
            tables,
            progress: &mut |_| {},
        };
        crate::player::think(core.game(), &ask, with).expect("a choice")
    };
    let repeated = choose(&core.history_keys());
    assert_eq!(repeated.mv.to_string(), "g10f10");
    // A draw, less the default contempt (20) for White, the side to move at the root.
    assert_eq!(repeated.score, crate::player::Score::Cp(-20));
    let fresh = choose(&[]);
    assert_ne!(fresh.score, crate::player::Score::Cp(0));
}

/// The memory each table holds: the alternating table's entries (16 bytes each) and whether
/// the sealed one has taken its memory, with its size.
fn memory(core: &Core) -> (usize, Option<usize>) {
    let table = core.table.lock().unwrap().len() * 16;
    let sealed = core.sealed.lock().unwrap();
    (table, sealed.is_allocated().then(|| sealed.bytes()))
}

#[test]
fn only_the_table_the_variant_searches_with_has_the_hash() {
    let mib = 1 << 20;
    let mut core = Core::new();
    // The default variant is sealed: its table has the default Hash, taken before any search.
    assert!(Variant::DEFAULT.is_sealed());
    let (table, sealed) = memory(&core);
    assert!(table <= 64, "{table} bytes");
    assert!(
        sealed.is_some_and(|b| b > 15 * mib && b <= 16 * mib),
        "{sealed:?}"
    );
    core.set_hash(64).unwrap();
    let (table, sealed) = memory(&core);
    assert!(table <= 64, "{table} bytes");
    assert!(
        sealed.is_some_and(|b| b > 63 * mib && b <= 64 * mib),
        "{sealed:?}"
    );
    // An alternating variant: the transposition table has it, the sealed one nothing.
    core.set_variant(Variant::Gladiator);
    let (table, sealed) = memory(&core);
    assert!(table > 63 * mib && table <= 64 * mib, "{table} bytes");
    assert_eq!(sealed, None);
    // A new game keeps them; back to a sealed variant, the memory moves back.
    core.new_game();
    assert_eq!(memory(&core).0, table);
    core.set_variant(Variant::ApocalypseClassic);
    let (table, sealed) = memory(&core);
    assert!(table <= 64, "{table} bytes");
    assert!(sealed.is_some_and(|b| b > 63 * mib), "{sealed:?}");
    // Clear Hash empties the sealed table and keeps its memory.
    core.set_option("Clear Hash", None).unwrap();
    assert!(memory(&core).1.is_some_and(|b| b > 63 * mib));
}
