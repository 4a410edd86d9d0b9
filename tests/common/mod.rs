//! Helpers shared by the integration tests, declared in each of them with `mod common;`:
//!
//! - the differential tests against the Python references (`reference_compare.rs`,
//!   `gladiator_compare.rs`, `pagan_compare.rs`): a seeded generator, just enough JSON to read
//!   the references' answers, the reference process run in its `serve` mode, and the pieces of
//!   the comparison loops that are the same for every variant;
//! - the referee tests (`referee.rs`, `misbehave_double.rs`): the misbehaving test double;
//! - the perft tests (`perft.rs`, `perft_gladiator.rs`, `perft_pagan.rs`): the `.perft` table
//!   parser and the loop comparing its counts with [`Game::perft`].
//!
//! Each test binary compiles this module but uses only part of it, hence the
//! `#[allow(dead_code)]` on the items.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread::JoinHandle;

use quill::game::Game;
use quill::notation::parse_turn;
use quill::variant::Variant;

/// A `quill` process with piped standard input and output, and the lines it prints.
#[allow(dead_code)]
pub struct Quill {
    /// The process.
    pub child: Child,
    /// Its standard input.
    pub stdin: ChildStdin,
    /// Each line it prints, in order; ends when it closes its output.
    pub lines: std::sync::mpsc::Receiver<String>,
}

/// The `quill` binary started with piped standard input and output, `args` on its command
/// line; a thread sends each line it prints (lossy UTF-8, with its `\n` when it had one) to
/// the receiver, which ends when the engine closes its output.
#[allow(dead_code)]
pub fn spawn_quill(args: &[&str]) -> Quill {
    spawn(args, true)
}

/// [`spawn_quill`] with its lines' `\n` taken off.
#[allow(dead_code)]
pub fn spawn_quill_lines(args: &[&str]) -> Quill {
    spawn(args, false)
}

fn spawn(args: &[&str], keep_newline: bool) -> Quill {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quill"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("quill starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if !keep_newline && buf.last() == Some(&b'\n') {
                        buf.pop();
                    }
                    if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Quill {
        child,
        stdin,
        lines,
    }
}

#[allow(dead_code)]
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The misbehaving test double (`examples/misbehave.rs`), next to `quill` in
/// `target/<profile>/examples`. `cargo test` builds it; a run of one test target does not, so it
/// is built here when missing or older than its source or than the `quill` binary (which is
/// rebuilt whenever the library changes).
#[allow(dead_code)]
pub fn misbehave_path() -> &'static PathBuf {
    static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let quill = PathBuf::from(env!("CARGO_BIN_EXE_quill"));
        let profile_dir = quill.parent().expect("quill is in a directory").to_owned();
        let path = profile_dir.join("examples").join("misbehave");
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let built = modified(&path);
        let stale = built.is_none()
            || built < modified(&root().join("examples/misbehave.rs"))
            || built < modified(&quill);
        if stale {
            let mut cargo = Command::new(env!("CARGO"));
            cargo.args(["build", "--example", "misbehave"]);
            if profile_dir.ends_with("release") {
                cargo.arg("--release");
            }
            assert!(cargo.status().expect("cargo runs").success());
        }
        path
    })
}

// ---------------------------------------------------------------------------------------------
// A tiny seeded generator (xorshift64*).
// ---------------------------------------------------------------------------------------------

#[allow(dead_code)]
pub struct Rng(u64);

#[allow(dead_code)]
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 32) % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Just enough JSON to read the references' answers.
// ---------------------------------------------------------------------------------------------

#[allow(dead_code)]
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number, as written.
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

#[allow(dead_code)]
impl Json {
    pub fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&Json::Null, |(_, v)| v),
            _ => &Json::Null,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub fn strings(&self) -> Option<Vec<String>> {
        match self {
            Json::Arr(items) => items.iter().map(|i| i.str().map(str::to_string)).collect(),
            _ => None,
        }
    }

    /// The keys of an object (a perft divide).
    pub fn keys(&self) -> Option<Vec<String>> {
        match self {
            Json::Obj(fields) => Some(fields.iter().map(|(k, _)| k.clone()).collect()),
            _ => None,
        }
    }

    /// The entries of an object of numbers (a perft divide).
    pub fn counts(&self) -> Option<Vec<(String, u64)>> {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .map(|(k, v)| Some((k.clone(), v.u64()?)))
                .collect(),
            _ => None,
        }
    }
}

#[allow(dead_code)]
pub struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

#[allow(dead_code)]
impl Parser<'_> {
    pub fn parse(text: &str) -> Result<Json, String> {
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
// A Python reference, run as `tests/reference/SCRIPT serve` (one JSON request a line, one JSON
// answer a line).
// ---------------------------------------------------------------------------------------------

#[allow(dead_code)]
pub struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// A reference's answer to one request, for the references that report a refused turn in
/// `error` and a perft divide in `perft` (Gladiator/Brawl, Pagan).
#[allow(dead_code)]
pub struct Answer<D> {
    /// The position reached (before the bad turn, if one was refused).
    pub fen: String,
    pub result: Option<String>,
    /// The refused turn (`"INDEX TOKEN"`), if any.
    pub error: Option<String>,
    /// The perft asked for: (nodes, the divide as read by the caller's `divide`).
    pub perft: Option<(u64, D)>,
}

#[allow(dead_code)]
impl Reference {
    /// Starts `tests/reference/{script} serve`; without `python3`, prints a note and returns
    /// `None` (the comparison is skipped), except under `CI=true`, where it fails.
    pub fn start(script: &str) -> Option<Reference> {
        let script = root().join("tests/reference").join(script);
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
                // CI must compare: a missing python3 there is a failure, not a skip.
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "python3 is not available ({e}) and CI=true: the reference comparison \
                     cannot be skipped"
                );
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

    /// Sends one request line; returns the answer, parsed, and its line as read.
    pub fn exchange(&mut self, request: &str) -> Result<(Json, String), String> {
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
        Ok((reply, line))
    }

    /// Sends one request and reads an [`Answer`]; an `error` starting with "request" (the
    /// reference did not understand the request) is an `Err`, a refused turn is not.
    pub fn ask_divide<D>(
        &mut self,
        request: &str,
        divide: fn(&Json) -> Option<D>,
    ) -> Result<Answer<D>, String> {
        let (reply, line) = self.exchange(request)?;
        let error = reply.get("error").str().map(str::to_string);
        if let Some(e) = error.as_deref().filter(|e| e.starts_with("request")) {
            return Err(format!("the reference rejected {request}: {e}"));
        }
        let (fen, result) = fen_and_result(&reply, &line)?;
        let perft = match reply.get("perft") {
            Json::Null => None,
            p => Some((
                p.get("nodes").u64().ok_or("bad perft nodes")?,
                divide(p.get("divide")).ok_or("bad perft divide")?,
            )),
        };
        Ok(Answer {
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

/// The `fen` (required) and `result` of an answer; `line` is the answer as read, for the error.
#[allow(dead_code)]
pub fn fen_and_result(reply: &Json, line: &str) -> Result<(String, Option<String>), String> {
    let fen = reply
        .get("fen")
        .str()
        .ok_or_else(|| format!("no fen in {line}"))?
        .to_string();
    let result = reply.get("result").str().map(str::to_string);
    Ok((fen, result))
}

/// The items as the inside of a JSON array of strings: `"a", "b"`.
#[allow(dead_code)]
pub fn quoted<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|t| format!("\"{}\"", t.as_ref()))
        .collect();
    items.join(", ")
}

/// A request object: `fields` (JSON members, without the braces) and, with `perft`, the perft
/// depth asked for.
#[allow(dead_code)]
pub fn request(fields: &str, perft: Option<u32>) -> String {
    let mut request = format!("{{{fields}");
    if let Some(depth) = perft {
        request.push_str(&format!(", \"perft\": {depth}"));
    }
    request.push('}');
    request
}

/// Starts the reference (`script`) once and checks that it answers `probe`; `false` without
/// `python3` (the note is printed and the comparison skipped).
#[allow(dead_code)]
pub fn reference_answers<T>(
    script: &str,
    probe: impl FnOnce(&mut Reference) -> Result<T, String>,
) -> bool {
    let Some(mut reference) = Reference::start(script) else {
        return false;
    };
    if let Err(e) = probe(&mut reference) {
        panic!("the reference does not answer: {e}");
    }
    true
}

/// The games per run (`games_var` overrides `default`) and the seed salt (`seed_var`, else 0)
/// from the environment.
#[allow(dead_code)]
pub fn games_and_salt(games_var: &str, seed_var: &str, default: usize) -> (usize, u64) {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let games = env(games_var).map_or(default, |g| g as usize);
    let salt = env(seed_var).unwrap_or(0);
    (games, salt)
}

/// Runs `work` on each of `jobs` in parallel, each in a thread of its own with a reference
/// process of its own (`script`, which has already been started once). Returns the results of
/// the runs that agreed, in order, and the divergences the others reported.
#[allow(dead_code)]
pub fn in_parallel<J, T, W>(
    script: &'static str,
    jobs: impl IntoIterator<Item = J>,
    work: W,
) -> (Vec<T>, Vec<String>)
where
    J: Send + 'static,
    T: Send + 'static,
    W: Fn(&mut Reference, J) -> Result<T, String> + Send + Clone + 'static,
{
    let runs: Vec<JoinHandle<Result<T, String>>> = jobs
        .into_iter()
        .map(|job| {
            let work = work.clone();
            std::thread::spawn(move || {
                let mut reference = Reference::start(script).expect("python3 started once already");
                work(&mut reference, job)
            })
        })
        .collect();
    let mut done = Vec::new();
    let mut failures = Vec::new();
    for run in runs {
        match run.join().expect("a comparison thread panicked") {
            Ok(t) => done.push(t),
            Err(e) => failures.push(e),
        }
    }
    (done, failures)
}

#[allow(dead_code)]
pub fn assert_no_divergence(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "Quill and the reference disagree:\n{}",
        failures.join("\n\n")
    );
}

/// The start of game `game_no` of a run: `start` for every `every`-th game from the first,
/// else `random(rng)`.
#[allow(dead_code)]
pub fn start_fen(
    rng: &mut Rng,
    game_no: usize,
    every: usize,
    start: &str,
    random: impl FnOnce(&mut Rng) -> String,
) -> String {
    if game_no.is_multiple_of(every) {
        start.to_string()
    } else {
        random(rng)
    }
}

/// A game of a comparison run as far as it went: its name in the report, its start and the
/// turns played since.
#[allow(dead_code)]
pub struct Trail {
    label: String,
    start_fen: String,
    pub history: Vec<String>,
}

#[allow(dead_code)]
impl Trail {
    pub fn new(label: String, start_fen: &str) -> Trail {
        Trail {
            label,
            start_fen: start_fen.to_string(),
            history: Vec::new(),
        }
    }

    /// A divergence, with the game that led to it.
    pub fn divergence(&self, what: String) -> String {
        format!(
            "{}: position fen {} moves {}\n  {what}",
            self.label,
            self.start_fen,
            self.history.join(" ")
        )
    }
}

/// One rank of a FEN board: pieces, `*` holes and runs of empty squares (`None`) as digits.
#[allow(dead_code)]
pub fn fen_row(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut row = String::new();
    let mut empty = 0;
    for cell in cells {
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
    row
}

/// `piece` (an upper-case letter) as a piece of `side`: 0 White (upper case), 1 Black (lower).
#[allow(dead_code)]
pub fn piece_of(side: usize, piece: char) -> char {
    if side == 1 {
        piece.to_ascii_lowercase()
    } else {
        piece
    }
}

/// A FEN board from `board[rank][file]`, rank 0 at the bottom (written last).
#[allow(dead_code)]
pub fn fen_board<const FILES: usize>(board: &[[Option<char>; FILES]]) -> String {
    let rows: Vec<String> = board
        .iter()
        .rev()
        .map(|rank| fen_row(rank.iter().copied()))
        .collect();
    rows.join("/")
}

/// A FEN from its board: a random side to move, no castling or en passant, a quiet-move clock
/// in `0..clocks` and a move number in `1..=moves`.
#[allow(dead_code)]
pub fn fen_random_side(rng: &mut Rng, board: &str, clocks: usize, moves: usize) -> String {
    format!(
        "{board} {} - - {} {}",
        if rng.chance(50) { "w" } else { "b" },
        rng.below(clocks),
        1 + rng.below(moves)
    )
}

/// One of the `legal` turns at random or, without any, two random squares.
#[allow(dead_code)]
pub fn some_legal(
    rng: &mut Rng,
    legal: &[String],
    random_square: fn(&mut Rng) -> String,
) -> String {
    if legal.is_empty() {
        format!("{}{}", random_square(rng), random_square(rng))
    } else {
        rng.pick(legal).clone()
    }
}

/// The items of `a` that `b` lacks.
#[allow(dead_code)]
pub fn only_in<'a, T: PartialEq>(a: &'a [T], b: &[T]) -> Vec<&'a T> {
    a.iter().filter(|m| !b.contains(m)).collect()
}

/// Compares Quill's FEN and result with the reference's; the differences.
#[allow(dead_code)]
pub fn position_diffs(game: &Game, fen: &str, result: Option<&str>) -> Vec<String> {
    let mut diffs = Vec::new();
    if game.fen() != fen {
        diffs.push(format!("FEN: quill {} / reference {}", game.fen(), fen));
    }
    let outcome = game.outcome();
    let ours = outcome.as_ref().map(|o| o.result().to_string());
    if ours.as_deref() != result {
        diffs.push(format!(
            "result: quill {} / reference {}",
            outcome.map_or("none".to_string(), |o| o.to_string()),
            result.unwrap_or("none")
        ));
    }
    diffs
}

/// The differences joined, or `None` when there are none.
#[allow(dead_code)]
pub fn joined(diffs: Vec<String>) -> Option<String> {
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

/// A legal turn of `legal` or, with probability `illegal_percent` (always when the game is over
/// or has no legal turn), a usually illegal token from `random_token`.
#[allow(dead_code)]
pub fn choose_token(
    rng: &mut Rng,
    legal: &[String],
    finished: bool,
    illegal_percent: usize,
    random_token: fn(&mut Rng, &[String]) -> String,
) -> String {
    let random = finished || legal.is_empty() || rng.chance(illegal_percent);
    if random {
        random_token(rng, legal)
    } else {
        rng.pick(legal).clone()
    }
}

/// Quill's game after `token`, or why Quill refuses it.
#[allow(dead_code)]
pub fn try_play(game: &Game, token: &str) -> Result<Game, String> {
    match parse_turn(token) {
        None => Err(format!("'{token}' is not a move")),
        Some(turn) => {
            let mut next = game.clone();
            next.play(&turn).map(|_| next).map_err(|e| e.to_string())
        }
    }
}

/// Plays `token` in Quill's `game` and compares with the reference's `reply` to it, asked from
/// the reference's position `ref_before`. When both play it (and Quill's `legal` lists it),
/// advances `game` and `trail` and returns `true`; when both refuse it (and the reference
/// stayed where it was), returns `false`; else the divergence.
#[allow(dead_code)]
pub fn both_agree<D>(
    game: &mut Game,
    trail: &mut Trail,
    token: String,
    reply: &Answer<D>,
    ref_before: &str,
    legal: &[String],
) -> Result<bool, String> {
    let what = match (try_play(game, &token), &reply.error) {
        (Ok(next), None) => {
            if legal.contains(&token) {
                *game = next;
                trail.history.push(token);
                return Ok(true);
            }
            format!("quill plays '{token}', which legal_moves does not list")
        }
        (Err(_), Some(_)) => {
            // Both refused; the reference stayed where it was.
            if reply.fen == ref_before {
                return Ok(false);
            }
            "the reference moved on an error".to_string()
        }
        (Ok(_), Some(e)) => format!("quill accepts '{token}', the reference refuses it ({e})"),
        (Err(e), None) => format!("the reference accepts '{token}', quill refuses it: {e}"),
    };
    Err(trail.divergence(what))
}

// ---------------------------------------------------------------------------------------------
// perft tables (`fixtures/perft/VARIANT.perft`).
//
// The format is shakmaty's: blocks separated by blank lines, each block an `id NAME` line, a
// `fen FEN` line and `perft DEPTH NODES` lines. `#` starts a comment line.
// ---------------------------------------------------------------------------------------------

/// One position of a perft table.
#[allow(dead_code)]
#[derive(Debug, Default, PartialEq)]
pub struct Block {
    pub id: String,
    pub fen: String,
    /// (line number, depth, expected nodes)
    pub counts: Vec<(usize, u32, u64)>,
    /// The line the block starts on.
    pub line: usize,
}

/// Parses a perft table; a malformed line (a second `id` or `fen` in one block included) is an
/// error naming its line.
#[allow(dead_code)]
pub fn parse_perft(text: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut current: Option<Block> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            blocks.extend(current.take());
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        let block = current.get_or_insert_with(|| Block {
            line: n,
            ..Block::default()
        });
        match key {
            "id" if block.id.is_empty() => block.id = value.to_string(),
            "fen" if block.fen.is_empty() => block.fen = value.to_string(),
            "id" | "fen" => return Err(format!("line {n}: a second '{key}' in one block")),
            "perft" => {
                let mut parts = value.split_whitespace();
                let (Some(d), Some(c), None) = (parts.next(), parts.next(), parts.next()) else {
                    return Err(format!("line {n}: expected `perft DEPTH NODES`"));
                };
                let depth = d
                    .parse()
                    .map_err(|_| format!("line {n}: bad depth '{d}'"))?;
                let nodes = c
                    .parse()
                    .map_err(|_| format!("line {n}: bad count '{c}'"))?;
                block.counts.push((n, depth, nodes));
            }
            _ => return Err(format!("line {n}: unknown key '{key}'")),
        }
    }
    blocks.extend(current);
    for b in &blocks {
        if b.id.is_empty() || b.fen.is_empty() || b.counts.is_empty() {
            return Err(format!(
                "line {}: a block needs an id, a fen and at least one perft line",
                b.line
            ));
        }
    }
    Ok(blocks)
}

/// The parser test of every perft test file, with `fen` as the first block's FEN.
#[allow(dead_code)]
pub fn check_the_parser_reads_blocks(fen: &str) {
    let text =
        format!("# header\nid a\nfen {fen}\nperft 1 0\n\nid b\nfen x\nperft 1 2\nperft 2 3\n");
    let blocks = parse_perft(&text).unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].id, "a");
    assert_eq!(blocks[0].fen, fen);
    assert_eq!(blocks[1].fen, "x");
    assert_eq!(blocks[1].counts, vec![(8, 1, 2), (9, 2, 3)]);
    assert!(parse_perft("id a\nfen x\nperft one 2\n").is_err());
    assert!(parse_perft("id a\nfen x\nperft 1\n").is_err());
    assert!(parse_perft("id a\nfen x\n").is_err());
    assert!(parse_perft("id a\nid b\nfen x\nperft 1 1\n").is_err());
    assert!(parse_perft("bogus line\n").is_err());
}

/// `fixtures/perft/{name}.perft`.
#[allow(dead_code)]
pub fn perft_table(name: &str) -> PathBuf {
    root().join("fixtures/perft").join(format!("{name}.perft"))
}

/// What [`check_perft_file`] requires of a table besides its counts.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug)]
pub struct PerftChecks {
    /// The fewest positions the table must hold: 1, or the start and at least `n - 1` others.
    pub min_positions: usize,
    /// The first block must have the id `start`.
    pub start_first: bool,
    /// Every block's FEN must read back unchanged from [`Game::from_fen`].
    pub fen_reads_back: bool,
}

/// [`check_perft_file`] on the table of the variant `name`; the number of counts checked.
#[allow(dead_code)]
pub fn check_perft_variant(name: &str, checks: PerftChecks) -> usize {
    let variant = Variant::from_name(name).unwrap_or_else(|| panic!("no variant {name}"));
    check_perft_file(&perft_table(name), variant, checks)
}

/// Reads the perft table at `path`, checks it with `checks` and compares each of its counts
/// with [`Game::perft`] in `variant`; panics listing every mismatch, not only the first.
/// Returns the number of counts checked.
#[allow(dead_code)]
pub fn check_perft_file(path: &Path, variant: Variant, checks: PerftChecks) -> usize {
    let shown = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{shown}: {e}"));
    let blocks = parse_perft(&text).unwrap_or_else(|e| panic!("{shown}: {e}"));
    if checks.min_positions <= 1 {
        assert!(!blocks.is_empty(), "{shown}: no positions");
    } else {
        assert!(
            blocks.len() >= checks.min_positions,
            "{shown}: the start and at least {} other positions",
            checks.min_positions - 1
        );
    }
    if checks.start_first {
        assert_eq!(blocks[0].id, "start", "{shown}: the start comes first");
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for block in &blocks {
        let game = match Game::from_fen(variant, &block.fen) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{shown}:{}: {} refused: {e}", block.line, block.id));
                continue;
            }
        };
        if checks.fen_reads_back && game.fen() != block.fen {
            failures.push(format!(
                "{shown}:{}: {} reads back as {}",
                block.line,
                block.id,
                game.fen()
            ));
        }
        for &(line, depth, expected) in &block.counts {
            checked += 1;
            let got = game.perft(depth);
            if got != expected {
                failures.push(format!(
                    "{shown}:{line}: {} ({}) perft {depth}: expected {expected}, got {got}",
                    block.id, block.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} perft counts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked
}
