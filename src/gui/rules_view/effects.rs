//! What a turn did, in words: read from the rules' boards before and after it, so that the
//! page's account of how a turn resolved (captures, collisions and withdrawals,
//! reincarnations and redeploys, promotions, pieces lost where they landed) is the rules' own.

use super::Position;
use crate::geometry::Square;
use crate::notation::{Leg, WireMove};
use crate::variant::Variant;

impl Position {
    /// What a turn did beyond its legs, read from the boards before and after it: pieces that
    /// left the board where no leg started (captures, collisions, withdrawals), pieces that
    /// appeared where no leg ended (reincarnations, redeploys), pieces that changed letter
    /// (promotions).
    pub(crate) fn effects(&self, after: &Position, moves: &[&WireMove]) -> Vec<String> {
        let mut out = self.square_changes(after, moves);
        for mv in moves {
            if let WireMove::Legs { legs, .. } = mv {
                out.extend(self.leg_fates(after, legs));
            }
        }
        out
    }

    /// A piece in words: "White's wazir".
    fn piece_name(&self, c: char) -> String {
        let colour = if c.is_ascii_uppercase() {
            "White's"
        } else {
            "Black's"
        };
        let n = self
            .variant()
            .piece_names()
            .iter()
            .find(|(l, _)| *l == c.to_ascii_uppercase())
            .map_or("piece", |(_, n)| n);
        format!("{colour} {n}")
    }

    /// A square in words, with the board it is on in Pagan's frame.
    fn square_name(&self, sq: Square) -> String {
        if self.variant() == Variant::Pagan && sq.rank < 7 {
            format!("{sq} (dead board)")
        } else {
            sq.to_string()
        }
    }

    /// The changes square by square that the legs of `moves` do not explain.
    fn square_changes(&self, after: &Position, moves: &[&WireMove]) -> Vec<String> {
        let legs: Vec<(Square, Square)> = moves
            .iter()
            .filter_map(|mv| match mv {
                WireMove::Legs { legs, .. } => Some(legs.iter().map(|l| (l.from, l.to))),
                WireMove::Pass | WireMove::Drop { .. } => None,
            })
            .flatten()
            .collect();
        let g = self.0.geometry();
        let mut out = Vec::new();
        for index in (0..g.size()).filter(|&i| !g.is_hole_index(i)) {
            let sq = g.square(index);
            let at = self.square_name(sq);
            let started = legs.iter().any(|l| l.0 == sq);
            let ended = legs.iter().any(|l| l.1 == sq);
            match (self.0.piece_at(sq), after.0.piece_at(sq)) {
                (Some(a), None) if !started => {
                    out.push(format!("{} on {at} is gone", self.piece_name(a)));
                }
                (Some(a), Some(b)) if a != b && !ended => {
                    out.push(format!("{} on {at} is gone", self.piece_name(a)));
                    out.push(format!("{} is now on {at}", self.piece_name(b)));
                }
                (None, Some(b)) if !ended => {
                    out.push(format!("{} appears on {at}", self.piece_name(b)));
                }
                (None | Some(_), Some(b)) => {
                    // A leg landed here: was it the piece that moved, or something else?
                    let moved = legs
                        .iter()
                        .filter(|l| l.1 == sq)
                        .find_map(|l| self.0.piece_at(l.0));
                    if let Some(m) = moved
                        && m != b
                        && m.is_ascii_uppercase() == b.is_ascii_uppercase()
                    {
                        out.push(format!("promotion on {at}: {}", self.piece_name(b)));
                    }
                }
                // A leg started here (did the piece survive? see `leg_fates`), or nothing.
                (Some(_) | None, None) => {}
            }
        }
        out
    }

    /// The fate of each leg's piece: redeployed (classic Apocalypse), or lost where it landed.
    fn leg_fates(&self, after: &Position, legs: &[Leg]) -> Vec<String> {
        let mut out = Vec::new();
        // A leg from an empty square carries on the previous leg's piece (a redeploy).
        let mut piece = None;
        for (k, l) in legs.iter().enumerate() {
            piece = self.0.piece_at(l.from).or(piece);
            if legs[k + 1..].iter().any(|m| m.from == l.to) {
                if self.variant() == Variant::ApocalypseClassic
                    && let Some(p) = piece
                {
                    out.push(format!(
                        "{} reached the far rank on {} with two horsemen: redeployed to {}",
                        self.piece_name(p),
                        l.to,
                        legs[k + 1].to
                    ));
                }
                continue; // the piece went on, or the piece it landed on was placed
            }
            if let Some(p) = piece
                && after.0.piece_at(l.to).is_none()
                && after.0.piece_at(l.from) != Some(p)
            {
                out.push(format!(
                    "{} from {} did not survive on {}",
                    self.piece_name(p),
                    l.from,
                    l.to
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pagan_withdrawal_shows_the_reincarnation() {
        let fen = "k6/3w3/3Gp2/7/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";
        let before = Position::new(Variant::Pagan, Some(fen)).unwrap();
        let mv = Position::parse("d9b9").unwrap();
        let mut after = before.clone();
        after.play_single(&mv).unwrap();
        let effects = before.effects(&after, &[&mv]).join("; ");
        // protocol-docs/variants/pagan.md: the pawn on e9 is captured and goes to b4.
        assert!(effects.contains("Black's pawn on e9 is gone"), "{effects}");
        assert!(
            effects.contains("Black's pawn appears on b4 (dead board)"),
            "{effects}"
        );
    }

    #[test]
    fn a_classic_redeploy_is_told_and_not_taken_for_a_loss() {
        // rules.md §1, 4: with two horsemen, d4-d5 must name a redeploy square.
        let before = Position::new(Variant::ApocalypseClassic, Some("5/3Pp/5/P1n2/N3N")).unwrap();
        let w = Position::parse("d4d5,d5b3").unwrap();
        let b = Position::parse("e4e3").unwrap();
        let mut after = before.clone();
        after.play_joint(&w, &b).unwrap();
        let effects = before.effects(&after, &[&w, &b]).join("; ");
        assert!(
            effects.contains(
                "White's footman reached the far rank on d5 with two horsemen: redeployed to b3"
            ),
            "{effects}"
        );
        assert!(!effects.contains("did not survive"), "{effects}");
    }
}
