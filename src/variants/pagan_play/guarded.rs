//! Two Pagans (and a far live king) against a dead king that a dead Pagan guards, the ending
//! of the one capped self-play game that no material rule called drawn: solved by value
//! iteration over every placement, with the defender's Pagan kept on the dead board and the
//! attacker free to pass. Both only help the attacker, so a position found not won here is not
//! won in the full game. Checked against the exact two-Pagan table (`pagan::hunt`), whose
//! attacker has fewer moves: every position it wins is won here.

use crate::variant::Side;
use crate::variants::pagan::{Kind, Position, hunt, is_dead};

/// The White king's square (frame e11): it stays there; White may pass instead.
const KING: u8 = 10 * 7 + 4;

/// The squares a Pagan may stand on (the king's aside), and the dead board's.
fn squares() -> (Vec<u8>, Vec<u8>) {
    let mut board = Vec::new();
    let mut dead = Vec::new();
    for sq in 0..77u8 {
        let (file, rank) = (sq % 7, sq / 7);
        let live = rank >= 6;
        let dead_sq = rank <= 3 && (1..=5).contains(&file);
        if dead_sq {
            dead.push(sq);
        }
        if (live || dead_sq) && sq != KING {
            board.push(sq);
        }
    }
    (board, dead)
}

/// The frame FEN of `pieces`, White or Black to move.
fn fen(pieces: &[(u8, char)], white: bool) -> String {
    let mut rows = Vec::new();
    for rank in (0..11u8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..7u8 {
            let sq = rank * 7 + file;
            let hole = (rank == 4 || rank == 5) || (rank <= 3 && (file == 0 || file == 6));
            let piece = pieces.iter().find(|p| p.0 == sq).map(|p| p.1);
            if hole || piece.is_some() {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(if hole { '*' } else { piece.unwrap() });
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!(
        "{} {} - - 0 1",
        rows.join("/"),
        if white { 'w' } else { 'b' }
    )
}

/// The states: White's two Pagans (any order), Black's king, Black's Pagan (or none), who
/// moves.
struct Space {
    board: Vec<u8>,
    dead: Vec<u8>,
    index_of: Vec<Option<usize>>,
    dead_index: Vec<Option<usize>>,
}

/// Black's Pagan index when it has left the game.
const NONE: usize = 20;

/// Where a move leads: a state, or the end (`Err(true)` White has won, `Err(false)` not).
type Next = Result<usize, bool>;

impl Space {
    fn new() -> Space {
        let (board, dead) = squares();
        let mut index_of = vec![None; 77];
        for (i, &s) in board.iter().enumerate() {
            index_of[usize::from(s)] = Some(i);
        }
        let mut dead_index = vec![None; 77];
        for (i, &s) in dead.iter().enumerate() {
            dead_index[usize::from(s)] = Some(i);
        }
        Space {
            board,
            dead,
            index_of,
            dead_index,
        }
    }
    /// The pieces of state `i` (square, FEN letter), and whether White is to move.
    fn pieces_of(&self, i: usize) -> (Vec<(u8, char)>, bool) {
        let (a, b, k, p, white) = self.decode(i);
        let mut pieces = vec![
            (KING, 'K'),
            (self.board[a], 'G'),
            (self.board[b], 'G'),
            (self.dead[k], 'k'),
        ];
        if p != NONE {
            pieces.push((self.dead[p], 'g'));
        }
        (pieces, white)
    }

    /// The FEN of state `i`.
    fn fen_of(&self, i: usize) -> String {
        let (pieces, white) = self.pieces_of(i);
        fen(&pieces, white)
    }

    fn n(&self) -> usize {
        self.board.len() * self.board.len() * 20 * 21 * 2
    }
    fn index(&self, g1: usize, g2: usize, k: usize, p: usize, white: bool) -> usize {
        let (a, b) = if g1 < g2 { (g1, g2) } else { (g2, g1) };
        let nb = self.board.len();
        ((((a * nb + b) * 20 + k) * 21 + p) * 2) + usize::from(white)
    }
    fn decode(&self, i: usize) -> (usize, usize, usize, usize, bool) {
        let nb = self.board.len();
        let white = i % 2 == 1;
        let i = i / 2;
        let p = i % 21;
        let i = i / 21;
        let k = i % 20;
        let i = i / 20;
        (i / nb, i % nb, k, p, white)
    }
    /// The state of a position, `Err(false)` where White can no longer win (a Pagan gone).
    fn state(&self, pos: &Position) -> Result<usize, bool> {
        let mut g = pos.pieces(Side::White, Kind::Pagan);
        if g.count_ones() < 2 {
            return Err(false);
        }
        let a = g.trailing_zeros() as usize;
        g &= g - 1;
        let b = g.trailing_zeros() as usize;
        let k = pos.pieces(Side::Black, Kind::King).trailing_zeros() as usize;
        let p = pos.pieces(Side::Black, Kind::Pagan);
        let p = if p == 0 {
            NONE
        } else {
            self.dead_index[p.trailing_zeros() as usize].ok_or(false)?
        };
        let white = pos.side_to_move() == Side::White;
        Ok(self.index(
            self.index_of[a].ok_or(false)?,
            self.index_of[b].ok_or(false)?,
            self.dead_index[k].ok_or(false)?,
            p,
            white,
        ))
    }
}

/// The successors of each valid state (`None`: an invalid placement): `Ok(state)`, or
/// `Err(true)` a mate, `Err(false)` a draw; an empty list for White is never made (it passes).
fn successors(space: &Space, i: usize) -> Option<Vec<Next>> {
    let (a, b, ..) = space.decode(i);
    if a >= b {
        return None;
    }
    let (pieces, white) = space.pieces_of(i);
    let mut seen: Vec<u8> = pieces.iter().map(|x| x.0).collect();
    seen.sort();
    seen.dedup();
    if seen.len() != pieces.len() {
        return None;
    }
    let pos = Position::from_fen(&fen(&pieces, white)).ok()?;
    // White to move with Black in check, or an illegal setup: not a state of play.
    if white
        && pos
            .dead_king(Side::Black)
            .is_some_and(|kk| pos.attacked(kk, Side::Black))
    {
        return None;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out = Vec::new();
    if white {
        out.push(Ok(i ^ 1)); // a pass (a king move far away)
    }
    for mv in moves {
        let from_kind = pos.at(mv.from).map(|x| x.kind);
        if white && from_kind == Some(Kind::King) {
            continue;
        }
        if !white && from_kind == Some(Kind::Pagan) && !is_dead(mv.to) {
            continue; // the defender's Pagan stays on the dead board
        }
        let next = pos.play(mv);
        if next.end().is_some() {
            out.push(Err(next.in_check()));
            continue;
        }
        out.push(space.state(&next));
    }
    if !white && out.is_empty() {
        // No (kept) move: mated if in check (or all its moves left: counted as lost).
        out.push(Err(true));
    }
    Some(out)
}

#[test]
#[ignore = "an analysis (about a minute): run by name"]
fn two_pagans_against_a_guarded_dead_king() {
    let space = Space::new();
    let n = space.n();
    let succ: Vec<Option<Vec<Next>>> = (0..n).map(|i| successors(&space, i)).collect();
    let valid = succ.iter().filter(|s| s.is_some()).count();
    let mut win = vec![false; n];
    let mut plies = vec![u16::MAX; n];
    for pass in 1..=400u16 {
        let mut changed = 0;
        let snapshot = win.clone();
        for i in 0..n {
            let Some(list) = &succ[i] else { continue };
            if snapshot[i] {
                continue;
            }
            let white = i % 2 == 1;
            let good = |s: &Next| match s {
                Ok(j) => snapshot[*j],
                Err(mate) => *mate,
            };
            let won = if white {
                list.iter().any(good)
            } else {
                list.iter().all(good)
            };
            if won {
                win[i] = true;
                plies[i] = pass;
                changed += 1;
            }
        }
        if changed == 0 {
            break;
        }
    }
    let fen = "4K2/7/7/7/2GG3/*******/*******/*5*/*2g2*/*5*/*3k1* w - - 39 153";
    let stored = Position::from_fen(fen).unwrap();
    let s = space.state(&stored).unwrap();
    let wins_w = (0..n)
        .filter(|&i| i % 2 == 1 && succ[i].is_some() && win[i])
        .count();
    let all_w = (0..n).filter(|&i| i % 2 == 1 && succ[i].is_some()).count();
    let guarded_w = (0..n)
        .filter(|&i| i % 2 == 1 && succ[i].is_some() && space.decode(i).3 != NONE)
        .count();
    let guarded_wins = (0..n)
        .filter(|&i| i % 2 == 1 && succ[i].is_some() && space.decode(i).3 != NONE && win[i])
        .count();
    eprintln!(
        "{valid} states; White to move: {wins_w} of {all_w} won; with the guard: {guarded_wins} of {guarded_w}"
    );
    eprintln!("stored: won {} in {} passes", win[s], plies[s]);
    let mut table_wins = 0;
    for (i, list) in succ.iter().enumerate() {
        let (a, b, k, p, white) = space.decode(i);
        if list.is_none() || p != NONE {
            continue;
        }
        let (a, b, k) = (space.board[a], space.board[b], space.dead[k]);
        if hunt::plies_to_mate(k, a, b, white, false).is_some() {
            table_wins += 1;
            assert!(win[i], "{}", space.fen_of(i));
        }
    }
    assert!(table_wins > 10_000, "{table_wins}");
}
