//! Fits the sealed search's endgame weights (`SEED_ENDGAME_WEIGHTS`,
//! `CLASSIC_ENDGAME_WEIGHTS` in `src/simsearch/eval.rs`) to exact values.
//!
//! ```text
//! cargo run --release --example fit_endgame -- seed|classic FEN...
//! ```
//!
//! Every endgame named is solved exactly (as `quill exploit` does: every reachable position,
//! value iteration; one of more than 1,000,000 positions is skipped), and every reachable
//! unfinished position of at most `ENDGAME_PIECES` pieces (each counted once) becomes a
//! sample: the evaluation's terms and the exact value for White. The weights minimise the
//! cross-entropy between the search's logistic of the balance (`1 / (1 + e^(−0.8 d))` for a
//! balance of `d` footmen) and the exact values, by Newton's method from the current
//! endgame weights (the problem is convex). It prints the error of the current and of the
//! fitted weights (mean cross-entropy and root-mean-square error of the payoff) and the
//! fitted weights, rounded, to paste. A term that no sample exercises (the penalty: the
//! endgames start without penalty points) keeps its current weight.
//!
//! The landed weights are its output multiplied by 2.5 (seed) and 4 (classic), every weight
//! but the penalty's: a steeper logistic than the calibrated one gave root strategies less
//! exploitable (protocol-docs/variants/apocalypse.md, "Steeper endgame weights"). They were
//! fitted on `scripts/random-endgames.py --seed 41 --count 6
//! --balanced` and `--seed 43 --count 6` (seed rules) and on `--seed 42`/`--seed 44` the same
//! way (classic rules); protocol-docs/variants/apocalypse.md has the figures.
use std::collections::HashMap;

use quill::simsearch::endgame::Endgame;
use quill::simsearch::eval::{self, TERMS, Weights};
use quill::simsearch::key;
use quill::variants::apocalypse::{Position, Rules};

/// The search's logistic slope per hundredth of a footman.
const K: f64 = 0.008;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = match args.first().map(String::as_str) {
        Some("seed") => Rules::Seed,
        Some("classic") => Rules::Classic,
        _ => {
            eprintln!("usage: fit_endgame seed|classic FEN...");
            std::process::exit(2);
        }
    };
    let mut samples: HashMap<u64, ([f64; TERMS], f64)> = HashMap::new();
    for fen in &args[1..] {
        let pos = match Position::from_fen(rules, fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{fen}: {e}");
                std::process::exit(2);
            }
        };
        let Ok(eg) = Endgame::solve(&pos, 1_000_000, 1e-10, 50_000_000) else {
            eprintln!("{fen}: skipped (too big or finished)");
            continue;
        };
        for (p, v) in eg.unfinished().filter(|(p, _)| eval::in_endgame(p)) {
            samples.insert(key(p), (eval::eval_terms(p).map(f64::from), v));
        }
        eprintln!("{fen}: {} samples so far", samples.len());
    }
    let rows: Vec<_> = samples.into_values().collect();
    let current = eval::endgame_weights(rules).to_array().map(f64::from);
    println!("{} samples", rows.len());
    let (ce, rmse) = error(&rows, &current);
    println!("current: cross-entropy {ce:.5}, rms error {rmse:.5}");
    let fitted = newton(&rows, current).map(|x| x.round() as i32);
    let (ce, rmse) = error(&rows, &fitted.map(f64::from));
    println!("fitted: cross-entropy {ce:.5}, rms error {rmse:.5}");
    println!("{:#?}", Weights::from_array(fitted));
}

/// The payoff the search gives a sample's terms under the weights `w`.
fn payoff(x: &[f64; TERMS], w: &[f64; TERMS]) -> f64 {
    let z: f64 = x.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() * K;
    1.0 / (1.0 + (-z).exp())
}

/// The mean cross-entropy and the root-mean-square error of the payoffs under `w`.
fn error(rows: &[([f64; TERMS], f64)], w: &[f64; TERMS]) -> (f64, f64) {
    let (mut ce, mut se) = (0.0, 0.0);
    for (x, v) in rows {
        let p = payoff(x, w).clamp(1e-12, 1.0 - 1e-12);
        ce -= v * p.ln() + (1.0 - v) * (1.0 - p).ln();
        se += (p - v) * (p - v);
    }
    let n = rows.len().max(1) as f64;
    (ce / n, (se / n).sqrt())
}

/// Newton's method on the mean cross-entropy from `w`, until a step moves no weight by a
/// hundredth of a unit (or 50 steps).
fn newton(rows: &[([f64; TERMS], f64)], mut w: [f64; TERMS]) -> [f64; TERMS] {
    let n = rows.len().max(1) as f64;
    for _ in 0..50 {
        let mut g = [0.0; TERMS];
        let mut h = [[0.0; TERMS]; TERMS];
        for (x, v) in rows {
            let p = payoff(x, &w);
            for i in 0..TERMS {
                g[i] += (p - v) * x[i] * K / n;
                for j in 0..TERMS {
                    h[i][j] += p * (1.0 - p) * x[i] * x[j] * K * K / n;
                }
            }
        }
        // A term no sample exercises has a zero row: a tiny ridge keeps it where it is.
        for (i, row) in h.iter_mut().enumerate() {
            row[i] += 1e-12;
        }
        let step = solve(h, g);
        for (w, s) in w.iter_mut().zip(step) {
            *w -= s;
        }
        if step.iter().all(|s| s.abs() < 0.01) {
            break;
        }
    }
    w
}

/// `a⁻¹ b` by Gauss–Jordan elimination with partial pivoting.
fn solve(mut a: [[f64; TERMS]; TERMS], mut b: [f64; TERMS]) -> [f64; TERMS] {
    for c in 0..TERMS {
        let pivot = (c..TERMS)
            .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
            .unwrap_or(c);
        a.swap(c, pivot);
        b.swap(c, pivot);
        let (row, bc) = (a[c], b[c]);
        for (r, (ar, br)) in a.iter_mut().zip(b.iter_mut()).enumerate() {
            if r != c {
                let f = ar[c] / row[c];
                for (x, y) in ar.iter_mut().zip(row) {
                    *x -= f * y;
                }
                *br -= f * bc;
            }
        }
    }
    std::array::from_fn(|i| b[i] / a[i][i])
}
