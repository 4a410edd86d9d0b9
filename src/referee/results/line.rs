//! One line of a results file: a finished game, its printer and its parser.

use std::fmt;
use std::str::FromStr;

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::u32 as dec_u32;
use nom::combinator::{all_consuming, rest, value};
use nom::sequence::preceded;

use crate::game::Outcome;
use crate::variant::Side;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The result as written: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// White's score: 1, 0 or ½.
    pub(crate) const fn score_for_white(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    /// The result for a winner (`None`: a draw).
    pub(crate) const fn from_winner(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::White) => GameResult::WhiteWins,
            Some(Side::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The result of a game that ended by the rules.
    pub(crate) fn from_outcome(outcome: &Outcome) -> GameResult {
        GameResult::from_winner(outcome.winner)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A token that is not `1-0`, `0-1` or `1/2-1/2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadResult(pub String);

impl fmt::Display for BadResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a result (1-0, 0-1, 1/2-1/2)", self.0)
    }
}

impl std::error::Error for BadResult {}

impl FromStr for GameResult {
    type Err = BadResult;

    fn from_str(s: &str) -> Result<GameResult, BadResult> {
        all_consuming(result_token)
            .parse(s)
            .map(|(_, r)| r)
            .map_err(|_| BadResult(s.to_owned()))
    }
}

/// Whether a seat name is one token of `[A-Za-z0-9._+-]`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(is_name_char)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-')
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Index of the game in the match, from 0.
    pub game: u32,
    /// Index of the pair: games `2k` and `2k+1` play one opening with colours swapped.
    pub(crate) pair: u32,
    /// White's seat name (see [`valid_name`]).
    pub white: String,
    /// Black's seat name.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// Plies played.
    pub plies: u32,
    /// The opening's id, one token without whitespace (`-` for none).
    pub(crate) opening: String,
    /// Why the game ended, free text on one line.
    pub reason: String,
}

impl GameRecord {
    /// The score of a seat name in this game, `None` if it did not play.
    pub fn score_for(&self, name: &str) -> Option<f64> {
        if self.white == name {
            Some(self.result.score_for_white())
        } else if self.black == name {
            Some(1.0 - self.result.score_for_white())
        } else {
            None
        }
    }

    /// Checks the fields that have a syntax: both names, and the opening token.
    ///
    /// # Errors
    /// [`RecordError::BadName`] or [`RecordError::BadOpening`], naming the bad field.
    pub(crate) fn check(&self) -> Result<(), RecordError> {
        for (seat, name) in [(Side::White, &self.white), (Side::Black, &self.black)] {
            if !valid_name(name) {
                return Err(RecordError::BadName {
                    seat,
                    name: name.clone(),
                });
            }
        }
        if self.opening.is_empty() || self.opening.chars().any(char::is_whitespace) {
            return Err(RecordError::BadOpening(self.opening.clone()));
        }
        Ok(())
    }

    /// Parses a game line (without its newline).
    ///
    /// # Errors
    /// [`RecordError::NotAGameLine`], which says what was expected.
    pub(crate) fn parse_line(line: &str) -> Result<GameRecord, RecordError> {
        match game_line(line) {
            Ok((_, record)) => Ok(record),
            Err(_) => Err(RecordError::NotAGameLine(line.to_owned())),
        }
    }
}

/// What is wrong with a game record or a game line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// A seat name outside [`valid_name`]'s alphabet.
    BadName {
        /// The seat's colour.
        seat: Side,
        /// The name.
        name: String,
    },
    /// An opening id that is empty or holds whitespace.
    BadOpening(String),
    /// A line that does not parse as a game line.
    NotAGameLine(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadName { seat, name } => {
                let seat = match seat {
                    Side::White => "white",
                    Side::Black => "black",
                };
                write!(f, "{seat} name '{name}' is not [A-Za-z0-9._+-]+")
            }
            RecordError::BadOpening(opening) => {
                write!(
                    f,
                    "opening '{opening}' must be one token without whitespace"
                )
            }
            RecordError::NotAGameLine(line) => write!(
                f,
                "not a game line (game=N pair=N white=NAME black=NAME result=R plies=N \
                 opening=ID reason=TEXT): '{line}'"
            ),
        }
    }
}

impl std::error::Error for RecordError {}

/// Prints the game line, without its newline. Control characters in the reason (a newline
/// above all) are written as spaces, so a line always stays one line.
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game={} pair={} white={} black={} result={} plies={} opening={} reason={}",
            self.game,
            self.pair,
            self.white,
            self.black,
            self.result,
            self.plies,
            self.opening,
            sanitize(&self.reason)
        )
    }
}

/// Replaces control characters (newlines, carriage returns, tabs …) with spaces.
pub(super) fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn result_token(input: &str) -> IResult<&str, GameResult> {
    alt((
        value(GameResult::Draw, tag("1/2-1/2")),
        value(GameResult::WhiteWins, tag("1-0")),
        value(GameResult::BlackWins, tag("0-1")),
    ))
    .parse(input)
}

fn name(input: &str) -> IResult<&str, &str> {
    take_while1(is_name_char).parse(input)
}

fn game_line(input: &str) -> IResult<&str, GameRecord> {
    let (input, game) = preceded(tag("game="), dec_u32).parse(input)?;
    let (input, pair) = preceded(tag(" pair="), dec_u32).parse(input)?;
    let (input, white) = preceded(tag(" white="), name).parse(input)?;
    let (input, black) = preceded(tag(" black="), name).parse(input)?;
    let (input, result) = preceded(tag(" result="), result_token).parse(input)?;
    let (input, plies) = preceded(tag(" plies="), dec_u32).parse(input)?;
    let (input, opening) =
        preceded(tag(" opening="), take_while1(|c: char| !c.is_whitespace())).parse(input)?;
    let (input, reason) = preceded(tag(" reason="), rest).parse(input)?;
    let record = GameRecord {
        game,
        pair,
        white: white.to_owned(),
        black: black.to_owned(),
        result,
        plies,
        opening: opening.to_owned(),
        reason: reason.to_owned(),
    };
    Ok((input, record))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::referee::results::tests::record;

    #[test]
    fn results_parse_and_print() {
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ] {
            assert_eq!(r.to_string().parse::<GameResult>(), Ok(r));
        }
        assert_eq!(GameResult::Draw.score_for_white(), 0.5);
        assert!("1-0 ".parse::<GameResult>().is_err());
        assert!("1/2".parse::<GameResult>().is_err());
    }

    #[test]
    fn names_are_checked() {
        assert!(valid_name("Quill-0.1.0+dev_x"));
        for bad in ["", "a b", "a=b", "é", "x\n"] {
            assert!(!valid_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn lines_round_trip() {
        let line = "game=12 pair=6 white=a.b black=c+d result=1/2-1/2 plies=0 opening=- \
                    reason=adjudicated: 300 turns";
        let r = GameRecord::parse_line(line).unwrap();
        assert_eq!(r.result, GameResult::Draw);
        assert_eq!(r.reason, "adjudicated: 300 turns");
        assert_eq!(r.to_string(), line);
        for g in 0..4 {
            let r = record(g, GameResult::BlackWins);
            assert_eq!(GameRecord::parse_line(&r.to_string()), Ok(r));
        }
        let empty_reason = "game=0 pair=0 white=a black=b result=0-1 plies=3 opening=x reason=";
        assert_eq!(GameRecord::parse_line(empty_reason).unwrap().reason, "");
    }

    #[test]
    fn bad_lines_are_refused() {
        for line in [
            "",
            "game=0 pair=0 white=a black=b result=1-0 plies=3 opening=x",
            "game=x pair=0 white=a black=b result=1-0 plies=3 opening=x reason=r",
            "game=0 pair=0 white=a b black=b result=1-0 plies=3 opening=x reason=r",
            "game=0 pair=0 white=a black=b result=2-0 plies=3 opening=x reason=r",
            "game=0  pair=0 white=a black=b result=1-0 plies=3 opening=x reason=r",
            "game=99999999999 pair=0 white=a black=b result=1-0 plies=3 opening=x reason=r",
        ] {
            assert!(GameRecord::parse_line(line).is_err(), "{line:?}");
        }
    }

    #[test]
    fn reasons_stay_on_one_line() {
        let mut r = record(0, GameResult::WhiteWins);
        r.reason = "two\nlines\r\n".to_owned();
        assert_eq!(
            GameRecord::parse_line(&r.to_string()).unwrap().reason,
            "two lines  "
        );
    }
}
