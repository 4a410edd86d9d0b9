//! The seat driver: a seat during a game ([`Player`]), and an engine's side of it
//! ([`EnginePlayer`]): starting the engine and its handshake per dialect, sending commands,
//! waiting for lines, and syncing with `isready`/`ping`.

use super::*;

/// A seat during a game.
pub(super) enum Player {
    Engine(Box<EnginePlayer>),
    Human(String, Terminal),
}

/// An engine during a game.
pub(super) struct EnginePlayer {
    pub(super) spec: EngineSpec,
    pub(super) seat: usize,
    pub(super) process: Process,
    pub(super) log: Dialogue,
    /// CECP: `usermove=1` was offered.
    pub(super) usermove: bool,
    /// CECP: `ping=1` was offered.
    pub(super) ping: bool,
    /// The last `ping` number sent.
    pub(super) pings: u32,
    /// UCI: the engine lists `UCI_Variant`.
    pub(super) variant_option: bool,
    /// UCI: the engine lists `SealedCommit`; CECP: it offered the option.
    pub(super) commit_option: bool,
    /// The last score it reported while thinking.
    pub(super) score: Option<i32>,
}

impl EnginePlayer {
    /// A started engine at seat `seat`, before its handshake (which finds out what it offers).
    pub(super) fn new(
        spec: &EngineSpec,
        seat: usize,
        process: Process,
        log: Dialogue,
    ) -> EnginePlayer {
        EnginePlayer {
            spec: spec.clone(),
            seat,
            process,
            log,
            usermove: false,
            ping: false,
            pings: 1,
            variant_option: false,
            commit_option: false,
            score: None,
        }
    }

    pub(super) fn send(&mut self, line: &str) -> bool {
        self.log.line(self.seat, '>', line);
        self.process.send(line)
    }

    /// Sends a UCI command, printed by the protocol's own printer.
    pub(super) fn uci(&mut self, command: UciCommand) -> bool {
        self.send(&command.to_string())
    }

    /// Sends a CECP command, printed by the protocol's own printer.
    pub(super) fn cecp(&mut self, command: CecpCommand) -> bool {
        self.send(&command.to_string())
    }

    pub(super) fn crashed(&mut self, what: &str) -> Forfeit {
        let status = self.process.ending();
        forfeit(self.seat, format!("{} {status} {what}", self.spec.name))
    }

    /// The forfeit of an engine that broke a bound on its output.
    pub(super) fn overflowed(&self, why: &str) -> Forfeit {
        forfeit(self.seat, format!("{} {why}", self.spec.name))
    }

    /// Reads lines of this engine until `want` accepts one, before `deadline`.
    pub(super) fn wait_for<T>(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        what: &str,
        mut want: impl FnMut(&mut EnginePlayer, Meaning) -> Option<T>,
    ) -> Result<T, Forfeit> {
        loop {
            let Some(event) = inbox.next_from(self.seat, deadline) else {
                return Err(forfeit(
                    self.seat,
                    format!("{} did not answer in time ({what})", self.spec.name),
                ));
            };
            match event.said {
                Said::Closed => return Err(self.crashed(&format!("while waiting for {what}"))),
                Said::Overflow(why) => return Err(self.overflowed(&why)),
                Said::Line(line) => {
                    let m = meaning(self.spec.dialect, &line);
                    if let Some(t) = want(self, m) {
                        return Ok(t);
                    }
                }
            }
        }
    }

    /// Makes sure the engine has read everything sent so far (UCI `isready`, CECP `ping`),
    /// before it is asked to move: a move printed before the answer is a move out of turn.
    pub(super) fn sync(&mut self, inbox: &mut Inbox) -> Result<(), Forfeit> {
        let expected = match self.spec.dialect {
            Dialect::Uci => {
                self.uci(UciCommand::IsReady);
                None
            }
            Dialect::Cecp if self.ping => {
                self.pings += 1;
                self.cecp(CecpCommand::Ping(self.pings.to_string()));
                Some(self.pings.to_string())
            }
            Dialect::Cecp => return Ok(()),
        };
        let deadline = later(Instant::now(), START_TIMEOUT);
        let name = self.spec.name.clone();
        let seat = self.seat;
        self.wait_for(inbox, deadline, "isready/ping", |_, m| match m {
            Meaning::ReadyOk if expected.is_none() => Some(Ok(())),
            Meaning::Pong(n) if expected.as_ref() == Some(&n) => Some(Ok(())),
            Meaning::Move(m) | Meaning::Commit(m) => Some(Err(forfeit(
                seat,
                format!("{name} moved out of turn ({})", shown(&m)),
            ))),
            _ => None,
        })?
    }

    /// Waits for the answer `done` to the sync after the options; a complaint before it (UCI
    /// `info string error …`, CECP `Error …`) means the engine refused an option or the
    /// variant, and the seat is not fit to play.
    pub(super) fn options_synced(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        what: &str,
        done: impl Fn(&Meaning) -> bool,
    ) -> Result<(), Forfeit> {
        let name = self.spec.name.clone();
        let seat = self.seat;
        self.wait_for(inbox, deadline, what, |_, m| match m {
            Meaning::Complaint(c) => Some(Err(forfeit(
                seat,
                format!("{name} refused an option: {}", shown(&c)),
            ))),
            m if done(&m) => Some(Ok(())),
            _ => None,
        })?
    }

    /// Starts the engine's session: the handshake, the options, the variant.
    pub(super) fn start(
        &mut self,
        inbox: &mut Inbox,
        variant: Variant,
        wants_commit: bool,
    ) -> Result<(), Forfeit> {
        let deadline = later(Instant::now(), START_TIMEOUT);
        match self.spec.dialect {
            Dialect::Uci => self.start_uci(inbox, deadline, variant, wants_commit),
            Dialect::Cecp => self.start_cecp(inbox, deadline, variant, wants_commit),
        }
    }

    /// UCI: `uci` and the option list up to `uciok`, then the options, the variant and
    /// `ucinewgame`, synced with `isready`.
    fn start_uci(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        variant: Variant,
        wants_commit: bool,
    ) -> Result<(), Forfeit> {
        self.uci(UciCommand::Uci);
        self.wait_for(inbox, deadline, "uciok", |e, m| match m {
            Meaning::UciOk => Some(()),
            Meaning::OptionName(o) => {
                e.variant_option |= o.eq_ignore_ascii_case("UCI_Variant");
                e.commit_option |= o.eq_ignore_ascii_case("SealedCommit");
                None
            }
            _ => None,
        })?;
        let set = |name: &str, value: String| UciCommand::SetOption {
            name: name.to_owned(),
            value: Some(value),
        };
        if self.variant_option {
            self.uci(set("UCI_Variant", variant.to_string()));
        }
        for (k, v) in self.spec.options.clone() {
            self.uci(set(&k, v));
        }
        if wants_commit && self.commit_option {
            self.uci(set("SealedCommit", "true".to_owned()));
        }
        self.uci(UciCommand::UciNewGame);
        self.uci(UciCommand::IsReady);
        self.options_synced(inbox, deadline, "readyok", |m| *m == Meaning::ReadyOk)
    }

    /// CECP: `xboard`/`protover 2` and the features, a check that the engine offers what the
    /// game needs, then the game setup.
    fn start_cecp(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        variant: Variant,
        wants_commit: bool,
    ) -> Result<(), Forfeit> {
        self.cecp(CecpCommand::Xboard);
        self.cecp(CecpCommand::Protover(2));
        let offer = self.read_features(inbox, deadline)?;
        self.check_offer(&offer, variant)?;
        self.setup_cecp(inbox, deadline, variant, wants_commit)
    }

    /// CECP: reads the `feature` lines, answering each (but `done`) with `accepted` or
    /// `rejected`, until `done=1` or a silence of 2 seconds; `done=0` suspends the timer up to
    /// `deadline`.
    fn read_features(&mut self, inbox: &mut Inbox, deadline: Instant) -> Result<Offer, Forfeit> {
        let mut offer = Offer::default();
        let mut done = false;
        let mut until = later(Instant::now(), Duration::from_secs(2));
        while !done {
            let Some(event) = inbox.next_from(self.seat, until) else {
                break;
            };
            let line = match event.said {
                Said::Closed => return Err(self.crashed("during the handshake")),
                Said::Overflow(why) => return Err(self.overflowed(&why)),
                Said::Line(l) => l,
            };
            let Meaning::Features(pairs) = meaning(Dialect::Cecp, &line) else {
                continue;
            };
            for (k, v) in pairs {
                let accept = !(k == "san" && v == "1");
                match k.as_str() {
                    "done" if v == "0" => until = deadline,
                    "done" => done = true,
                    "variants" => offer.variants = Some(v.clone()),
                    "sealed" => offer.sealed = v == "1",
                    "usermove" => self.usermove = v == "1",
                    "ping" => self.ping = v == "1",
                    "option" => self.commit_option |= v.starts_with("SealedCommit "),
                    _ => {}
                }
                if k != "done" {
                    self.cecp(if accept {
                        CecpCommand::Accepted(k)
                    } else {
                        CecpCommand::Rejected(k)
                    });
                }
            }
        }
        Ok(offer)
    }

    /// CECP: the seat is not fit to play a variant it does not list, or a sealed variant
    /// without `sealed=1`.
    fn check_offer(&self, offer: &Offer, variant: Variant) -> Result<(), Forfeit> {
        let name = &self.spec.name;
        let offered = offer
            .variants
            .as_deref()
            .is_some_and(|list| list.split(',').any(|v| v.trim() == variant.name()));
        if variant != Variant::DEFAULT && !offered {
            return Err(forfeit(
                self.seat,
                format!("{name} does not offer the variant {variant}"),
            ));
        }
        if variant.is_sealed() && !offer.sealed {
            return Err(forfeit(
                self.seat,
                format!("{name} does not offer sealed moves (feature sealed=1)"),
            ));
        }
        Ok(())
    }

    /// CECP: `new`, the variant, the options and the limits, synced with `ping 1`.
    fn setup_cecp(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        variant: Variant,
        wants_commit: bool,
    ) -> Result<(), Forfeit> {
        self.cecp(CecpCommand::New);
        self.cecp(CecpCommand::Variant(variant.to_string()));
        self.cecp(CecpCommand::Force);
        let option = |name: String, value: String| CecpCommand::Option {
            name,
            value: Some(value),
        };
        for (k, v) in self.spec.options.clone() {
            self.cecp(option(k, v));
        }
        if wants_commit && self.commit_option {
            self.cecp(option("SealedCommit".to_owned(), "1".to_owned()));
        }
        self.cecp(CecpCommand::Post);
        self.cecp(CecpCommand::Easy);
        let limits = self.spec.limits;
        if let Some(c) = limits.clock {
            self.cecp(CecpCommand::Level {
                mps: c.moves,
                base_seconds: u32::try_from(c.base.as_secs()).unwrap_or(u32::MAX),
                inc: seconds(c.inc),
            });
        }
        if let Some(t) = limits.movetime {
            self.cecp(CecpCommand::St(seconds(t)));
        }
        if let Some(d) = limits.depth {
            self.cecp(CecpCommand::Sd(d));
        }
        self.cecp(CecpCommand::Ping("1".to_owned()));
        self.options_synced(inbox, deadline, "pong", |m| matches!(m, Meaning::Pong(_)))
    }
}

/// CECP: what the features offered for the game (beyond what is kept on the seat).
#[derive(Default)]
struct Offer {
    /// `variants=…`, as listed.
    variants: Option<String>,
    /// `sealed=1`.
    sealed: bool,
}
