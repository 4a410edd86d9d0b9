//! Bulk-counting perft, one recursion for every variant's [`GameRules`].

use std::sync::atomic::{AtomicBool, Ordering};

use crate::rules::GameRules;

/// Counts the sequences of `depth` turns from a position (a finished game has no children);
/// gives up (`None`) soon after `stop` is set.
pub(crate) fn perft<R: GameRules>(pos: &R, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let mut buffers = vec![Vec::new(); depth as usize];
    count(pos, depth, &mut buffers, stop)
}

fn count<R: GameRules>(
    pos: &R,
    depth: u32,
    buffers: &mut [Vec<R::Turn>],
    stop: &AtomicBool,
) -> Option<u64> {
    match depth {
        0 => return Some(1),
        1 => return Some(pos.count_turns()),
        // Checked above the last ply: a Gladiator node two plies up already counts millions of
        // turns, and the load costs nothing measurable.
        _ if stop.load(Ordering::Relaxed) => return None,
        _ => {}
    }
    let (turns, rest) = buffers.split_first_mut()?;
    pos.legal_turns(turns);
    let mut total = 0;
    for &turn in turns.iter() {
        total += count(&pos.play(turn), depth - 1, rest, stop)?;
    }
    Some(total)
}
