//! The nom parser of a CECP engine's lines ([`parse_engine_line`]), the inverse of their
//! `Display`.

use super::super::super::uci::parse_strategy;
use super::super::super::{Args, CommandError, whole_i64, whole_u32, whole_u64};
use super::super::WireResult;
use super::{CecpMove, EngineLine, Feature, FeatureValue, Pv, Thinking};
use crate::notation::{WireTurn, parse_move, parse_turn};

/// Parses one line of a CECP engine's output.
///
/// # Errors
/// The line is empty, its first word is no engine line of CECP (`Unknown`), or its arguments
/// are not those of the line (`Malformed`).
pub fn parse_engine_line(line: &str) -> Result<EngineLine, CommandError> {
    let mut args = Args::split(line)?;
    let rest = |args: &mut Args<'_>, what: &str| -> Result<String, CommandError> {
        Ok(args.nonempty_rest(what)?.to_owned())
    };
    let parsed = match args.command() {
        "feature" => EngineLine::Feature(parse_features(&mut args)?),
        "move" => EngineLine::Move(args.value("", "a move", CecpMove::from_token)?),
        "Illegal" => parse_illegal(&mut args)?,
        "Error" => parse_error(&mut args)?,
        "tellusererror" => EngineLine::TellUserError(rest(&mut args, "a text")?),
        "telluser" => EngineLine::TellUser(rest(&mut args, "a text")?),
        "resign" => EngineLine::Resign,
        "stat01:" => EngineLine::Stat01 {
            time: args.number("time", whole_u64)?,
            nodes: args.number("nodes", whole_u64)?,
            depth: args.number("depth", whole_u32)?,
            left: args.number("moves left", whole_u32)?,
            total: args.number("total moves", whole_u32)?,
        },
        "pong" => EngineLine::Pong(args.single("an argument")?.to_owned()),
        "commit" => EngineLine::Commit(args.single("a digest")?.to_owned()),
        "reveal" => EngineLine::Reveal {
            mv: args.value("", "a move", parse_move)?,
            nonce: args.single("a nonce")?.to_owned(),
        },
        "#" => {
            let text = args.take_rest();
            match text.strip_prefix("strategy ").and_then(parse_strategy) {
                Some(support) => EngineLine::Strategy(support),
                None => EngineLine::Comment(text.to_owned()),
            }
        }
        "Hint:" => EngineLine::Hint(args.value("", "a move", parse_move)?),
        "setup" => EngineLine::Setup(rest(&mut args, "a board")?),
        "piece" => EngineLine::Piece(rest(&mut args, "a piece")?),
        "highlight" => EngineLine::Highlight(rest(&mut args, "squares")?),
        word => match WireResult::from_token(word) {
            Some(result) => parse_result(result, &mut args)?,
            None if word.starts_with(|c: char| c.is_ascii_digit()) => {
                EngineLine::Thinking(parse_thinking(word, &mut args)?)
            }
            None => return Err(CommandError::Unknown(word.to_owned())),
        },
    };
    args.finish()?;
    Ok(parsed)
}

/// Parses the pairs of a `feature` line.
fn parse_features(args: &mut Args<'_>) -> Result<Vec<Feature>, CommandError> {
    let mut features = Vec::new();
    let mut text = args.take_rest();
    while !text.is_empty() {
        let (name, after) = text
            .split_once('=')
            .filter(|(name, _)| !name.is_empty() && !name.contains(char::is_whitespace))
            .ok_or_else(|| args.malformed(format!("expected NAME=VALUE at '{text}'")))?;
        let (value, after) = if let Some(quoted) = after.strip_prefix('"') {
            let (inner, after) = quoted
                .split_once('"')
                .ok_or_else(|| args.malformed(format!("unclosed quote in '{name}'")))?;
            (FeatureValue::Quoted(inner.to_owned()), after)
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            let (bare, after) = after.split_at(end);
            if bare.is_empty() {
                return Err(args.malformed(format!("'{name}' needs a value")));
            }
            (FeatureValue::Bare(bare.to_owned()), after)
        };
        if !after.is_empty() && !after.starts_with(char::is_whitespace) {
            return Err(args.malformed(format!("expected a space after '{name}'")));
        }
        features.push(Feature {
            name: name.to_owned(),
            value,
        });
        text = after.trim_start();
    }
    if features.is_empty() {
        return Err(args.malformed("needs at least one feature"));
    }
    Ok(features)
}

/// Parses `move (REASON): MOVE` or `move: MOVE` after `Illegal`.
fn parse_illegal(args: &mut Args<'_>) -> Result<EngineLine, CommandError> {
    let text = args.take_rest();
    let after = text
        .strip_prefix("move")
        .ok_or_else(|| args.malformed("needs 'move'"))?;
    let (reason, mv) = if let Some(mv) = after.strip_prefix(": ") {
        (None, mv)
    } else {
        let (reason, mv) = after
            .strip_prefix(" (")
            .and_then(|r| r.rsplit_once("): "))
            .ok_or_else(|| args.malformed("needs ': MOVE' or ' (REASON): MOVE'"))?;
        (Some(reason.to_owned()), mv)
    };
    if mv.is_empty() || mv.contains(char::is_whitespace) {
        return Err(args.malformed(format!("needs one move, got '{mv}'")));
    }
    Ok(EngineLine::IllegalMove {
        reason,
        mv: mv.to_owned(),
    })
}

/// Parses `(KIND): COMMAND` after `Error`.
fn parse_error(args: &mut Args<'_>) -> Result<EngineLine, CommandError> {
    let text = args.take_rest();
    let (kind, command) = text
        .strip_prefix('(')
        .and_then(|t| t.split_once("): "))
        .ok_or_else(|| args.malformed("needs '(KIND): COMMAND'"))?;
    if command.is_empty() {
        return Err(args.malformed("needs a command"));
    }
    Ok(EngineLine::Error {
        kind: kind.to_owned(),
        command: command.to_owned(),
    })
}

/// Parses what follows a result: nothing, or `{COMMENT}`.
fn parse_result(result: WireResult, args: &mut Args<'_>) -> Result<EngineLine, CommandError> {
    let rest = args.take_rest();
    let comment = if rest.is_empty() {
        None
    } else {
        let inner = rest
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .filter(|inner| !inner.contains('}'))
            .ok_or_else(|| {
                args.malformed(format!("the comment must be in braces, got '{rest}'"))
            })?;
        Some(inner.to_owned())
    };
    Ok(EngineLine::Result { result, comment })
}

/// Parses a thinking line whose first word (the depth, maybe with a `.` after it) is `first`.
fn parse_thinking(first: &str, args: &mut Args<'_>) -> Result<Thinking, CommandError> {
    let depth = whole_u32(first.strip_suffix('.').unwrap_or(first))
        .ok_or_else(|| args.malformed(format!("depth needs a whole number, got '{first}'")))?;
    let score = args.number("score", whole_i64)?;
    let time = args.number("time", whole_u64)?;
    let nodes = args.number("nodes", whole_u64)?;
    let text = args.take_rest();
    let turns: Option<Vec<WireTurn>> = text.split_whitespace().map(parse_turn).collect();
    // Turns only when they print back to the text as written.
    let pv = match turns.map(Pv::Turns) {
        Some(pv) if pv.to_string() == text => pv,
        _ => Pv::Text(text.to_owned()),
    };
    Ok(Thinking {
        depth,
        score,
        time,
        nodes,
        pv,
    })
}
