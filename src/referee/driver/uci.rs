//! The UCI seat driver: `uci` and the option list up to `uciok`, the options, the variant and
//! `ucinewgame` synced with `isready`; every request sends the whole game (`position`) and
//! `go` with the limits. A UCI engine keeps no board between requests, so moves are not told.

use std::time::Duration;

use super::{Ask, Driver, Forfeit, Link, Starting, start_options};
use crate::notation::WireMove;
use crate::protocol::uci::{GoParams, PositionStart, UciCommand};
use crate::referee::engine::Meaning;
use crate::referee::inbox::Inbox;

/// What a UCI engine offered in its handshake.
#[derive(Default)]
pub(super) struct UciDriver {
    /// It lists `UCI_Variant`.
    variant_option: bool,
    /// It lists `SealedCommit`.
    commit_option: bool,
}

fn send(link: &mut Link, command: UciCommand) -> bool {
    link.send(&command.to_string())
}

fn set(name: &str, value: String) -> UciCommand {
    UciCommand::SetOption {
        name: name.to_owned(),
        value: Some(value),
    }
}

/// The `go` of a request: its limits, its clocks, and in a sealed game its side.
fn go(link: &Link, ask: &Ask) -> UciCommand {
    let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let limits = link.spec.limits;
    let mut go = GoParams {
        sealed: ask.sealed,
        movetime: limits.movetime.map(millis),
        depth: limits.depth,
        nodes: limits.nodes,
        ..GoParams::default()
    };
    if let Some(c) = ask.clocks {
        go.wtime = Some(millis(c.left[0]));
        go.btime = Some(millis(c.left[1]));
        go.winc = Some(millis(c.inc[0]));
        go.binc = Some(millis(c.inc[1]));
        go.movestogo = c.moves_to_go;
    }
    UciCommand::Go(go)
}

impl Driver for UciDriver {
    fn start(&mut self, s: Starting<'_>) -> Result<(), Forfeit> {
        let Starting {
            link,
            inbox,
            deadline,
            game,
        } = s;
        send(link, UciCommand::Uci);
        link.wait_for(inbox, deadline, "uciok", |m| match m {
            Meaning::UciOk => Some(()),
            Meaning::OptionName(o) => {
                self.variant_option |= o.eq_ignore_ascii_case("UCI_Variant");
                self.commit_option |= o.eq_ignore_ascii_case("SealedCommit");
                None
            }
            _ => None,
        })?;
        if self.variant_option {
            send(link, set("UCI_Variant", game.variant.to_string()));
        }
        for (k, v) in start_options(link, game, self.commit_option, "true") {
            send(link, set(&k, v));
        }
        send(link, UciCommand::UciNewGame);
        send(link, UciCommand::IsReady);
        link.options_synced(inbox, deadline, "readyok", |m| *m == Meaning::ReadyOk)
    }

    fn sync(&mut self, link: &mut Link, inbox: &mut Inbox) -> Result<(), Forfeit> {
        send(link, UciCommand::IsReady);
        link.synced(inbox, |m| *m == Meaning::ReadyOk)
    }

    fn request(&mut self, link: &mut Link, inbox: &mut Inbox, ask: &Ask) -> Result<(), Forfeit> {
        let position = UciCommand::Position {
            start: ask.fen.map_or(PositionStart::StartPos, |f| {
                PositionStart::Fen(f.to_owned())
            }),
            moves: ask.turns.to_vec(),
        };
        send(link, position);
        self.sync(link, inbox)?;
        send(link, go(link, ask));
        Ok(())
    }

    fn moved(&mut self, _: &mut Link) {}

    fn inform(&mut self, _: &mut Link, _: &WireMove) {}

    fn revealed(&mut self, _: &mut Link, _: &WireMove, _: &WireMove) {}

    fn set_board(&mut self, _: &mut Link, _: &str) {}

    fn remove(&mut self, _: &mut Link) {}
}
