//! The seat syntax: `--engine KEY=VALUE …` words (quoted as a shell would), read with `nom`
//! into a [`Seat`], every number and duration bounded with an error that names the word.

use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::char;
use nom::combinator::{all_consuming, map, opt, value};
use nom::sequence::{preceded, separated_pair};
use nom::{IResult, Parser};

use super::error::{SeatError, ValueFault};
use super::*;
use crate::referee::results::valid_name;

/// A whole number of at most `max`.
fn whole<T: std::str::FromStr + PartialOrd + Into<u64> + Copy>(
    text: &str,
    max: T,
) -> Result<T, ValueFault> {
    let n = if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        // All digits: only too many of them fails to parse.
        text.parse::<T>().ok().filter(|n| *n <= max)
    } else {
        return Err(ValueFault::NotWhole(text.to_string()));
    };
    n.ok_or_else(|| ValueFault::TooLarge {
        text: text.to_string(),
        max: max.into(),
    })
}

/// Seconds as `12`, `0.5`, or `1:30` (minutes:seconds), at most [`MAX_SECONDS`].
fn seconds(text: &str) -> Result<Duration, ValueFault> {
    let decimal = |t: &str| -> Result<f64, ValueFault> {
        let (int, frac) = t.split_once('.').unwrap_or((t, "0"));
        let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
        if !digits(int) || !digits(frac) {
            return Err(ValueFault::NotSeconds(text.to_string()));
        }
        // Digits only: a finite number (or one too large, which the cap below refuses).
        t.parse::<f64>().map_err(ValueFault::Float)
    };
    let secs = match text.split_once(':') {
        Some((m, sec)) => {
            // At most a day of minutes: exact in an f64.
            let minutes = whole(m, MAX_SECONDS / 60)? as f64;
            minutes * 60.0 + decimal(sec)?
        }
        None => decimal(text)?,
    };
    if secs > MAX_SECONDS as f64 {
        return Err(ValueFault::TooManySeconds(text.to_string()));
    }
    Duration::try_from_secs_f64(secs).map_err(ValueFault::Duration)
}

/// The forms of a `tc=` value.
pub(super) const TIME_CONTROL: &str = "SECONDS[+INC] or MOVES/SECONDS[+INC]";

/// `[MOVES/]BASE[+INC]`: `40/60+0.5`, `10+0.1`, `1:00`; an error names the whole value and the
/// part that is wrong.
fn clock(text: &str) -> Result<TimeControl, ValueFault> {
    clock_parts(text).map_err(|why| ValueFault::Clock {
        text: text.to_string(),
        why: Box::new(why),
    })
}

fn clock_parts(text: &str) -> Result<TimeControl, ValueFault> {
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => (whole(m, MAX_SESSION_MOVES)?, rest),
        None => (0, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (seconds(b)?, seconds(i)?),
        None => (seconds(rest)?, Duration::ZERO),
    };
    Ok(TimeControl { moves, base, inc })
}

/// Names the word whose value is at fault.
fn of(word: &'static str) -> impl Fn(ValueFault) -> SeatError {
    move |fault| SeatError::Value { word, fault }
}

fn rest(input: &str) -> IResult<&str, String> {
    map(take_while1(|_| true), str::to_string).parse(input)
}

fn word(input: &str) -> IResult<&str, Word> {
    all_consuming(alt((
        value(Word::Human, tag("human")),
        map(preceded(tag("name="), rest), Word::Name),
        map(preceded(tag("cmd="), rest), Word::Cmd),
        map(preceded(tag("dir="), rest), Word::Dir),
        map(
            preceded(
                tag("proto="),
                alt((
                    value(Dialect::Uci, tag("uci")),
                    value(Dialect::Cecp, alt((tag("cecp"), tag("xboard")))),
                )),
            ),
            Word::Proto,
        ),
        map(
            preceded(
                tag("option."),
                separated_pair(take_while1(|c| c != '='), char('='), opt(rest)),
            ),
            |(k, v): (&str, Option<String>)| Word::Option(k.to_string(), v.unwrap_or_default()),
        ),
        map(preceded(tag("tc="), rest), Word::Tc),
        map(preceded(tag("st="), rest), Word::St),
        map(preceded(tag("depth="), rest), Word::Depth),
        map(preceded(tag("nodes="), rest), Word::Nodes),
    )))
    .parse(input)
}

/// Splits a seat's argument into words at spaces; `'…'` and `"…"` quote spaces
/// (`cmd="./quill --log q.log" name=a` is two words).
///
/// # Errors
/// A quote is not closed.
pub fn split_words(text: &str) -> Result<Vec<String>, SeatError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(SeatError::UnclosedQuote(text.to_string()));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Reads a seat from its words (`cmd=./quill proto=uci name=a tc=10+0.1 option.Hash=64`, or
/// `human name=me`), after the words every seat shares (`--each`).
///
/// # Errors
/// A word that is not one of the keys, a bad value, a missing `cmd`, or a bad name.
pub fn parse_seat(
    words: &[String],
    each: &[String],
    default_name: &str,
) -> Result<Seat, SeatError> {
    let mut human = false;
    let mut name = None;
    let mut cmd = None;
    let mut dir = None;
    let mut dialect = Dialect::Uci;
    let mut options = Vec::new();
    let mut limits = Limits::default();
    for w in each.iter().chain(words) {
        let (_, parsed) = word(w).map_err(|_| SeatError::BadWord(w.clone()))?;
        match parsed {
            Word::Human => human = true,
            Word::Name(n) => name = Some(n),
            Word::Cmd(c) => cmd = Some(c),
            Word::Dir(d) => dir = Some(d),
            Word::Proto(d) => dialect = d,
            Word::Option(k, v) => {
                options.retain(|(old, _): &(String, String)| *old != k);
                options.push((k, v));
            }
            Word::Tc(c) => limits.clock = Some(clock(&c).map_err(of("tc"))?),
            Word::St(t) => limits.movetime = Some(seconds(&t).map_err(of("st"))?),
            Word::Depth(d) => limits.depth = Some(whole(&d, MAX_DEPTH).map_err(of("depth"))?),
            Word::Nodes(n) => limits.nodes = Some(whole(&n, MAX_NODES).map_err(of("nodes"))?),
        }
    }
    let name = name.unwrap_or_else(|| default_name.to_string());
    if !valid_name(&name) {
        return Err(SeatError::BadName(name));
    }
    if human {
        return Ok(Seat::Human { name });
    }
    let Some(cmd) = cmd else {
        return Err(SeatError::NoCmd(name));
    };
    Ok(Seat::Engine(EngineSpec {
        name,
        cmd,
        dir,
        dialect,
        options,
        limits: limits.or_default(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn reads_an_engine_seat() {
        let seat = parse_seat(
            &words("cmd=./quill proto=cecp name=q2 option.Hash=64 tc=40/60+0.5 depth=3"),
            &[],
            "x",
        )
        .unwrap();
        let Seat::Engine(e) = seat else { panic!() };
        assert_eq!(e.name, "q2");
        assert_eq!(e.dialect, Dialect::Cecp);
        assert_eq!(e.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(
            e.limits.clock,
            Some(TimeControl {
                moves: 40,
                base: Duration::from_secs(60),
                inc: Duration::from_millis(500)
            })
        );
        assert_eq!(e.limits.depth, Some(3));
        assert_eq!(e.limits.pgn(), "40/60+0.5");
    }

    #[test]
    fn each_words_come_first_and_the_seat_overrides() {
        let seat = parse_seat(&words("cmd=q st=0.1"), &words("st=1 nodes=500"), "a").unwrap();
        let Seat::Engine(e) = seat else { panic!() };
        assert_eq!(e.limits.movetime, Some(Duration::from_millis(100)));
        assert_eq!(e.limits.nodes, Some(500));
        assert_eq!(e.name, "a");
    }

    #[test]
    fn default_clock_and_minutes() {
        let Seat::Engine(e) = parse_seat(&words("cmd=q"), &[], "a").unwrap() else {
            panic!()
        };
        assert_eq!(e.limits.pgn(), "10+0.1");
        let Seat::Engine(e) = parse_seat(&words("cmd=q tc=1:30"), &[], "a").unwrap() else {
            panic!()
        };
        assert_eq!(e.limits.clock.unwrap().base, Duration::from_secs(90));
    }

    #[test]
    fn splits_words_with_quotes() {
        assert_eq!(
            split_words(r#" cmd="./quill --log q.log" name=a  option.X='' "#).unwrap(),
            vec!["cmd=./quill --log q.log", "name=a", "option.X="]
        );
        assert!(split_words("cmd='x").is_err());
    }

    #[test]
    fn numbers_are_capped_with_an_error_naming_the_word() {
        for (bad, word) in [
            ("tc=18446744073709551615", "tc:"),
            ("tc=99999999999999999999", "tc:"),
            ("tc=1/18446744073709551615", "tc:"),
            ("tc=10+18446744073709551615", "tc:"),
            ("tc=18446744073709551615:00", "tc:"),
            ("tc=86401", "tc:"),
            ("tc=-1", "tc:"),
            ("tc=", "tc: '' is not a time control"),
            (
                "tc=abc",
                "tc: 'abc' is not a time control (SECONDS[+INC] or MOVES/SECONDS[+INC])",
            ),
            ("proto=usi", "proto: 'usi' is not a dialect"),
            ("tcc=1", "'tcc' is none of the keys"),
            ("tc=1e9", "tc:"),
            ("st=18446744073709551615", "st:"),
            ("st=1.", "st:"),
            ("depth=4294967296", "depth:"),
            ("depth=10001", "depth:"),
            ("nodes=18446744073709551616", "nodes:"),
        ] {
            let err = parse_seat(&words(&format!("cmd=q {bad}")), &[], "a")
                .unwrap_err()
                .to_string();
            assert!(err.contains(word), "{bad}: {err}");
        }
        let Seat::Engine(e) = parse_seat(&words("cmd=q tc=10000/1440:00+86400"), &[], "a").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            e.limits.clock.unwrap().base,
            Duration::from_secs(MAX_SECONDS)
        );
    }

    #[test]
    fn refuses_bad_words() {
        for bad in [
            "cmd=q proto=telnet",
            "cmd=q tc=fast",
            "speed=3 cmd=q",
            "name=a",
        ] {
            assert!(parse_seat(&words(bad), &[], "a").is_err(), "{bad}");
        }
        assert!(parse_seat(&words("cmd=q name=a/b"), &[], "a").is_err());
        assert_eq!(
            parse_seat(&words("human name=me"), &[], "a").unwrap(),
            Seat::Human {
                name: "me".to_string()
            }
        );
    }
}
