//! Reading `quill tune`'s games: each distinct game's quiet positions past the opening,
//! labelled with the result for the side to move, split into fitted and held-out openings.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::MAX_POSITIONS;
use super::error::{GameFault, TuneError};
use quill::notation::parse_move;
use quill::search::Searchable;
use quill::variants::gladiator::{Position, Rules};
use quill::variants::gladiator_play::{EVAL_TERMS, WEIGHTS};

/// One labelled position: its game (index into the games read), its terms, its pawn
/// difference and the result for the side to move.
pub(super) struct Sample {
    pub(super) game: usize,
    pub(super) position: Position,
    pub(super) terms: [i32; EVAL_TERMS],
    pub(super) pawns: i32,
    pub(super) result: f64,
}

/// The positions read, split into those to fit and those held out.
#[derive(Default)]
pub(super) struct Data {
    pub(super) fit: Vec<Sample>,
    pub(super) held: Vec<Sample>,
    /// Games read (each distinct game once).
    pub(super) games: usize,
    /// Games left out as repeats of one read before.
    pub(super) repeats: usize,
    /// The hashes of the games read, to find repeats.
    pub(super) seen: HashSet<u64>,
}

pub(super) fn hash_of(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// A game's `[name "value"]` header.
pub(super) fn header<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("[{name} \"");
    game.lines()
        .find_map(|l| l.strip_prefix(&key))
        .and_then(|l| l.strip_suffix("\"]"))
}

impl Data {
    /// Reads the games of one PGN text into labelled quiet positions.
    pub(super) fn read(
        &mut self,
        text: &str,
        skip: u32,
        path: &std::path::Path,
    ) -> Result<(), TuneError> {
        for (index, game) in text.split("\n[Event ").enumerate() {
            self.read_game(game, skip)
                .map_err(|fault| TuneError::Game(path.to_owned(), index + 1, fault))?;
        }
        Ok(())
    }

    /// Reads one game (a repeat of a game read before is counted and skipped).
    pub(super) fn read_game(&mut self, game: &str, skip: u32) -> Result<(), GameFault> {
        let rules = match header(game, "Variant") {
            Some("gladiator") => Rules::Gladiator,
            Some("brawl") => Rules::Brawl,
            Some(other) => return Err(GameFault::Variant(other.to_owned())),
            None if game.trim().is_empty() => return Ok(()),
            None => return Err(GameFault::NoVariant),
        };
        let white = match header(game, "Result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => return Ok(()), // unfinished or unknown: no label
        };
        let fen = header(game, "FEN");
        let position = match fen {
            Some(fen) => Position::from_fen(rules, fen).map_err(GameFault::Fen)?,
            None => Position::start(rules),
        };
        let body = game.split("\n\n").skip(1).collect::<Vec<_>>().join(" ");
        let moves = body.split_whitespace().collect::<Vec<_>>().join(" ");
        if !self
            .seen
            .insert(hash_of(&format!("{rules:?} {fen:?} {moves}")))
        {
            self.repeats += 1;
            return Ok(());
        }
        let held = hash_of(&format!("{rules:?} {fen:?}")) % 10 == 9;
        let out = if held { &mut self.held } else { &mut self.fit };
        replay(position, &moves, skip, white, self.games, out)?;
        self.games += 1;
        Ok(())
    }
}

/// Replays a game's moves from `position`, keeping its quiet positions past `skip` plies
/// labelled with White's result `white`.
pub(super) fn replay(
    mut position: Position,
    moves: &str,
    skip: u32,
    white: f64,
    game: usize,
    out: &mut Vec<Sample>,
) -> Result<(), GameFault> {
    let mut words = moves.split_whitespace();
    let mut ply = 0;
    let mut noisy = Vec::new();
    while let Some(word) = words.next() {
        // A turn is the comment after a move number (`3.` or `3...`).
        let numbered = word.ends_with('.') && word.trim_end_matches('.').parse::<u32>().is_ok();
        if !numbered {
            continue;
        }
        let Some(token) = words
            .next()
            .and_then(|w| w.strip_prefix('{'))
            .and_then(|w| w.strip_suffix('}'))
        else {
            return Err(GameFault::NoTurn(word.to_owned()));
        };
        position.noisy(&mut noisy);
        if ply >= skip && noisy.is_empty() && position.end().is_none() && out.len() < MAX_POSITIONS
        {
            let result = match position.side_to_move() {
                quill::variant::Side::White => white,
                quill::variant::Side::Black => 1.0 - white,
            };
            out.push(Sample {
                game,
                terms: position.eval_terms(&WEIGHTS),
                pawns: position.pawn_difference(),
                position: position.clone(),
                result,
            });
        }
        let wire = parse_move(token).ok_or_else(|| GameFault::NotATurn(token.to_owned()))?;
        let turn = position
            .parse_turn(&wire)
            .map_err(|e| GameFault::Refused(token.to_owned(), e))?;
        position = position.play(turn);
        ply += 1;
    }
    Ok(())
}
