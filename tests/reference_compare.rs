//! Differential test against the independent Python reference
//! (`tests/reference/apocalypse_ref.py`, written from `rules.md` §1 without the engine).
//!
//! For each rule set, seeded random games are played from the start position and from random
//! positions: mostly legal moves, sometimes well-formed illegal tokens (random squares,
//! off-board squares, passes, two-leg redeploys with random squares). After every turn Quill's
//! FEN, outcome and legal moves are compared with the reference's, and at some nodes perft(1)
//! and perft(2). The first divergence of each rule set is reported with its whole move list.
//!
//! The reference runs in its `serve` mode (JSON lines). Each request carries the position the
//! reference reached (a FEN holds the whole state of an Apocalypse game) and one turn, so the
//! two implementations stay independent: neither is fed the other's position.
//!
//! Without `python3` the test prints a note and passes. For a longer run, set
//! `REFERENCE_COMPARE_GAMES` (games per rule set) and `REFERENCE_COMPARE_SEED` (any number).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use quill::game::Game;
use quill::notation::parse_turn;
use quill::variant::{Side, Variant};

/// Games per rule set (`REFERENCE_COMPARE_GAMES` overrides it for a longer run).
const GAMES: usize = 200;
/// Turns after which a game is abandoned (the rules have no turn cap).
const MAX_TURNS: usize = 80;
/// perft is compared only where the root has at most this many joint turns (perft(1)) or a
/// quarter of it (perft(2)): the reference plays every child of the root, which is slow in
/// Python. The legal-move lists, compared after every turn, cover the other roots at depth 1.
const PERFT_ROOT_LIMIT: usize = 400;
/// Percent of moves replaced by a random, usually illegal, token.
const ILLEGAL_PERCENT: usize = 6;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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

// ---------------------------------------------------------------------------------------------
// The reference, run as `apocalypse_ref.py serve`.
// ---------------------------------------------------------------------------------------------

struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The reference's view of a position after a request.
struct RefReply {
    fen: String,
    result: Option<String>,
    legal: Option<[Vec<String>; 2]>,
    perft: Option<u64>,
}

impl Reference {
    fn start() -> Option<Reference> {
        let script = root().join("tests/reference/apocalypse_ref.py");
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

    /// Plays `turns` (possibly none) from `fen` and reads the position reached.
    fn ask(
        &mut self,
        rules: &str,
        fen: &str,
        turns: &[String],
        legal: bool,
        perft: Option<u32>,
    ) -> Result<RefReply, String> {
        let turns: Vec<String> = turns.iter().map(|t| format!("\"{t}\"")).collect();
        let mut request = format!(
            "{{\"rules\": \"{rules}\", \"fen\": \"{fen}\", \"turns\": [{}], \"legal\": {legal}",
            turns.join(", ")
        );
        if let Some(d) = perft {
            request.push_str(&format!(", \"perft\": {d}"));
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
        if let Some(err) = reply.get("error").str() {
            return Err(format!("the reference refused {request}: {err}"));
        }
        let fen = reply
            .get("fen")
            .str()
            .ok_or_else(|| format!("no fen in {line}"))?
            .to_string();
        let result = reply.get("result").str().map(str::to_string);
        let legal = match reply.get("legal") {
            Json::Arr(sides) if sides.len() == 2 => Some([
                sides[0].strings().ok_or("bad legal list")?,
                sides[1].strings().ok_or("bad legal list")?,
            ]),
            _ => None,
        };
        let perft = reply.get("perft").get("nodes").u64();
        Ok(RefReply {
            fen,
            result,
            legal,
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
// Random positions and moves.
// ---------------------------------------------------------------------------------------------

const FILES: &[u8] = b"abcde";

fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", FILES[file] as char, rank)
}

fn random_square(rng: &mut Rng) -> String {
    square_name(rng.below(5), 1 + rng.below(5))
}

/// A random position with a few pieces, counters and penalty points.
fn random_fen(rng: &mut Rng) -> String {
    let mut board = [[None::<char>; 5]; 5]; // [rank0][file]
    for piece in ['P', 'p', 'N', 'n'] {
        let count = if piece.eq_ignore_ascii_case(&'p') {
            1 + rng.below(4)
        } else {
            rng.below(4)
        };
        for _ in 0..count {
            for _ in 0..20 {
                let (f, r) = (rng.below(5), rng.below(5));
                if board[r][f].is_none() {
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
        "{} w - - {} {} {}/{}",
        rows.join("/"),
        rng.below(6),
        1 + rng.below(20),
        rng.below(2),
        rng.below(2)
    )
}

/// A well-formed move text that is usually illegal.
fn random_token(rng: &mut Rng, legal: &[String]) -> String {
    match rng.below(8) {
        0 | 1 => format!("{}{}", random_square(rng), random_square(rng)),
        2 => rng
            .pick(&[
                "z9a1", "a0a1", "a1a0", "f3e1", "a2a6", "e5f6", "a1z9", "c3c0",
            ])
            .to_string(),
        3 => "0000".to_string(),
        4 => {
            // Two legs: a random redeploy after a random or a legal first leg.
            let steps: Vec<&String> = legal.iter().filter(|m| m.as_str() != "0000").collect();
            let first = if !steps.is_empty() && rng.chance(70) {
                let m = rng.pick(&steps);
                m.split(',').next().unwrap().to_string()
            } else {
                format!("{}{}", random_square(rng), random_square(rng))
            };
            let leg2_from = if rng.chance(85) {
                first[2..].to_string()
            } else {
                random_square(rng)
            };
            format!("{first},{leg2_from}{}", random_square(rng))
        }
        5 => {
            // A legal redeploy with its redeploy leg dropped or changed, or a legal step with
            // a redeploy leg added.
            let m = if legal.is_empty() {
                "a1b3".to_string()
            } else {
                rng.pick(legal).clone()
            };
            match m.split_once(',') {
                Some((step, _)) if rng.chance(50) => step.to_string(),
                Some((step, _)) => format!("{step},{}{}", &step[2..], random_square(rng)),
                None if m == "0000" => "0000".to_string(),
                None => format!("{m},{}{}", &m[2..], random_square(rng)),
            }
        }
        _ => {
            // A random move from an own-looking square: a legal from-square, any to-square.
            match legal.iter().find(|m| m.as_str() != "0000") {
                Some(m) => format!("{}{}", &m[..2], random_square(rng)),
                None => format!("{}{}", random_square(rng), random_square(rng)),
            }
        }
    }
}

fn result_text(game: &Game) -> Option<String> {
    game.outcome().map(|o| o.result().to_string())
}

fn sorted_moves(game: &Game, side: Side) -> Vec<String> {
    let mut moves: Vec<String> = game
        .legal_moves(side)
        .iter()
        .map(|m| m.to_string())
        .collect();
    moves.sort();
    moves
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
    let ours = result_text(game);
    if ours != reply.result {
        diffs.push(format!(
            "result: quill {} / reference {}",
            game.outcome().map_or("none".to_string(), |o| o.to_string()),
            reply.result.as_deref().unwrap_or("none")
        ));
    }
    // Legal moves matter only while the game goes on (Quill lists none afterwards).
    if ours.is_none()
        && let Some(legal) = &reply.legal
    {
        for (side, theirs) in [Side::White, Side::Black].into_iter().zip(legal) {
            let mine = sorted_moves(game, side);
            if &mine != theirs {
                let only_q: Vec<&String> = mine.iter().filter(|m| !theirs.contains(m)).collect();
                let only_r: Vec<&String> = theirs.iter().filter(|m| !mine.contains(m)).collect();
                diffs.push(format!(
                    "{} legal moves: only quill {only_q:?} / only reference {only_r:?}",
                    side.word()
                ));
            }
        }
    }
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

/// Plays the random games of one rule set; returns the first divergence, if any.
fn run_rules(
    reference: &mut Reference,
    variant: Variant,
    seed: u64,
    games: usize,
) -> Result<usize, String> {
    let rules = variant.name();
    let mut rng = Rng::new(seed);
    let mut turns_played = 0;
    for game_no in 0..games {
        let start_fen = if game_no % 2 == 0 {
            "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0".to_string()
        } else {
            random_fen(&mut rng)
        };
        let mut game = Game::from_fen(variant, &start_fen)
            .map_err(|e| format!("{rules}: quill refused {start_fen}: {e}"))?;
        let mut history: Vec<String> = Vec::new();
        let context = |history: &[String], what: String| {
            format!(
                "{rules}, game {game_no}: position fen {start_fen} moves {}\n  {what}",
                history.join(" ")
            )
        };
        let mut ref_fen = start_fen.clone();
        let roots = game.legal_moves(Side::White).len() * game.legal_moves(Side::Black).len();
        let perft = (roots <= PERFT_ROOT_LIMIT).then_some(1);
        let reply = reference.ask(rules, &ref_fen, &[], true, perft)?;
        if let Some(d) = compare(&game, &reply) {
            return Err(context(&history, d));
        }
        if perft.is_some() && reply.perft != Some(game.perft(1)) {
            return Err(context(
                &history,
                format!(
                    "perft 1: quill {} / reference {:?}",
                    game.perft(1),
                    reply.perft
                ),
            ));
        }
        for ply in 0..MAX_TURNS {
            if game.outcome().is_some() {
                break;
            }
            let legal = [
                game.legal_moves(Side::White)
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>(),
                game.legal_moves(Side::Black)
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>(),
            ];
            let mut token = Vec::new();
            for moves in &legal {
                if !moves.is_empty() && !rng.chance(ILLEGAL_PERCENT) {
                    token.push(rng.pick(moves).clone());
                } else {
                    token.push(random_token(&mut rng, moves));
                }
            }
            let token = token.join("|");
            let turn = parse_turn(&token).ok_or_else(|| format!("bad generated token {token}"))?;
            game.play(&turn)
                .map_err(|e| context(&history, format!("quill refused {token}: {e}")))?;
            history.push(token.clone());
            turns_played += 1;
            let roots = game.legal_moves(Side::White).len() * game.legal_moves(Side::Black).len();
            let perft = if ply % 4 == 3 && roots <= PERFT_ROOT_LIMIT / 4 {
                Some(2)
            } else if ply % 3 == 0 && roots <= PERFT_ROOT_LIMIT {
                Some(1)
            } else {
                None
            };
            let reply = reference.ask(rules, &ref_fen, &[token], true, perft)?;
            if let Some(d) = compare(&game, &reply) {
                return Err(context(&history, d));
            }
            if let Some(depth) = perft {
                let ours = game.perft(depth);
                if reply.perft != Some(ours) {
                    return Err(context(
                        &history,
                        format!("perft {depth}: quill {ours} / reference {:?}", reply.perft),
                    ));
                }
            }
            ref_fen = reply.fen;
        }
    }
    Ok(turns_played)
}

#[test]
fn quill_agrees_with_the_python_reference() {
    // One reference process per rule set, the two rule sets in parallel.
    let Some(mut probe) = Reference::start() else {
        return;
    };
    if let Err(e) = probe.ask("apocalypse", "startpos", &[], false, None) {
        panic!("the reference does not answer: {e}");
    }
    drop(probe);
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let games = env("REFERENCE_COMPARE_GAMES").map_or(GAMES, |g| g as usize);
    let salt = env("REFERENCE_COMPARE_SEED").unwrap_or(0);
    let runs: Vec<_> = [
        (Variant::Apocalypse, 0x5EED_0001),
        (Variant::ApocalypseClassic, 0x5EED_0002),
    ]
    .into_iter()
    .map(|(variant, seed)| {
        std::thread::spawn(move || {
            let mut reference = Reference::start().expect("python3 started once already");
            run_rules(&mut reference, variant, seed ^ salt << 32, games)
                .map(|turns| (variant, turns))
        })
    })
    .collect();
    let mut failures = Vec::new();
    for run in runs {
        match run.join().expect("a comparison thread panicked") {
            Ok((variant, turns)) => eprintln!("{variant}: {games} games, {turns} turns agree"),
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
fn the_json_reader_reads_the_reference_format() {
    let j = Parser::parse(
        r#"{"fen": "5/5/p4/P4/5 w - - 0 1 0/0", "penalties": [0, 0], "result": null,
            "error": null, "perft": {"divide": {"a1b3|0000": 1}, "nodes": 12345678901},
            "legal": [["a1b3", "0000"], []], "x": true, "s": "a\"b\\c\u00e9"}"#,
    )
    .unwrap();
    assert_eq!(j.get("fen").str(), Some("5/5/p4/P4/5 w - - 0 1 0/0"));
    assert_eq!(j.get("result"), &Json::Null);
    assert_eq!(j.get("perft").get("nodes").u64(), Some(12_345_678_901));
    assert_eq!(
        j.get("legal"),
        &Json::Arr(vec![
            Json::Arr(vec![Json::Str("a1b3".into()), Json::Str("0000".into())]),
            Json::Arr(vec![])
        ])
    );
    assert_eq!(j.get("x"), &Json::Bool(true));
    assert_eq!(j.get("s").str(), Some("a\"b\\cé"));
    assert!(Parser::parse("{\"a\": }").is_err());
    assert!(Parser::parse("[1, 2] x").is_err());
}

#[test]
fn the_generator_is_seeded() {
    let (mut a, mut b) = (Rng::new(7), Rng::new(7));
    let xs: Vec<u64> = (0..5).map(|_| a.next()).collect();
    let ys: Vec<u64> = (0..5).map(|_| b.next()).collect();
    assert_eq!(xs, ys);
    let mut r = Rng::new(1);
    for _ in 0..100 {
        let fen = random_fen(&mut r);
        assert!(Game::from_fen(Variant::Apocalypse, &fen).is_ok(), "{fen}");
    }
}
