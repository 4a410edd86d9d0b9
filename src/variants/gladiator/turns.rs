//! Every legal turn of a Gladiator or Brawl position, listed or counted.

use super::*;

impl Position {
    /// Calls `visit` with every legal turn (every spelling: each pawn move with each placement
    /// and each optional supporter move).
    pub(crate) fn for_each_turn(&self, mut visit: impl FnMut(Turn)) {
        let mut supporter = Vec::new();
        let mut any_pawn = false;
        for (from, to) in self.pawn_moves() {
            any_pawn = true;
            let (after, displaced) = self.after_pawn(from, to);
            let mut emit = |pos: &Position, place: u8| {
                visit(Turn {
                    pawn: (from, to),
                    place,
                    support: (NONE, NONE),
                });
                pos.supporter_moves(&mut supporter);
                for &(sf, st) in &supporter {
                    visit(Turn {
                        pawn: (from, to),
                        place,
                        support: (sf, st),
                    });
                }
            };
            match displaced {
                None => emit(&after, NONE),
                Some(kind) => {
                    let mut vacant = !after.occupied();
                    while vacant != 0 {
                        let q = vacant.trailing_zeros() as u8;
                        vacant &= vacant - 1;
                        let mut placed = after.clone();
                        placed.place(kind, q);
                        emit(&placed, q);
                    }
                }
            }
        }
        if !any_pawn {
            for (sf, st) in self.forced_supporter_moves() {
                visit(Turn {
                    pawn: (NONE, NONE),
                    place: NONE,
                    support: (sf, st),
                });
            }
        }
    }

    /// Without a pawn move: the supporter moves that give the mover a pawn move, or all of
    /// them when none does.
    pub(crate) fn forced_supporter_moves(&self) -> Vec<(u8, u8)> {
        let mut all = Vec::new();
        self.supporter_moves(&mut all);
        let restoring: Vec<(u8, u8)> = all
            .iter()
            .copied()
            .filter(|&(f, t)| {
                let mut p = self.clone();
                p.move_piece(f, t);
                p.has_pawn_move()
            })
            .collect();
        if restoring.is_empty() { all } else { restoring }
    }

    /// Every legal turn.
    pub fn turns(&self) -> Vec<Turn> {
        let mut out = Vec::new();
        self.for_each_turn(|t| out.push(t));
        out
    }

    /// Counts the legal turns without listing them.
    pub(crate) fn count_turns(&self) -> u64 {
        let mut n = 0;
        self.for_each_turn(|_| n += 1);
        n
    }
}
