//! The CECP (XBoard) seat driver: `xboard`/`protover 2` and the features, a check that the
//! engine offers what the game needs, the game setup synced with `ping`; requests are `time`,
//! `otim` and `go`, and the engine keeps its own board, so every move is told (`usermove`,
//! `reveal`) and it goes back to `force` after its own.

use std::time::{Duration, Instant};

use super::{Ask, Driver, Forfeit, Link, Starting, forfeit, start_options};
use crate::notation::{WireMove, WireTurn};
use crate::protocol::cecp::CecpCommand;
use crate::referee::engine::Meaning;
use crate::referee::inbox::Inbox;
use crate::referee::later;
use crate::variant::Variant;

/// What a CECP engine offered in its features.
#[derive(Default)]
pub(super) struct CecpDriver {
    /// `usermove=1` was offered.
    usermove: bool,
    /// `ping=1` was offered.
    ping: bool,
    /// The last `ping` number sent.
    pings: u32,
    /// It offered the `SealedCommit` option.
    commit_option: bool,
}

/// What the features offered for the game (beyond what is kept on the driver).
#[derive(Default)]
struct Offer {
    /// `variants=…`, as listed.
    variants: Option<String>,
    /// `sealed=1`.
    sealed: bool,
}

fn send(link: &mut Link, command: CecpCommand) -> bool {
    link.send(&command.to_string())
}

impl CecpDriver {
    /// Reads the `feature` lines, answering each (but `done`) with `accepted` or `rejected`,
    /// until `done=1` or a silence of 2 seconds; `done=0` suspends the timer up to `deadline`.
    fn read_features(&mut self, s: &mut Starting<'_>) -> Result<Offer, Forfeit> {
        let (link, inbox, deadline) = (&mut *s.link, &mut *s.inbox, s.deadline);
        let mut offer = Offer::default();
        let mut done = false;
        let mut until = later(Instant::now(), Duration::from_secs(2));
        while !done {
            let Some(event) = inbox.next_from(link.seat, until) else {
                break;
            };
            let line = link.line(event.said, "during the handshake")?;
            let Meaning::Features(pairs) = link.meaning(&line) else {
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
                    send(
                        link,
                        if accept {
                            CecpCommand::Accepted(k)
                        } else {
                            CecpCommand::Rejected(k)
                        },
                    );
                }
            }
        }
        Ok(offer)
    }

    /// `new`, the variant, the options and the limits, synced with `ping 1`.
    fn setup(&mut self, s: &mut Starting<'_>) -> Result<(), Forfeit> {
        let (link, inbox, deadline, game) = (&mut *s.link, &mut *s.inbox, s.deadline, s.game);
        send(link, CecpCommand::New);
        send(link, CecpCommand::Variant(game.variant.to_string()));
        send(link, CecpCommand::Force);
        let option = |name: String, value: String| CecpCommand::Option {
            name,
            value: Some(value),
        };
        for (k, v) in start_options(link, game, self.commit_option, "1") {
            send(link, option(k, v));
        }
        send(link, CecpCommand::Post);
        send(link, CecpCommand::Easy);
        let limits = link.spec.limits;
        if let Some(c) = limits.clock {
            send(
                link,
                CecpCommand::Level {
                    mps: c.moves,
                    base_seconds: u32::try_from(c.base.as_secs()).unwrap_or(u32::MAX),
                    inc: seconds(c.inc),
                },
            );
        }
        if let Some(t) = limits.movetime {
            send(link, CecpCommand::St(seconds(t)));
        }
        if let Some(d) = limits.depth {
            send(link, CecpCommand::Sd(d));
        }
        send(link, CecpCommand::Ping("1".to_owned()));
        link.options_synced(inbox, deadline, "pong", |m| matches!(m, Meaning::Pong(_)))
    }
}

/// The seat is not fit to play a variant it does not list, or a sealed variant without
/// `sealed=1`.
fn check_offer(link: &Link, offer: &Offer, variant: Variant) -> Result<(), Forfeit> {
    let name = &link.spec.name;
    let offered = offer
        .variants
        .as_deref()
        .is_some_and(|list| list.split(',').any(|v| v.trim() == variant.name()));
    if variant != Variant::DEFAULT && !offered {
        return Err(forfeit(
            link.seat,
            format!("{name} does not offer the variant {variant}"),
        ));
    }
    if variant.is_sealed() && !offer.sealed {
        return Err(forfeit(
            link.seat,
            format!("{name} does not offer sealed moves (feature sealed=1)"),
        ));
    }
    Ok(())
}

impl Driver for CecpDriver {
    fn start(&mut self, mut s: Starting<'_>) -> Result<(), Forfeit> {
        self.pings = 1;
        send(s.link, CecpCommand::Xboard);
        send(s.link, CecpCommand::Protover(2));
        let offer = self.read_features(&mut s)?;
        check_offer(s.link, &offer, s.game.variant)?;
        self.setup(&mut s)?;
        let (link, game) = (s.link, s.game);
        if let Some(fen) = game.fen {
            send(link, CecpCommand::SetBoard(fen.to_owned()));
        }
        if let Some(side) = game.sealed {
            send(link, CecpCommand::Sealed(side));
        }
        Ok(())
    }

    fn sync(&mut self, link: &mut Link, inbox: &mut Inbox) -> Result<(), Forfeit> {
        if !self.ping {
            return Ok(());
        }
        self.pings += 1;
        let expected = self.pings.to_string();
        send(link, CecpCommand::Ping(expected.clone()));
        link.synced(inbox, |m| matches!(m, Meaning::Pong(n) if *n == expected))
    }

    fn request(&mut self, link: &mut Link, inbox: &mut Inbox, ask: &Ask) -> Result<(), Forfeit> {
        self.sync(link, inbox)?;
        if let Some(c) = ask.clocks {
            let cs = |d: Duration| i64::try_from(d.as_millis() / 10).unwrap_or(i64::MAX);
            let me = link.seat;
            send(link, CecpCommand::Time(cs(c.left[me])));
            send(link, CecpCommand::Otim(cs(c.left[1 - me])));
        }
        send(link, CecpCommand::Go);
        Ok(())
    }

    fn moved(&mut self, link: &mut Link) {
        send(link, CecpCommand::Force);
    }

    fn inform(&mut self, link: &mut Link, mv: &WireMove) {
        let turn = WireTurn::Single(mv.clone());
        send(
            link,
            if self.usermove {
                CecpCommand::UserMove(turn)
            } else {
                CecpCommand::Move(turn)
            },
        );
    }

    fn revealed(&mut self, link: &mut Link, white: &WireMove, black: &WireMove) {
        send(link, CecpCommand::Force);
        send(link, CecpCommand::Reveal(white.clone(), black.clone()));
    }

    fn set_board(&mut self, link: &mut Link, fen: &str) {
        send(link, CecpCommand::Force);
        send(link, CecpCommand::SetBoard(fen.to_owned()));
    }

    fn remove(&mut self, link: &mut Link) {
        send(link, CecpCommand::Remove);
    }
}

/// A duration as CECP writes it, rounded to the millisecond.
fn seconds(d: Duration) -> crate::protocol::cecp::Seconds {
    let millis = d.as_micros().saturating_add(500) / 1000;
    crate::protocol::cecp::Seconds::from_millis(u64::try_from(millis).unwrap_or(u64::MAX))
}
