//! Bulk-counting perft per variant.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position};
use crate::variants::gladiator::Position as GladiatorPosition;
use crate::variants::pagan::Position as PaganPosition;

/// Counts the sequences of `depth` joint turns from an Apocalypse position.
pub fn apocalypse(pos: &Position, depth: u32) -> u64 {
    apocalypse_until(pos, depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`apocalypse`] that gives up (`None`) soon after `stop` is set.
pub fn apocalypse_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let mut buffers = vec![(Vec::new(), Vec::new()); depth as usize + 1];
    apocalypse_rec(pos, depth, &mut buffers, stop)
}

fn apocalypse_rec(
    pos: &Position,
    depth: u32,
    buffers: &mut [(Vec<Move>, Vec<Move>)],
    stop: &AtomicBool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if pos.end().is_some() {
        return Some(0);
    }
    let (mine, rest) = buffers.split_first_mut().expect("one buffer per ply");
    let (white, black) = mine;
    pos.legal_moves(Side::White, white);
    pos.legal_moves(Side::Black, black);
    if depth == 1 {
        return Some((white.len() * black.len()) as u64);
    }
    // Checking the flag above the last two plies costs nothing measurable.
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for &w in white.iter() {
        for &b in black.iter() {
            total += apocalypse_rec(&pos.resolve(Ok(w), Ok(b)), depth - 1, rest, stop)?;
        }
    }
    Some(total)
}

/// Counts the sequences of `depth` turns from a Gladiator or Brawl position.
pub fn gladiator(pos: &GladiatorPosition, depth: u32) -> u64 {
    gladiator_until(pos, depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`gladiator`] that gives up (`None`) soon after `stop` is set.
pub fn gladiator_until(pos: &GladiatorPosition, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if pos.end().is_some() {
        return Some(0);
    }
    if depth == 1 {
        return Some(pos.count_turns());
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for turn in pos.turns() {
        total += gladiator_until(&pos.play(turn), depth - 1, stop)?;
    }
    Some(total)
}

/// Counts the sequences of `depth` moves from a Pagan position.
pub fn pagan(pos: &PaganPosition, depth: u32) -> u64 {
    pagan_until(pos, depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`pagan`] that gives up (`None`) soon after `stop` is set.
pub fn pagan_until(pos: &PaganPosition, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    // A finished game has no moves: legal_moves is empty after mate, stalemate or bare kings.
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for mv in moves {
        total += pagan_until(&pos.play(mv), depth - 1, stop)?;
    }
    Some(total)
}
