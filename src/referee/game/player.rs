//! The seats of a game: an engine, driven by the seat driver ([`EngineSeat`]), or a person at
//! the terminal ([`HumanSeat`]); and what a request to an engine carries ([`ask`]).

use super::*;

/// A seat during a game.
pub(super) enum Player {
    Engine(Box<EngineSeat>),
    Human(HumanSeat),
}

/// A person at the terminal.
#[derive(Clone)]
pub(super) struct HumanSeat {
    pub(super) name: String,
    pub(super) terminal: Terminal,
}

impl Player {
    /// The engine of the seat, `None` for a person.
    pub(super) fn engine(&mut self) -> Option<&mut EngineSeat> {
        match self {
            Player::Engine(e) => Some(e),
            Player::Human(_) => None,
        }
    }

    /// The seat's last reported score (people report none).
    pub(super) fn score(&self) -> Option<i32> {
        match self {
            Player::Engine(e) => e.score(),
            Player::Human(_) => None,
        }
    }
}

/// Seat `i` and the other seat, apart.
pub(super) fn pair(players: &mut [Player; 2], i: usize) -> (&mut Player, &mut Player) {
    let [white, black] = players;
    if i == 0 {
        (white, black)
    } else {
        (black, white)
    }
}

/// The request to seat `i`: the game so far, and the clocks when it has a time control.
pub(super) fn ask<'a>(
    setup: &'a GameSetup,
    turns: &'a [WireTurn],
    clocks: &[Clock; 2],
    i: usize,
    sealed: bool,
) -> Ask<'a> {
    let clock = &clocks[i];
    let told = clock.limits.clock.map(|c| Clocks {
        left: [clocks[0].left, clocks[1].left],
        inc: clocks
            .each_ref()
            .map(|k| k.limits.clock.map_or(Duration::ZERO, |c| c.inc)),
        moves_to_go: (c.moves > 0).then(|| clock.moves_to_go().unwrap_or(1)),
    });
    Ask {
        fen: setup.opening.fen.as_deref(),
        turns,
        sealed: sealed.then(|| side_of(i)),
        clocks: told,
    }
}

/// Waits before `deadline` for the answer of engine `e`, asked with `allowance`; `other` is
/// the opponent's engine when it is watched meanwhile (a line of it out of turn forfeits it).
pub(super) fn wait_answer(
    e: &mut EngineSeat,
    mut other: Option<&mut EngineSeat>,
    inbox: &mut Inbox,
    deadline: Instant,
    allowance: Duration,
) -> Result<Answer, Forfeit> {
    let seat = e.seat();
    loop {
        let event = match other {
            Some(_) => inbox.next_any(deadline),
            None => inbox.next_from(seat, deadline),
        };
        let Some(event) = event else {
            e.silent()?;
            return Err(e.too_slow(allowance));
        };
        if event.seat != seat {
            if let Some(o) = other.as_deref_mut() {
                o.unsolicited(event.said)?;
            }
            continue;
        }
        match e.hear(event)? {
            Heard::Move(m, at) => return Ok(Answer::Move(m, at)),
            Heard::Commit(d, at) => return Ok(Answer::Commit(d, at)),
            Heard::Line(_) | Heard::Thought(_) => {}
        }
    }
}

/// A seat's answer to a request.
#[derive(Clone, Debug)]
pub(super) enum Answer {
    /// A move as written, and when it arrived.
    Move(String, Instant),
    /// A commitment, and when it arrived.
    Commit(String, Instant),
}

/// Why a probed seat cannot play (the referee starts every engine seat once before a match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// It could not be started, exited during the handshake or refused an option, in the
    /// words a game would record.
    Unfit(String),
    /// Its command exited with status 127: the shell found no such command.
    NoCommand {
        /// What a game would record.
        why: String,
        /// The seat's command.
        cmd: String,
    },
}

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeError::Unfit(why) => f.write_str(why),
            ProbeError::NoCommand { why, cmd } => write!(
                f,
                "{why} (exit status 127: the shell found no such command: {cmd})"
            ),
        }
    }
}

/// Starts the engine of seat `i` as a game would (the handshake, its options, the variant) and
/// stops it: a match probes every engine seat before its first game, so that a command that does
/// not run or an option the engine refuses stops the match instead of forfeiting every game.
/// A seat that starts but misbehaves (silence, floods) is only warned about: that is the
/// engine's conduct, which the games record as forfeits.
///
/// # Errors
/// Why the seat cannot play (it could not be started, it exited during the handshake, or it
/// refused an option), in the words a game would record.
pub(crate) fn probe(variant: Variant, seats: [&Seat; 2], i: usize) -> Result<(), ProbeError> {
    let Seat::Engine(spec) = seats[i] else {
        return Ok(());
    };
    let mut dialects = [None, None];
    dialects[i] = Some(spec.dialect);
    let (mut inbox, tx) = Inbox::new(dialects, Dialogue::default());
    let mut e = EngineSeat::spawn(spec, i, tx, Dialogue::default())
        .map_err(|f| ProbeError::Unfit(f.why))?;
    let human = seats.iter().any(|s| matches!(s, Seat::Human { .. }));
    let game = NewGame {
        variant,
        wants_commit: variant.is_sealed() && human,
        fen: None,
        sealed: None,
    };
    let started = e.start(&mut inbox, &game);
    let exited = e.exit_status().map(|s| s.code());
    e.quit(Duration::from_millis(500));
    match started {
        Ok(()) => Ok(()),
        Err(f) if f.why.contains(" refused an option") => Err(ProbeError::Unfit(f.why)),
        Err(f) if exited == Some(Some(127)) => Err(ProbeError::NoCommand {
            why: f.why,
            cmd: spec.cmd.clone(),
        }),
        // It ended its output or exited by itself (not a flood the referee cut short).
        Err(f) if f.why.contains(" exited (") || f.why.contains(" closed its output") => {
            Err(ProbeError::Unfit(f.why))
        }
        Err(f) => {
            log::warn!("{}: {} (the games will tell)", spec.name, f.why);
            Ok(())
        }
    }
}
