//! The faults the double can commit (the table in `misbehave.rs`'s header says what each
//! does), and the two that never return: going deaf and writing forever.

use std::io::{self, Write};
use std::process::exit;
use std::thread::sleep;
use std::time::Duration;

/// The ways to misbehave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Good,
    Crash,
    Hang,
    Garbage,
    Illegal,
    FalseClaim,
    Early,
    Slow,
    FloodStart,
    Flood,
    Chatter,
    LongLine,
    Trickle,
    EmptyMove,
    Babble,
    Deaf,
}

pub const FAULTS: [(&str, Fault); 16] = [
    ("good", Fault::Good),
    ("crash", Fault::Crash),
    ("hang", Fault::Hang),
    ("garbage", Fault::Garbage),
    ("illegal", Fault::Illegal),
    ("false-claim", Fault::FalseClaim),
    ("early", Fault::Early),
    ("slow", Fault::Slow),
    ("flood-start", Fault::FloodStart),
    ("flood", Fault::Flood),
    ("chatter", Fault::Chatter),
    ("long-line", Fault::LongLine),
    ("trickle", Fault::Trickle),
    ("empty-move", Fault::EmptyMove),
    ("babble", Fault::Babble),
    ("deaf", Fault::Deaf),
];

/// Never reads its input again: whatever is sent fills the pipe.
pub fn deaf() -> ! {
    loop {
        sleep(Duration::from_secs(1000));
    }
}

/// Writes `text` again and again, with `pause` between writes, until the reader goes away
/// (then it exits).
pub fn repeat(text: &[u8], pause: Duration) -> ! {
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    loop {
        let written = out.write_all(text);
        let flushed = if pause.is_zero() { Ok(()) } else { out.flush() };
        if written.and(flushed).is_err() {
            exit(0);
        }
        if !pause.is_zero() {
            sleep(pause);
        }
    }
}
