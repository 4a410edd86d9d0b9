//! How the alternating search sees Gladiator and Brawl: candidate turns with the supporter
//! move treated as a pruned sub-decision (a turn can have over a thousand spellings), and a
//! simple evaluation (material and pawn power).

use super::gladiator::{BORDER, Kind, Position, Rules, Turn, reach};
use crate::notation::WireMove;
use crate::search::{Searchable, WIN};
use crate::variant::Side;

/// Supporter moves kept per pawn move, besides making none.
const SUPPORT_CHOICES: usize = 2;
const NONE: u8 = u8::MAX;

impl Position {
    /// Sum of the pawn moves (targets) of a side's pawns.
    pub fn pawn_mobility(&self, side: Side) -> u32 {
        let mut pawns = self.pieces(side, Kind::Pawn);
        let mut total = 0;
        while pawns != 0 {
            total += self.pawn_targets(pawns.trailing_zeros() as u8).count_ones();
            pawns &= pawns - 1;
        }
        total
    }

    /// Squares from which a supporter would power one of `side`'s pawns: the first empty-run
    /// end of each diagonal from each pawn.
    fn powering_squares(&self, side: Side) -> u64 {
        let occupied = self.side_pieces(Side::White) | self.side_pieces(Side::Black);
        let mut pawns = self.pieces(side, Kind::Pawn);
        let mut out = 0;
        while pawns != 0 {
            let from = pawns.trailing_zeros() as i8;
            pawns &= pawns - 1;
            for (df, dr) in [(1i8, 1i8), (-1, 1), (-1, -1), (1, -1)] {
                let (mut f, mut r) = (from % 8 + df, from / 8 + dr);
                while (0..8).contains(&f) && (0..8).contains(&r) {
                    let sq = (r * 8 + f) as u64;
                    out |= 1 << sq;
                    if occupied >> sq & 1 == 1 {
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        out & !occupied
    }
}

impl Searchable for Position {
    type Move = Turn;

    fn candidates(&self, out: &mut Vec<Turn>) {
        out.clear();
        let me = self.side_to_move();
        let s = me.index();
        for (from, to) in self.pawn_moves() {
            let (mut after, displaced) = self.after_pawn(from, to);
            let mut place = NONE;
            if let Some(kind) = displaced {
                place = best_placement(&after, kind);
                after.place(kind, place);
            }
            let base = Turn {
                pawn: (from, to),
                place,
                support: (NONE, NONE),
            };
            out.push(base);
            self.best_supports(&after, s, base, out);
        }
        if out.is_empty() {
            out.extend(
                self.forced_supporter_moves()
                    .into_iter()
                    .map(|support| Turn {
                        pawn: (NONE, NONE),
                        place: NONE,
                        support,
                    }),
            );
        }
        // Captures first: they end games and shrink trees.
        out.sort_by_key(|t| std::cmp::Reverse(self.captures(*t)));
    }

    fn after(&self, mv: Turn) -> Position {
        self.play(mv)
    }

    fn terminal(&self) -> Option<i32> {
        self.end().map(|end| match end {
            super::gladiator::End::Win(side, _) if side == self.side_to_move() => WIN,
            super::gladiator::End::Win(..) => -WIN,
            super::gladiator::End::Draw(_) => 0,
        })
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let them = me.opponent();
        let pawns = |s| self.pieces(s, Kind::Pawn).count_ones() as i32;
        100 * (pawns(me) - pawns(them))
            + 4 * (self.pawn_mobility(me) as i32 - self.pawn_mobility(them) as i32)
    }

    fn wire(&self, mv: Turn) -> WireMove {
        mv.to_wire()
    }

    fn read_wire(&self, mv: &WireMove) -> Option<Turn> {
        self.parse_turn(mv).ok()
    }
}

impl Position {
    /// 1 when the turn's pawn takes an enemy pawn.
    fn captures(&self, turn: Turn) -> u8 {
        let them = self.side_to_move().opponent();
        u8::from(turn.moves_pawn() && self.pieces(them, Kind::Pawn) >> turn.pawn.1 & 1 == 1)
    }
}

impl Position {
    /// Adds the few most promising supporter moves after the pawn part `base` (position
    /// `after`): a supporter that lands where it powers one of our pawns, scored by the moves
    /// that pawn then gains.
    fn best_supports(&self, after: &Position, s: usize, base: Turn, out: &mut Vec<Turn>) {
        let me = self.side_to_move();
        let occupied = after.occupied();
        let mut landing = after.powering_squares(me);
        if self.rules() == Rules::Gladiator {
            landing &= BORDER;
        }
        if landing == 0 {
            return;
        }
        let mut best: Vec<(u32, Turn)> = Vec::new();
        let mut sup = after.supporters(s);
        while sup != 0 {
            let sf = sup.trailing_zeros() as u8;
            sup &= sup - 1;
            let kind = after.kind_at(sf).expect("a supporter");
            let mut dest = match self.rules() {
                Rules::Gladiator => landing,
                Rules::Brawl => reach(kind, sf, occupied) & !occupied & landing,
            };
            while dest != 0 {
                let st = dest.trailing_zeros() as u8;
                dest &= dest - 1;
                // The pawns this square powers gain the moves of `kind` from their squares.
                let gain = powered_pawns(after, me, st)
                    .map(|p| (reach(kind, p, occupied) & !after.side_pieces(me)).count_ones())
                    .sum();
                best.push((
                    gain,
                    Turn {
                        support: (sf, st),
                        ..base
                    },
                ));
            }
        }
        best.sort_by_key(|(gain, _)| std::cmp::Reverse(*gain));
        out.extend(best.iter().take(SUPPORT_CHOICES).map(|(_, t)| *t));
    }
}

/// The pawns of `side` that a supporter on `sq` would see along a clear diagonal.
fn powered_pawns(pos: &Position, side: Side, sq: u8) -> impl Iterator<Item = u8> + '_ {
    let occupied = pos.occupied();
    let pawns = pos.pieces(side, Kind::Pawn);
    [(1i8, 1i8), (-1, 1), (-1, -1), (1, -1)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let t = (r * 8 + f) as u8;
                if occupied >> t & 1 == 1 {
                    return (pawns >> t & 1 == 1).then_some(t);
                }
                f += df;
                r += dr;
            }
            None
        })
}

/// Where to put an enemy supporter a pawn landed on (Brawl): the vacant square that leaves
/// the enemy the fewest pawn moves.
fn best_placement(after: &Position, kind: Kind) -> u8 {
    let them = after.side_to_move().opponent();
    let mut vacant = !after.occupied();
    let mut best = (u32::MAX, NONE);
    while vacant != 0 {
        let q = vacant.trailing_zeros() as u8;
        vacant &= vacant - 1;
        let mut placed = after.clone();
        placed.place(kind, q);
        let mobility = placed.pawn_mobility(them);
        if mobility < best.0 {
            best = (mobility, q);
        }
    }
    best.1
}
