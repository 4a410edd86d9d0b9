//! What a game hears from its seats: one bounded channel that both engines' reader threads send
//! into, a bounded queue per seat for the lines of the seat that is not being waited for, and
//! the buffered dialogue log.
//!
//! Bounds (see `protocol-docs/referee.md`): the channel holds [`CHANNEL_EVENTS`] events (a
//! reader blocks when it is full); a seat's queue holds [`MAX_PENDING`] lines that matter
//! (`info` chatter is dropped from it, and only the latest score is kept), beyond which the seat
//! forfeits as flooding. No wait ever outlives its deadline, however fast lines arrive.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::rc::Rc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Instant;

use super::engine::{CHANNEL_EVENTS, Event, Meaning, Said, meaning};
use super::seat::Dialect;

/// Most lines of one seat kept while the referee waits for the other seat (lines that are not
/// `info` chatter; scores are merged into the latest).
pub(crate) const MAX_PENDING: usize = 1024;

/// Bytes the dialogue log gathers before it writes them out.
const LOG_BUFFER: usize = 64 * 1024;

/// The dialogue log of a game (`> ` sent, `< ` received, per seat): one buffered writer shared
/// by the inbox and both players, flushed when the game ends.
#[derive(Clone, Default)]
pub(crate) struct Dialogue(Option<Rc<RefCell<BufWriter<File>>>>);

impl Dialogue {
    /// A log written to `file`.
    pub(crate) fn new(file: File) -> Dialogue {
        Dialogue(Some(Rc::new(RefCell::new(BufWriter::with_capacity(
            LOG_BUFFER, file,
        )))))
    }

    /// Logs one line of seat `seat`; `arrow` is `>` (sent) or `<` (received).
    pub(crate) fn line(&self, seat: usize, arrow: char, text: &str) {
        if let Some(w) = &self.0 {
            let _ = writeln!(w.borrow_mut(), "{seat} {arrow} {text}");
        }
    }

    /// Writes out what is buffered.
    pub(crate) fn flush(&self) {
        if let Some(w) = &self.0 {
            let _ = w.borrow_mut().flush();
        }
    }
}

/// The events of a game, buffered per seat so that one seat can be waited for while the other's
/// lines are kept in order.
pub(crate) struct Inbox {
    rx: Receiver<Event>,
    dialects: [Option<Dialect>; 2],
    pending: [VecDeque<Event>; 2],
    /// A seat whose queue overflowed: its later events are dropped.
    overflowed: [bool; 2],
    log: Dialogue,
}

impl Inbox {
    /// An inbox and the sender its seats' readers share; `dialects` says how to read each
    /// seat's lines (`None`: a person, who sends no events).
    pub(crate) fn new(dialects: [Option<Dialect>; 2], log: Dialogue) -> (Inbox, SyncSender<Event>) {
        let (tx, rx) = sync_channel(CHANNEL_EVENTS);
        let inbox = Inbox {
            rx,
            dialects,
            pending: [VecDeque::new(), VecDeque::new()],
            overflowed: [false; 2],
            log,
        };
        (inbox, tx)
    }

    /// The next event of `seat` before `deadline`.
    pub(crate) fn next_from(&mut self, seat: usize, deadline: Instant) -> Option<Event> {
        if let Some(e) = self.pending[seat].pop_front() {
            return Some(e);
        }
        loop {
            let e = self.recv(deadline)?;
            if e.seat == seat {
                return Some(e);
            }
            self.keep(e);
        }
    }

    /// The next event of either seat before `deadline`.
    pub(crate) fn next_any(&mut self, deadline: Instant) -> Option<Event> {
        for q in &mut self.pending {
            if let Some(e) = q.pop_front() {
                return Some(e);
            }
        }
        self.recv(deadline)
    }

    /// Queues an event of the seat not waited for, within [`MAX_PENDING`].
    fn keep(&mut self, e: Event) {
        let seat = e.seat;
        if self.overflowed[seat] {
            return;
        }
        let queue = &mut self.pending[seat];
        if let (Said::Line(line), Some(dialect)) = (&e.said, self.dialects[seat]) {
            match meaning(dialect, line) {
                Meaning::Chatter => return,
                Meaning::Score(_) => {
                    let last_is_score = queue.back().is_some_and(|last| match &last.said {
                        Said::Line(l) => matches!(meaning(dialect, l), Meaning::Score(_)),
                        Said::Closed | Said::Overflow(_) => false,
                    });
                    if last_is_score {
                        queue.pop_back();
                    }
                }
                _ => {}
            }
        }
        if queue.len() >= MAX_PENDING {
            let why = format!(
                "flooded: more than {MAX_PENDING} lines while the other seat was waited for"
            );
            self.log.line(seat, '!', &why);
            queue.clear();
            self.overflowed[seat] = true;
            queue.push_back(Event {
                seat,
                at: e.at,
                said: Said::Overflow(why),
            });
            return;
        }
        queue.push_back(e);
    }

    fn recv(&mut self, deadline: Instant) -> Option<Event> {
        // Checked first: with lines always waiting, `recv_timeout` would never time out.
        let wait = deadline.checked_duration_since(Instant::now())?;
        match self.rx.recv_timeout(wait) {
            Ok(e) => {
                match &e.said {
                    Said::Line(line) => self.log.line(e.seat, '<', line),
                    Said::Overflow(why) => self.log.line(e.seat, '!', why),
                    Said::Closed => {}
                }
                Some(e)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }
}
