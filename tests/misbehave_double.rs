//! The misbehaving test double (`examples/misbehave.rs`) does what it says, in each fault and
//! in both dialects: the referee's tests rely on it.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

use quill::game::Game;
use quill::notation::{WireTurn, parse_move};
use quill::variant::{Side, Variant};

/// How long a line that should come may take.
const PATIENCE: Duration = Duration::from_secs(10);
/// How long to wait for a line that should not come.
const QUIET: Duration = Duration::from_millis(400);

fn double_path() -> &'static PathBuf {
    common::misbehave_path()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Dialect {
    Uci,
    Cecp,
}

struct Double {
    dialect: Dialect,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Double {
    /// Starts the double and shakes hands; the variant is set, nothing asked yet.
    fn start(dialect: Dialect, args: &[&str], variant: Variant) -> Double {
        let mut child = Command::new(double_path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the double starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut d = Double {
            dialect,
            child,
            stdin,
            lines,
        };
        match dialect {
            Dialect::Uci => {
                d.send("uci");
                d.expect("uciok");
                d.send(&format!("setoption name UCI_Variant value {variant}"));
                d.send("isready");
                d.expect("readyok");
            }
            Dialect::Cecp => {
                d.send("xboard");
                d.send("protover 2");
                let features = d.expect("feature");
                assert!(features.ends_with("done=1"), "{features}");
                d.send("new");
                d.send(&format!("variant {variant}"));
                d.send("force");
            }
        }
        d
    }

    fn send(&mut self, line: &str) {
        // A double that has exited may have closed its end; the test then looks at its status.
        let _ = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
    }

    fn line(&self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Reads lines until one starts with `prefix`.
    fn expect(&self, prefix: &str) -> String {
        loop {
            let line = self
                .line(PATIENCE)
                .unwrap_or_else(|| panic!("no line starting with '{prefix}'"));
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    /// The move word of the dialect.
    fn move_word(&self) -> &'static str {
        match self.dialect {
            Dialect::Uci => "bestmove ",
            Dialect::Cecp => "move ",
        }
    }

    /// Sends the position (UCI) and asks for `side`'s move; returns the answer line, if any
    /// (`info` lines skipped).
    fn ask(&mut self, game: &Game, history: &[WireTurn], side: Side) -> Option<String> {
        self.request(game, history, side);
        self.next_answer(PATIENCE)
    }

    /// Sends the position (UCI) and asks for `side`'s move.
    fn request(&mut self, game: &Game, history: &[WireTurn], side: Side) {
        match self.dialect {
            Dialect::Uci => {
                let mut position = "position startpos".to_owned();
                if !history.is_empty() {
                    let moves: Vec<String> = history.iter().map(WireTurn::to_string).collect();
                    position = format!("{position} moves {}", moves.join(" "));
                }
                self.send(&position);
                match game.side_to_move() {
                    Some(_) => self.send("go"),
                    None => self.send(&format!("go sealed {}", side.letter())),
                }
            }
            Dialect::Cecp => {
                if game.side_to_move().is_none() {
                    self.send(&format!("sealed {}", side.word()));
                }
                self.send("force");
                self.send("go");
            }
        }
    }

    /// Gives a turn to the engine (CECP; UCI sends the whole position at the next `ask`).
    fn tell(&mut self, turn: &WireTurn) {
        if self.dialect == Dialect::Cecp {
            self.send("force");
            match turn {
                WireTurn::Joint(w, b) => self.send(&format!("reveal {w} {b}")),
                WireTurn::Single(m) => self.send(&format!("usermove {m}")),
            }
        }
    }

    fn next_answer(&self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let line = self.line(left)?;
            if !line.starts_with("info") && !line.starts_with('#') {
                return Some(line);
            }
        }
    }

    /// The move of an answer line, or a panic.
    fn move_of(&self, line: &str) -> String {
        line.strip_prefix(self.move_word())
            .unwrap_or_else(|| panic!("not a move answer: {line}"))
            .to_owned()
    }

    fn wait_exit(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Double {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const DIALECTS: [Dialect; 2] = [Dialect::Uci, Dialect::Cecp];

/// Whether a move is legal for a side.
fn legal(game: &Game, side: Side, mv: &str) -> bool {
    parse_move(mv).is_some_and(|m| game.legal_moves(side).contains(&m))
}

/// The side the engine is asked to move first: White.
fn to_move(game: &Game) -> Side {
    game.side_to_move().unwrap_or(Side::White)
}

#[test]
fn good_plays_legal_moves_in_every_variant() {
    for dialect in DIALECTS {
        for variant in [Variant::Apocalypse, Variant::Gladiator, Variant::Pagan] {
            let mut d = Double::start(dialect, &["good"], variant);
            let mut game = Game::start(variant);
            let mut history = Vec::new();
            for _ in 0..6 {
                if game.outcome().is_some() {
                    break;
                }
                let turn = match game.side_to_move() {
                    Some(side) => {
                        let line = d.ask(&game, &history, side).expect("an answer");
                        let mv = d.move_of(&line);
                        assert!(legal(&game, side, &mv), "{dialect:?} {variant}: {mv}");
                        WireTurn::Single(parse_move(&mv).unwrap())
                    }
                    None => {
                        let mut pair = Vec::new();
                        for side in [Side::White, Side::Black] {
                            let line = d.ask(&game, &history, side).expect("an answer");
                            let mv = d.move_of(&line);
                            assert!(legal(&game, side, &mv), "{dialect:?} {variant}: {mv}");
                            pair.push(parse_move(&mv).unwrap());
                        }
                        WireTurn::Joint(pair[0].clone(), pair[1].clone())
                    }
                };
                game.play(&turn).expect("a legal turn plays");
                // A CECP engine plays its own alternating move on its board when it sends it;
                // only a sealed pair is told back (`reveal`).
                if matches!(turn, WireTurn::Joint(..)) {
                    d.tell(&turn);
                }
                history.push(turn);
            }
            assert!(history.len() >= 2, "{dialect:?} {variant}");
        }
    }
}

#[test]
fn crash_exits_with_status_3() {
    for dialect in DIALECTS {
        let game = Game::start(Variant::Gladiator);
        let mut d = Double::start(dialect, &["crash"], Variant::Gladiator);
        assert_eq!(d.ask(&game, &[], Side::White), None);
        assert_eq!(d.wait_exit().and_then(|s| s.code()), Some(3), "{dialect:?}");

        // --at 2: the first move is good, the second request kills it.
        let mut d = Double::start(dialect, &["crash", "--at", "2"], Variant::Apocalypse);
        let game = Game::start(Variant::Apocalypse);
        let line = d.ask(&game, &[], Side::White).expect("a first answer");
        assert!(legal(&game, Side::White, &d.move_of(&line)));
        assert_eq!(d.ask(&game, &[], Side::Black), None);
        assert_eq!(d.wait_exit().and_then(|s| s.code()), Some(3), "{dialect:?}");
    }
}

#[test]
fn hang_never_answers() {
    for dialect in DIALECTS {
        let game = Game::start(Variant::Apocalypse);
        let mut d = Double::start(dialect, &["hang"], Variant::Apocalypse);
        d.request(&game, &[], Side::White);
        assert_eq!(d.next_answer(QUIET), None);
        d.send("isready");
        d.send("ping 1");
        d.send("quit");
        assert_eq!(d.line(QUIET), None);
        assert!(d.child.try_wait().unwrap().is_none(), "still running");
    }
}

#[test]
fn garbage_and_illegal_moves() {
    for dialect in DIALECTS {
        for variant in [Variant::Apocalypse, Variant::Brawl] {
            let game = Game::start(variant);
            let side = to_move(&game);
            let mut d = Double::start(dialect, &["garbage"], variant);
            let line = d.ask(&game, &[], side).unwrap();
            assert_eq!(line, format!("{}???junk", d.move_word()));

            let mut d = Double::start(dialect, &["illegal"], variant);
            let line = d.ask(&game, &[], side).unwrap();
            let mv = d.move_of(&line);
            assert!(parse_move(&mv).is_some(), "well-formed: {mv}");
            assert!(
                !legal(&game, side, &mv),
                "{dialect:?} {variant}: {mv} is legal"
            );
        }
    }
}

#[test]
fn false_claim() {
    let variant = Variant::Gladiator;
    let game = Game::start(variant);
    let mut d = Double::start(Dialect::Cecp, &["false-claim"], variant);
    assert_eq!(d.ask(&game, &[], Side::White).unwrap(), "1-0 {claim}");
    assert!(game.outcome().is_none(), "the claim is false");
    // UCI has no claims: a note, then a good move.
    let mut d = Double::start(Dialect::Uci, &["false-claim"], variant);
    d.send("position startpos");
    d.send("go");
    assert!(d.expect("info string").contains("no claims"));
    let mv = d.move_of(&d.next_answer(PATIENCE).unwrap());
    assert!(legal(&game, Side::White, &mv));
}

#[test]
fn early_answers_out_of_turn() {
    let variant = Variant::Gladiator;
    let game = Game::start(variant);
    // UCI: a bestmove right after `position`, before any `go`; then a normal answer.
    let mut d = Double::start(Dialect::Uci, &["early"], variant);
    d.send("position startpos");
    let early = d.next_answer(PATIENCE).expect("an early move");
    assert!(legal(&game, Side::White, &d.move_of(&early)));
    let answer = d.ask(&game, &[], Side::White).unwrap();
    assert!(legal(&game, Side::White, &d.move_of(&answer)));
    assert_eq!(d.next_answer(QUIET), None);

    // CECP, in force mode: a move right after the opponent's `usermove`.
    let mut d = Double::start(Dialect::Cecp, &["early"], variant);
    let first = game.legal_moves(Side::White)[0].clone();
    d.send(&format!("usermove {first}"));
    let early = d.next_answer(PATIENCE).expect("an early move");
    let mut after = game.clone();
    after.play(&WireTurn::Single(first)).unwrap();
    assert!(legal(&after, Side::Black, &d.move_of(&early)));
}

#[test]
fn slow_takes_its_time() {
    for dialect in DIALECTS {
        let game = Game::start(Variant::Apocalypse);
        let mut d = Double::start(dialect, &["slow", "--delay", "300"], Variant::Apocalypse);
        let started = Instant::now();
        let line = d.ask(&game, &[], Side::White).unwrap();
        assert!(
            started.elapsed() >= Duration::from_millis(300),
            "{dialect:?}"
        );
        assert!(legal(&game, Side::White, &d.move_of(&line)));
    }
}
