//! How games ended, read back from the reasons the referee records: by the rules, by
//! adjudication (turn cap, repetition, score) or by forfeit of each kind. The summary counts
//! them, so that a match decided by crashes or flags cannot pass for one decided by play.

use std::fmt;

use super::results::GameRecord;

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum End {
    /// The rules ended it (a win, a draw by the rules).
    Rules,
    /// A seat resigned (an engine's `resign`, a person's `resign`).
    Resignation,
    /// The turn cap.
    TurnCap,
    /// The repetition adjudication.
    Repetition,
    /// Score adjudication (resign or draw by scores).
    Score,
    /// Forfeit: out of time, or silent past its clock.
    Time,
    /// Forfeit: the engine could not start, exited or closed its output.
    Crash,
    /// Forfeit: an illegal move.
    Illegal,
    /// Forfeit: text that is not a move, too much unrecognised output, a line too long.
    Garbage,
    /// Forfeit: a move out of turn, a false claim, a refused legal move, a broken commitment,
    /// a missing feature: any other breach of the protocol.
    Protocol,
    /// A person left the game (end of input).
    Abandoned,
    /// The game could not be set up (a bad opening).
    Setup,
}

impl End {
    /// Every kind, in the order the summary lists them.
    pub(crate) const ALL: [End; 12] = [
        End::Rules,
        End::Resignation,
        End::TurnCap,
        End::Repetition,
        End::Score,
        End::Time,
        End::Crash,
        End::Illegal,
        End::Garbage,
        End::Protocol,
        End::Abandoned,
        End::Setup,
    ];

    /// Whether a seat lost outright for breaking the rules of the match.
    pub(crate) fn is_forfeit(self) -> bool {
        match self {
            End::Time | End::Crash | End::Illegal | End::Garbage | End::Protocol => true,
            End::Rules
            | End::Resignation
            | End::TurnCap
            | End::Repetition
            | End::Score
            | End::Abandoned
            | End::Setup => false,
        }
    }

    /// Reads the kind of end from a recorded reason. The phrases are the referee's own
    /// (`src/referee/game.rs`); a reason that is none of them is the rules' own wording.
    pub(crate) fn of(reason: &str) -> End {
        let has = |p: &str| reason.contains(p);
        if let Some(adj) = reason.strip_prefix("adjudicated: ") {
            return if adj.starts_with("turn cap") {
                End::TurnCap
            } else if adj.starts_with("the same position") {
                End::Repetition
            } else {
                End::Score
            };
        }
        if reason.starts_with("bad opening") {
            End::Setup
        } else if has(" left the game") {
            End::Abandoned
        } else if has(" resigned") {
            End::Resignation
        } else if has(" did not move within")
            || has(" lost on time")
            || has("did not answer in time")
        {
            End::Time
        } else if has(" could not start") || has(" exited (") || has(" closed its output") {
            End::Crash
        } else if has(" played an illegal move") {
            End::Illegal
        } else if has("garbage")
            || has("not of the variant")
            || has("longer than")
            || has(" flooded: ")
        {
            End::Garbage
        } else if has(" moved out of turn")
            || has(" made a false claim")
            || has(" refused a legal move")
            || has(" broke its commitment")
            || has(" sent a commitment")
            || has(" does not offer")
            || has(" refused an option")
            || has("no terminal for a human seat")
        {
            End::Protocol
        } else {
            End::Rules
        }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            End::Rules => "by the rules",
            End::Resignation => "resignation",
            End::TurnCap => "adjudicated: turn cap",
            End::Repetition => "adjudicated: repetition",
            End::Score => "adjudicated: score",
            End::Time => "forfeit: time",
            End::Crash => "forfeit: crash",
            End::Illegal => "forfeit: illegal move",
            End::Garbage => "forfeit: garbage",
            End::Protocol => "forfeit: protocol",
            End::Abandoned => "abandoned",
            End::Setup => "bad opening",
        })
    }
}

/// How many games ended each way, in the order of [`End::ALL`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ends {
    counts: [u32; End::ALL.len()],
}

impl Ends {
    /// Counts the ends of `records`.
    pub(crate) fn new<'a>(records: impl IntoIterator<Item = &'a GameRecord>) -> Ends {
        let mut ends = Ends::default();
        for r in records {
            let k = End::of(&r.reason);
            if let Some(i) = End::ALL.iter().position(|&e| e == k) {
                ends.counts[i] += 1;
            }
        }
        ends
    }

    /// Games that ended as `end`.
    pub(crate) fn count(&self, end: End) -> u32 {
        End::ALL
            .iter()
            .position(|&e| e == end)
            .map_or(0, |i| self.counts[i])
    }

    /// All games counted.
    pub(crate) fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Games lost by forfeit.
    pub(crate) fn forfeits(&self) -> u32 {
        End::ALL
            .iter()
            .filter(|e| e.is_forfeit())
            .map(|&e| self.count(e))
            .sum()
    }

    /// Whether more than half the games were forfeits: the score then measures the engines'
    /// conduct (or the machine's load), not their play.
    pub(crate) fn mostly_forfeits(&self) -> bool {
        2 * self.forfeits() > self.total()
    }
}

impl fmt::Display for Ends {
    /// `Ends: by the rules 6, adjudicated: turn cap 2, forfeit: time 1`: the kinds that occurred.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = End::ALL
            .iter()
            .filter(|&&e| self.count(e) > 0)
            .map(|&e| format!("{e} {}", self.count(e)))
            .collect();
        write!(f, "Ends: {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_the_referee_writes_are_classified() {
        let cases = [
            ("Black has no footmen left", End::Rules),
            ("adjudicated: turn cap of 300 turns reached", End::TurnCap),
            ("adjudicated: the same position 3 times", End::Repetition),
            (
                "adjudicated: b scored -500 or worse for 3 moves",
                End::Score,
            ),
            ("adjudicated: both scores within 10 for 8 turns", End::Score),
            ("q did not move within 0.3 s (its clock)", End::Time),
            ("q lost on time (1.234 s used)", End::Time),
            ("q exited (exit status: 1) while thinking", End::Crash),
            (
                "q could not start: No such file or directory (os error 2)",
                End::Crash,
            ),
            (
                "q played an illegal move: illegal move a1a2: no",
                End::Illegal,
            ),
            ("q sent garbage for a move: 'xyzzy'", End::Garbage),
            ("q printed garbage: hello", End::Garbage),
            ("q moved out of turn (a2a3)", End::Protocol),
            ("q made a false claim: 1-0 {x}", End::Protocol),
            ("q resigned", End::Resignation),
            ("me left the game (end of input)", End::Abandoned),
            ("bad opening: bad FEN: x", End::Setup),
        ];
        for (reason, end) in cases {
            assert_eq!(End::of(reason), end, "{reason}");
        }
    }

    #[test]
    fn counts_and_the_forfeit_share() {
        let record = |reason: &str| GameRecord {
            game: 0,
            pair: 0,
            white: "a".into(),
            black: "b".into(),
            result: super::super::results::GameResult::Draw,
            plies: 1,
            opening: "-".into(),
            reason: reason.into(),
        };
        let rs = [
            record("q lost on time (1 s used)"),
            record("q lost on time (1 s used)"),
            record("White has no pawns left"),
        ];
        let ends = Ends::new(&rs);
        assert_eq!(ends.forfeits(), 2);
        assert!(ends.mostly_forfeits());
        assert_eq!(ends.to_string(), "Ends: by the rules 1, forfeit: time 2");
        assert!(!Ends::new(&rs[2..]).mostly_forfeits());
    }
}
