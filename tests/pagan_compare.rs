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
//! Without `python3` the test prints a note and passes. For a longer run, set
//! `PAGAN_COMPARE_GAMES` (games per thread) and `PAGAN_COMPARE_SEED` (any number).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use quill::game::Game;
use quill::notation::parse_turn;
use quill::variant::Variant;

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

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// The seeded generator and the JSON reader are the ones of `tests/gladiator_compare.rs`.

// ---------------------------------------------------------------------------------------------
// A tiny seeded generator (xorshift64*).
// ---------------------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 32) % n as u64) as usize
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Just enough JSON to read the reference's answers.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    /// A number, as written.
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&Json::Null, |(_, v)| v),
            _ => &Json::Null,
        }
    }

    fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            text: text.as_bytes(),
            at: 0,
        };
        let value = p.value()?;
        p.space();
        if p.at != p.text.len() {
            return Err(format!("trailing text at {}", p.at));
        }
        Ok(value)
    }

    fn space(&mut self) {
        while self.at < self.text.len() && self.text[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at {}", c as char, self.at))
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(format!("bad literal at {}", self.at))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        match self.peek().ok_or("unexpected end")? {
            b'n' => self.word("null", Json::Null),
            b't' => self.word("true", Json::Bool(true)),
            b'f' => self.word("false", Json::Bool(false)),
            b'"' => self.string().map(Json::Str),
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    if self.peek() == Some(b',') {
                        self.at += 1;
                    } else {
                        self.eat(b']')?;
                        return Ok(Json::Arr(items));
                    }
                }
            }
            b'{' => {
                self.at += 1;
                let mut fields = Vec::new();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    self.eat(b':')?;
                    fields.push((key, self.value()?));
                    if self.peek() == Some(b',') {
                        self.at += 1;
                    } else {
                        self.eat(b'}')?;
                        return Ok(Json::Obj(fields));
                    }
                }
            }
            _ => {
                let start = self.at;
                while self.at < self.text.len()
                    && matches!(
                        self.text[self.at],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.at += 1;
                }
                if start == self.at {
                    return Err(format!("unexpected character at {start}"));
                }
                Ok(Json::Num(
                    String::from_utf8_lossy(&self.text[start..self.at]).into_owned(),
                ))
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.eat(b'"')?;
        let mut out = String::new();
        loop {
            let c = *self.text.get(self.at).ok_or("unterminated string")?;
            self.at += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let e = *self.text.get(self.at).ok_or("unterminated escape")?;
                    self.at += 1;
                    match e {
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => {
                            let hex = self.text.get(self.at..self.at + 4).ok_or("short \\u")?;
                            self.at += 4;
                            let code = u32::from_str_radix(&String::from_utf8_lossy(hex), 16)
                                .map_err(|e| e.to_string())?;
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        other => out.push(other as char),
                    }
                }
                _ => {
                    // Copy a whole UTF-8 sequence.
                    let start = self.at - 1;
                    let mut end = self.at;
                    while end < self.text.len() && (self.text[end] & 0xC0) == 0x80 {
                        end += 1;
                    }
                    out.push_str(&String::from_utf8_lossy(&self.text[start..end]));
                    self.at = end;
                }
            }
        }
    }
}

impl Json {
    /// The entries of an object of numbers (a perft divide).
    fn counts(&self) -> Option<Vec<(String, u64)>> {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .map(|(k, v)| Some((k.clone(), v.u64()?)))
                .collect(),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The reference, run as `pagan_ref.py serve`.
// ---------------------------------------------------------------------------------------------

struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The reference's answer to one request.
struct RefReply {
    /// The position reached (before the bad move, if one was refused).
    fen: String,
    result: Option<String>,
    /// The refused move (`"INDEX TOKEN"`), if any.
    error: Option<String>,
    /// The perft divide asked for: (nodes, [(move, count)]).
    perft: Option<(u64, Vec<(String, u64)>)>,
}

impl Reference {
    fn start() -> Option<Reference> {
        let script = root().join("tests/reference/pagan_ref.py");
        let mut child = match Command::new("python3")
            .arg(&script)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("note: python3 is not available ({e}); reference comparison skipped");
                return None;
            }
        };
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Some(Reference {
            child,
            stdin,
            stdout,
        })
    }

    /// Plays `moves` (possibly none) from `fen`; with `perft`, divides perft(depth) of the result.
    fn ask(&mut self, fen: &str, moves: &[&str], perft: Option<u32>) -> Result<RefReply, String> {
        let moves: Vec<String> = moves.iter().map(|t| format!("\"{t}\"")).collect();
        let mut request = format!("{{\"fen\": \"{fen}\", \"moves\": [{}]", moves.join(", "));
        if let Some(depth) = perft {
            request.push_str(&format!(", \"perft\": {depth}"));
        }
        request.push('}');
        writeln!(self.stdin, "{request}").map_err(|e| format!("writing to the reference: {e}"))?;
        self.stdin.flush().map_err(|e| e.to_string())?;
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .map_err(|e| format!("reading from the reference: {e}"))?;
        if line.is_empty() {
            return Err("the reference exited".to_string());
        }
        let reply = Parser::parse(line.trim()).map_err(|e| format!("bad JSON ({e}): {line}"))?;
        let error = reply.get("error").str().map(str::to_string);
        if let Some(e) = error.as_deref().filter(|e| e.starts_with("request")) {
            return Err(format!("the reference rejected {request}: {e}"));
        }
        let fen = reply
            .get("fen")
            .str()
            .ok_or_else(|| format!("no fen in {line}"))?
            .to_string();
        let result = reply.get("result").str().map(str::to_string);
        let perft = match reply.get("perft") {
            Json::Null => None,
            p => Some((
                p.get("nodes").u64().ok_or("bad perft nodes")?,
                p.get("divide").counts().ok_or("bad perft divide")?,
            )),
        };
        Ok(RefReply {
            fen,
            result,
            error,
            perft,
        })
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        // Stop our own child (by its handle) and reap it.
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
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
            let piece = if side == 1 {
                piece.to_ascii_lowercase()
            } else {
                piece
            };
            loop {
                let (f, r) = (rng.below(7), 1 + rng.below(11));
                if exists(f, r) && board[r][f].is_none() {
                    board[r][f] = Some(piece);
                    break;
                }
            }
        }
    }
    let mut rows = Vec::new();
    for r in (1..=11).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for (f, &piece) in board[r].iter().enumerate() {
            let cell = if exists(f, r) { piece } else { Some('*') };
            match cell {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!(
        "{} {} - - {} {}",
        rows.join("/"),
        if rng.chance(50) { "w" } else { "b" },
        rng.below(30),
        1 + rng.below(60)
    )
}

/// A token that is usually illegal or malformed (sometimes legal by chance).
fn random_token(rng: &mut Rng, legal: &[String]) -> String {
    let some_legal = if legal.is_empty() {
        format!("{}{}", random_square(rng), random_square(rng))
    } else {
        rng.pick(legal).clone()
    };
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
        let start_fen = if game_no % 4 == 0 {
            START_FEN.to_string()
        } else {
            random_fen(&mut rng)
        };
        let mut game = Game::from_fen(Variant::Pagan, &start_fen)
            .map_err(|e| format!("quill refused {start_fen}: {e}"))?;
        let mut history: Vec<String> = Vec::new();
        let context = |history: &[String], what: String| {
            format!(
                "seed {seed:#x}, game {game_no}: position fen {start_fen} moves {}\n  {what}",
                history.join(" ")
            )
        };
        let reply = reference.ask(&start_fen, &[], Some(1))?;
        let mut legal = legal_moves(&game);
        let mut outcome = game.outcome();
        if let Some(d) = compare(&game, &legal, &reply, Some(1)) {
            return Err(context(&history, d));
        }
        let mut ref_fen = reply.fen;
        for ply in 0..MAX_PLIES {
            let finished = outcome.is_some();
            let random = finished || legal.is_empty() || rng.chance(ILLEGAL_PERCENT);
            let token = if random {
                random_token(&mut rng, &legal)
            } else {
                rng.pick(&legal).clone()
            };
            let ours = match parse_turn(&token) {
                None => Err(format!("'{token}' is not a move")),
                Some(turn) => {
                    let mut next = game.clone();
                    next.play(&turn).map(|_| next).map_err(|e| e.to_string())
                }
            };
            let deep = rng.chance(PERFT2_PERCENT);
            let reply = reference.ask(&ref_fen, &[&token], Some(1))?;
            match (ours, &reply.error) {
                (Ok(next), None) => {
                    if !legal.contains(&token) {
                        return Err(context(
                            &history,
                            format!("quill plays '{token}', which legal_moves does not list"),
                        ));
                    }
                    game = next;
                    history.push(token);
                    plies += 1;
                    legal = legal_moves(&game);
                    outcome = game.outcome();
                    let perft = (ply % PERFT1_EVERY == 0).then_some(1);
                    if let Some(d) = compare(&game, &legal, &reply, perft) {
                        return Err(context(&history, d));
                    }
                    ref_fen = reply.fen;
                    if deep && legal.len() as u64 <= PERFT2_ROOT_LIMIT {
                        let reply = reference.ask(&ref_fen, &[], Some(2))?;
                        if let Some(d) = compare(&game, &legal, &reply, Some(2)) {
                            return Err(context(&history, d));
                        }
                    }
                }
                (Err(_), Some(_)) => {
                    // Both refused; the reference stayed where it was.
                    if reply.fen != ref_fen {
                        return Err(context(&history, "the reference moved on an error".into()));
                    }
                }
                (Ok(_), Some(e)) => {
                    return Err(context(
                        &history,
                        format!("quill accepts '{token}', the reference refuses it ({e})"),
                    ));
                }
                (Err(e), None) => {
                    return Err(context(
                        &history,
                        format!("the reference accepts '{token}', quill refuses it: {e}"),
                    ));
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
    let mut diffs = Vec::new();
    if game.fen() != reply.fen {
        diffs.push(format!(
            "FEN: quill {} / reference {}",
            game.fen(),
            reply.fen
        ));
    }
    let outcome = game.outcome();
    let ours = outcome.as_ref().map(|o| o.result().to_string());
    if ours != reply.result {
        diffs.push(format!(
            "result: quill {} / reference {}",
            outcome.map_or("none".to_string(), |o| o.to_string()),
            reply.result.as_deref().unwrap_or("none")
        ));
    }
    let Some((nodes, theirs)) = &reply.perft else {
        return (!diffs.is_empty()).then(|| diffs.join("; "));
    };
    let mut theirs = theirs.clone();
    theirs.sort();
    let mut mine: Vec<String> = legal.to_vec();
    mine.sort();
    let their_moves: Vec<String> = theirs.iter().map(|(m, _)| m.clone()).collect();
    if mine != their_moves {
        let only_q: Vec<&String> = mine.iter().filter(|m| !their_moves.contains(m)).collect();
        let only_r: Vec<&String> = their_moves.iter().filter(|m| !mine.contains(m)).collect();
        diffs.push(format!(
            "legal moves: only quill lists {only_q:?}, only the reference {only_r:?}"
        ));
    }
    if let Some(depth) = perft {
        let count = game.perft(depth);
        let mut divide = game.perft_divide(depth);
        divide.sort();
        if count != *nodes || divide != theirs {
            let only_q: Vec<&(String, u64)> =
                divide.iter().filter(|m| !theirs.contains(m)).collect();
            let only_r: Vec<&(String, u64)> =
                theirs.iter().filter(|m| !divide.contains(m)).collect();
            diffs.push(format!(
                "perft {depth}: quill {count} / reference {nodes}; only quill has {only_q:?}, \
                 only the reference {only_r:?}"
            ));
        }
    }
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

#[test]
fn quill_agrees_with_the_python_reference() {
    let Some(mut probe) = Reference::start() else {
        return;
    };
    if let Err(e) = probe.ask("startpos", &[], None) {
        panic!("the reference does not answer: {e}");
    }
    drop(probe);
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let games = env("PAGAN_COMPARE_GAMES").map_or(GAMES, |g| g as usize);
    let salt = env("PAGAN_COMPARE_SEED").unwrap_or(0);
    // Two reference processes, in parallel.
    let runs: Vec<_> = [0x9A6A_0001_u64, 0x9A6A_0002]
        .into_iter()
        .map(|seed| {
            std::thread::spawn(move || {
                let mut reference = Reference::start().expect("python3 started once already");
                run(&mut reference, seed ^ salt << 32, games)
            })
        })
        .collect();
    let mut failures = Vec::new();
    let mut plies = 0;
    for handle in runs {
        match handle.join().expect("a comparison thread panicked") {
            Ok(n) => plies += n,
            Err(e) => failures.push(e),
        }
    }
    eprintln!("pagan: {} games, {plies} plies agree", 2 * games);
    assert!(
        failures.is_empty(),
        "Quill and the reference disagree:\n{}",
        failures.join("\n\n")
    );
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
