//! The PGN that `quill match` writes reads back into the same games: a parser of the format
//! that `protocol-docs/pgn.md` specifies (written here from the document, not from the writer)
//! reads every game of short matches in each variant, sealed included; the turns it reads are
//! the turns the referee sent the engines (taken from the dialogue logs), and replayed through
//! Quill's rules they reach the same final position and the result that the PGN and the results
//! file record.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use quill::game::Game;
use quill::notation::{WireTurn, parse_turn};
use quill::referee::results::read_all;
use quill::variant::{Side, Variant};

const QUILL: &str = env!("CARGO_BIN_EXE_quill");

/// One game read from PGN.
#[derive(Debug)]
struct Record {
    tags: Vec<(String, String)>,
    /// Each turn with its move number and whether it is Black's, and the comments after it.
    turns: Vec<Read>,
    /// The comment before the result: why the game ended.
    reason: String,
    /// The result token ending the movetext.
    result: String,
}

#[derive(Debug)]
struct Read {
    number: u64,
    black: bool,
    turn: WireTurn,
    comments: Vec<String>,
}

impl Record {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A tag pair line `[Name "value"]`, with `\"` and `\\` unescaped.
fn tag_line(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("not a tag pair: {line:?}"))?;
    let (name, value) = inner
        .split_once(' ')
        .ok_or_else(|| format!("no value: {line:?}"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("bad tag name: {line:?}"));
    }
    let quoted = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("unquoted value: {line:?}"))?;
    let mut out = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().ok_or("a lone backslash")?),
            '"' => return Err(format!("unescaped quote: {line:?}")),
            c => out.push(c),
        }
    }
    Ok((name.to_string(), out))
}

#[derive(Debug, PartialEq)]
enum Token {
    Number(u64, bool),
    Comment(String),
    Result(String),
}

/// The movetext's tokens: move number indications, comments and the result. Anything else
/// (a SAN move, a NAG, a variation) is not part of Quill's format.
fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(out);
        }
        if let Some(r) = rest.strip_prefix('{') {
            let end = r.find('}').ok_or("an unterminated comment")?;
            out.push(Token::Comment(r[..end].to_string()));
            rest = &r[end + 1..];
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '{')
            .unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
            out.push(Token::Result(word.to_string()));
        } else if let Some((n, black)) = word
            .strip_suffix("...")
            .map(|n| (n, true))
            .or_else(|| word.strip_suffix('.').map(|n| (n, false)))
            .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            out.push(Token::Number(
                n.parse().map_err(|e| format!("{word}: {e}"))?,
                black,
            ));
        } else {
            return Err(format!("unexpected movetext token {word:?}"));
        }
    }
}

/// The variant, its start position and the move number and side of its first turn, from the
/// tags (the FEN's sixth field is the fullmove number; in an alternating game its second says
/// who moves).
fn start(tags: &Record) -> Result<(Variant, Game, u64, bool), String> {
    let variant = tags
        .tag("Variant")
        .and_then(Variant::from_name)
        .ok_or("no known [Variant]")?;
    match (tags.tag("SetUp"), tags.tag("FEN")) {
        (None, None) => Ok((variant, Game::start(variant), 1, false)),
        (Some("1"), Some(fen)) => {
            let game = Game::from_fen(variant, fen).map_err(|e| format!("[FEN]: {e:?}"))?;
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let number = fields
                .get(5)
                .and_then(|n| n.parse().ok())
                .ok_or("no fullmove number in [FEN]")?;
            let black = !variant.is_sealed() && fields.get(1) == Some(&"b");
            Ok((variant, game, number, black))
        }
        _ => Err("[SetUp \"1\"] and [FEN] go together".to_string()),
    }
}

/// Reads every game of a PGN file.
fn parse(text: &str) -> Result<Vec<Record>, String> {
    let mut games = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: String| format!("line {}: {e}", n + 1);
        let mut tags = vec![tag_line(line).map_err(at)?];
        while let Some((n, l)) = lines.next_if(|(_, l)| l.starts_with('[')) {
            tags.push(tag_line(l).map_err(|e| format!("line {}: {e}", n + 1))?);
        }
        match lines.next() {
            Some((_, "")) => {}
            other => return Err(at(format!("no empty line after the tags: {other:?}"))),
        }
        let mut movetext = String::new();
        while let Some((_, l)) = lines.next_if(|(_, l)| !l.is_empty()) {
            movetext.push_str(l);
            movetext.push('\n');
        }
        let mut record = Record {
            tags,
            turns: Vec::new(),
            reason: String::new(),
            result: String::new(),
        };
        read_movetext(&mut record, &movetext).map_err(at)?;
        games.push(record);
    }
    Ok(games)
}

/// The turns, comments and result of one game's movetext.
fn read_movetext(record: &mut Record, movetext: &str) -> Result<(), String> {
    let (variant, _, mut number, mut black) = start(record)?;
    let mut toks = tokens(movetext)?.into_iter().peekable();
    let mut pending: Vec<String> = Vec::new();
    while let Some(t) = toks.next() {
        match t {
            Token::Number(n, b) => {
                if (n, b) != (number, black) {
                    return Err(format!(
                        "move number {n}{} where {number}{} was due",
                        if b { "..." } else { "." },
                        if black { "..." } else { "." }
                    ));
                }
                let Some(Token::Comment(text)) = toks.next() else {
                    return Err(format!("move number {n} not followed by its turn"));
                };
                let turn = parse_turn(&text).ok_or_else(|| format!("not a turn: {text:?}"))?;
                if matches!(turn, WireTurn::Joint(..)) != variant.is_sealed() {
                    return Err(format!("{text}: the wrong kind of turn for {variant:?}"));
                }
                if let Some(last) = record.turns.last_mut() {
                    last.comments.append(&mut pending);
                } else if !pending.is_empty() {
                    return Err(format!("comments before the first turn: {pending:?}"));
                }
                record.turns.push(Read {
                    number,
                    black,
                    turn,
                    comments: Vec::new(),
                });
                if variant.is_sealed() || black {
                    number += 1;
                    black = false;
                } else {
                    black = true;
                }
            }
            Token::Comment(c) => pending.push(c),
            Token::Result(r) => {
                if toks.peek().is_some() {
                    return Err("tokens after the result".to_string());
                }
                record.reason = pending.pop().ok_or("no reason comment before the result")?;
                if let Some(last) = record.turns.last_mut() {
                    last.comments.append(&mut pending);
                }
                record.result = r;
            }
        }
    }
    if record.result.is_empty() {
        return Err("no result".to_string());
    }
    Ok(())
}

/// The turns the referee sent, from a UCI dialogue log: the `moves` of the last `position`
/// line, then the answers that came after it (one in an alternating game; White's and Black's,
/// seats 0 and 1 of the log in White's and Black's colours, in a sealed one).
fn logged_turns(log: &str, sealed: bool, white_seat: char) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    let last = lines
        .iter()
        .rposition(|l| l.contains(" > position "))
        .expect("a position line");
    let mut turns: Vec<String> = lines[last]
        .split_once(" moves ")
        .map(|(_, m)| m.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let answers: Vec<(char, String)> = lines[last..]
        .iter()
        .filter_map(|l| {
            let seat = l.chars().next()?;
            let mv = l.split_once(" < bestmove ")?.1.split_whitespace().next()?;
            Some((seat, mv.to_string()))
        })
        .collect();
    if sealed {
        let of = |white: bool| {
            answers
                .iter()
                .find(|(s, _)| (*s == white_seat) == white)
                .map(|(_, m)| m.clone())
        };
        if let (Some(w), Some(b)) = (of(true), of(false)) {
            turns.push(format!("{w}|{b}"));
        }
    } else if let Some((_, m)) = answers.first() {
        turns.push(m.clone());
    }
    turns
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quill-pgn-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays a match and checks its PGN game by game; returns how many games and turns it read.
fn check_match(name: &str, variant: &str, engines: [String; 2], args: &[&str]) -> (usize, usize) {
    let dir = scratch(name);
    let out = Command::new(QUILL)
        .arg("match")
        .args([
            "--variant",
            variant,
            "--pgn",
            "games.pgn",
            "--log-dir",
            "logs",
        ])
        .args(["--engine", &engines[0], "--engine", &engines[1]])
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("quill match runs");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(dir.join("games.pgn")).unwrap();
    let games = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let records = read_all(&dir.join("match-results.txt")).unwrap();
    assert_eq!(games.len(), records.len(), "{name}: a PGN game per record");
    let mut turns = 0;
    for (g, r) in games.iter().zip(&records) {
        let what = format!("{name} game {}", r.game);
        check_game(&dir, &what, g, r.game, r.result.as_str());
        turns += g.turns.len();
    }
    fs::remove_dir_all(&dir).unwrap();
    (games.len(), turns)
}

fn check_game(dir: &Path, what: &str, g: &Record, index: u32, recorded: &str) {
    // The headers: the Seven Tag Roster first and in order, then the rest.
    let names: Vec<&str> = g.tags.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names[..7],
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
        "{what}"
    );
    assert_eq!(
        g.tag("Round"),
        Some((index + 1).to_string().as_str()),
        "{what}"
    );
    assert_eq!(g.tag("Result"), Some(g.result.as_str()), "{what}");
    assert_eq!(
        g.result, recorded,
        "{what}: the PGN's result is the results file's"
    );
    let (variant, mut game, ..) = start(g).unwrap();
    let plies = g.turns.len() * if variant.is_sealed() { 2 } else { 1 };
    assert_eq!(
        g.tag("PlyCount"),
        Some(plies.to_string().as_str()),
        "{what}"
    );
    // The turns are those the engines were sent.
    let log = fs::read_to_string(dir.join(format!("logs/game-{index}.log"))).unwrap();
    // The log's seat 0 is White.
    let white_seat = '0';
    let read: Vec<String> = g.turns.iter().map(|t| t.turn.to_string()).collect();
    assert_eq!(
        read,
        logged_turns(&log, variant.is_sealed(), white_seat),
        "{what}: the PGN's turns are the game's"
    );
    // Replayed, they reach the position the engines were last sent (plus its last turn), and
    // the penalties are the comments.
    for t in &g.turns {
        assert!(game.outcome().is_none(), "{what}: a turn after the end");
        let side = if t.black { Side::Black } else { Side::White };
        if !variant.is_sealed() {
            assert_eq!(game.side_to_move(), Some(side), "{what}: {}", t.number);
        }
        let penalties = game
            .play(&t.turn)
            .unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let expected: Vec<String> = penalties
            .iter()
            .map(|p| format!("penalty {} {} ({})", p.side.word(), p.mv, p.reason))
            .collect();
        let written: Vec<String> = t
            .comments
            .iter()
            .filter(|c| c.starts_with("penalty "))
            .flat_map(|c| c.split("; ").map(str::to_string))
            .collect();
        assert_eq!(written, expected, "{what}: penalties at {}", t.number);
    }
    match game.outcome() {
        Some(o) => {
            assert_eq!(o.result(), g.result, "{what}: the rules' result");
            assert_eq!(o.reason, g.reason, "{what}");
            assert_eq!(g.tag("Termination"), Some("normal"), "{what}");
        }
        None => assert_eq!(g.tag("Termination"), Some("adjudication"), "{what}"),
    }
    let mut again = start(g).unwrap().1;
    for t in logged_turns(&log, variant.is_sealed(), white_seat) {
        again.play(&parse_turn(&t).unwrap()).unwrap();
    }
    assert_eq!(game.fen(), again.fen(), "{what}: the final position");
}

fn quill(depth: u32) -> String {
    format!("cmd={QUILL} depth={depth}")
}

#[test]
fn every_variant_reads_back_into_the_same_games() {
    let mut total = (0, 0);
    let runs: &[(&str, &str, &[&str])] = &[
        // From the start position (no FEN), sealed.
        (
            "apocalypse-start",
            "apocalypse",
            &["--games", "2", "--opening-turns", "0", "--max-turns", "12"],
        ),
        // FEN openings: the move numbers start at the FEN's.
        (
            "classic",
            "apocalypse-classic",
            &["--games", "2", "--max-turns", "10"],
        ),
        (
            "gladiator",
            "gladiator",
            &["--games", "2", "--max-turns", "9"],
        ),
        // One opening turn: Black moves first (`1...`).
        (
            "brawl-black",
            "brawl",
            &["--games", "2", "--opening-turns", "1", "--max-turns", "9"],
        ),
        // Three opening turns: `2...`.
        (
            "pagan",
            "pagan",
            &["--games", "2", "--opening-turns", "3", "--max-turns", "12"],
        ),
    ];
    for (name, variant, args) in runs {
        let (g, t) = check_match(name, variant, [quill(1), quill(2)], args);
        total.0 += g;
        total.1 += t;
    }
    // Penalties, and a sealed game the rules end: the test double's illegal moves.
    let d = common::misbehave_path().display().to_string();
    let (g, t) = check_match(
        "penalties",
        "apocalypse",
        [
            format!("cmd=\"{d} illegal --at 1\" name=bad"),
            format!("cmd=\"{d} good\" name=good"),
        ],
        &["--games", "2", "--opening-turns", "0"],
    );
    total.0 += g;
    total.1 += t;
    eprintln!("read {} games, {} turns", total.0, total.1);
    assert_eq!(total.0, 12);
}

#[test]
fn the_parser_refuses_what_the_format_is_not() {
    let head = "[Event \"e\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"1\"]\n[White \"a\"]\n\
                [Black \"b\"]\n[Result \"*\"]\n[Variant \"apocalypse\"]\n[SetUp \"1\"]\n\
                [FEN \"npppn/p3p/5/P3P/NPPPN w - - 0 3 0/0\"]\n\n";
    let ok = format!("{head}3. {{a2a3|e4e3}} 4. {{b1c3|a4a3}} {{unfinished}} *\n");
    let games = parse(&ok).unwrap();
    assert_eq!(games[0].turns.len(), 2);
    assert_eq!(games[0].turns[1].number, 4);
    assert_eq!(games[0].reason, "unfinished");
    for bad in [
        "1. {a2a3|e4e3} {x} *",   // the numbers restart
        "3. a2a3|e4e3 {x} *",     // a bare token
        "3. {a2a3} {x} *",        // not a joint turn
        "3. {a2a3|e4e3} *",       // no reason
        "3... {a2a3|e4e3} {x} *", // a sealed turn is White's number
        "3. {a2a3|e4e3} {x}",     // no result
    ] {
        assert!(parse(&format!("{head}{bad}\n")).is_err(), "{bad}");
    }
    let alt = "[Event \"e\"]\n[Variant \"gladiator\"]\n[SetUp \"1\"]\n\
               [FEN \"rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR b - - 0 5\"]\n\n";
    assert!(parse(&format!("{alt}5... {{c7c6}} 6. {{c2c3}} {{x}} *\n")).is_ok());
    assert!(parse(&format!("{alt}5... {{c7c6}} 5... {{c2c3}} {{x}} *\n")).is_err());
    assert!(parse(&format!("{alt}5. {{c7c6}} {{x}} *\n")).is_err());
}
