//! The plain alpha-beta the search's scores are checked against.

use super::*;

/// Plain fail-soft alpha-beta over the same tree (candidates, then quiescence on noisy
/// moves), without ordering, table, windows or killers: the score the search must reproduce.
/// `path` holds the keys of the positions above `pos`; below the root a position that
/// repeats one of them scores as a draw. A draw (a repetition, a rule's draw, a stalemate)
/// scores minus the default contempt, 20, for the side to move at the root and plus 20 for
/// the other.
pub(super) fn reference<P: Searchable>(
    pos: &P,
    path: &mut Vec<u64>,
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
) -> i32 {
    if depth <= 0 {
        return reference_quiesce(pos, path, ply, alpha, beta);
    }
    if let Some(score) = pos.over() {
        return ended_reference(score, ply);
    }
    if ply >= MAX_PLY {
        return pos.evaluate();
    }
    if ply > 0 && path.contains(&pos.key()) {
        return draw_reference(ply);
    }
    let mut moves = Vec::new();
    pos.all_candidates(&mut moves);
    if moves.is_empty() {
        return ended_reference(pos.stuck(), ply);
    }
    best_child(
        pos,
        path,
        moves,
        -INFINITY,
        alpha,
        beta,
        |child, path, a, b| reference(child, path, depth - 1, ply + 1, a, b),
    )
}

/// The best of `best` and the scores of the positions after `moves` (each minus `score` of
/// the child in the window negated), fail-soft, until a cutoff, with `pos` on the path.
fn best_child<P: Searchable>(
    pos: &P,
    path: &mut Vec<u64>,
    moves: Vec<P::Move>,
    mut best: i32,
    mut alpha: i32,
    beta: i32,
    mut score: impl FnMut(&P, &mut Vec<u64>, i32, i32) -> i32,
) -> i32 {
    path.push(pos.key());
    for mv in moves {
        let s = -score(&pos.after(mv), path, -beta, -alpha);
        best = best.max(s);
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    path.pop();
    best
}

/// The score of a draw at `ply`, written out apart from the search's own.
fn draw_reference(ply: usize) -> i32 {
    if ply.is_multiple_of(2) { -20 } else { 20 }
}

/// The score of the end of a game at `ply`: a draw as [`draw_reference`], a win or a loss
/// counted from the root.
fn ended_reference(score: i32, ply: usize) -> i32 {
    match score {
        0 => draw_reference(ply),
        s if s > 0 => s - ply as i32,
        s => s + ply as i32,
    }
}

fn reference_quiesce<P: Searchable>(
    pos: &P,
    path: &mut Vec<u64>,
    ply: usize,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if let Some(score) = pos.over() {
        return ended_reference(score, ply);
    }
    if ply < MAX_PLY && ply > 0 && path.contains(&pos.key()) {
        return draw_reference(ply);
    }
    let stand = pos.evaluate();
    if stand >= beta || ply >= MAX_PLY {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut moves = Vec::new();
    pos.noisy(&mut moves);
    best_child(pos, path, moves, stand, alpha, beta, |child, path, a, b| {
        reference_quiesce(child, path, ply + 1, a, b)
    })
}
