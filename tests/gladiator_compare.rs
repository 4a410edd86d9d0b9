//! Differential test of Gladiator and Brawl against the independent Python reference
//! (`tests/reference/gladiator_ref.py`, written from `protocol-docs/rules.md` §2 without the engine).
//!
//! For each variant, seeded random games are played from the start position and from random
//! legal positions (Gladiator: pawns in the arena and supporters on the border, since the engine
//! refuses anything else and the reference accepts it; Brawl: anywhere): random legal turns from
//! [`Game::legal_moves`], and sometimes a random malformed or illegal token that both sides must
//! refuse (random legs, off-board squares, a promotion letter, a pass, a leg too many or too
//! few). After every turn Quill's FEN and result are compared with the reference's, and at some
//! positions perft(1) with the list of legal turns. The first divergence of each variant is
//! reported with its whole move list.
//!
//! The reference runs in its `serve` mode (JSON lines). Each request carries the position the
//! reference itself reached (a FEN holds the whole state of a game) and one turn, so neither
//! implementation is fed the other's position.
//!
//! Without `python3` the test prints a note and passes (under `CI=true` it fails). For a longer run, set
//! `GLADIATOR_COMPARE_GAMES` (games per variant) and `GLADIATOR_COMPARE_SEED` (any number).

mod common;

use quill::game::Game;
use quill::variant::Variant;

use common::{Answer, Json, Parser, Reference, Rng, Trail};

/// Games per variant (`GLADIATOR_COMPARE_GAMES` overrides it).
const GAMES: usize = 24;
/// Turns after which a game is abandoned: Gladiator, Brawl (the reference is slow in Brawl).
const MAX_TURNS: [usize; 2] = [20, 16];
/// perft(1) and the legal turns are compared every this many turns (and at the start).
const PERFT_EVERY: [usize; 2] = [2, 4];
/// Percent of turns replaced by a random, usually illegal, token.
const ILLEGAL_PERCENT: usize = 12;

const START_FEN: &str = "rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w - - 0 1";

/// The reference script, run in its `serve` mode.
const SCRIPT: &str = "gladiator_ref.py";

// ---------------------------------------------------------------------------------------------
// The reference, run as `gladiator_ref.py serve`.
// ---------------------------------------------------------------------------------------------

/// The reference's answer to one request; its perft is perft(1) and its divide's turns.
type RefReply = Answer<Vec<String>>;

impl Reference {
    /// Plays `turns` (possibly none) from `fen`; with `perft`, counts perft(1) of the result.
    fn ask(
        &mut self,
        variant: &str,
        fen: &str,
        turns: &[&str],
        perft: bool,
    ) -> Result<RefReply, String> {
        let fields = format!(
            "\"variant\": \"{variant}\", \"fen\": \"{fen}\", \"turns\": [{}]",
            common::quoted(turns)
        );
        let request = common::request(&fields, perft.then_some(1));
        self.ask_divide(&request, Json::keys)
    }
}

// ---------------------------------------------------------------------------------------------
// Random positions and tokens.
// ---------------------------------------------------------------------------------------------

const FILES: &[u8] = b"abcdefgh";

fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", FILES[file] as char, rank + 1)
}

fn random_square(rng: &mut Rng) -> String {
    square_name(rng.below(8), rng.below(8))
}

fn is_border(file: usize, rank: usize) -> bool {
    file == 0 || file == 7 || rank == 0 || rank == 7
}

/// A random legal setup: 1-5 pawns and 0-8 supporters a side (Gladiator: pawns in the arena,
/// supporters on the border), a random side to move, quiet-turn clock 0-3 and move number.
fn random_fen(rng: &mut Rng, gladiator: bool) -> String {
    let mut board = [[None::<char>; 8]; 8]; // [rank][file]
    for side in [0, 1] {
        let pawns = 1 + rng.below(5);
        let supporters = if rng.chance(90) { 1 + rng.below(8) } else { 0 };
        let pieces = std::iter::repeat_n('P', pawns)
            .chain((0..supporters).map(|_| *rng.pick(&['N', 'B', 'R', 'Q', 'K'])));
        let pieces: Vec<char> = pieces.collect();
        for piece in pieces {
            let piece = common::piece_of(side, piece);
            for _ in 0..50 {
                let (f, r) = (rng.below(8), rng.below(8));
                let fits = !gladiator || is_border(f, r) != piece.eq_ignore_ascii_case(&'p');
                if fits && board[r][f].is_none() {
                    board[r][f] = Some(piece);
                    break;
                }
            }
        }
    }
    let board = common::fen_board(&board);
    common::fen_random_side(rng, &board, 4, 40)
}

/// A token that is usually illegal or malformed (sometimes legal by chance).
fn random_token(rng: &mut Rng, legal: &[String]) -> String {
    let some_legal = common::some_legal(rng, legal, random_square);
    let leg = |rng: &mut Rng| format!("{}{}", random_square(rng), random_square(rng));
    match rng.below(9) {
        0 => leg(rng),
        1 => format!("{},{}", leg(rng), leg(rng)),
        // Off the board, or rank 10+.
        2 => rng
            .pick(&[
                "i1a1",
                "a0a1",
                "a1a9",
                "d4d9",
                "h8i9",
                "a10a1",
                "d4c5,a1i1",
                "z9z9",
            ])
            .to_string(),
        3 => "0000".to_string(),
        // A promotion letter.
        4 => format!("{some_legal}{}", rng.pick(&["q", "n", "p"])),
        // A leg too many: 3 or 4 legs.
        5 => {
            let mut t = format!("{some_legal},{}", leg(rng));
            if rng.chance(50) {
                t = format!("{t},{}", leg(rng));
            }
            t
        }
        // A leg too few (a missing placement or a legal pawn-only turn).
        6 => match some_legal.rsplit_once(',') {
            Some((head, _)) => head.to_string(),
            None => leg(rng),
        },
        // The last leg changed: a bad jump, placement or supporter move.
        7 => match some_legal.rsplit_once(',') {
            Some((head, last)) => format!("{head},{}{}", &last[..2], random_square(rng)),
            None => format!("{some_legal},{}", leg(rng)),
        },
        // The first leg's target changed.
        _ => format!("{}{}", &some_legal[..2], random_square(rng)),
    }
}

/// Plays the random games of one variant; returns the turns played or the first divergence.
fn run_variant(
    reference: &mut Reference,
    variant: Variant,
    seed: u64,
    games: usize,
) -> Result<usize, String> {
    let name = variant.name();
    let v = usize::from(variant == Variant::Brawl);
    let mut rng = Rng::new(seed);
    let mut turns_played = 0;
    for game_no in 0..games {
        let gladiator = variant == Variant::Gladiator;
        let start_fen = common::start_fen(&mut rng, game_no, 4, START_FEN, |rng| {
            random_fen(rng, gladiator)
        });
        let mut game = Game::from_fen(variant, &start_fen)
            .map_err(|e| format!("{name}: quill refused {start_fen}: {e}"))?;
        let mut trail = Trail::new(format!("{name}, game {game_no}"), &start_fen);
        let reply = reference.ask(name, &start_fen, &[], true)?;
        if let Some(d) = compare(&game, &reply) {
            return Err(trail.divergence(d));
        }
        let mut ref_fen = reply.fen;
        for ply in 0..MAX_TURNS[v] {
            let Some(side) = game.side_to_move() else {
                return Err(trail.divergence("quill: no side to move".into()));
            };
            let legal: Vec<String> = game
                .legal_moves(side)
                .iter()
                .map(|m| m.to_string())
                .collect();
            let finished = game.outcome().is_some();
            let token =
                common::choose_token(&mut rng, &legal, finished, ILLEGAL_PERCENT, random_token);
            let perft = ply % PERFT_EVERY[v] == PERFT_EVERY[v] - 1;
            let reply = reference.ask(name, &ref_fen, &[&token], perft)?;
            let played =
                common::both_agree(&mut game, &mut trail, token, &reply, &ref_fen, &legal)?;
            if played {
                turns_played += 1;
                if let Some(d) = compare(&game, &reply) {
                    return Err(trail.divergence(d));
                }
                ref_fen = reply.fen;
            }
            if game.outcome().is_some() && rng.chance(50) {
                break;
            }
        }
    }
    Ok(turns_played)
}

/// Compares Quill's position with the reference's; `None` when they agree.
fn compare(game: &Game, reply: &RefReply) -> Option<String> {
    let mut diffs = common::position_diffs(game, &reply.fen, reply.result.as_deref());
    if let Some((nodes, theirs)) = &reply.perft {
        let count = game.perft(1);
        let mut mine: Vec<String> = match game.side_to_move() {
            Some(side) => game
                .legal_moves(side)
                .iter()
                .map(|m| m.to_string())
                .collect(),
            None => Vec::new(),
        };
        mine.sort();
        let mut theirs = theirs.clone();
        theirs.sort();
        if count != *nodes || mine != theirs {
            let only_q = common::only_in(&mine, &theirs);
            let only_r = common::only_in(&theirs, &mine);
            diffs.push(format!(
                "perft 1: quill {count} / reference {nodes}; turns only quill lists \
                 {only_q:?}, only the reference {only_r:?}"
            ));
        }
    }
    common::joined(diffs)
}

#[test]
fn quill_agrees_with_the_python_reference() {
    if !common::reference_answers(SCRIPT, |r| r.ask("gladiator", "startpos", &[], false)) {
        return;
    }
    let (games, salt) =
        common::games_and_salt("GLADIATOR_COMPARE_GAMES", "GLADIATOR_COMPARE_SEED", GAMES);
    // One reference process per variant, the two variants in parallel.
    let jobs = [
        (Variant::Gladiator, 0x61AD_0001),
        (Variant::Brawl, 0x61AD_0002),
    ];
    let started = std::time::Instant::now();
    let (done, failures) = common::in_parallel(SCRIPT, jobs, move |reference, (variant, seed)| {
        run_variant(reference, variant, seed ^ salt << 32, games)
            .map(|turns| (variant, turns, started.elapsed()))
    });
    for (variant, turns, took) in done {
        eprintln!("{variant}: {games} games, {turns} turns agree ({took:.1?})");
    }
    common::assert_no_divergence(&failures);
}

#[test]
fn the_random_setups_are_legal() {
    let mut rng = Rng::new(3);
    for _ in 0..200 {
        for variant in [Variant::Gladiator, Variant::Brawl] {
            let fen = random_fen(&mut rng, variant == Variant::Gladiator);
            assert!(Game::from_fen(variant, &fen).is_ok(), "{variant}: {fen}");
        }
    }
}

#[test]
fn the_json_reader_reads_the_reference_format() {
    let j = Parser::parse(
        r#"{"error": null, "fen": "8/8/8/8/8/8/8/8 w - - 0 1", "legal": null,
            "perft": {"divide": {"b2c3": 1, "b2c3,a1a2": 1}, "nodes": 2}, "result": "1/2-1/2"}"#,
    )
    .unwrap();
    assert_eq!(j.get("fen").str(), Some("8/8/8/8/8/8/8/8 w - - 0 1"));
    assert_eq!(j.get("error"), &Json::Null);
    assert_eq!(j.get("result").str(), Some("1/2-1/2"));
    assert_eq!(j.get("perft").get("nodes").u64(), Some(2));
    assert_eq!(
        j.get("perft").get("divide").keys(),
        Some(vec!["b2c3".to_string(), "b2c3,a1a2".to_string()])
    );
    assert_eq!(j.get("legal").strings(), None);
    assert!(Parser::parse("{\"a\": }").is_err());
}
