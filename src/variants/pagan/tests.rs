//! Tests of the tables, the bitboards, the attack map and the FEN.

use super::tables::{NO, ORDER, PAGAN_STEP, STEP, bit, index};
use super::{KINDS, Piece, Position, SQUARES, START_FEN, geometry};
use crate::variant::Side;

#[test]
fn bridge_tables_cross_only_for_the_pagan() {
    let c7 = index(2, 7);
    assert_eq!(STEP[usize::from(c7)][6], NO);
    assert_eq!(PAGAN_STEP[usize::from(c7)][6], index(2, 4));
    assert_eq!(
        PAGAN_STEP[usize::from(index(0, 7))][5],
        NO,
        "a7 crosses to nothing"
    );
    assert_eq!(
        PAGAN_STEP[usize::from(index(1, 7))][7],
        NO,
        "b7 to a4 is a hole"
    );
}

#[test]
fn reincarnation_orders_follow_the_ruling() {
    let names: Vec<String> = ORDER[0]
        .iter()
        .map(|&s| geometry().square(usize::from(s)).to_string())
        .collect();
    assert_eq!(names[..4], ["f4", "f3", "e4", "e3"]);
    assert_eq!(names[10..12], ["f2", "f1"]);
    let names: Vec<String> = ORDER[1]
        .iter()
        .map(|&s| geometry().square(usize::from(s)).to_string())
        .collect();
    assert_eq!(names[..4], ["b4", "b3", "c4", "c3"]);
}

/// Positions of random games from the start (a fixed seed), every ply of them.
fn random_positions(games: usize, plies: usize) -> Vec<Position> {
    let mut rng = crate::rng::Rng::new(7);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start();
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let i = rng.below(moves.len() as u64) as usize;
            pos = pos.play(moves[i]);
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn bitboards_match_the_board_and_count_the_generated_moves() {
    let mut scratch = Vec::new();
    let mut dead_pieces = 0;
    for pos in random_positions(40, 200) {
        for (sq, p) in pos.board.iter().enumerate() {
            for side in [Side::White, Side::Black] {
                for &(kind, _) in &KINDS {
                    let on = pos.pieces(side, kind) & bit(sq as u8) != 0;
                    assert_eq!(on, *p == Some(Piece { kind, side }), "{}", pos.fen());
                }
            }
        }
        let occ = pos.occupancy();
        for side in [Side::White, Side::Black] {
            let counted: i32 = (0..SQUARES as u8)
                .filter_map(|sq| pos.at(sq).map(|p| (sq, p)))
                .filter(|(_, p)| p.side == side)
                .map(|(sq, p)| Position::piece_mobility(sq, p, &occ))
                .sum();
            assert_eq!(counted, pos.mobility(side, &mut scratch), "{}", pos.fen());
        }
        dead_pieces += (0..28u8).filter(|&sq| pos.at(sq).is_some()).count();
    }
    assert!(dead_pieces > 1000, "the games reach the dead board");
}

#[test]
fn the_attack_map_near_a_king_agrees_with_the_whole_map_around_it() {
    let mut checked = 0;
    for pos in random_positions(40, 60) {
        for side in [Side::White, Side::Black] {
            let whole = pos.attacks(side);
            for king in 0..SQUARES as u8 {
                let around = Position::king_reach(king) | bit(king);
                assert_eq!(
                    pos.attacks_near(side, king) & around,
                    whole & around,
                    "{} king {king} for {side:?}",
                    pos.fen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn the_attack_map_agrees_with_attacked_on_every_square() {
    for pos in random_positions(40, 60) {
        for side in [Side::White, Side::Black] {
            let map = pos.attacks(side);
            for sq in 0..SQUARES as u8 {
                if STEP[usize::from(sq)].iter().any(|&s| s != NO) {
                    assert_eq!(
                        map & bit(sq) != 0,
                        pos.attacked(sq, side),
                        "{} square {sq} for {side:?}",
                        pos.fen()
                    );
                }
            }
        }
    }
}

#[test]
fn reversible_plies_count_from_the_last_irreversible_move() {
    let pos = Position::start();
    assert_eq!(pos.reversible_plies(), u32::MAX, "unknown after a FEN");
    let play = |pos: &Position, text: &str| {
        let mv = crate::notation::parse_move(text).unwrap();
        pos.play(pos.parse_move(&mv).unwrap())
    };
    let pawn = play(&pos, "f7e7");
    assert_eq!(pawn.reversible_plies(), 0, "a pawn step");
    let quiet = play(&play(&pawn, "a8b8"), "g10f10");
    assert_eq!(quiet.reversible_plies(), 2);
    // A live Pagan taken goes to the dead board and can walk back: reversible. A wazir
    // taken stays dead: irreversible.
    let fen = "k6/7/2G4/2g3W/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";
    let pagan = Position::from_fen(fen).unwrap();
    let took_pagan = play(&pagan, "c9c10");
    assert!(
        took_pagan.at(index(1, 4)).is_some(),
        "the black Pagan is dead"
    );
    assert_eq!(took_pagan.reversible_plies(), u32::MAX);
    let fen = "k6/7/2G4/2w3W/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";
    let took_wazir = play(&Position::from_fen(fen).unwrap(), "c9c10");
    assert_eq!(took_wazir.reversible_plies(), 0);
}

#[test]
fn start_round_trips() {
    assert_eq!(Position::start().fen(), START_FEN);
}

#[test]
fn a_live_king_needs_two_capturers() {
    // Black has only a live king on a11. White: K g7, G d9, a dead W f2: two units toward a
    // mate, but only the Pagan can capture the king, and a lone Pagan never does (it captures
    // by withdrawing from next to the king, which takes it first).
    let one = Position::from_fen("k6/7/3G3/7/6K/*******/*******/*5*/*5*/*4W*/*5* w - - 0 1");
    let one = one.unwrap();
    assert!(!one.can_win(Side::White));
    assert!(!one.can_win(Side::Black), "a bare king never wins");
    // A second Pagan guards the first: the king can be captured, then mated.
    let two = Position::from_fen("k6/7/3G3/3G3/6K/*******/*******/*5*/*5*/*4W*/*5* w - - 0 1");
    assert!(two.unwrap().can_win(Side::White));
    // The same lone Pagan against a dead king needs no capture: it and the dead Wazir can
    // mate.
    let dead = Position::from_fen("7/7/3G3/7/6K/*******/*******/*k4*/*5*/*4W*/*5* w - - 0 1");
    assert!(dead.unwrap().can_win(Side::White));
}

#[test]
fn a_king_and_pagan_each_is_drawn_for_both() {
    // How 12 of the 18 capped self-play games ended (protocol-docs/variants/pagan.md, "What
    // self-play shows"): each side a live king and one Pagan, the rest dead. Each side has
    // mating units (its Pagan, its dead pieces) but one capturer only, its Pagan, and a
    // lone Pagan never captures a king that takes care: neither side can win.
    let fen = "k6/7/2g1G2/7/6K/*******/*******/*a3A*/*p3P*/*5*/*5* w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert!(pos.mating_force(Side::White) >= 2 && pos.mating_force(Side::Black) >= 2);
    assert!(!pos.can_win(Side::White));
    assert!(!pos.can_win(Side::Black));
    // A second Pagan (a promoted pawn, here on the dead board: it comes back) is a second
    // capturer: that side can win again.
    let fen = "k6/7/2g1G2/7/6K/*******/*******/*a3A*/*p3G*/*5*/*5* w - - 0 1";
    assert!(Position::from_fen(fen).unwrap().can_win(Side::White));
}

#[test]
fn a_pawn_that_cannot_promote_is_no_unit_nor_capturer() {
    // A pawn steps along its rank, and White's rank 7 ends on a7, no promotion square: White's
    // pawn c7 never becomes a Pagan, and it captures only on c8 (or c6, a hole). With its
    // lone Pagan White cannot capture the live king a11 (the self-play ending the landed
    // build scored +1,100: G and a pawn on b7 against a bare king).
    let stuck = Position::from_fen("k6/7/3G2K/7/2P4/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let stuck = stuck.unwrap();
    assert_eq!(stuck.mating_force(Side::White), 1);
    assert!(!stuck.can_win(Side::White));
    // The same pawn on c9 promotes on a9: two units and two capturers.
    let free = Position::from_fen("k6/7/2PG2K/7/7/*******/*******/*5*/*5*/*5*/*5* w - - 0 1");
    let free = free.unwrap();
    assert_eq!(free.mating_force(Side::White), 2);
    assert!(free.can_win(Side::White));
    // Black's rank 11 ends on g11, no promotion square for Black either; a dead pawn is a
    // unit wherever it stands (it plays on the dead board).
    let black = Position::from_fen("k1p4/7/6K/7/7/*******/*******/*p4*/*5*/*5*/*5* b - - 0 1");
    assert_eq!(black.unwrap().mating_force(Side::Black), 1);
}

#[test]
fn the_square_a_slide_withdraws_from_is_the_step_against_its_direction() {
    use super::tables::{NO, PAGAN_BEHIND, PAGAN_STEP};
    // The direction found by following the step table, as the move's first step.
    let mut slides = 0;
    for from in 0..SQUARES {
        for to in 0..SQUARES as u8 {
            let d = (0..8).find(|&d| {
                let one = PAGAN_STEP[from][d];
                one == to || (one != NO && PAGAN_STEP[usize::from(one)][d] == to)
            });
            let expected = d.map_or(NO, |d| PAGAN_STEP[from][7 - d]);
            assert_eq!(
                PAGAN_BEHIND[from][usize::from(to)],
                expected,
                "{from} to {to}"
            );
            slides += usize::from(d.is_some());
        }
    }
    // Every square's slides of one and two, across the bridge too.
    assert!(slides >= 600, "{slides} slides");
}
