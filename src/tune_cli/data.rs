//! Reading `quill tune`'s games: each distinct game's quiet positions past the opening,
//! labelled with the result for the side the evaluation is for, split into fitted and
//! held-out openings.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::MAX_POSITIONS;
use super::error::{GameFault, TuneError};
use super::model::Tunable;
use quill::notation::parse_turn;
use quill::variant::{Side, Variant};

/// One labelled position: its game (index into the games read), the evaluation's fixed part,
/// terms and divisor, and the result for the side the evaluation is for.
pub(super) struct Sample<P> {
    pub(super) game: usize,
    pub(super) position: P,
    pub(super) fixed: i32,
    pub(super) terms: Vec<i32>,
    /// What divides the evaluation (see [`super::model::Linear`]).
    pub(super) divisor: i32,
    pub(super) result: f64,
}

/// The positions read, split into those to fit and those held out.
pub(super) struct Data<P: Tunable> {
    pub(super) fit: Vec<Sample<P>>,
    pub(super) held: Vec<Sample<P>>,
    /// Games read (each distinct game once).
    pub(super) games: usize,
    /// Games left out as repeats of one read before.
    pub(super) repeats: usize,
    /// The hashes of the games read, to find repeats.
    pub(super) seen: HashSet<u64>,
    /// The weights' rule set of the first game read ([`Tunable::weight_set`]).
    pub(super) weight_set: Option<P::RuleSet>,
}

impl<P: Tunable> Default for Data<P> {
    fn default() -> Self {
        Data {
            fit: Vec::new(),
            held: Vec::new(),
            games: 0,
            repeats: 0,
            seen: HashSet::new(),
            weight_set: None,
        }
    }
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

/// The variant a game's `[Variant]` header names: `Ok(None)` for an empty text (what comes
/// before the first game).
pub(super) fn variant_of(game: &str) -> Result<Option<Variant>, GameFault> {
    match header(game, "Variant") {
        Some(name) => Variant::from_name(name)
            .map(Some)
            .ok_or_else(|| GameFault::Variant(name.to_owned())),
        None if game.trim().is_empty() => Ok(None),
        None => Err(GameFault::NoVariant),
    }
}

/// The games of a PGN text, each from its `[Event` line.
pub(super) fn games(text: &str) -> impl Iterator<Item = &str> {
    text.split("\n[Event ")
}

impl<P: Tunable> Data<P> {
    /// Reads the games of one PGN text into labelled quiet positions.
    pub(super) fn read(
        &mut self,
        text: &str,
        skip: u32,
        path: &std::path::Path,
    ) -> Result<(), TuneError> {
        for (index, game) in games(text).enumerate() {
            self.read_game(game, skip)
                .map_err(|fault| TuneError::Game(path.to_owned(), index + 1, Box::new(fault)))?;
        }
        Ok(())
    }

    /// Reads one game (a repeat of a game read before is counted and skipped).
    pub(super) fn read_game(&mut self, game: &str, skip: u32) -> Result<(), GameFault> {
        let Some(variant) = variant_of(game)? else {
            return Ok(());
        };
        let rules = P::rule_set(variant).ok_or(GameFault::Family(variant))?;
        let set = P::weight_set(rules);
        match &self.weight_set {
            None => self.weight_set = Some(set),
            Some(first) if *first == set => {}
            Some(first) => return Err(GameFault::WeightSet(variant, format!("{first:?}"))),
        }
        let white = match header(game, "Result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => return Ok(()), // unfinished or unknown: no label
        };
        let fen = header(game, "FEN");
        let position = match fen {
            Some(fen) => P::from_fen(rules, fen).map_err(GameFault::Fen)?,
            None => P::start(rules),
        };
        let body = game.split("\n\n").skip(1).collect::<Vec<_>>().join(" ");
        let moves = body.split_whitespace().collect::<Vec<_>>().join(" ");
        if !self
            .seen
            .insert(hash_of(&format!("{variant} {fen:?} {moves}")))
        {
            self.repeats += 1;
            return Ok(());
        }
        let held = hash_of(&format!("{variant} {fen:?}")) % 10 == 9;
        let out = if held { &mut self.held } else { &mut self.fit };
        replay(position, rules, &moves, skip, white, self.games, out)?;
        self.games += 1;
        Ok(())
    }
}

/// Replays a game's moves from `position`, keeping its quiet positions past `skip` plies
/// (turns) labelled with White's result `white`.
pub(super) fn replay<P: Tunable>(
    mut position: P,
    rules: P::RuleSet,
    moves: &str,
    skip: u32,
    white: f64,
    game: usize,
    out: &mut Vec<Sample<P>>,
) -> Result<(), GameFault> {
    let current = P::current(rules);
    let mut words = moves.split_whitespace();
    let mut ply = 0;
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
        if ply >= skip && position.end().is_none() && out.len() < MAX_POSITIONS && position.quiet()
        {
            let result = match position.view() {
                Side::White => white,
                Side::Black => 1.0 - white,
            };
            let linear = position.terms(&current);
            out.push(Sample {
                game,
                position: position.clone(),
                fixed: linear.fixed,
                terms: linear.terms,
                divisor: linear.divisor,
                result,
            });
        }
        let wire = parse_turn(token).ok_or_else(|| GameFault::NotATurn(token.to_owned()))?;
        let (turn, _) = position
            .read_turn(&wire)
            .map_err(|e| GameFault::Refused(token.to_owned(), e))?;
        position = position.play(turn);
        ply += 1;
    }
    Ok(())
}
