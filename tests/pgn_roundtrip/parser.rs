//! A parser of the PGN that `protocol-docs/pgn.md` specifies, written from the document and
//! not from the writer: tag pairs, movetext tokens, the start position from the tags, and the
//! games of a file; and what it refuses.

use quill::game::Game;
use quill::notation::{WireTurn, parse_turn};
use quill::variant::Variant;

/// One game read from PGN.
#[derive(Debug)]
pub(crate) struct Record {
    pub(crate) tags: Vec<(String, String)>,
    /// Each turn with its move number and whether it is Black's, and the comments after it.
    pub(crate) turns: Vec<Read>,
    /// The comment before the result: why the game ended.
    pub(crate) reason: String,
    /// The result token ending the movetext.
    pub(crate) result: String,
}

#[derive(Debug)]
pub(crate) struct Read {
    pub(crate) number: u64,
    pub(crate) black: bool,
    pub(crate) turn: WireTurn,
    pub(crate) comments: Vec<String>,
}

impl Record {
    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
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
pub(crate) fn start(tags: &Record) -> Result<(Variant, Game, u64, bool), String> {
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
pub(crate) fn parse(text: &str) -> Result<Vec<Record>, String> {
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
