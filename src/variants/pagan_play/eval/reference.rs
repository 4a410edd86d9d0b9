//! The evaluation's walk as it was before it walked bitboards (a census of the pieces), kept
//! for one check: both walks feed the same terms on positions of random play.

use super::sink::{Counted, Signed, Sink};
use super::{Attacks, distance, pagan_distance, worth};
use crate::variant::Side;
use crate::variants::pagan::{Kind, Occupancy, Piece, Position, bit, is_dead};
use crate::variants::pagan_play::weights::{TERMS, Term, WEIGHTS};

/// Every piece of a position by side, kings apart: what the evaluation walks over.
struct Census {
    /// Each side's king, if it has one.
    kings: [Option<u8>; 2],
    /// Every piece but the kings, by side: (square, piece).
    pieces: [[(u8, Option<Piece>); 20]; 2],
    counts: [usize; 2],
}

impl Census {
    /// The pieces of the side with index `s`, its king apart.
    fn own(&self, s: usize) -> &[(u8, Option<Piece>)] {
        &self.pieces[s][..self.counts[s]]
    }
}

impl Position {
    /// Feeds `sink` the evaluation's fixed part and terms for the side to move, and returns
    /// the sides' win margins (by side index).
    fn walk_ref<S: Sink>(&self, sink: &mut S) -> [u32; 2] {
        let me = self.side_to_move();
        let census = self.census_ref();
        // Which endings can be won (as an arbiter reads protocol-docs/rules.md §3): only a
        // mate on the dead board wins, and a side's live pieces other than its Pagans never
        // act there, nor does its king until the enemy chooses to capture it. A mate needs
        // two of the mating side's units there: a lone Pagan checks only from next to the
        // king, where the king takes it, or from across the bridge, which reaches the king's
        // rank next to the bridge but never its flights one rank further (K b4: G c7 covers
        // b4 c4 d4, not b3 c3). So K+G against K is a draw, and so is K+G against K+G: the
        // king hunted by the Pagan cannot be mated, and the hunter's own king dies only if
        // the other Pagan takes it. K+P against K is a draw too (the pawn becomes one
        // Pagan). Two units win: K+G+G against K (G c7 checks b4, a dead G c2 covers b3 and
        // c3), or a Pagan and one's own dead king (dead K b2, G c7 against k b4). A side
        // with fewer than two (`Position::mating_force`), or without two pieces that can
        // capture a live enemy king, is scored as unable to win (`Position::can_win`).
        let margins = [self.win_margin(Side::White), self.win_margin(Side::Black)];
        // Whole maps (no king squares given): the reference for the maps made only around
        // the kings.
        let mut attacks = Attacks::new(self, [None; 2]);
        let occ = self.occupancy();
        sink.fixed(WEIGHTS.tempo);
        for side in [Side::White, Side::Black] {
            let sign = if side == me { 1 } else { -1 };
            let mut out = Signed {
                sink: &mut *sink,
                sign,
            };
            self.side_terms_ref(
                side,
                &census,
                margins[side.index()] >= 1,
                &occ,
                &mut attacks,
                &mut out,
            );
        }
        for side in [Side::White, Side::Black] {
            let sign = if side == me { 1 } else { -1 };
            let mut out = Signed {
                sink: &mut *sink,
                sign,
            };
            self.king_exposure_ref(side, &census, &mut attacks, &mut out);
        }
        margins
    }

    /// Each side's king and other pieces.
    fn census_ref(&self) -> Census {
        let mut census = Census {
            kings: [None; 2],
            pieces: [[(0u8, None::<Piece>); 20]; 2],
            counts: [0; 2],
        };
        for side in [Side::White, Side::Black] {
            let s = side.index();
            let king = self.pieces(side, Kind::King);
            census.kings[s] = (king != 0).then(|| king.trailing_zeros() as u8);
            for kind in [Kind::Wazir, Kind::Alchemist, Kind::Pagan, Kind::Pawn] {
                let mut b = self.pieces(side, kind);
                while b != 0 && census.counts[s] < 20 {
                    let sq = b.trailing_zeros() as u8;
                    b &= b - 1;
                    census.pieces[s][census.counts[s]] = (sq, Some(Piece { kind, side }));
                    census.counts[s] += 1;
                }
            }
        }
        census
    }

    /// What `side`'s pieces are worth (material and mobility) and what they do against the
    /// enemy king: the hunt when it is dead, the pressure and the net when it is alive.
    fn side_terms_ref<S: Sink>(
        &self,
        side: Side,
        census: &Census,
        winnable: bool,
        occ: &Occupancy,
        attacks: &mut Attacks,
        out: &mut Signed<S>,
    ) {
        let (s, o) = (side.index(), 1 - side.index());
        let own = census.own(s);
        // Once the enemy king is dead, the game is the mate on the dead board: Pagans are as
        // good there as here, and the moves of the live pieces matter little.
        let hunting = census.kings[o].filter(|&k| is_dead(k));
        let mobility = if hunting.is_some() {
            Term::MobilityHunting
        } else {
            Term::Mobility
        };
        for &(sq, p) in own {
            let Some(p) = p else { continue };
            worth(p, sq, hunting.is_some(), out);
            out.add(mobility, Position::piece_mobility(sq, p, occ));
        }
        match (hunting, census.kings[o]) {
            (Some(target), _) => {
                let map = attacks.on(side.opponent());
                let to_move = side == self.side_to_move();
                // The defender's spare move: any of its pieces that can move (a king has none).
                let spare = census
                    .own(o)
                    .iter()
                    .any(|&(sq, p)| p.is_some_and(|p| Position::piece_mobility(sq, p, occ) > 0));
                self.hunt_ref(side, target, own, (to_move, spare), map, out);
            }
            (None, Some(target)) => {
                // Pressure on the live enemy king: pieces around it, and, when a mate could
                // follow its capture, the net: its room on the game board.
                for &(sq, p) in own {
                    if p.is_some_and(|p| p.kind == Kind::Pagan) {
                        out.add(Term::PressurePagan, (5 - pagan_distance(sq, target)).max(0));
                    } else if !is_dead(sq) {
                        out.add(Term::Pressure, (4 - distance(sq, target)).max(0));
                    }
                }
                if winnable {
                    let map = attacks.on(side.opponent());
                    out.add(Term::Net, 8 - self.room(target, side.opponent(), map));
                }
            }
            (None, None) => {}
        }
    }

    /// What `side`'s own live king costs it: where it would reincarnate if taken (near enemy
    /// dead pieces is worse), and whether it can be taken now.
    fn king_exposure_ref<S: Sink>(
        &self,
        side: Side,
        census: &Census,
        attacks: &mut Attacks,
        out: &mut Signed<S>,
    ) {
        let s = side.index();
        let Some(king) = census.kings[s].filter(|&k| !is_dead(k)) else {
            return;
        };
        let enemy_dead = census.own(1 - s);
        let danger = self.next_slot(side).map_or(0, |slot| {
            enemy_dead
                .iter()
                .filter(|&&(d, _)| is_dead(d) && distance(d, slot) <= 2)
                .count() as i32
        });
        out.add(Term::Exposure, danger);
        // Only the owner to move pays for an attacked king (it must spend its move on it):
        // with the enemy to move the capture is a move that quiescence plays, and a static
        // charge for it as well made the score swing between odd and even depths.
        if side == self.side_to_move() && attacks.on(side) & bit(king) != 0 {
            out.add(Term::Attacked, 1);
            out.add(Term::AttackedExposure, danger);
        }
    }

    /// What `side` has toward mating the enemy king, dead on `target`: the king itself dead
    /// (mate is possible at all), its Pagans near it (they cross the bridge, which has zero
    /// width for them), its dead pieces near it, and the king's few safe squares (its own
    /// pieces block them, `side` covers them, the edges and corners of the dead board have
    /// fewer) and check. Each term grows as the net closes, so the search sees progress.
    /// `attacked` is `self.attacks(side.opponent())`, the squares `side` attacks.
    fn hunt_ref<S: Sink>(
        &self,
        side: Side,
        target: u8,
        own: &[(u8, Option<Piece>)],
        turn: (bool, bool),
        attacked: u128,
        out: &mut Signed<S>,
    ) {
        out.add(Term::Hunt, 1);
        // Two Pagans near the king: how far the mate is when nothing else interferes, from
        // the solved tables (`pagan::hunt`), a guide through hunts longer than the horizon:
        // the second when the defender has a piece that can move (a spare move).
        if let Some(plies) = self.nearest_mate(side, target, turn) {
            out.add(Term::MatePath, (24 - i32::from(plies)).max(0));
        }
        for &(sq, p) in own {
            let Some(p) = p else { continue };
            if p.kind == Kind::Pagan {
                out.add(Term::HuntPagan, (9 - pagan_distance(sq, target)).max(0));
            } else if is_dead(sq) {
                out.add(Term::HuntDead, (5 - distance(sq, target)).max(0));
            }
        }
        // Mates happen next to the bridge, where a live Pagan on rank 7 reaches the king's
        // rank 4 from across it (G c7 with a dead G c2 mates k b4), best in a corner of the
        // dead board; the king is driven there rank by rank.
        let (rank, file) = (i32::from(target / 7), i32::from(target % 7));
        out.add(Term::BridgeRank, rank);
        out.add(Term::SideFile, (file - 3).abs());
        out.add(
            Term::HuntRoom,
            8 - self.room(target, side.opponent(), attacked),
        );
        if attacked & bit(target) != 0 {
            out.add(Term::HuntCheck, 1);
        }
    }
}

#[test]
fn the_bitboard_walk_feeds_what_the_census_walk_fed() {
    let mut rng = crate::rng::Rng::new(23);
    let mut moves = Vec::new();
    let (mut checked, mut hunts) = (0, 0);
    for _ in 0..200 {
        let mut pos = Position::start();
        for _ in 0..300 {
            if pos.end().is_some() {
                break;
            }
            let (mut new, mut old) = (
                Counted {
                    fixed: 0,
                    terms: [0; TERMS],
                },
                Counted {
                    fixed: 0,
                    terms: [0; TERMS],
                },
            );
            let (w1, w2) = (pos.walk(&mut new), pos.walk_ref(&mut old));
            assert_eq!(
                (w1, new.fixed, new.terms),
                (w2, old.fixed, old.terms),
                "{}",
                pos.fen()
            );
            checked += 1;
            hunts += usize::from(
                pos.dead_king(Side::White)
                    .or(pos.dead_king(Side::Black))
                    .is_some(),
            );
            pos.legal_moves(&mut moves);
            pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    assert!(
        hunts > 1000,
        "{hunts} of {checked} positions with a dead king"
    );
}
