//! The GUI's one view of Quill's rules. Everything the server asks the rules (the geometry, the
//! pieces, the legal moves leg by leg, playing a turn, the outcome) goes through this file, so
//! that the page never re-implements them and a change to the rules' API is mended here alone
//! (here and in `effects`, which tells what a turn did in words).

use serde_json::{Value, json};

use crate::game::{Game, GameError, Outcome, Penalty};
use crate::geometry::Square;
use crate::notation::{WireMove, WireTurn, parse_move};
use crate::referee::human;
use crate::variant::{Side, Variant};

mod effects;

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
        self.0.penalty_points()
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
    fn the_penalties_are_the_sealed_games_own() {
        // rules.md §1: a well-formed move that is not legal is void and costs a penalty point.
        let mut p = Position::new(Variant::Apocalypse, None).unwrap();
        assert_eq!(p.penalties(), [0, 0]);
        let void = Position::parse("b1b3").unwrap();
        let pass = Position::parse("b5b4").unwrap();
        p.play_joint(&void, &pass).unwrap();
        assert_eq!(p.penalties(), [1, 0]);
        // Alternating games have none.
        let g = Position::new(Variant::Gladiator, None).unwrap();
        assert_eq!(g.penalties(), [0, 0]);
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
}
