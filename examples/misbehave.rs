//! A misbehaving engine, the test double of `quill match`'s referee.
//!
//! ```text
//! misbehave FAULT [--at K] [--delay MS]
//! ```
//!
//! It speaks UCI or CECP (`xboard` as the first line means CECP), keeps a `quill::game::Game`
//! of the variant, and answers with the first legal move of its side (deterministic). At its
//! `K`th answer (default 1) it commits the FAULT:
//!
//! | FAULT | what it does at move K |
//! |---|---|
//! | `good` | nothing: it never misbehaves |
//! | `crash` | exits with status 3 instead of answering |
//! | `hang` | never answers again; it reads and ignores every line (even `quit`) until end of input |
//! | `garbage` | `bestmove ???junk` / `move ???junk` |
//! | `illegal` | a well-formed move from an empty square |
//! | `false-claim` | CECP: claims a win for its side (`1-0 {claim}` / `0-1 {claim}`) instead of moving, though the game is not over. UCI has no claims: it prints an `info string` and plays on |
//! | `early` | prints a move out of turn, as soon as a position arrives that does not ask it to move (UCI: `position`; CECP: a move, `reveal`, `setboard` in force mode or on the opponent's turn); then answers as usual |
//! | `slow` | sleeps `--delay` milliseconds (default 1000) before this answer and every later one |
//! | `flood-start` | answers `uci` / `protover` with `info string flood` / `# flood` lines as fast as it can, forever (K is not used) |
//! | `flood` | prints `info string flood` / `# flood` lines as fast as it can, forever, instead of answering |
//! | `chatter` | prints an `info string chatter` / `# chatter` line every millisecond (within the referee's rate bounds), forever, instead of answering |
//! | `long-line` | writes `info string ` and then `x` bytes without a newline, as fast as it can, forever |
//! | `trickle` | writes `bestmove e2e4` / `move e2e4` one byte every `--delay` milliseconds (default 1000), never ending the line |
//! | `empty-move` | `bestmove ` / `move ` with no move |
//! | `babble` | prints 200 lines no dialect knows (`xyzzy`) instead of answering, then answers nothing more, as `hang` |
//! | `deaf` | answers `uci` / `protover`, then never reads its input again nor answers (K is not used) |
//!
//! UCI: `uci`, `isready`, `setoption name UCI_Variant value V`, `ucinewgame`, `position`,
//! `go [sealed w|b]`, `quit`. CECP: `protover` (one `feature … done=1` line), `new`, `variant`,
//! `force`, `go`, `playother`, `usermove` or a bare move, `setboard`, `sealed`, `reveal`, `ping`,
//! `result`, `quit`. A CECP turn is one move in Quill's notation, never XBoard's three plies.
//! Other commands are ignored.

use std::io::{self, BufRead, Write};
use std::process::exit;
use std::thread::sleep;
use std::time::Duration;

use quill::game::Game;
use quill::notation::{WireMove, WireTurn};
use quill::protocol::cecp::{self, CecpCommand};
use quill::protocol::uci::{self, PositionStart, UciCommand};
use quill::variant::{Side, Variant};

#[path = "misbehave/faults.rs"]
mod faults;

use faults::{FAULTS, Fault, deaf, repeat};

/// The engine's state.
struct Double {
    fault: Fault,
    name: String,
    at: u32,
    delay: Duration,
    cecp: bool,
    variant: Variant,
    game: Game,
    /// Answers given so far.
    answers: u32,
    early_done: bool,
    hung: bool,
    /// CECP force mode.
    force: bool,
    /// The side the engine plays in an alternating CECP game.
    engine: Side,
    /// The side of the last sealed request (`go sealed w|b`, `sealed white|black`).
    sealed: Side,
}

impl Double {
    /// Prints a move as the dialect's answer.
    fn say_move(&self, mv: &str) {
        if self.cecp {
            println!("move {mv}");
        } else {
            println!("bestmove {mv}");
        }
    }

    /// A line the referee reads as chatter, with a newline.
    fn chatter_line(&self, word: &str) -> String {
        if self.cecp {
            format!("# {word}\n")
        } else {
            format!("info string {word}\n")
        }
    }

    /// The first legal move of a side, in the rules' order.
    fn first_legal(&self, side: Side) -> Option<WireMove> {
        self.game.legal_moves(side).into_iter().next()
    }

    /// A well-formed illegal move: from the first empty square to the next square.
    fn illegal_move(&self) -> String {
        let geometry = self.game.geometry();
        let squares: Vec<_> = (0..geometry.size())
            .filter(|&i| !geometry.is_hole_index(i))
            .map(|i| geometry.square(i))
            .collect();
        let empty = squares.iter().position(|&sq| self.game.owner(sq).is_none());
        match empty {
            Some(i) => WireMove::simple(squares[i], squares[(i + 1) % squares.len()]).to_string(),
            None => "z9z8".to_owned(),
        }
    }

    /// Answers a request for a move of `side`, committing the fault if it is due.
    fn answer(&mut self, side: Side) {
        self.answers += 1;
        let due = self.answers == self.at;
        match self.fault {
            Fault::Slow if self.answers >= self.at => sleep(self.delay),
            Fault::Crash if due => exit(3),
            Fault::Hang if due => {
                self.hung = true;
                return;
            }
            Fault::Garbage if due => return self.say_move("???junk"),
            Fault::EmptyMove if due => return self.say_move(""),
            Fault::Babble if due => {
                // More unknown lines than the referee takes (its MAX_GARBAGE, 100), too few
                // to be a flood.
                for _ in 0..200 {
                    println!("xyzzy");
                }
                self.hung = true;
                return;
            }
            Fault::Flood if due => repeat(self.chatter_line("flood").as_bytes(), Duration::ZERO),
            Fault::Chatter if due => repeat(
                self.chatter_line("chatter").as_bytes(),
                Duration::from_millis(1),
            ),
            Fault::LongLine if due => {
                print!("{}", self.chatter_line("").trim_end());
                repeat(&[b'x'; 4096], Duration::ZERO)
            }
            Fault::Trickle if due => {
                let word = if self.cecp {
                    "move e2e4"
                } else {
                    "bestmove e2e4"
                };
                for b in word.bytes().cycle() {
                    print!("{}", char::from(b));
                    if io::stdout().flush().is_err() {
                        exit(0);
                    }
                    sleep(self.delay);
                }
            }
            Fault::Illegal if due => return self.say_move(&self.illegal_move()),
            Fault::FalseClaim if due && self.cecp => {
                let claim = if side == Side::White { "1-0" } else { "0-1" };
                return println!("{claim} {{claim}}");
            }
            Fault::FalseClaim if due => println!("info string misbehave: UCI has no claims"),
            _ => {}
        }
        match self.first_legal(side) {
            Some(mv) => {
                self.say_move(&mv.to_string());
                // In CECP the engine keeps its own board: its move of an alternating game is
                // played at once (a sealed half waits for `reveal`).
                if self.cecp && self.game.side_to_move().is_some() {
                    let _ = self.game.play(&WireTurn::Single(mv));
                }
            }
            None if self.cecp => {}
            None => println!("bestmove (none)"),
        }
    }

    /// A position has arrived that does not ask for a move: `early` answers now if due.
    fn unasked(&mut self) {
        if self.fault == Fault::Early && !self.early_done && self.answers + 1 == self.at {
            self.early_done = true;
            let side = self.game.side_to_move().unwrap_or(self.sealed);
            if let Some(mv) = self.first_legal(side) {
                self.say_move(&mv.to_string());
            }
        }
    }

    /// Starts a fresh game of a variant given by name (unknown names are ignored).
    fn set_variant(&mut self, name: &str) {
        if let Some(v) = Variant::from_name(&name.to_ascii_lowercase()) {
            self.variant = v;
        }
        self.game = Game::start(self.variant);
    }

    /// Handles one UCI line.
    fn uci(&mut self, line: &str) {
        let command = match uci::parse(line) {
            Ok(c) => c,
            Err(e) => return println!("info string error: {e}"),
        };
        match command {
            UciCommand::Uci if self.fault == Fault::FloodStart => {
                repeat(self.chatter_line("flood").as_bytes(), Duration::ZERO)
            }
            UciCommand::Uci if self.fault == Fault::Deaf => {
                println!("id name deaf\nuciok");
                deaf()
            }
            UciCommand::Uci => {
                let vars: Vec<String> = Variant::ALL.iter().map(|v| format!("var {v}")).collect();
                println!("id name {}\nid author the Quill developers", self.name);
                println!(
                    "option name UCI_Variant type combo default {} {}\nuciok",
                    Variant::DEFAULT,
                    vars.join(" ")
                );
            }
            UciCommand::IsReady => println!("readyok"),
            UciCommand::SetOption { name, value } if name.eq_ignore_ascii_case("UCI_Variant") => {
                self.set_variant(value.as_deref().unwrap_or_default());
            }
            UciCommand::UciNewGame => self.game = Game::start(self.variant),
            UciCommand::Position { start, moves } => {
                let game = match start {
                    PositionStart::StartPos => Ok(Game::start(self.variant)),
                    PositionStart::Fen(fen) => Game::from_fen(self.variant, &fen),
                };
                let played = game.and_then(|mut g| {
                    moves.iter().try_for_each(|t| g.play(t).map(drop))?;
                    Ok(g)
                });
                match played {
                    Ok(g) => self.game = g,
                    Err(e) => return println!("info string error: {e}"),
                }
                self.unasked();
            }
            UciCommand::Go(params) => {
                if let Some(side) = params.sealed {
                    self.sealed = side;
                }
                let side = params.sealed.or(self.game.side_to_move());
                self.answer(side.unwrap_or(self.sealed));
            }
            UciCommand::Quit => exit(0),
            _ => {}
        }
    }

    /// Plays a turn from the GUI, then moves if it is the engine's turn (CECP).
    fn cecp_turn(&mut self, turn: &WireTurn) {
        if let Err(e) = self.game.play(turn) {
            return println!("Illegal move ({e}): {turn}");
        }
        if let Some(outcome) = self.game.outcome() {
            return println!("{outcome}");
        }
        self.cecp_next();
    }

    /// After a change of position: the engine's move if it is its turn, else `early`'s chance.
    fn cecp_next(&mut self) {
        let mine = self.game.side_to_move().is_none_or(|s| s == self.engine);
        if !self.force && mine && self.game.outcome().is_none() {
            let side = self.game.side_to_move().unwrap_or(self.sealed);
            self.answer(side);
        } else {
            self.unasked();
        }
    }

    /// Handles one CECP line.
    fn cecp(&mut self, line: &str) {
        let command = match cecp::parse(line) {
            Ok(c) => c,
            Err(e) => return println!("Error ({e}): {line}"),
        };
        match command {
            CecpCommand::Protover(_) if self.fault == Fault::FloodStart => {
                repeat(self.chatter_line("flood").as_bytes(), Duration::ZERO)
            }
            CecpCommand::Protover(_) if self.fault == Fault::Deaf => {
                let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                println!(
                    "feature ping=1 sealed=1 variants=\"{}\" done=1",
                    names.join(",")
                );
                deaf()
            }
            CecpCommand::Protover(_) => {
                let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                println!(
                    "feature ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 reuse=1 sealed=1 \
                     myname=\"{}\" variants=\"{}\" done=1",
                    self.name,
                    names.join(",")
                );
            }
            CecpCommand::New | CecpCommand::Variant(_) => {
                match command {
                    CecpCommand::Variant(name) => self.set_variant(&name),
                    _ => self.set_variant(Variant::DEFAULT.name()),
                }
                self.force = false;
                self.engine = Side::Black;
            }
            CecpCommand::Force | CecpCommand::Result { .. } => self.force = true,
            CecpCommand::Go | CecpCommand::PlayOther => {
                self.force = false;
                let stm = self.game.side_to_move().unwrap_or(self.sealed);
                self.engine = match command {
                    CecpCommand::Go => stm,
                    _ => stm.opponent(),
                };
                self.cecp_next();
            }
            CecpCommand::UserMove(turn) | CecpCommand::Move(turn) => self.cecp_turn(&turn),
            CecpCommand::Reveal(w, b) => self.cecp_turn(&WireTurn::Joint(w, b)),
            CecpCommand::SetBoard(fen) => match Game::from_fen(self.variant, &fen) {
                Ok(g) => {
                    self.game = g;
                    self.unasked();
                }
                Err(e) => println!("Error ({e}): setboard"),
            },
            CecpCommand::Sealed(side) => self.sealed = side,
            CecpCommand::Ping(n) => println!("pong {n}"),
            CecpCommand::Quit => exit(0),
            _ => {}
        }
    }
}

/// Makes the engine the command line asks for: the fault, `--at K`, `--delay MS`.
fn from_args() -> Result<Double, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (first, options) = args
        .split_first()
        .ok_or("usage: misbehave FAULT [--at K] [--delay MS]")?;
    let &(_, fault) = FAULTS
        .iter()
        .find(|(n, _)| n == first)
        .ok_or_else(|| format!("unknown fault '{first}'"))?;
    let (mut at, mut delay) = (1, 1000);
    for pair in options.chunks(2) {
        let value = pair.get(1).ok_or(format!("{} needs a value", pair[0]))?;
        let bad = |_| format!("{} needs a whole number, got '{value}'", pair[0]);
        match pair[0].as_str() {
            "--at" => at = value.parse().map_err(bad)?,
            "--delay" => delay = value.parse().map_err(bad)?,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if at == 0 {
        return Err("--at counts moves from 1".to_owned());
    }
    Ok(Double {
        fault,
        name: format!("misbehave-{first}"),
        at,
        delay: Duration::from_millis(delay),
        cecp: false,
        variant: Variant::DEFAULT,
        game: Game::start(Variant::DEFAULT),
        answers: 0,
        early_done: false,
        hung: false,
        force: false,
        engine: Side::Black,
        sealed: Side::White,
    })
}

fn main() {
    let mut double = from_args().unwrap_or_else(|e| {
        eprintln!("misbehave: {e}");
        exit(2)
    });
    for (i, line) in io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else { break };
        if i == 0 {
            double.cecp = line.trim() == "xboard";
        }
        if double.hung || line.trim().is_empty() {
            continue;
        }
        if double.cecp {
            double.cecp(&line);
        } else {
            double.uci(&line);
        }
    }
}
