//! What an engine's line means to a referee, read with the protocol's own parsers: one
//! reading per dialect, with the lines of a known kind but broken arguments kept by their first
//! word (so that `bestmove zz` is still a move, and a bad one).

use crate::notation::WireTurn;
use crate::player::Score;
use crate::protocol::CommandError;
use crate::referee::seat::Dialect;

/// What a thinking line says: the depth, the score for the engine's side and the principal
/// line, as the protocol's parsers read them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Thought {
    /// The depth, when given.
    pub(crate) depth: Option<u32>,
    /// The score, for the engine's side.
    pub(crate) score: Score,
    /// The principal line; empty when none was given, or not in Quill's notation.
    pub(crate) pv: Vec<WireTurn>,
}

impl Thought {
    /// The score for a referee: centipawns clamped to ±30000, mates as ±30000.
    pub(crate) fn centipawns(&self) -> i32 {
        match self.score {
            Score::Cp(cp) => clamp_score(i64::from(cp)),
            Score::Mate(n) if n > 0 => 30_000,
            Score::Mate(_) => -30_000,
        }
    }
}

/// What an engine's line means to the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Meaning {
    /// Its move (`bestmove M`, `move M`), as written.
    Move(String),
    /// A commitment to its sealed move (`info string commit D`, `commit D`).
    Commit(String),
    /// The opening of its commitment (`info string reveal M N`, `reveal M N`).
    Opening(String, String),
    /// A result claim (CECP `1-0 {…}` …): the result and the reason.
    Claim(String, String),
    /// It resigns (CECP `resign`).
    Resign,
    /// A thinking line with a score: its depth, score and principal line.
    Score(Thought),
    /// It refused a move of ours (`Illegal move …`): it no longer follows the game.
    Refusal(String),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `pong N`.
    Pong(String),
    /// CECP `feature …` pairs.
    Features(Vec<(String, String)>),
    /// UCI `option name N …`: the option's name.
    OptionName(String),
    /// UCI `id name N` / CECP `feature myname`: the engine's own name.
    IdName(String),
    /// A complaint about a command of ours (UCI `info string error …` or Stockfish's `No such
    /// option: …`, CECP `Error (…): …`): ignored in play, but a refused option stops a match.
    Complaint(String),
    /// Anything a referee may ignore (other `info`, comments, `telluser` …).
    Chatter,
    /// A line that is not of the dialect at all.
    Unknown,
}

/// Reads a line of the given dialect with the protocol's own parsers
/// ([`crate::protocol::uci::parse_engine_line`], [`crate::protocol::cecp::parse_engine_line`]).
/// A line of a known kind with broken arguments keeps the meaning of its first word, read
/// from the text as written (`bestmove zz` is still a move, and a bad one).
pub(crate) fn meaning(dialect: Dialect, line: &str) -> Meaning {
    let line = line.trim();
    match dialect {
        Dialect::Uci => uci_meaning(line),
        Dialect::Cecp => cecp_meaning(line),
    }
}

/// The `n`th word of a line (0: the command word), or the empty string.
fn word(line: &str, n: usize) -> String {
    line.split_whitespace()
        .nth(n)
        .unwrap_or_default()
        .to_owned()
}

/// The text of a line after its first word, trimmed.
fn after_word(line: &str) -> String {
    line.split_once(char::is_whitespace)
        .map_or("", |(_, rest)| rest.trim())
        .to_owned()
}

/// A score for the referee: centipawns clamped to ±30000, mates as ±30000.
fn clamp_score(cp: i64) -> i32 {
    i32::try_from(cp.clamp(-30_000, 30_000)).unwrap_or_default()
}

fn uci_meaning(line: &str) -> Meaning {
    use crate::protocol::uci::{EngineLine as L, Info, parse_engine_line};
    if line.starts_with("No such option") {
        // Stockfish's complaint, outside the protocol.
        return Meaning::Complaint(line.to_owned());
    }
    match parse_engine_line(line) {
        Ok(L::BestMove { mv, .. }) => {
            Meaning::Move(mv.map_or_else(|| "(none)".to_owned(), |m| m.to_string()))
        }
        Ok(L::Commit(digest)) => Meaning::Commit(digest),
        Ok(L::Reveal { mv, nonce }) => Meaning::Opening(mv.to_string(), nonce),
        Ok(L::Error(_)) => Meaning::Complaint(line.to_owned()),
        Ok(L::Info(Info {
            depth, score, pv, ..
        })) => score.map_or(Meaning::Chatter, |s| {
            Meaning::Score(Thought {
                depth,
                score: s.value,
                pv,
            })
        }),
        Ok(L::InfoString(text)) => sealed_fallback(&text).unwrap_or(Meaning::Chatter),
        Ok(L::UciOk) => Meaning::UciOk,
        Ok(L::ReadyOk) => Meaning::ReadyOk,
        Ok(L::IdName(name)) => Meaning::IdName(name),
        Ok(L::Option(option)) => Meaning::OptionName(option.name),
        Ok(L::IdAuthor(_) | L::Strategy(_) | L::CopyProtection(_) | L::Registration(_)) => {
            Meaning::Chatter
        }
        Err(CommandError::Malformed { command, .. }) => match command.as_str() {
            "bestmove" => Meaning::Move(word(line, 1)),
            "uciok" => Meaning::UciOk,
            "readyok" => Meaning::ReadyOk,
            // A principal line in a notation of its own: the figures before it still count.
            "info" => match line.split_once(" pv ") {
                Some((figures, _)) => uci_meaning(figures),
                None => Meaning::Chatter,
            },
            "option" => match line.split_once(" name ") {
                Some((_, rest)) => {
                    let name = rest.split(" type ").next().unwrap_or(rest);
                    Meaning::OptionName(name.trim().to_owned())
                }
                None => Meaning::Chatter,
            },
            _ => Meaning::Chatter,
        },
        Err(CommandError::Unknown(w)) if w == "pong" => Meaning::Pong(after_word(line)),
        Err(CommandError::Unknown(_) | CommandError::Empty) => Meaning::Unknown,
    }
}

/// The sealed extension's lines that did not read as such (`info string commit A B`,
/// `info string reveal BAD N`): a commitment or an opening all the same, so that the
/// referee checks it and forfeits a wrong one.
fn sealed_fallback(text: &str) -> Option<Meaning> {
    if let Some(rest) = text.strip_prefix("commit ") {
        return Some(Meaning::Commit(word(rest, 0)));
    }
    let rest = text.strip_prefix("reveal ")?;
    let mut words = rest.split_whitespace();
    match (words.next(), words.next()) {
        (Some(mv), Some(nonce)) => Some(Meaning::Opening(mv.to_owned(), nonce.to_owned())),
        _ => None,
    }
}

/// A CECP line of a known kind with broken arguments: the meaning of its first word.
fn cecp_malformed(command: &str, line: &str) -> Meaning {
    match command {
        "move" => Meaning::Move(word(line, 1)),
        "commit" => Meaning::Commit(word(line, 1)),
        "reveal" => match (word(line, 1), word(line, 2)) {
            (mv, nonce) if !nonce.is_empty() => Meaning::Opening(mv, nonce),
            _ => Meaning::Unknown,
        },
        "1-0" | "0-1" | "1/2-1/2" => Meaning::Claim(command.to_owned(), String::new()),
        "resign" => Meaning::Resign,
        "feature" => Meaning::Features(Vec::new()),
        "pong" => Meaning::Pong(after_word(line)),
        "Illegal" => cecp_refusal(line),
        "Error" => Meaning::Complaint(line.to_owned()),
        "*" => Meaning::Unknown,
        w if w.starts_with(|c: char| c.is_ascii_digit()) => {
            match crate::protocol::whole_i64(&word(line, 1)) {
                Some(score) => Meaning::Score(Thought {
                    depth: w.parse().ok(),
                    score: cecp_score(score),
                    pv: Vec::new(),
                }),
                None => Meaning::Unknown,
            }
        }
        _ => Meaning::Chatter,
    }
}

/// A CECP score: centipawns, or XBoard's mates (`100000 + N` for a mate in N, `-100000 - N`
/// when mated in N).
fn cecp_score(score: i64) -> Score {
    const MATE: i64 = 100_000;
    let n = |x: i64| i32::try_from(x).unwrap_or(i32::MAX);
    if score >= MATE {
        Score::Mate(n(score - MATE))
    } else if score <= -MATE {
        Score::Mate(-n(-score - MATE))
    } else {
        Score::Cp(n(score))
    }
}

/// Words outside the protocol's engine lines that a referee may ignore: comments and the
/// messages meant for people or servers.
fn cecp_chatter(w: &str) -> bool {
    const CHATTER: [&str; 7] = [
        "tellopponent",
        "tellothers",
        "tellall",
        "tellics",
        "tellicsnoalias",
        "askuser",
        "offer",
    ];
    w.starts_with('#') || CHATTER.contains(&w)
}

/// `Illegal move …`: a refusal; another `Illegal …` is not of the protocol.
fn cecp_refusal(line: &str) -> Meaning {
    match line.strip_prefix("Illegal move") {
        Some(rest) => Meaning::Refusal(rest.trim().to_owned()),
        None => Meaning::Unknown,
    }
}

fn cecp_meaning(line: &str) -> Meaning {
    use crate::protocol::cecp::{EngineLine as L, Pv, WireResult, parse_engine_line};
    match parse_engine_line(line) {
        Ok(L::Move(mv)) => Meaning::Move(mv.to_string()),
        Ok(L::Commit(digest)) => Meaning::Commit(digest),
        Ok(L::Reveal { mv, nonce }) => Meaning::Opening(mv.to_string(), nonce),
        Ok(L::Result {
            result: WireResult::Unknown,
            ..
        }) => Meaning::Unknown,
        Ok(L::Result { result, comment }) => {
            Meaning::Claim(result.to_string(), comment.unwrap_or_default())
        }
        Ok(L::Resign) => Meaning::Resign,
        Ok(L::Feature(features)) => Meaning::Features(
            features
                .iter()
                .map(|f| (f.name.clone(), f.text().to_owned()))
                .collect(),
        ),
        Ok(L::Pong(n)) => Meaning::Pong(n),
        Ok(L::IllegalMove { .. }) => cecp_refusal(line),
        Ok(L::Error { .. }) => Meaning::Complaint(line.to_owned()),
        Ok(L::Thinking(t)) => Meaning::Score(Thought {
            depth: Some(t.depth),
            score: cecp_score(t.score),
            pv: match t.pv {
                Pv::Turns(turns) => turns,
                Pv::Text(_) => Vec::new(),
            },
        }),
        Ok(
            L::TellUserError(_)
            | L::TellUser(_)
            | L::Stat01 { .. }
            | L::Strategy(_)
            | L::Comment(_)
            | L::Hint(_)
            | L::Setup(_)
            | L::Piece(_)
            | L::Highlight(_),
        ) => Meaning::Chatter,
        Err(CommandError::Malformed { command, .. }) => cecp_malformed(&command, line),
        Err(CommandError::Unknown(w)) if cecp_chatter(&w) => Meaning::Chatter,
        Err(CommandError::Unknown(_) | CommandError::Empty) => Meaning::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_lines() {
        let m = |l| meaning(Dialect::Uci, l);
        assert_eq!(
            m("bestmove c2c7,h1h2 ponder x"),
            Meaning::Move("c2c7,h1h2".into())
        );
        let turns = |t: &str| {
            t.split(' ')
                .map(|t| crate::notation::parse_turn(t).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            m("info depth 3 score cp -41 nodes 9 pv c2c7,h1h2 b7b2"),
            Meaning::Score(Thought {
                depth: Some(3),
                score: Score::Cp(-41),
                pv: turns("c2c7,h1h2 b7b2")
            })
        );
        // A principal line in a notation of its own: the figures still count.
        assert_eq!(
            m("info depth 3 score cp -41 nodes 9 pv a"),
            Meaning::Score(Thought {
                depth: Some(3),
                score: Score::Cp(-41),
                pv: Vec::new()
            })
        );
        let Meaning::Score(mated) = m("info depth 3 score mate -2") else {
            panic!("a score")
        };
        assert_eq!(
            (mated.score, mated.centipawns()),
            (Score::Mate(-2), -30_000)
        );
        assert_eq!(m("info depth 5 nodes 9"), Meaning::Chatter);
        assert_eq!(m("info string commit abc"), Meaning::Commit("abc".into()));
        assert_eq!(
            m("info string reveal b2b3 00ff"),
            Meaning::Opening("b2b3".into(), "00ff".into())
        );
        assert_eq!(m("info string strategy a:1"), Meaning::Chatter);
        assert_eq!(
            m("option name Hash type spin"),
            Meaning::OptionName("Hash".into())
        );
        assert_eq!(m("id name Quill 0.1"), Meaning::IdName("Quill 0.1".into()));
        assert_eq!(m("uciok"), Meaning::UciOk);
        assert_eq!(m("bestmove"), Meaning::Move(String::new()));
        assert_eq!(m("bestmove "), Meaning::Move(String::new()));
        assert_eq!(m("bestmoves e2e4"), Meaning::Unknown);
        assert_eq!(m("hello"), Meaning::Unknown);
    }

    #[test]
    fn cecp_lines() {
        let m = |l| meaning(Dialect::Cecp, l);
        assert_eq!(m("move e2e4"), Meaning::Move("e2e4".into()));
        assert_eq!(
            m("0-1 {White resigns}"),
            Meaning::Claim("0-1".into(), "White resigns".into())
        );
        assert_eq!(
            m("1/2-1/2"),
            Meaning::Claim("1/2-1/2".into(), String::new())
        );
        assert_eq!(
            m("12 -35 100 5000 a1b3 e5d3"),
            Meaning::Score(Thought {
                depth: Some(12),
                score: Score::Cp(-35),
                pv: ["a1b3", "e5d3"]
                    .map(|t| crate::notation::parse_turn(t).unwrap())
                    .to_vec()
            })
        );
        let Meaning::Score(mate) = m("4 100003 12 3000 a1b3") else {
            panic!("a score")
        };
        assert_eq!((mate.score, mate.centipawns()), (Score::Mate(3), 30_000));
        let Meaning::Score(mated) = m("4 -100002 12 3000") else {
            panic!("a score")
        };
        assert_eq!(mated.score, Score::Mate(-2));
        assert_eq!(
            m("feature myname=\"Quill 0.1\" sealed=1 done=0"),
            Meaning::Features(vec![
                ("myname".into(), "Quill 0.1".into()),
                ("sealed".into(), "1".into()),
                ("done".into(), "0".into())
            ])
        );
        assert_eq!(m("Illegal move: e2e5"), Meaning::Refusal(": e2e5".into()));
        assert_eq!(m("# strategy a:1"), Meaning::Chatter);
        assert_eq!(m("resign"), Meaning::Resign);
        assert_eq!(m("pong 3"), Meaning::Pong("3".into()));
        assert_eq!(m("move "), Meaning::Move(String::new()));
        assert_eq!(m("moves"), Meaning::Unknown);
        assert_eq!(m("zzz"), Meaning::Unknown);
    }
}
