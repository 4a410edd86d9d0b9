//! How the alternating search sees Pagan Chess: every legal move, captures (by landing or by
//! withdrawal) as the noisy ones, and an evaluation of material (live, dead, and a dead Pagan
//! that may come back), the safety of a dead king, and where a captured king would reincarnate.

use super::pagan::{Kind, Move, Piece, Position, SQUARES, bit, hunt, is_dead};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN, zobrist_keys};
use crate::variant::Side;

/// Keys: `(side * 5 + kind) * 77 + square`, then the side to move.
const KEYS: [u64; 10 * SQUARES + 1] = zobrist_keys(0x7061_6761_6e5f_6b65);
const SIDE_KEY: usize = 10 * SQUARES;

/// What moving next is worth.
const TEMPO: i32 = 10;
/// What each square of room taken from a live enemy king is worth, when its capture could
/// lead to a mate.
const NET: i32 = 10;
/// How much an edge shrinks when the side ahead has no mating force (see `evaluate`).
const DRAWISH: i32 = 8;
/// What each ply nearer a mate by two Pagans (`pagan::hunt`) is worth.
const MATE_PATH: i32 = 20;
/// What each frame rank nearer the bridge (up to rank 4) of a hunted dead king is worth.
const BRIDGE_RANK: i32 = 30;
/// What each file nearer the dead board's side files (b and f) of a hunted dead king is worth.
const SIDE_FILE: i32 = 15;

fn value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Wazir => 300,
        Kind::Alchemist => 300,
        Kind::Pagan => 550,
        Kind::Pawn => 100,
    }
}

fn kind_index(kind: Kind) -> usize {
    match kind {
        Kind::King => 0,
        Kind::Wazir => 1,
        Kind::Alchemist => 2,
        Kind::Pagan => 3,
        Kind::Pawn => 4,
    }
}

/// The worth of a piece of material on `sq`: a live pawn by how far it has stepped; a Pagan
/// nearly as much on the dead board as here (it walks back, and only there can it be taken for
/// good), as much once the enemy king is dead and has to be mated there; any other dead piece
/// plays on the dead board only.
fn worth(piece: Piece, sq: u8, hunting: bool) -> i32 {
    let v = value(piece.kind);
    match (piece.kind, is_dead(sq)) {
        (Kind::King, _) => 0,
        (Kind::Pagan, true) if hunting => v,
        (Kind::Pagan, true) => v - 50,
        (Kind::Pawn, false) => {
            let file = usize::from(sq % 7);
            v + match piece.side {
                Side::White => PAWN_ADVANCE[6 - file],
                Side::Black => PAWN_ADVANCE[file],
            }
        }
        (_, false) => v,
        (_, true) => v * 2 / 5,
    }
}

/// What taking a piece on `sq` is worth: a live piece goes to the dead board (it keeps some
/// use there; a king is exposed to mate), a dead one leaves the game.
fn victim_value(piece: Piece, sq: u8) -> i32 {
    match (piece.kind, is_dead(sq)) {
        (Kind::King, _) => 400,
        (kind, false) => value(kind) * 3 / 5,
        (kind, true) => value(kind) * 2 / 5,
    }
}

/// Chebyshev distance between two frame squares (files and frame ranks).
fn distance(a: u8, b: u8) -> i32 {
    let (fa, ra) = (i32::from(a % 7), i32::from(a / 7));
    let (fb, rb) = (i32::from(b % 7), i32::from(b / 7));
    (fa - fb).abs().max((ra - rb).abs())
}

/// Chebyshev distance for a Pagan, for which the bridge has zero width.
fn pagan_distance(a: u8, b: u8) -> i32 {
    let rank = |sq: u8| {
        let r = i32::from(sq / 7);
        if r >= 6 { r - 2 } else { r }
    };
    let (fa, fb) = (i32::from(a % 7), i32::from(b % 7));
    (fa - fb).abs().max((rank(a) - rank(b)).abs())
}

/// The bonus of a live pawn by how far it has stepped toward promotion.
const PAWN_ADVANCE: [i32; 7] = [0, 0, 8, 18, 32, 55, 55];

impl Searchable for Position {
    type Move = Move;

    fn candidates(&self, out: &mut Vec<Move>) {
        self.legal_moves(out);
    }

    fn noisy(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.bare_kings() {
            return;
        }
        self.pseudo_moves(out);
        // Once the enemy king is dead, checks are noisy too, so that quiescence sees the
        // mates (found by `over`) that end the hunt.
        let hunted = self.dead_king(self.side_to_move().opponent());
        out.retain(|&mv| {
            (self.victim(mv).is_some() || hunted.is_some_and(|_| self.checks(mv)))
                && self.is_legal(mv)
        });
    }

    fn after(&self, mv: Move) -> Position {
        self.play(mv)
    }

    fn over(&self) -> Option<i32> {
        if self.bare_kings() {
            return Some(0);
        }
        // A king in check with no way out is mated: seen here, and not only where the
        // search generates every move, so that quiescence's checks find mates.
        (self.in_check() && !self.has_legal_move()).then_some(-WIN)
    }

    fn stuck(&self) -> i32 {
        if self.in_check() { -WIN } else { 0 }
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let occ = self.occupancy();
        let mut kings = [None; 2];
        // Every piece but the kings, by side: (square, piece).
        let mut pieces = [[(0u8, None::<Piece>); 20]; 2];
        let mut counts = [0usize; 2];
        for side in [Side::White, Side::Black] {
            let s = side.index();
            let king = self.pieces(side, Kind::King);
            kings[s] = (king != 0).then(|| king.trailing_zeros() as u8);
            for kind in [Kind::Wazir, Kind::Alchemist, Kind::Pagan, Kind::Pawn] {
                let mut b = self.pieces(side, kind);
                while b != 0 && counts[s] < 20 {
                    let sq = b.trailing_zeros() as u8;
                    b &= b - 1;
                    pieces[s][counts[s]] = (sq, Some(Piece { kind, side }));
                    counts[s] += 1;
                }
            }
        }
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
        // with fewer than two (`Position::mating_force`), or with no piece that can capture a
        // live enemy king, is scored as unable to win (`Position::can_win`).
        let winnable = [self.can_win(Side::White), self.can_win(Side::Black)];
        let mut totals = [0i32; 2];
        // The squares on which each side's pieces are attacked, made when first needed.
        let mut attacks = [None::<u128>; 2];
        for side in [Side::White, Side::Black] {
            let s = side.index();
            let o = 1 - s;
            let own = &pieces[s][..counts[s]];
            // Once the enemy king is dead, the game is the mate on the dead board: Pagans
            // are as good there as here, and the moves of the live pieces matter little.
            let hunting = kings[o].filter(|&k| is_dead(k));
            let mobility_weight = if hunting.is_some() { 1 } else { 4 };
            for &(sq, p) in own {
                let Some(p) = p else { continue };
                totals[s] += worth(p, sq, hunting.is_some())
                    + mobility_weight * Position::piece_mobility(sq, p, &occ);
            }
            match (hunting, kings[o]) {
                (Some(target), _) => {
                    let map = *attacks[o].get_or_insert_with(|| self.attacks(side.opponent()));
                    totals[s] += self.hunt(side, target, own, side == me, map);
                }
                (None, Some(target)) => {
                    // Pressure on the live enemy king: pieces around it, and, when a mate
                    // could follow its capture, the net: its room on the game board.
                    for &(sq, p) in own {
                        if p.is_some_and(|p| p.kind == Kind::Pagan) {
                            totals[s] += 8 * (5 - pagan_distance(sq, target)).max(0);
                        } else if !is_dead(sq) {
                            totals[s] += 6 * (4 - distance(sq, target)).max(0);
                        }
                    }
                    if winnable[s] {
                        let map = *attacks[o].get_or_insert_with(|| self.attacks(side.opponent()));
                        totals[s] += NET * (8 - self.room(target, side.opponent(), map));
                    }
                }
                (None, None) => {}
            }
        }
        for side in [Side::White, Side::Black] {
            let s = side.index();
            let Some(king) = kings[s] else { continue };
            if !is_dead(king) {
                // Where it would reincarnate if taken (near enemy dead pieces is worse), and
                // whether it can be taken now.
                let enemy_dead = &pieces[1 - s][..counts[1 - s]];
                let danger = self.next_slot(side).map_or(0, |slot| {
                    enemy_dead
                        .iter()
                        .filter(|&&(d, _)| is_dead(d) && distance(d, slot) <= 2)
                        .count() as i32
                });
                // Only the owner to move pays for an attacked king (it must spend its move
                // on it): with the enemy to move the capture is a move that quiescence plays,
                // and a static charge for it as well made the score swing between odd and
                // even depths.
                let attacked = side == me
                    && *attacks[s].get_or_insert_with(|| self.attacks(side)) & bit(king) != 0;
                totals[s] -= 8 * danger + if attacked { 40 + 20 * danger } else { 0 };
            }
        }
        let score = totals[me.index()] - totals[me.opponent().index()] + TEMPO;
        // An edge that cannot become a mate is worth little: the side ahead keeps the force
        // it needs rather than trade it away, and the side behind trades toward a dead draw.
        let ahead = if score > 0 { me } else { me.opponent() };
        if winnable[ahead.index()] {
            score
        } else {
            score / DRAWISH
        }
    }

    fn reversible_plies(&self) -> u32 {
        Position::reversible_plies(self)
    }

    fn key(&self) -> u64 {
        let mut key = 0;
        for side in [Side::White, Side::Black] {
            for kind in [
                Kind::King,
                Kind::Wazir,
                Kind::Alchemist,
                Kind::Pagan,
                Kind::Pawn,
            ] {
                let base = (side.index() * 5 + kind_index(kind)) * SQUARES;
                let mut b = self.pieces(side, kind);
                while b != 0 {
                    key ^= KEYS[base + b.trailing_zeros() as usize];
                    b &= b - 1;
                }
            }
        }
        if self.side_to_move() == Side::Black {
            key ^= KEYS[SIDE_KEY];
        }
        key
    }

    fn code(mv: Move) -> u64 {
        u64::from(mv.from)
            | u64::from(mv.to) << 8
            | (mv.promotion.map_or(0, kind_index) as u64) << 16
    }

    fn capture_order(&self, mv: Move) -> Option<i32> {
        let (victim, sq) = self.victim(mv)?;
        let attacker = self.at(mv.from).map_or(0, |p| value(p.kind));
        Some(16 * victim_value(victim, sq) - attacker / 16)
    }

    fn history_index(&self, mv: Move) -> usize {
        usize::from(mv.from) * SQUARES + usize::from(mv.to)
    }

    fn wire(&self, mv: Move) -> WireMove {
        mv.to_wire()
    }

    fn read_wire(&self, mv: &WireMove) -> Option<Move> {
        self.parse_move(mv).ok()
    }
}

impl Position {
    /// What `side` has toward mating the enemy king, dead on `target`: the king itself dead
    /// (mate is possible at all), its Pagans near it (they cross the bridge, which has zero
    /// width for them), its dead pieces near it, and the king's few safe squares (its own
    /// pieces block them, `side` covers them, the edges and corners of the dead board have
    /// fewer) and check. Each term grows as the net closes, so the search sees progress.
    /// `attacked` is `self.attacks(side.opponent())`, the squares `side` attacks.
    fn hunt(
        &self,
        side: Side,
        target: u8,
        own: &[(u8, Option<Piece>)],
        to_move: bool,
        attacked: u128,
    ) -> i32 {
        let mut score = 250;
        // Two Pagans near the king: how far the mate is when nothing else interferes, from
        // the solved table (`pagan::hunt`), a guide through hunts longer than the horizon.
        let mut pagans = self.pieces(side, Kind::Pagan);
        let mut nearest = None::<u8>;
        while pagans != 0 {
            let a = pagans.trailing_zeros() as u8;
            pagans &= pagans - 1;
            let mut rest = pagans;
            while rest != 0 {
                let b = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                if let Some(plies) = hunt::plies_to_mate(target, a, b, to_move) {
                    nearest = Some(nearest.map_or(plies, |n| n.min(plies)));
                }
            }
        }
        if let Some(plies) = nearest {
            score += MATE_PATH * (24 - i32::from(plies)).max(0);
        }
        for &(sq, p) in own {
            let Some(p) = p else { continue };
            if p.kind == Kind::Pagan {
                score += 24 * (9 - pagan_distance(sq, target)).max(0);
            } else if is_dead(sq) {
                score += 12 * (5 - distance(sq, target)).max(0);
            }
        }
        // Mates happen next to the bridge, where a live Pagan on rank 7 reaches the king's
        // rank 4 from across it (G c7 with a dead G c2 mates k b4), best in a corner of the
        // dead board; the king is driven there rank by rank.
        let (rank, file) = (i32::from(target / 7), i32::from(target % 7));
        score += BRIDGE_RANK * rank + SIDE_FILE * (file - 3).abs();
        let them = side.opponent();
        score += 30 * (8 - self.room(target, them, attacked));
        if attacked & bit(target) != 0 {
            score += 40;
        }
        score
    }

    /// The squares `owner`'s king on `king` can step to without being attacked there (its
    /// own pieces and a king block it; corners and edges have fewer): how much room it has.
    /// `attacked` is `self.attacks(owner)`.
    fn room(&self, king: u8, owner: Side, attacked: u128) -> i32 {
        let kings = self.pieces(Side::White, Kind::King) | self.pieces(Side::Black, Kind::King);
        let blocked = self.occupancy().side[owner.index()] | kings | attacked;
        (Position::king_reach(king) & !blocked).count_ones() as i32
    }

    /// Whether a move of the side to move attacks the enemy king on the dead board.
    fn checks(&self, mv: Move) -> bool {
        let them = self.side_to_move().opponent();
        let next = self.play(mv);
        next.dead_king(them)
            .is_some_and(|king| next.attacked(king, them))
    }

    /// The piece a move captures (by landing or by withdrawal) and its square.
    fn victim(&self, mv: Move) -> Option<(Piece, u8)> {
        if let Some(p) = self.at(mv.to) {
            return Some((p, mv.to));
        }
        let sq = self.withdrawal_victim(mv)?;
        Some((self.at(sq)?, sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::search::{Limits, TransTable, search};
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
}
