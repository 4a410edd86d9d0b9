//! Differential test of Gladiator and Brawl against the independent Python reference
//! (`tests/reference/gladiator_ref.py`, written from `rules.md` §2 without the engine).
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
//! Without `python3` the test prints a note and passes. For a longer run, set
//! `GLADIATOR_COMPARE_GAMES` (games per variant) and `GLADIATOR_COMPARE_SEED` (any number).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use quill::game::Game;
use quill::notation::parse_turn;
use quill::variant::Variant;

/// Games per variant (`GLADIATOR_COMPARE_GAMES` overrides it).
const GAMES: usize = 24;
/// Turns after which a game is abandoned: Gladiator, Brawl (the reference is slow in Brawl).
const MAX_TURNS: [usize; 2] = [20, 16];
/// perft(1) and the legal turns are compared every this many turns (and at the start).
const PERFT_EVERY: [usize; 2] = [2, 4];
/// Percent of turns replaced by a random, usually illegal, token.
const ILLEGAL_PERCENT: usize = 12;

const START_FEN: &str = "rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w - - 0 1";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// The seeded generator and the JSON reader are the ones of `tests/reference_compare.rs`.

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

    fn strings(&self) -> Option<Vec<String>> {
        match self {
            Json::Arr(items) => items.iter().map(|i| i.str().map(str::to_string)).collect(),
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
    /// The keys of an object (a perft divide).
    fn keys(&self) -> Option<Vec<String>> {
        match self {
            Json::Obj(fields) => Some(fields.iter().map(|(k, _)| k.clone()).collect()),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The reference, run as `gladiator_ref.py serve`.
// ---------------------------------------------------------------------------------------------

struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The reference's answer to one request.
struct RefReply {
    /// The position reached (before the bad turn, if one was refused).
    fen: String,
    result: Option<String>,
    /// The refused turn (`"INDEX TOKEN"`), if any.
    error: Option<String>,
    /// perft(1) and its divide's turns, when asked.
    perft: Option<(u64, Vec<String>)>,
}

impl Reference {
    fn start() -> Option<Reference> {
        let script = root().join("tests/reference/gladiator_ref.py");
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

    /// Plays `turns` (possibly none) from `fen`; with `perft`, counts perft(1) of the result.
    fn ask(
        &mut self,
        variant: &str,
        fen: &str,
        turns: &[&str],
        perft: bool,
    ) -> Result<RefReply, String> {
        let turns: Vec<String> = turns.iter().map(|t| format!("\"{t}\"")).collect();
        let mut request = format!(
            "{{\"variant\": \"{variant}\", \"fen\": \"{fen}\", \"turns\": [{}]",
            turns.join(", ")
        );
        if perft {
            request.push_str(", \"perft\": 1");
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
                p.get("divide").keys().ok_or("bad perft divide")?,
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
            let piece = if side == 1 {
                piece.to_ascii_lowercase()
            } else {
                piece
            };
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
    let mut rows = Vec::new();
    for rank in board.iter().rev() {
        let mut row = String::new();
        let mut empty = 0;
        for square in rank {
            match *square {
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
        rng.below(4),
        1 + rng.below(40)
    )
}

/// A token that is usually illegal or malformed (sometimes legal by chance).
fn random_token(rng: &mut Rng, legal: &[String]) -> String {
    let some_legal = if legal.is_empty() {
        format!("{}{}", random_square(rng), random_square(rng))
    } else {
        rng.pick(legal).clone()
    };
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
        let start_fen = if game_no % 4 == 0 {
            START_FEN.to_string()
        } else {
            random_fen(&mut rng, variant == Variant::Gladiator)
        };
        let mut game = Game::from_fen(variant, &start_fen)
            .map_err(|e| format!("{name}: quill refused {start_fen}: {e}"))?;
        let mut history: Vec<String> = Vec::new();
        let context = |history: &[String], what: String| {
            format!(
                "{name}, game {game_no}: position fen {start_fen} moves {}\n  {what}",
                history.join(" ")
            )
        };
        let reply = reference.ask(name, &start_fen, &[], true)?;
        if let Some(d) = compare(&game, &reply) {
            return Err(context(&history, d));
        }
        let mut ref_fen = reply.fen;
        for ply in 0..MAX_TURNS[v] {
            let Some(side) = game.side_to_move() else {
                return Err(context(&history, "quill: no side to move".into()));
            };
            let legal: Vec<String> = game
                .legal_moves(side)
                .iter()
                .map(|m| m.to_string())
                .collect();
            let finished = game.outcome().is_some();
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
            let perft = ply % PERFT_EVERY[v] == PERFT_EVERY[v] - 1;
            let reply = reference.ask(name, &ref_fen, &[&token], perft)?;
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
                    turns_played += 1;
                    if let Some(d) = compare(&game, &reply) {
                        return Err(context(&history, d));
                    }
                    ref_fen = reply.fen;
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
            if game.outcome().is_some() && rng.chance(50) {
                break;
            }
        }
    }
    Ok(turns_played)
}

/// Compares Quill's position with the reference's; `None` when they agree.
fn compare(game: &Game, reply: &RefReply) -> Option<String> {
    let mut diffs = Vec::new();
    if game.fen() != reply.fen {
        diffs.push(format!(
            "FEN: quill {} / reference {}",
            game.fen(),
            reply.fen
        ));
    }
    let ours = game.outcome().map(|o| o.result().to_string());
    if ours != reply.result {
        diffs.push(format!(
            "result: quill {} / reference {}",
            game.outcome().map_or("none".to_string(), |o| o.to_string()),
            reply.result.as_deref().unwrap_or("none")
        ));
    }
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
            let only_q: Vec<&String> = mine.iter().filter(|m| !theirs.contains(m)).collect();
            let only_r: Vec<&String> = theirs.iter().filter(|m| !mine.contains(m)).collect();
            diffs.push(format!(
                "perft 1: quill {count} / reference {nodes}; turns only quill lists \
                 {only_q:?}, only the reference {only_r:?}"
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
    if let Err(e) = probe.ask("gladiator", "startpos", &[], false) {
        panic!("the reference does not answer: {e}");
    }
    drop(probe);
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let games = env("GLADIATOR_COMPARE_GAMES").map_or(GAMES, |g| g as usize);
    let salt = env("GLADIATOR_COMPARE_SEED").unwrap_or(0);
    // One reference process per variant, the two variants in parallel.
    let runs: Vec<_> = [
        (Variant::Gladiator, 0x61AD_0001),
        (Variant::Brawl, 0x61AD_0002),
    ]
    .into_iter()
    .map(|(variant, seed)| {
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let mut reference = Reference::start().expect("python3 started once already");
            run_variant(&mut reference, variant, seed ^ salt << 32, games)
                .map(|turns| (variant, turns, started.elapsed()))
        })
    })
    .collect();
    let mut failures = Vec::new();
    for run in runs {
        match run.join().expect("a comparison thread panicked") {
            Ok((variant, turns, took)) => {
                eprintln!("{variant}: {games} games, {turns} turns agree ({took:.1?})");
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "Quill and the reference disagree:\n{}",
        failures.join("\n\n")
    );
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
