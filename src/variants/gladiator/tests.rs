//! Tests of Gladiator and Brawl positions, turns and keys.

use super::reach::KNIGHT_STEPS;
use super::*;
use crate::notation::parse_move;

#[test]
fn start_round_trips() {
    let p = Position::start(Rules::Gladiator);
    assert_eq!(p.fen(), START_FEN);
    assert!(p.end().is_none());
}

/// The rules of the `game`-th random game of a test: Gladiator and Brawl in turn.
fn rules_of_game(game: u32) -> Rules {
    if game.is_multiple_of(2) {
        Rules::Gladiator
    } else {
        Rules::Brawl
    }
}

#[test]
fn the_incremental_key_equals_the_key_from_scratch_over_random_games() {
    let mut rng = crate::rng::Rng::new(0x6b65_7973);
    let (mut placements, mut checked, mut ahead) = (0, 0, 0);
    for game in 0..40 {
        let rules = rules_of_game(game);
        let mut pos = Position::start(rules);
        for _ in 0..120 {
            if pos.end().is_some() {
                break;
            }
            let turns = pos.turns();
            let turn = turns[rng.below(turns.len() as u64) as usize];
            placements += usize::from(turn.place != NONE);
            assert_eq!(pos.key_after(turn), Some(pos.play(turn).zobrist()));
            // And for every turn the search tries whose key it can know ahead.
            let mut tried = Vec::new();
            crate::search::Searchable::all_candidates(&pos, &mut tried);
            for t in tried {
                if let Some(key) = pos.key_after(t) {
                    let after = crate::search::Searchable::after(&pos, t);
                    assert_eq!(key, after.zobrist(), "{} {t:?}", pos.fen());
                    ahead += 1;
                }
            }
            pos = pos.play(turn);
            assert_eq!(pos.zobrist(), pos.zobrist_from_scratch(), "{}", pos.fen());
            // And the FEN's own key agrees (the parser computes it from scratch).
            let fen = Position::from_fen(rules, &pos.fen()).unwrap();
            assert_eq!(fen.zobrist(), pos.zobrist());
            checked += 1;
        }
    }
    assert!(
        checked > 1000 && placements > 10 && ahead > 10 * checked,
        "{checked} positions, {placements} placements, {ahead} keys ahead"
    );
}

/// The squares a piece reaches, walked step by step on (file, rank) pairs: the reference
/// the bitboard lookups are checked against.
fn walked(kind: Kind, sq: u8, occupied: u64) -> u64 {
    let diagonal = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
    let straight = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let (steps, slides): (Vec<(i8, i8)>, bool) = match kind {
        Kind::Pawn => (vec![], false),
        Kind::Knight => (KNIGHT_STEPS.to_vec(), false),
        Kind::King => ([diagonal, straight].concat(), false),
        Kind::Bishop => (diagonal.to_vec(), true),
        Kind::Rook => (straight.to_vec(), true),
        Kind::Queen => ([diagonal, straight].concat(), true),
    };
    let mut out = 0;
    for (df, dr) in steps {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let b = 1u64 << (r * 8 + f);
            out |= b;
            if !slides || occupied & b != 0 {
                break;
            }
        }
    }
    out
}

/// Every occupancy of the squares a slider's lines cross (all the others change nothing),
/// from every square: the table lookups are right for every board, not only for a sample.
#[test]
fn every_slider_reach_matches_the_walk_on_every_occupancy_of_its_lines() {
    for sq in 0..64u8 {
        for kind in [Kind::Bishop, Kind::Rook] {
            let lines = walked(kind, sq, 0);
            // Every subset of `lines` (Carry-Rippler enumeration), the empty one last.
            let mut occupied = lines;
            loop {
                assert_eq!(
                    reach(kind, sq, occupied),
                    walked(kind, sq, occupied),
                    "{kind:?} on {sq}, occupied {occupied:#x}"
                );
                // The same, with every square off the lines occupied too.
                let full = occupied | !lines;
                assert_eq!(reach(kind, sq, full), walked(kind, sq, full));
                if occupied == 0 {
                    break;
                }
                occupied = occupied.wrapping_sub(1) & lines;
            }
        }
    }
}

#[test]
fn every_reach_matches_a_step_by_step_walk() {
    let mut rng = crate::rng::Rng::new(0x7265_6163);
    for round in 0..400 {
        // Sparse to dense boards, corner and edge squares included.
        let occupied = match round % 4 {
            0 => 0,
            1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
            2 => rng.next_u64() & rng.next_u64(),
            _ => rng.next_u64(),
        };
        for sq in 0..64u8 {
            for kind in KINDS {
                assert_eq!(
                    reach(kind, sq, occupied),
                    walked(kind, sq, occupied),
                    "{kind:?} on {sq}, occupied {occupied:#x}"
                );
            }
        }
    }
    // The bare board: a rook on a1 sees its rank and file, a bishop on h8 the long diagonal.
    assert_eq!(reach(Kind::Rook, 0, 0), 0x0101_0101_0101_01fe);
    assert_eq!(reach(Kind::Bishop, 63, 0), 0x0040_2010_0804_0201);
}

/// A pawn's targets, borrowed supporter by supporter (walked step by step), against the
/// lookup by kind, over positions of random games.
#[test]
fn pawn_targets_are_the_union_of_each_powering_supporters_moves() {
    let mut rng = crate::rng::Rng::new(0x7461_7267);
    let mut checked = 0;
    for game in 0..20 {
        let rules = [Rules::Gladiator, Rules::Brawl][game % 2];
        let mut pos = Position::start(rules);
        for _ in 0..80 {
            if pos.end().is_some() {
                break;
            }
            let occupied = pos.occupied();
            for s in 0..2 {
                let mut pawns = pos.kinds[0] & pos.sides[s];
                while pawns != 0 {
                    let from = pawns.trailing_zeros() as u8;
                    pawns &= pawns - 1;
                    let mut expected = 0;
                    let diagonals = walked(Kind::Bishop, from, occupied);
                    for t in 0..64u8 {
                        if diagonals & pos.supporters(s) & bit(t) != 0 {
                            let kind = pos.kind_at(t).unwrap();
                            expected |= walked(kind, from, occupied);
                        }
                    }
                    let expected = pos.allowed_targets(s, expected);
                    assert_eq!(pos.targets_of(s, from, occupied), expected, "{}", pos.fen());
                    checked += 1;
                }
            }
            let turns = pos.turns();
            pos = pos.play(turns[rng.below(turns.len() as u64) as usize]);
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn pawns_refuse_bad_turns() {
    let p = Position::start(Rules::Gladiator);
    let t = |s: &str| p.parse_turn(&parse_move(s).unwrap());
    assert!(t("a1a2").is_err());
    assert!(t("b2b2").is_err());
}

/// The bound of the repetition scan, counted over random games: the turns since the last
/// capture of a pawn (the pawn count falls), unknown before the first one; and no position
/// further back than it ever recurs.
#[test]
fn the_reversible_turns_count_from_the_last_pawn_capture() {
    let mut rng = crate::rng::Rng::new(0x7265_7673);
    let (mut captures, mut checked) = (0, 0);
    for game in 0..40 {
        let mut pos = Position::start(rules_of_game(game));
        let mut seen = vec![pos.zobrist()];
        let mut since: Option<u32> = None;
        for _ in 0..150 {
            if pos.end().is_some() {
                break;
            }
            let pawns = |p: &Position| p.kinds[Kind::Pawn as usize].count_ones();
            let turns = pos.turns();
            let next = pos.play(turns[rng.below(turns.len() as u64) as usize]);
            since = if pawns(&next) < pawns(&pos) {
                captures += 1;
                Some(0)
            } else {
                since.map(|n| n + 1)
            };
            pos = next;
            assert_eq!(pos.reversible_plies(), since.unwrap_or(u32::MAX));
            let reach = usize::try_from(pos.reversible_plies()).unwrap_or(usize::MAX);
            let older = seen.len().saturating_sub(reach);
            assert!(!seen[..older].contains(&pos.zobrist()), "{}", pos.fen());
            seen.push(pos.zobrist());
            checked += 1;
        }
    }
    assert!(
        captures > 50 && checked > 2000,
        "{captures} captures, {checked} turns"
    );
}
