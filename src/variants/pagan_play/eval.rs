//! The Pagan evaluation: material (live, dead, and a dead Pagan that may come back), mobility,
//! pressure on a live enemy king, the hunt of a dead one toward the bridge (guided by the exact
//! two-Pagan table), the exposure of one's own live king, and which endings can be won.
//!
//! It is a fixed part plus terms times [`Weights`] (which `quill tune` fits), divided by
//! [`DRAWISH`] where the side ahead cannot win and by [`THIN`] where it has no unit to spare:
//! one walk over the position ([`Position::walk`]) feeds either a sum under weights (the
//! search's score) or a count per term ([`Position::eval_terms`], the tuner's view).

#[cfg(test)]
mod reference;
mod sink;

pub use sink::EvalTerms;
use sink::{Counted, Signed, Sink, Weighed};

use super::weights::{TERMS, Term, WEIGHTS, Weights};
use crate::variant::Side;
use crate::variants::pagan::{
    DEAD_SQUARES, Kind, Occupancy, Piece, Position, SQUARES, bit, hunt, is_dead,
};

/// How much an edge shrinks when the side ahead has no mating force (see `Position::score`):
/// a fixed factor, not a weight.
pub const DRAWISH: i32 = 8;
/// How much an edge shrinks when the side ahead has just enough force to win (one unit or
/// capturer fewer and it could not: `Position::win_margin` 1), so that it keeps a spare
/// rather than trade it: a fixed factor, not a weight. Measured by conversions (20,000 nodes
/// a move against 2,000, 160 games; protocol-docs/variants/pagan.md): mates 68 without it,
/// 74 with 2, 78 with 3.
pub const THIN: i32 = 3;
/// The landed weights as a list, which the search's score reads.
const LANDED: [i32; TERMS] = WEIGHTS.to_array();

/// What a piece is worth to move ordering (captures first of the most valuable victims).
pub(super) fn value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Wazir => 300,
        Kind::Alchemist => 300,
        Kind::Pagan => 550,
        Kind::Pawn => 100,
    }
}

/// The terms of a piece of material on `sq` (kings apart): a live pawn by how far it has
/// stepped; a Pagan nearly as much on the dead board as here (it walks back, and only there can
/// it be taken for good), as much once the enemy king is dead and has to be mated there; any
/// other dead piece plays on the dead board only.
#[inline(always)]
fn worth<S: Sink>(piece: Piece, sq: u8, hunting: bool, out: &mut Signed<S>) {
    match (piece.kind, is_dead(sq)) {
        (Kind::King, _) => {}
        (Kind::Pagan, dead) => {
            out.add(Term::Pagan, 1);
            if dead && !hunting {
                out.add(Term::DeadPagan, 1);
            }
        }
        (Kind::Pawn, false) => {
            out.fixed(100);
            let file = usize::from(FILE[usize::from(sq)]);
            let stepped = match piece.side {
                Side::White => 6 - file,
                Side::Black => file,
            };
            if stepped >= 2 {
                out.add(Term::Advance(stepped as u8 - 2), 1);
            }
        }
        (Kind::Wazir, false) => out.add(Term::Wazir, 1),
        (Kind::Alchemist, false) => out.add(Term::Alchemist, 1),
        (Kind::Wazir, true) => out.add(Term::DeadWazir, 1),
        (Kind::Alchemist, true) => out.add(Term::DeadAlchemist, 1),
        (Kind::Pawn, true) => out.add(Term::DeadPawn, 1),
    }
}

/// What taking a piece on `sq` is worth to move ordering: a live piece goes to the dead board
/// (it keeps some use there; a king is exposed to mate), a dead one leaves the game.
pub(super) fn victim_value(piece: Piece, sq: u8) -> i32 {
    match (piece.kind, is_dead(sq)) {
        (Kind::King, _) => 400,
        (kind, false) => value(kind) * 3 / 5,
        (kind, true) => value(kind) * 2 / 5,
    }
}

/// Chebyshev distances between frame squares (files and frame ranks), by a table: the
/// division by the frame's width was a tenth of the evaluation's cost.
const fn distance_table(pagan: bool) -> [[u8; SQUARES]; SQUARES] {
    // For a Pagan the bridge has zero width: frame ranks 7 and up count two fewer.
    const fn rank(sq: usize, pagan: bool) -> i32 {
        let r = (sq / 7) as i32;
        if pagan && r >= 6 { r - 2 } else { r }
    }
    let mut table = [[0u8; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut b = 0;
        while b < SQUARES {
            let files = ((a % 7) as i32 - (b % 7) as i32).abs();
            let ranks = (rank(a, pagan) - rank(b, pagan)).abs();
            table[a][b] = if files > ranks { files } else { ranks } as u8;
            b += 1;
        }
        a += 1;
    }
    table
}

/// The file (0 for a) of each frame square, by a table as the distances are.
const FILE: [u8; SQUARES] = {
    let mut files = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        files[sq] = (sq % 7) as u8;
        sq += 1;
    }
    files
};

const DISTANCE: [[u8; SQUARES]; SQUARES] = distance_table(false);
const PAGAN_DISTANCE: [[u8; SQUARES]; SQUARES] = distance_table(true);

/// Chebyshev distance between two frame squares (files and frame ranks).
#[inline(always)]
fn distance(a: u8, b: u8) -> i32 {
    i32::from(DISTANCE[usize::from(a)][usize::from(b)])
}

/// Chebyshev distance for a Pagan, for which the bridge has zero width.
#[inline(always)]
fn pagan_distance(a: u8, b: u8) -> i32 {
    i32::from(PAGAN_DISTANCE[usize::from(a)][usize::from(b)])
}

/// The pieces but the kings, by kind: what the evaluation walks over.
const NOT_KINGS: [Kind; 4] = [Kind::Wazir, Kind::Alchemist, Kind::Pagan, Kind::Pawn];

/// Each side's king square, if it has one (by side index).
type Kings = [Option<u8>; 2];

/// The squares of a bitboard, lowest first.
#[inline(always)]
fn squares(mut b: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let sq = b.trailing_zeros() as u8;
            b &= b - 1;
            sq
        })
    })
}

/// The squares on which each side's pieces are attacked, each made when first needed: only
/// around that side's king, the one place the evaluation asks about.
struct Attacks<'a> {
    pos: &'a Position,
    kings: Kings,
    maps: [Option<u128>; 2],
}

impl<'a> Attacks<'a> {
    fn new(pos: &'a Position, kings: Kings) -> Attacks<'a> {
        Attacks {
            pos,
            kings,
            maps: [None; 2],
        }
    }

    /// The squares on which `victim`'s pieces are attacked (`Position::attacks`), exact on
    /// its king's square and the squares around it (`Position::attacks_near`).
    #[inline(always)]
    fn on(&mut self, victim: Side) -> u128 {
        let pos = self.pos;
        let king = self.kings[victim.index()];
        *self.maps[victim.index()].get_or_insert_with(|| match king {
            Some(k) => pos.attacks_near(victim, k),
            None => pos.attacks(victim),
        })
    }
}

impl Position {
    /// The static score for the side to move (`Searchable::evaluate`), under the landed
    /// weights.
    #[inline(always)]
    pub(super) fn score(&self) -> i32 {
        self.score_with(&LANDED)
    }

    /// The static score for the side to move under weights `w` (in the order of
    /// [`Weights::to_array`]).
    #[inline(always)]
    pub(super) fn score_with(&self, w: &[i32; TERMS]) -> i32 {
        let mut sink = Weighed { w, total: 0 };
        let margins = self.walk(&mut sink);
        sink.total / self.divisor(sink.total, margins)
    }

    /// The evaluation's fixed part, terms and divisor under weights `w` (which decide, by the
    /// sign of the score, which side is ahead): `(fixed + terms · w.to_array()) / divisor`,
    /// in integers, is the score under `w` (the search's, under [`WEIGHTS`]).
    pub fn eval_terms(&self, w: &Weights) -> EvalTerms {
        let mut sink = Counted {
            fixed: 0,
            terms: [0; TERMS],
        };
        let margins = self.walk(&mut sink);
        let dot: i32 = sink
            .terms
            .iter()
            .zip(w.to_array())
            .map(|(t, w)| t * w)
            .sum();
        EvalTerms {
            fixed: sink.fixed,
            terms: sink.terms,
            divisor: self.divisor(sink.fixed + dot, margins),
        }
    }

    /// What a score `raw` (for the side to move) is divided by: an edge that cannot become a
    /// mate is worth little ([`DRAWISH`]), and one that a single lost unit would make so is
    /// worth less ([`THIN`]), so the side ahead keeps the force it needs, and a spare, rather
    /// than trade it away, and the side behind trades toward a dead draw.
    /// `margins` are the sides' [`Position::win_margin`]s (by side index).
    #[inline(always)]
    fn divisor(&self, raw: i32, margins: [u32; 2]) -> i32 {
        let me = self.side_to_move();
        let ahead = if raw > 0 { me } else { me.opponent() };
        match margins[ahead.index()] {
            0 => DRAWISH,
            1 => THIN,
            _ => 1,
        }
    }

    /// Feeds `sink` the evaluation's fixed part and terms for the side to move, and returns
    /// how far each side is from being unable to win ([`Position::win_margin`], by side
    /// index; 0: it cannot).
    #[inline(always)]
    fn walk<S: Sink>(&self, sink: &mut S) -> [u32; 2] {
        let me = self.side_to_move();
        let kings = [Side::White, Side::Black].map(|side| {
            let king = self.pieces(side, Kind::King);
            (king != 0).then(|| king.trailing_zeros() as u8)
        });
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
        let margins = [Side::White, Side::Black].map(|side| self.win_margin(side));
        let mut attacks = Attacks::new(self, kings);
        let occ = self.occupancy();
        sink.fixed(WEIGHTS.tempo);
        for side in [Side::White, Side::Black] {
            let sign = if side == me { 1 } else { -1 };
            let mut out = Signed {
                sink: &mut *sink,
                sign,
            };
            self.side_terms(
                side,
                kings,
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
            self.king_exposure(side, kings, &mut attacks, &mut out);
        }
        margins
    }

    /// What `side`'s pieces are worth (material and mobility) and what they do against the
    /// enemy king: the hunt when it is dead, the pressure and the net when it is alive.
    #[inline(always)]
    fn side_terms<S: Sink>(
        &self,
        side: Side,
        kings: Kings,
        winnable: bool,
        occ: &Occupancy,
        attacks: &mut Attacks,
        out: &mut Signed<S>,
    ) {
        let o = 1 - side.index();
        // Once the enemy king is dead, the game is the mate on the dead board: Pagans are as
        // good there as here, and the moves of the live pieces matter little.
        let hunting = kings[o].filter(|&k| is_dead(k));
        let mobility = if hunting.is_some() {
            Term::MobilityHunting
        } else {
            Term::Mobility
        };
        for kind in NOT_KINGS {
            let p = Piece { kind, side };
            let mut b = self.pieces(side, kind);
            while b != 0 {
                let sq = b.trailing_zeros() as u8;
                b &= b - 1;
                worth(p, sq, hunting.is_some(), out);
                out.add(mobility, Position::piece_mobility(sq, p, occ));
            }
        }
        let pagans = self.pieces(side, Kind::Pagan);
        let others = self.side_bits(side) & !pagans & !self.pieces(side, Kind::King);
        match (hunting, kings[o]) {
            (Some(target), _) => {
                let map = attacks.on(side.opponent());
                let to_move = side == self.side_to_move();
                let spare = self.spare_move(side.opponent(), occ);
                self.hunt(
                    side,
                    target,
                    others & DEAD_SQUARES,
                    (to_move, spare),
                    map,
                    out,
                );
            }
            (None, Some(target)) => {
                // Pressure on the live enemy king: pieces around it, and, when a mate could
                // follow its capture, the net: its room on the game board.
                for sq in squares(pagans) {
                    out.add(Term::PressurePagan, (5 - pagan_distance(sq, target)).max(0));
                }
                for sq in squares(others & !DEAD_SQUARES) {
                    out.add(Term::Pressure, (4 - distance(sq, target)).max(0));
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
    #[inline(always)]
    fn king_exposure<S: Sink>(
        &self,
        side: Side,
        kings: Kings,
        attacks: &mut Attacks,
        out: &mut Signed<S>,
    ) {
        let s = side.index();
        let Some(king) = kings[s].filter(|&k| !is_dead(k)) else {
            return;
        };
        let enemy = side.opponent();
        let enemy_dead = self.side_bits(enemy) & !self.pieces(enemy, Kind::King) & DEAD_SQUARES;
        let danger = self.next_slot(side).map_or(0, |slot| {
            squares(enemy_dead)
                .filter(|&d| distance(d, slot) <= 2)
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

    /// Whether `side` has a piece other than its king with a pseudo-legal move: a spare move
    /// that spares its king a step (the two-Pagan hunt's second table, `pagan::hunt`).
    #[inline(always)]
    fn spare_move(&self, side: Side, occ: &Occupancy) -> bool {
        NOT_KINGS.into_iter().any(|kind| {
            let piece = Piece { kind, side };
            squares(self.pieces(side, kind)).any(|sq| Position::piece_mobility(sq, piece, occ) > 0)
        })
    }

    /// The fewest plies to mate over every pair of `side`'s Pagans against a dead king on
    /// `target`, by the solved two-Pagan tables (`pagan::hunt`; `spare`: the defender has a
    /// spare move elsewhere), if any pair has a mate.
    #[inline(always)]
    fn nearest_mate(&self, side: Side, target: u8, (to_move, spare): (bool, bool)) -> Option<u8> {
        let mut pagans = self.pieces(side, Kind::Pagan);
        let mut nearest = None::<u8>;
        while pagans != 0 {
            let a = pagans.trailing_zeros() as u8;
            pagans &= pagans - 1;
            let mut rest = pagans;
            while rest != 0 {
                let b = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                if let Some(plies) = hunt::plies_to_mate(target, a, b, to_move, spare) {
                    nearest = Some(nearest.map_or(plies, |n| n.min(plies)));
                }
            }
        }
        nearest
    }

    /// What `side` has toward mating the enemy king, dead on `target`: the king itself dead
    /// (mate is possible at all), its Pagans near it (they cross the bridge, which has zero
    /// width for them), its dead pieces near it, and the king's few safe squares (its own
    /// pieces block them, `side` covers them, the edges and corners of the dead board have
    /// fewer) and check. Each term grows as the net closes, so the search sees progress.
    /// `dead` is `side`'s dead pieces but its king and Pagans; `turn`: whether `side` is to
    /// move, and whether the defender has a spare move elsewhere ([`Position::spare_move`]);
    /// `attacked` is `self.attacks(side.opponent())`, the squares `side` attacks.
    #[inline(always)]
    fn hunt<S: Sink>(
        &self,
        side: Side,
        target: u8,
        dead: u128,
        turn: (bool, bool),
        attacked: u128,
        out: &mut Signed<S>,
    ) {
        out.add(Term::Hunt, 1);
        // Two Pagans near the king: how far the mate is when nothing else interferes, from
        // the solved tables (`pagan::hunt`), a guide through hunts longer than the horizon.
        // A defender with a spare move (a piece that can move) need not step its king into
        // a withdrawal: the second table, where only a true mate wins, is asked then. Its
        // pieces themselves (a Pagan that crosses the bridge to take a hunter) are the
        // search's business.
        if let Some(plies) = self.nearest_mate(side, target, turn) {
            out.add(Term::MatePath, (24 - i32::from(plies)).max(0));
        }
        for sq in squares(self.pieces(side, Kind::Pagan)) {
            out.add(Term::HuntPagan, (9 - pagan_distance(sq, target)).max(0));
        }
        for sq in squares(dead) {
            out.add(Term::HuntDead, (5 - distance(sq, target)).max(0));
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

    /// The squares `owner`'s king on `king` can step to without being attacked there (its
    /// own pieces and a king block it; corners and edges have fewer): how much room it has.
    /// `attacked` is `self.attacks(owner)`.
    #[inline(always)]
    fn room(&self, king: u8, owner: Side, attacked: u128) -> i32 {
        let kings = self.pieces(Side::White, Kind::King) | self.pieces(Side::Black, Kind::King);
        let blocked = self.occupancy().side[owner.index()] | kings | attacked;
        (Position::king_reach(king) & !blocked).count_ones() as i32
    }
}
