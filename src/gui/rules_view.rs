//! The GUI's one view of Quill's rules. Everything the server asks the rules (the geometry, the
//! pieces, the legal moves leg by leg, playing a turn, the outcome) goes through this file, so
//! that the page never re-implements them and a change to the rules' API is mended here alone.

use serde_json::{Value, json};

use crate::game::{Game, GameError, Outcome, Penalty};
use crate::geometry::Square;
use crate::notation::{Leg, WireMove, WireTurn, parse_move};
use crate::referee::human;
use crate::variant::{Side, Variant};

/// A position of any variant, as the GUI sees it.
#[derive(Clone, Debug)]
pub(crate) struct Position(Game);

/// What the next leg of a move being entered may be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LegOptions {
    /// The possible next legs (`c2c7`), each once.
    pub(crate) next: Vec<String>,
    /// The legs entered so far are a whole move as they stand.
    pub(crate) complete: bool,
    /// Promotion letters that complete the move after the legs entered so far.
    pub(crate) promotions: Vec<char>,
}

impl Position {
    /// The start position, or the position of `fen`.
    ///
    /// # Errors
    /// The rules' reason the FEN is refused.
    pub(crate) fn new(variant: Variant, fen: Option<&str>) -> Result<Position, GameError> {
        match fen {
            None => Ok(Position(Game::start(variant))),
            Some(f) => Game::from_fen(variant, f).map(Position),
        }
    }

    /// The variant.
    pub(crate) fn variant(&self) -> Variant {
        self.0.variant()
    }

    /// The FEN.
    pub(crate) fn fen(&self) -> String {
        self.0.fen()
    }

    /// Whether both sides move at once (Apocalypse).
    pub(crate) fn sealed(&self) -> bool {
        self.0.side_to_move().is_none()
    }

    /// The side to move in an alternating game.
    pub(crate) fn side_to_move(&self) -> Option<Side> {
        self.0.side_to_move()
    }

    /// How the game ended, if it has.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    /// Penalty points of each side (sealed games; zero elsewhere).
    pub(crate) fn penalties(&self) -> [u8; 2] {
        match &self.0 {
            Game::Apocalypse(p) => [p.penalties(Side::White), p.penalties(Side::Black)],
            Game::Gladiator(_) | Game::Pagan(_) => [0, 0],
        }
    }

    /// The board drawn from the rules' geometry: its size, each square that exists (holes are
    /// left out) with the region it belongs to, and the bridge of Pagan's frame.
    pub(crate) fn geometry_json(&self) -> Value {
        let g = self.0.geometry();
        let variant = self.variant();
        let mut squares = Vec::new();
        for index in 0..g.size() {
            if g.is_hole_index(index) {
                continue;
            }
            let sq = g.square(index);
            let region = match variant {
                Variant::Gladiator => {
                    let inner = (1..=6).contains(&sq.file) && (2..=7).contains(&sq.rank);
                    if inner { "arena" } else { "border" }
                }
                Variant::Pagan => {
                    if sq.rank >= 7 {
                        "game"
                    } else {
                        "dead"
                    }
                }
                // Brawl has no arena (every piece uses all 64 squares); Apocalypse is one
                // board. Named, not a wildcard, so that a new variant must say its regions.
                Variant::Brawl | Variant::Apocalypse | Variant::ApocalypseClassic => "board",
            };
            squares.push(json!({
                "sq": sq.to_string(),
                "file": sq.file,
                "rank": sq.rank,
                "region": region,
            }));
        }
        // Whole ranks of holes between squares that exist: Pagan's bridge.
        let bridge: Vec<u16> = (1..=u16::from(g.ranks()))
            .filter(|&r| (0..g.files()).all(|f| !g.contains(Square::new(f, r))))
            .collect();
        json!({
            "files": g.files(),
            "ranks": g.ranks(),
            "squares": squares,
            "bridge": bridge,
        })
    }

    /// The pieces: square name to FEN letter.
    pub(crate) fn pieces_json(&self) -> Value {
        let g = self.0.geometry();
        let mut map = serde_json::Map::new();
        for index in 0..g.size() {
            if g.is_hole_index(index) {
                continue;
            }
            let sq = g.square(index);
            if let Some(c) = self.0.piece_at(sq) {
                map.insert(sq.to_string(), Value::String(c.to_string()));
            }
        }
        Value::Object(map)
    }

    /// The legal moves of `side` (its half of a sealed turn, or its turn when it is to move).
    pub(crate) fn legal_moves(&self, side: Side) -> Vec<WireMove> {
        self.0.legal_moves(side)
    }

    /// What may follow the legs entered so far (`c2c7`, then `h1h2`, …) for `side`, asked of
    /// the rules' own list of legal moves.
    pub(crate) fn leg_options(&self, side: Side, legs: &[String]) -> LegOptions {
        let mut next = Vec::new();
        let mut complete = false;
        let mut promotions = Vec::new();
        for mv in self.legal_moves(side) {
            let (these, promotion) = match &mv {
                WireMove::Legs { legs, promotion } => (
                    legs.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    *promotion,
                ),
                WireMove::Pass => (vec!["0000".to_string()], None),
                WireMove::Drop { .. } => continue,
            };
            if these.len() < legs.len() || these[..legs.len()] != *legs {
                continue;
            }
            if these.len() == legs.len() {
                match promotion {
                    Some(p) if !promotions.contains(&p) => promotions.push(p),
                    Some(_) => {}
                    None => complete = true,
                }
            } else if !next.contains(&these[legs.len()]) {
                next.push(these[legs.len()].clone());
            }
        }
        LegOptions {
            next,
            complete,
            promotions,
        }
    }

    /// Reads a move as the page sends it (any case).
    pub(crate) fn parse(text: &str) -> Option<WireMove> {
        if text.len() > 64 {
            return None;
        }
        parse_move(&text.to_ascii_lowercase())
    }

    /// Why a move of `side` is refused, in the rules' words (`None`: it is legal).
    pub(crate) fn refusal(&self, side: Side, mv: &WireMove) -> Option<String> {
        human::refusal(&self.0, side, mv, &self.legal_moves(side))
    }

    /// Plays an alternating move.
    ///
    /// # Errors
    /// The rules' reason it is refused; the position is unchanged.
    pub(crate) fn play_single(&mut self, mv: &WireMove) -> Result<(), GameError> {
        self.0.play(&WireTurn::Single(mv.clone())).map(|_| ())
    }

    /// Plays a sealed turn; the penalties it earned.
    ///
    /// # Errors
    /// A half is not a move of the variant (the position is unchanged).
    pub(crate) fn play_joint(
        &mut self,
        w: &WireMove,
        b: &WireMove,
    ) -> Result<Vec<Penalty>, GameError> {
        self.0.play(&WireTurn::Joint(w.clone(), b.clone()))
    }

    /// A move in words, judged on this position (before it is played).
    pub(crate) fn in_words(&self, mv: &WireMove) -> String {
        human::in_words(&self.0, mv)
    }

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
    fn the_first_legs_of_apocalypse_are_the_rules_moves() {
        let p = Position::new(Variant::Apocalypse, None).unwrap();
        let o = p.leg_options(Side::White, &[]);
        let mut next = o.next.clone();
        next.sort();
        // By hand from the start position (rules.md §1): four footman steps, two knights' jumps each.
        let mut want = vec![
            "b1b2", "c1c2", "d1d2", "a2a3", "e2e3", "a1b3", "a1c2", "e1c2", "e1d3",
        ];
        want.sort_unstable();
        assert_eq!(next, want);
        assert!(!o.complete);
        let after = p.leg_options(Side::White, &["a1b3".to_string()]);
        assert!(after.complete && after.next.is_empty() && after.promotions.is_empty());
        assert!(
            p.leg_options(Side::White, &["a1a2".to_string()])
                .next
                .is_empty()
        );
    }

    #[test]
    fn a_gladiator_pawn_move_may_be_followed_by_a_jump() {
        let p = Position::new(Variant::Gladiator, None).unwrap();
        let first = p.leg_options(Side::White, &[]);
        let pawn = first.next.first().expect("a pawn move").clone();
        let second = p.leg_options(Side::White, &[pawn]);
        // The jump is optional (rules.md §2, 4): the pawn move alone is a turn.
        assert!(second.complete);
        // A supporter jumps to a vacant border square: a8..h8 are full, so some rank 1..7
        // border square; none lands in the arena.
        assert!(!second.next.is_empty());
        for leg in &second.next {
            let to = &leg[2..];
            let (f, r) = (to.as_bytes()[0], to[1..].parse::<u8>().unwrap());
            assert!(f == b'a' || f == b'h' || r == 1 || r == 8, "{leg}");
        }
    }

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
