//! `quill bench`: a fixed set of positions of every variant searched to a fixed depth. The
//! total node count is a signature of the search's behaviour: a change that claims not to alter
//! the search must leave it unchanged. Speed is reported beside it, never asserted.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::Game;
use crate::player;
use crate::rng::Rng;
use crate::search::Limits;
use crate::variant::{Side, Variant};

/// One benchmark position.
pub(crate) struct BenchPosition {
    /// The variant.
    pub(crate) variant: Variant,
    /// The FEN (`None`: the start position).
    pub(crate) fen: Option<&'static str>,
}

/// The positions: the start of every variant and a few from play.
pub(crate) const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        variant: Variant::Apocalypse,
        fen: None,
    },
    BenchPosition {
        variant: Variant::ApocalypseClassic,
        fen: Some("n3n/1P1P1/5/1p1p1/N3N w - - 0 1 0/0"),
    },
    BenchPosition {
        variant: Variant::Gladiator,
        fen: None,
    },
    BenchPosition {
        variant: Variant::Gladiator,
        fen: Some("rnnq1bk1/rp1p1p2/2P1p1p1/1p2p2B/5P2/NPp1P1P1/RP3P2/RN1QKB1b w - - 0 6"),
    },
    BenchPosition {
        variant: Variant::Brawl,
        fen: None,
    },
    BenchPosition {
        variant: Variant::Brawl,
        fen: Some("rnb1kb1r/1pp3Np/1p2p1p1/4P3/p2R2n1/pP1P1P1P/RB1PP1P1/3QKBNq w - - 0 6"),
    },
    BenchPosition {
        variant: Variant::Pagan,
        fen: None,
    },
    BenchPosition {
        variant: Variant::Pagan,
        fen: Some("k1WP3/w3A2/2p1P2/4P2/1pP4/*******/*******/*1p2G*/*p3K*/*ag3*/*5* w - - 0 23"),
    },
    // Apocalypse beyond the start: a middlegame, the same with a penalty point, an endgame.
    BenchPosition {
        variant: Variant::Apocalypse,
        fen: Some("n1p1n/p1p1p/1P3/P3P/N2PN w - - 0 4 0/0"),
    },
    BenchPosition {
        variant: Variant::Apocalypse,
        fen: Some("n1p1n/p1p1p/1P3/P3P/N2PN w - - 0 4 1/0"),
    },
    BenchPosition {
        variant: Variant::Apocalypse,
        fen: Some("4n/1p3/5/2P2/N4 w - - 0 1 0/0"),
    },
];

/// One line of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The variant.
    pub variant: Variant,
    /// The move chosen.
    pub best: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Microseconds spent.
    pub micros: u64,
}

/// Searches every position to `depth` with a fixed seed, then the simultaneous search's own
/// Apocalypse positions at their fixed depth.
///
/// # Panics
/// When a built-in FEN is invalid (a programming error the tests catch).
pub fn run(depth: u32) -> Vec<BenchLine> {
    POSITIONS
        .iter()
        .map(|p| {
            let game = match p.fen {
                None => Game::start(p.variant),
                Some(fen) => Game::from_fen(p.variant, fen).expect("a valid bench FEN"),
            };
            let side = game.side_to_move().unwrap_or(Side::White);
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let started = Instant::now();
            let choice = player::choose(
                &game,
                side,
                &[],
                limits,
                &AtomicBool::new(false),
                &mut Rng::new(1),
                &mut |_| {},
            )
            .expect("a bench position has a move");
            BenchLine {
                variant: p.variant,
                best: choice.mv.to_string(),
                nodes: choice.nodes,
                micros: started.elapsed().as_micros() as u64,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signature `quill bench` prints at its default depth (3). A change that claims not
    /// to alter the search must leave it as it is; one that does alter it changes this
    /// number, and says why in its commit.
    const SIGNATURE: u64 = 6_324_069;

    #[test]
    fn the_signature_is_pinned() {
        let nodes: u64 = run(3).iter().map(|l| l.nodes).sum();
        assert_eq!(nodes, SIGNATURE, "quill bench's signature moved");
    }

    #[test]
    fn every_position_is_valid_and_the_signature_is_deterministic() {
        let first = run(2);
        let second = run(2);
        assert_eq!(first.len(), POSITIONS.len());
        let strip = |lines: &[BenchLine]| -> Vec<(String, u64)> {
            lines.iter().map(|l| (l.best.clone(), l.nodes)).collect()
        };
        assert_eq!(strip(&first), strip(&second));
        assert!(first.iter().all(|l| l.nodes > 0));
    }
}
