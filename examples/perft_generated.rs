//! How many moves Quill's bulk perft generates at its last ply, beside the leaves it counts:
//! the divisor of an honest cost per generated move (`scripts/compare-fairy-stockfish.py`).
//!
//! ```text
//! perft_generated VARIANT DEPTH
//! ```
//!
//! prints one line, `leaves L generated G`. The walk is `quill perft`'s (every legal turn to
//! `DEPTH - 1`, then one count per position at the last ply), and at the last ply it counts
//! what the move generator lists there:
//!
//! - Apocalypse (both rule sets): bulk perft counts the joint turns as the product of White's
//!   and Black's move lists, so the generated moves are their *sum* (`L` is far larger than
//!   `G`);
//! - Gladiator, Brawl and Pagan: the last ply visits every legal turn one by one (in Gladiator
//!   and Brawl a pawn move, its placement and each optional supporter move), so `G = L`.
//!
//! It measures nothing itself: the script times `quill perft` and divides by `G`.

use std::process::ExitCode;

use quill::game::{Game, Visit};
use quill::rules::GameRules;
use quill::variant::{Side, Variant};

/// The deepest walk accepted (Pagan at depth 7 is already minutes).
const MAX_DEPTH: u32 = 8;

/// Leaves and generated moves of the last ply, from `pos` to `depth` (at least 1).
fn walk<R: GameRules>(pos: &R, depth: u32, turns: &mut [Vec<R::Turn>]) -> (u64, u64) {
    if depth <= 1 {
        if pos.end().is_some() {
            return (0, 0);
        }
        if pos.side_to_move().is_some() {
            let n = pos.count_turns();
            return (n, n);
        }
        let mut moves = Vec::new();
        pos.legal_moves(Side::White, &mut moves);
        let white = moves.len() as u64;
        pos.legal_moves(Side::Black, &mut moves);
        let black = moves.len() as u64;
        return (white * black, white + black);
    }
    let Some((mine, rest)) = turns.split_first_mut() else {
        return (0, 0);
    };
    pos.legal_turns(mine);
    let (mut leaves, mut generated) = (0, 0);
    for &turn in mine.iter() {
        let (l, g) = walk(&pos.play(turn), depth - 1, rest);
        leaves += l;
        generated += g;
    }
    (leaves, generated)
}

/// The walk to a depth, run on a position of any variant.
struct Count(u32);

impl Visit for Count {
    type Out = (u64, u64);

    fn visit<R: GameRules>(self, pos: &R) -> (u64, u64) {
        let mut turns = vec![Vec::new(); self.0 as usize];
        walk(pos, self.0, &mut turns)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, depth] = args.as_slice() else {
        eprintln!("usage: perft_generated VARIANT DEPTH");
        return ExitCode::from(2);
    };
    let Some(variant) = Variant::from_name(variant) else {
        eprintln!("perft_generated: '{variant}' is not a variant");
        return ExitCode::from(2);
    };
    let depth = match depth.parse::<u32>() {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
        _ => {
            eprintln!("perft_generated: the depth must be 1 to {MAX_DEPTH}, not '{depth}'");
            return ExitCode::from(2);
        }
    };
    let (leaves, generated) = Game::start(variant).visit(Count(depth));
    println!("leaves {leaves} generated {generated}");
    ExitCode::SUCCESS
}
