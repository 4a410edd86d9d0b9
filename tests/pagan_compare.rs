//! Differential test of Pagan Chess against the independent Python reference
//! (`tests/reference/pagan_ref.py`, written from `rules.md` §3 without the engine).
//!
//! Seeded random games (a tiny xorshift generator) are played from the start position and from
//! random positions valid for both implementations (one king and at most 9 pieces a side, no
//! piece on a hole): random legal moves from [`Game::legal_moves`], and now and then a random
//! illegal or malformed token that both must refuse (random or off-frame squares, holes, a
//! missing, wrong or superfluous promotion suffix, upper case, a pass, two legs). After every
//! move Quill's FEN and result are compared with the reference's, and so are the legal moves
//! (perft(1) with its divide); at some positions perft(2) with its divide too. The first
//! divergence of each run is reported with its whole move list.
//!
//! The reference runs in its `serve` mode (JSON lines). Each request carries the position the
//! reference itself reached (a FEN holds the whole state of a Pagan game) and one move, so
//! neither implementation is fed the other's position.
//!
//! Without `python3` the test prints a note and passes (under `CI=true` it fails). For a longer run, set
//! `PAGAN_COMPARE_GAMES` (games per thread) and `PAGAN_COMPARE_SEED` (any number).

mod common;

use quill::game::Game;
use quill::variant::Variant;

use common::{Answer, Json, Parser, Reference, Rng, Trail};

/// Games per thread (two threads, one reference process each); `PAGAN_COMPARE_GAMES` overrides.
const GAMES: usize = 50;
/// Plies after which a game is abandoned (the rules have no move cap).
const MAX_PLIES: usize = 150;
/// Percent of plies replaced by a random, usually illegal, token.
const ILLEGAL_PERCENT: usize = 8;
/// perft(1) and its divide are counted by Quill every this many plies (the legal moves are
/// compared after every ply).
const PERFT1_EVERY: usize = 4;
/// Percent of positions where perft(2) is compared as well (only below [`PERFT2_ROOT_LIMIT`]
/// root moves: the reference is slow in Python).
const PERFT2_PERCENT: usize = 3;
const PERFT2_ROOT_LIMIT: u64 = 30;

const START_FEN: &str = "kp4P/ap4W/gp3PG/w4PA/p4PK/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";

/// The reference script, run in its `serve` mode.
const SCRIPT: &str = "pagan_ref.py";

// ---------------------------------------------------------------------------------------------
// The reference, run as `pagan_ref.py serve`.
// ---------------------------------------------------------------------------------------------

/// The reference's answer to one request; its perft is the divide asked for:
/// (nodes, [(move, count)]).
type RefReply = Answer<Vec<(String, u64)>>;

impl Reference {
    /// Plays `moves` (possibly none) from `fen`; with `perft`, divides perft(depth) of the result.
    fn ask(&mut self, fen: &str, moves: &[&str], perft: Option<u32>) -> Result<RefReply, String> {
        let fields = format!("\"fen\": \"{fen}\", \"moves\": [{}]", common::quoted(moves));
        let request = common::request(&fields, perft);
        self.ask_divide(&request, Json::counts)
    }
}

// ---------------------------------------------------------------------------------------------
// Random positions and tokens.
// ---------------------------------------------------------------------------------------------

const FILES: &[u8] = b"abcdefgh";

/// Whether a frame square exists: the game board (ranks 7-11) or the dead board (ranks 1-4,
/// files b-f). `file` 0-based, `rank` 1-based.
fn exists(file: usize, rank: usize) -> bool {
    file < 7 && ((7..=11).contains(&rank) || ((1..=4).contains(&rank) && (1..=5).contains(&file)))
}

fn square_name(file: usize, rank: usize) -> String {
    format!("{}{rank}", FILES[file] as char)
}

/// Any square of a slightly larger area than the frame: holes, file h, ranks 0 and 12 included.
fn random_square(rng: &mut Rng) -> String {
    square_name(rng.below(8), rng.below(13))
}

/// A random position valid for both implementations: one king and 0-8 other pieces a side
/// (Wazir, Alchemist, Pagan, pawn) on random squares of the frame, either side to move.
fn random_fen(rng: &mut Rng) -> String {
    let mut board = [[None::<char>; 7]; 12]; // [rank][file], rank 1..=11
    for side in 0..2 {
        let others = rng.below(9);
        let pieces =
            std::iter::once('K').chain((0..others).map(|_| *rng.pick(&['W', 'A', 'G', 'P'])));
        let pieces: Vec<char> = pieces.collect();
        for piece in pieces {
            let piece = common::piece_of(side, piece);
            loop {
                let (f, r) = (rng.below(7), 1 + rng.below(11));
                if exists(f, r) && board[r][f].is_none() {
                    board[r][f] = Some(piece);
                    break;
                }
            }
        }
    }
    let rows: Vec<String> = (1..=11)
        .rev()
        .map(|r| {
            let cell = |(f, &piece): (usize, &Option<char>)| {
                if exists(f, r) { piece } else { Some('*') }
            };
            common::fen_row(board[r].iter().enumerate().map(cell))
        })
        .collect();
    common::fen_random_side(rng, &rows.join("/"), 30, 60)
}

/// A token that is usually illegal or malformed (sometimes legal by chance).
fn random_token(rng: &mut Rng, legal: &[String]) -> String {
    let some_legal = common::some_legal(rng, legal, random_square);
    // The from- and to-squares of `some_legal`, without a promotion suffix.
    let bare = some_legal.trim_end_matches(['w', 'a', 'g']).to_string();
    let to_at = bare[1..]
        .find(|c: char| c.is_ascii_lowercase())
        .map_or(2, |i| i + 1);
    let from = bare[..to_at].to_string();
    match rng.below(10) {
        0 => format!("{}{}", random_square(rng), random_square(rng)),
        // The same piece, another (usually unreachable) square.
        1 => format!("{from}{}", random_square(rng)),
        // A hole: the bridge, or files a and g of the dead board.
        2 => format!(
            "{from}{}",
            rng.pick(&["a5", "d5", "g6", "c6", "a1", "a4", "g2", "g3"])
        ),
        // A suffix: a bad letter, or w/a/g on a move that may not promote.
        3 => format!("{bare}{}", rng.pick(&["q", "k", "p", "n", "w", "a", "g"])),
        // The suffix dropped (a promotion without its choice) or doubled.
        4 => {
            if rng.chance(50) {
                bare
            } else {
                format!("{some_legal}w")
            }
        }
        5 => some_legal.to_uppercase(),
        6 => "0000".to_string(),
        7 => format!("{bare},{}{}", random_square(rng), random_square(rng)),
        // Off the frame.
        8 => rng
            .pick(&["h7h8", "a0a1", "a12a11", "g11h11", "b1b0", "z9a9", "a7"])
            .to_string(),
        // Turned round: usually the piece is not there or not the mover's.
        _ => format!("{}{}", &bare[to_at..], from),
    }
}

/// One seeded run: random games; returns the plies played or the first divergence.
fn run(reference: &mut Reference, seed: u64, games: usize) -> Result<usize, String> {
    let mut rng = Rng::new(seed);
    let mut plies = 0;
    for game_no in 0..games {
        let start_fen = common::start_fen(&mut rng, game_no, 4, START_FEN, random_fen);
        let mut game = Game::from_fen(Variant::Pagan, &start_fen)
            .map_err(|e| format!("quill refused {start_fen}: {e}"))?;
        let mut trail = Trail::new(format!("seed {seed:#x}, game {game_no}"), &start_fen);
        let reply = reference.ask(&start_fen, &[], Some(1))?;
        let mut legal = legal_moves(&game);
        let mut outcome = game.outcome();
        if let Some(d) = compare(&game, &legal, &reply, Some(1)) {
            return Err(trail.divergence(d));
        }
        let mut ref_fen = reply.fen;
        for ply in 0..MAX_PLIES {
            let finished = outcome.is_some();
            let token =
                common::choose_token(&mut rng, &legal, finished, ILLEGAL_PERCENT, random_token);
            let deep = rng.chance(PERFT2_PERCENT);
            let reply = reference.ask(&ref_fen, &[&token], Some(1))?;
            let played =
                common::both_agree(&mut game, &mut trail, token, &reply, &ref_fen, &legal)?;
            if played {
                plies += 1;
                legal = legal_moves(&game);
                outcome = game.outcome();
                let perft = (ply % PERFT1_EVERY == 0).then_some(1);
                if let Some(d) = compare(&game, &legal, &reply, perft) {
                    return Err(trail.divergence(d));
                }
                ref_fen = reply.fen;
                if deep && legal.len() as u64 <= PERFT2_ROOT_LIMIT {
                    let reply = reference.ask(&ref_fen, &[], Some(2))?;
                    if let Some(d) = compare(&game, &legal, &reply, Some(2)) {
                        return Err(trail.divergence(d));
                    }
                }
            }
            if outcome.is_some() && rng.chance(50) {
                break;
            }
        }
    }
    Ok(plies)
}

/// Quill's legal moves in the position (none for a finished game).
fn legal_moves(game: &Game) -> Vec<String> {
    game.side_to_move()
        .map(|side| {
            game.legal_moves(side)
                .iter()
                .map(|m| m.to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Compares Quill's position with the reference's: FEN, result and the legal moves (`legal`,
/// Quill's, against the keys of the reference's perft divide); with `perft`, also Quill's
/// perft(depth) and perft divide against the reference's counts. `None` when they agree.
fn compare(game: &Game, legal: &[String], reply: &RefReply, perft: Option<u32>) -> Option<String> {
    let mut diffs = common::position_diffs(game, &reply.fen, reply.result.as_deref());
    let Some((nodes, theirs)) = &reply.perft else {
        return common::joined(diffs);
    };
    let mut theirs = theirs.clone();
    theirs.sort();
    let mut mine: Vec<String> = legal.to_vec();
    mine.sort();
    let their_moves: Vec<String> = theirs.iter().map(|(m, _)| m.clone()).collect();
    if mine != their_moves {
        let only_q = common::only_in(&mine, &their_moves);
        let only_r = common::only_in(&their_moves, &mine);
        diffs.push(format!(
            "legal moves: only quill lists {only_q:?}, only the reference {only_r:?}"
        ));
    }
    if let Some(depth) = perft {
        let count = game.perft(depth);
        let mut divide: Vec<(String, u64)> = game
            .perft_divide(depth)
            .into_iter()
            .map(|(turn, n)| (turn.to_string(), n))
            .collect();
        divide.sort();
        if count != *nodes || divide != theirs {
            let only_q = common::only_in(&divide, &theirs);
            let only_r = common::only_in(&theirs, &divide);
            diffs.push(format!(
                "perft {depth}: quill {count} / reference {nodes}; only quill has {only_q:?}, \
                 only the reference {only_r:?}"
            ));
        }
    }
    common::joined(diffs)
}

#[test]
fn quill_agrees_with_the_python_reference() {
    if !common::reference_answers(SCRIPT, |r| r.ask("startpos", &[], None)) {
        return;
    }
    let (games, salt) = common::games_and_salt("PAGAN_COMPARE_GAMES", "PAGAN_COMPARE_SEED", GAMES);
    // Two reference processes, in parallel.
    let seeds = [0x9A6A_0001_u64, 0x9A6A_0002];
    let (done, failures) = common::in_parallel(SCRIPT, seeds, move |reference, seed| {
        run(reference, seed ^ salt << 32, games)
    });
    let plies: usize = done.iter().sum();
    eprintln!("pagan: {} games, {plies} plies agree", 2 * games);
    common::assert_no_divergence(&failures);
}

#[test]
fn the_random_setups_are_legal() {
    let mut rng = Rng::new(3);
    for _ in 0..500 {
        let fen = random_fen(&mut rng);
        assert!(Game::from_fen(Variant::Pagan, &fen).is_ok(), "{fen}");
    }
}

#[test]
fn the_random_tokens_are_well_formed_strings() {
    let mut rng = Rng::new(5);
    let legal = vec![
        "b9a9w".to_string(),
        "d7c4".to_string(),
        "g10e10".to_string(),
    ];
    for _ in 0..500 {
        let t = random_token(&mut rng, &legal);
        assert!(
            !t.is_empty() && t.is_ascii() && !t.contains(['"', '\\', ' ']),
            "{t:?}"
        );
    }
    assert!(!random_token(&mut Rng::new(1), &[]).is_empty());
}

#[test]
fn the_json_reader_reads_the_reference_format() {
    let j = Parser::parse(
        r#"{"error": null, "fen": "k6/7/7/7/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1",
            "legal": null, "perft": {"divide": {"b9a9w": 1, "d7c4": 2}, "nodes": 3},
            "result": "1/2-1/2"}"#,
    )
    .unwrap();
    assert_eq!(
        j.get("fen").str(),
        Some("k6/7/7/7/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1")
    );
    assert_eq!(j.get("error"), &Json::Null);
    assert_eq!(j.get("result").str(), Some("1/2-1/2"));
    assert_eq!(j.get("perft").get("nodes").u64(), Some(3));
    assert_eq!(
        j.get("perft").get("divide").counts(),
        Some(vec![("b9a9w".to_string(), 1), ("d7c4".to_string(), 2)])
    );
    assert!(Parser::parse("{\"a\": }").is_err());
}
