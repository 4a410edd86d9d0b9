//! Tests of the Apocalypse rules.

use super::*;
use crate::notation::parse_move;

fn judge(p: &Position, side: Side, text: &str) -> Judgement {
    p.judge(side, &parse_move(text).unwrap()).unwrap()
}

#[test]
fn start_has_nine_moves_each() {
    let p = Position::start(Rules::Seed);
    let mut moves = Vec::new();
    p.legal_moves(Side::White, &mut moves);
    assert_eq!(moves.len(), 9);
    p.legal_moves(Side::Black, &mut moves);
    assert_eq!(moves.len(), 9);
    assert_eq!(p.fen(), START_FEN);
}

#[test]
fn judging_names_the_fault() {
    let p = Position::start(Rules::Seed);
    assert_eq!(judge(&p, Side::White, "z9a1"), Err(Illegal::OffBoard));
    assert_eq!(judge(&p, Side::White, "c3c4"), Err(Illegal::NotYourPiece));
    assert_eq!(judge(&p, Side::White, "a4a3"), Err(Illegal::NotYourPiece));
    assert_eq!(judge(&p, Side::White, "b1c2"), Err(Illegal::CannotMove));
    assert_eq!(judge(&p, Side::White, "0000"), Err(Illegal::BadPass));
    assert!(judge(&p, Side::White, "a1b3").is_ok());
    assert!(
        p.judge(Side::White, &parse_move("a1b3,b3c5,c5d3").unwrap())
            .is_err()
    );
}

/// `has_move` (the end test's shortcut) agrees with the generator, on every position
/// of lone footmen facing up to two horsemen each (both rule sets, the classic far-rank
/// rule included) and on positions of random play.
#[test]
fn has_move_agrees_with_the_generator() {
    let mut moves = Vec::new();
    let mut check = |p: &Position| {
        for side in [Side::White, Side::Black] {
            moves.clear();
            p.generate(side.index(), &mut moves);
            assert_eq!(p.has_move(side), !moves.is_empty(), "{} {side:?}", p.fen());
        }
    };
    for rules in [Rules::Seed, Rules::Classic] {
        for wf in 5..20 {
            for bf in 5..20 {
                for wh in [0u32, 1 << 3, 1 << 7 | 1 << 18] {
                    for bh in [0u32, 1 << 21, 1 << 2 | 1 << 12] {
                        let taken = 1u32 << wf | 1 << bf;
                        if wf == bf || (wh | bh) & taken != 0 || wh & bh != 0 {
                            continue;
                        }
                        let (wf, bf) = (1 << wf, 1 << bf);
                        check(&Position::from_parts(rules, [wf, bf], [wh, bh], [0, 0]));
                    }
                }
            }
        }
        let mut p = Position::start(rules);
        let mut x = 0x2545_f491u32;
        for _ in 0..2000 {
            check(&p);
            if p.end().is_some() {
                p = Position::start(rules);
                continue;
            }
            let mut pick = |side: Side| {
                let mut m = Vec::new();
                p.legal_moves(side, &mut m);
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                m[(x >> 8) as usize % m.len()]
            };
            let (w, b) = (pick(Side::White), pick(Side::Black));
            p = p.resolve(Ok(w), Ok(b));
        }
    }
}

/// The search's fast path (`play`) gives the full resolution's position on every pair of
/// legal moves, over positions of random play under both rule sets (redeploys, promotions,
/// captures, escapes and collisions included).
/// Each side's pieces after the turn `w`, `b` from the two moves on their own ([`Solo`]) are
/// those of `next`, and the moves' own pieces when the other move leaves them untouched.
fn solo_agrees(p: &Position, (w, b): (Move, Move), next: &Position) {
    let (Some(sw), Some(sb)) = (p.solo(0, w), p.solo(1, b)) else {
        return;
    };
    for (s, own, other) in [(0, sw, sb), (1, sb, sw)] {
        let men = [next.footmen[s], next.horsemen[s]];
        assert_eq!(own.after(&other), men, "{} {w} {b} side {s}", p.fen());
        if own.untouched_by(&other) {
            let alone = [0, 1].map(|k| own.rest[k] | own.landed[k]);
            assert_eq!(alone, men, "{} {w} {b} side {s}", p.fen());
        }
    }
}

#[test]
fn play_agrees_with_the_full_resolution() {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    let mut pairs = 0u32;
    for rules in [Rules::Seed, Rules::Classic] {
        let mut p = Position::start(rules);
        let mut x = 0x9e37_79b9u32;
        for _ in 0..3000 {
            if p.end().is_some() {
                p = Position::start(rules);
                continue;
            }
            p.legal_moves(Side::White, &mut white);
            p.legal_moves(Side::Black, &mut black);
            for &w in &white {
                for &b in &black {
                    let next = p.resolve(Ok(w), Ok(b));
                    assert_eq!(p.play(w, b), next, "{} {w} {b}", p.fen());
                    solo_agrees(&p, (w, b), &next);
                    pairs += 1;
                }
            }
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let w = white[(x >> 8) as usize % white.len()];
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let b = black[(x >> 8) as usize % black.len()];
            p = p.resolve(Ok(w), Ok(b));
        }
    }
    assert!(pairs > 100_000, "only {pairs} pairs checked");
}
