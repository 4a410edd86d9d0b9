//! Tests of repetitions (on the search path and back into the game's history) and of the
//! contempt they cost the side at the root.

use super::*;

/// A game history in which every second reversible root turn of `pos` leads back to an
/// earlier position: the keys of those children, each followed by the root's own key (so the
/// sides to move alternate as in a game), the last child just before the root. (A child
/// after an irreversible turn cannot have been seen before.)
fn history_of_every_second_child<P: Searchable>(pos: &P) -> Vec<u64> {
    let mut moves = Vec::new();
    pos.all_candidates(&mut moves);
    let children: Vec<u64> = moves
        .iter()
        .filter(|&&m| pos.after(m).reversible_plies() > 0)
        .step_by(2)
        .map(|&m| pos.after(m).key())
        .collect();
    let mut history = Vec::new();
    for (i, &c) in children.iter().enumerate() {
        if i > 0 {
            history.push(pos.key());
        }
        history.push(c);
    }
    history
}

#[test]
fn pvs_scores_equal_plain_alpha_beta_after_a_game_history() {
    for fen in PAGAN_FENS {
        let pos = pagan_pos(fen);
        let history = history_of_every_second_child(&pos);
        for depth in 1..=4 {
            let found = history_search(&pos, &history, depth, None);
            let mut path = history.clone();
            let expected = reference(&pos, &mut path, depth as i32, 0, -INFINITY, INFINITY);
            assert_eq!(found.score, expected, "{fen} depth {depth}");
        }
    }
    let pos = glad(Rules::Gladiator, GLADIATOR_FENS[1]);
    let history = history_of_every_second_child(&pos);
    let found = history_search(&pos, &history, 2, None);
    let expected = reference(&pos, &mut history.clone(), 2, 0, -INFINITY, INFINITY);
    assert_eq!(found.score, expected);
}

/// The root turns of `pos` (restricted to `allowed`) searched to `depth` with a fresh table
/// and `contempt`, after a game whose earlier positions have the keys `history`.
fn restricted<P: Searchable>(
    pos: &P,
    history: &[u64],
    allowed: &[WireMove],
    depth: u32,
    contempt: i32,
) -> Found {
    restricted_in(
        pos,
        history,
        allowed,
        depth,
        contempt,
        &mut TransTable::new(4).unwrap(),
    )
}

/// As `restricted`, in `table`.
fn restricted_in<P: Searchable>(
    pos: &P,
    history: &[u64],
    allowed: &[WireMove],
    depth: u32,
    contempt: i32,
    table: &mut TransTable,
) -> Found {
    let limits = Limits {
        depth: Some(depth),
        contempt,
        ..Limits::default()
    };
    search(
        pos,
        history,
        allowed,
        limits,
        &AtomicBool::new(false),
        table,
        &mut |_| {},
    )
    .expect("a move")
}

/// The Pagan start position without Black's alchemist and general.
const AHEAD: &str = "kp4P/1p4W/1p3PG/w4PA/p4PK/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";

#[test]
fn a_turn_back_into_the_game_history_scores_as_a_repetition() {
    // White is two pieces up; its best turn without a history, made a return to an earlier
    // position of the game, scores as a draw less the contempt (20), and is avoided: the side
    // ahead keeps its edge.
    let pos = pagan_pos(AHEAD);
    let free = restricted(&pos, &[], &[], 5, DEFAULT_CONTEMPT);
    assert!(free.score > 100, "{free:?}");
    let best = free.mv.clone();
    let after = pos.after(pos.read_wire(&best).unwrap());
    let back = after.key();
    let only_best = restricted(&pos, &[back], std::slice::from_ref(&best), 5, 20);
    assert_eq!(only_best.score, -20);
    let without = restricted(&pos, &[], std::slice::from_ref(&best), 5, 20);
    assert_eq!(without.score, free.score);
    let with = restricted(&pos, &[back], &[], 5, 20);
    assert_ne!(with.mv, best);
    assert!(with.score > 0, "{with:?}");
}

#[test]
fn a_repetition_costs_the_root_side_the_contempt_asked_for() {
    // The same forced return to the game as above, for both sides at the root, with the
    // contempt's extremes; a contempt beyond the bound counts as the bound.
    let white = pagan_pos(AHEAD);
    let black = pagan_pos(&AHEAD.replace(" w ", " b "));
    for pos in [white, black] {
        let mut moves = Vec::new();
        pos.all_candidates(&mut moves);
        let quiet = moves
            .into_iter()
            .find(|&m| pos.after(m).reversible_plies() > 0)
            .expect("a reversible turn");
        let best = pos.wire(quiet);
        let back = pos.after(quiet).key();
        for (contempt, score) in [(0, 0), (1, -1), (57, -57), (500, -500), (9000, -500)] {
            let only = restricted(&pos, &[back], std::slice::from_ref(&best), 3, contempt);
            assert_eq!(only.score, score, "{} contempt {contempt}", pos.fen());
        }
    }
}

#[test]
fn a_rules_draw_costs_the_root_side_the_contempt() {
    // Pagan: White's dead king takes the black wazir on the dead board, which leaves the game
    // with two bare kings: a draw by the rules, minus the contempt for the root side.
    let pos = pagan_pos("k6/7/7/7/7/*******/*******/*Kw3*/*5*/*5*/*5* w - - 0 1");
    let take = parse_move("b4c4").unwrap();
    let mv = pos.read_wire(&take).expect("a legal move");
    assert_eq!(pos.after(mv).over(), Some(0), "bare kings");
    for contempt in [0, 35] {
        let found = restricted(&pos, &[], std::slice::from_ref(&take), 2, contempt);
        assert_eq!(found.score, -contempt);
    }
}

#[test]
fn a_table_filled_with_the_other_side_at_the_root_gives_the_same_search() {
    // Draws score for the root side, so a search whose root side is the other one must not
    // read the entries of this one: the second search below, on a table the first one
    // filled with the other side at the root, finds what it finds on an empty table, node
    // for node. (Without the tag every one of its probes would meet the first's entries.)
    for fen in GLADIATOR_FENS {
        let pos = glad(Rules::Gladiator, fen);
        let mut table = TransTable::new(16).unwrap();
        let first = restricted_in(&pos, &[], &[], 4, 20, &mut table);
        let child = pos.after(pos.read_wire(&first.mv).unwrap());
        let fresh = restricted_in(&child, &[], &[], 4, 20, &mut TransTable::new(16).unwrap());
        let shared = restricted_in(&child, &[], &[], 4, 20, &mut table);
        // The same search; only the table's fill differs, by the first search's entries.
        assert!(shared.hashfull > fresh.hashfull, "{fen}");
        let shared = Found {
            hashfull: fresh.hashfull,
            ..shared
        };
        assert_eq!(shared, fresh, "{fen}");
        // With the same side at the root the entries are used.
        let again = restricted_in(&pos, &[], &[], 4, 20, &mut table);
        assert!(again.nodes < first.nodes, "{fen}");
    }
}

#[test]
fn the_side_ahead_avoids_a_repetition_on_the_search_path() {
    // Without any history, a repetition within the search is a draw too: the search finds
    // the same score as the plain alpha-beta that knows about its path, deeper than four
    // plies where turns can return to the root position.
    let pos = pagan_pos(AHEAD);
    let found = depth_search(&pos, 5, None);
    let expected = reference(&pos, &mut Vec::new(), 5, 0, -INFINITY, INFINITY);
    assert_eq!(found.score, expected);
}
