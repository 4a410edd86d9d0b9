//! One node of the sealed search: the table, the serialized bounds, then the matrix game
//! ([`Searcher::value`]), and the helpers that settle a node's fail-soft value.

use super::{MET, SealedRules, Searcher, Solved, tt};
use crate::variant::Side;

impl<G: SealedRules> Searcher<'_, G> {
    /// The value for White of `pos` searched `depth` joint turns deep, fail-soft in the window
    /// (`alpha`, `beta`): a result at or below `alpha` is an upper bound, one at or above
    /// `beta` a lower bound, anything between exact.
    pub(crate) fn value(&mut self, pos: &G, depth: u32, alpha: f64, beta: f64) -> f64 {
        if let Some(v) = self.leaf(pos, depth) {
            return v;
        }
        let key = pos.key();
        let (mut lower, mut upper) = (0.0f64, 1.0f64);
        let (mut hint_w, mut hint_b) = (None, None);
        if let Some(e) = self.tt.probe(key) {
            (hint_w, hint_b) = (e.white, e.black);
            if e.depth == depth {
                (lower, upper) = (e.lower, e.upper);
                if upper - lower <= MET || upper <= alpha || lower >= beta {
                    return settle(lower, upper, alpha, beta);
                }
            }
        }
        // Serialized bounds: White first can only lower the value, Black first only raise it.
        let l = self.serial(pos, depth, true, alpha.max(lower), beta, true);
        let best_w = self.serial_best.or(hint_w);
        if l >= beta {
            return self.exit(key, depth, l, upper, best_w, hint_b, alpha, beta);
        }
        if l > alpha.max(lower) {
            lower = l;
        }
        let u = self.serial(pos, depth, false, alpha, beta.min(upper), true);
        let best_b = self.serial_best.or(hint_b);
        if u <= alpha {
            return self.exit(key, depth, lower, u, best_w, best_b, alpha, beta);
        }
        if u < beta.min(upper) {
            upper = u;
        }
        if upper - lower <= MET {
            return self.exit(key, depth, lower, upper, best_w, best_b, alpha, beta);
        }
        let (mut white, mut black) = (Vec::new(), Vec::new());
        pos.moves(Side::White, &mut white);
        pos.moves(Side::Black, &mut black);
        promote(&mut white, best_w);
        promote(&mut black, best_b);
        let solved = self.double_oracle(
            pos,
            depth,
            (alpha, beta),
            (lower, upper),
            &white,
            &black,
            &[0],
            &[0],
        );
        if self.aborted {
            return 0.5;
        }
        self.store(key, depth, &solved, &white, &black);
        settle_solved(&solved, alpha, beta)
    }

    /// Records a node settled by bounds alone and returns its fail-soft value.
    #[allow(clippy::too_many_arguments)]
    fn exit(
        &mut self,
        key: u64,
        depth: u32,
        lower: f64,
        upper: f64,
        white: Option<G::Move>,
        black: Option<G::Move>,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        if self.aborted {
            return 0.5;
        }
        self.stats.bound_exits += 1;
        let (lower, upper) = (lower.min(upper), upper.max(lower));
        self.tt.store(tt::Entry {
            key,
            depth,
            lower,
            upper,
            white,
            black,
        });
        settle(lower, upper, alpha, beta)
    }

    pub(super) fn store(
        &mut self,
        key: u64,
        depth: u32,
        s: &Solved,
        white: &[G::Move],
        black: &[G::Move],
    ) {
        let top = |v: &[(usize, f64)], moves: &[G::Move]| {
            v.iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|&(i, _)| moves[i])
        };
        self.tt.store(tt::Entry {
            key,
            depth,
            lower: s.lower,
            upper: s.upper,
            white: top(&s.rows, white),
            black: top(&s.cols, black),
        });
    }

    /// The serialized game: at every turn of the subtree the first mover commits and the other
    /// replies knowing it (alpha-beta, fail-soft). With White first this is a lower bound on
    /// the simultaneous value, with Black first an upper bound. At the `top` call the first
    /// mover's best move is left in `serial_best`.
    pub(super) fn serial(
        &mut self,
        pos: &G,
        depth: u32,
        white_first: bool,
        alpha: f64,
        beta: f64,
        top: bool,
    ) -> f64 {
        if top {
            self.serial_best = None;
        } else if let Some(v) = self.leaf(pos, depth) {
            return v;
        }
        let (mut white, mut black) = self.spare.pop().unwrap_or_default();
        pos.moves(Side::White, &mut white);
        pos.moves(Side::Black, &mut black);
        if let Some(e) = self.tt.probe(pos.key()) {
            promote(&mut white, e.white);
            promote(&mut black, e.black);
        }
        let (first, second) = if white_first {
            (&white, &black)
        } else {
            (&black, &white)
        };
        // The first mover maximises `sign * value`.
        let sign = if white_first { 1.0 } else { -1.0 };
        let (mut a, b) = if white_first {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        let mut best = -3.0;
        for &m1 in first {
            let worst = self.reply(pos, depth, white_first, m1, second, a, b);
            if worst > best {
                best = worst;
                if top {
                    self.serial_best = Some(m1);
                }
                if best >= b {
                    break;
                }
                a = a.max(best);
            }
            if self.aborted {
                break;
            }
        }
        self.spare.push((white, black));
        sign * best
    }
}

impl<G: SealedRules> Searcher<'_, G> {
    /// The second mover's best reply to the first mover's `m1` in the serialized game: the
    /// least `sign * value` over `second` (`sign` +1 with White first), fail-soft in the
    /// first mover's window (`a`, `b`) of signed values.
    #[allow(clippy::too_many_arguments)]
    fn reply(
        &mut self,
        pos: &G,
        depth: u32,
        white_first: bool,
        m1: G::Move,
        second: &[G::Move],
        a: f64,
        b: f64,
    ) -> f64 {
        let sign = if white_first { 1.0 } else { -1.0 };
        let mut worst = 3.0f64;
        for &m2 in second {
            let child = if white_first {
                pos.joint(m1, m2)
            } else {
                pos.joint(m2, m1)
            };
            let hi = b.min(worst);
            let (ca, cb) = if white_first { (a, hi) } else { (-hi, -a) };
            let v = sign * self.serial(&child, depth - 1, white_first, ca, cb, false);
            if v < worst {
                worst = v;
                if worst <= a {
                    break;
                }
            }
        }
        worst
    }
}

/// Both sides' move lists of a node.
pub(super) type MoveLists<G> = (Vec<<G as SealedRules>::Move>, Vec<<G as SealedRules>::Move>);

/// The fail-soft value of a node known to lie in [`lower`, `upper`].
fn settle(lower: f64, upper: f64, alpha: f64, beta: f64) -> f64 {
    if upper <= alpha {
        upper
    } else if lower >= beta {
        lower
    } else {
        0.5 * (lower + upper)
    }
}

fn settle_solved(s: &Solved, alpha: f64, beta: f64) -> f64 {
    if s.upper <= alpha {
        s.upper
    } else if s.lower >= beta {
        s.lower
    } else {
        s.value
    }
}

/// Moves `mv` (if present) to the front, keeping the order of the rest.
fn promote<M: Copy + PartialEq>(moves: &mut [M], mv: Option<M>) {
    if let Some(i) = mv.and_then(|m| moves.iter().position(|&x| x == m)) {
        moves[..=i].rotate_right(1);
    }
}
