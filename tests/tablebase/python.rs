//! Values against the independent Python solver `tests/reference/tablebase_ref.py`: both rule
//! sets' 3-piece tables on a random sample, and the slow family by strategy iteration.

use super::*;

use quill::tablebase::{Tablebase, build, index::Signature};
use quill::variants::apocalypse::{Position, Rules};

#[test]
fn values_agree_with_the_python_solver() {
    let mut rng = Rng(14);
    let mut requests = String::new();
    let tables: Vec<(Rules, Tablebase)> = [Rules::Seed, Rules::Classic]
        .into_iter()
        .map(|r| (r, table(r)))
        .collect();
    for (r, t) in &tables {
        for pos in sample(t, &mut rng, 4, 4) {
            requests += &format!("{} {}\n", rules_name(*r), with_penalties(&pos, &mut rng));
        }
    }
    let Some(text) = python(&[], &requests) else {
        return;
    };
    let mut blocks = 0;
    let mut compared = 0;
    let mut request = requests.lines();
    let mut rules = Rules::Seed;
    let mut fresh = true;
    for line in text.lines() {
        if fresh {
            let r = request.next().expect("a reply per request");
            rules = if r.starts_with("apocalypse-classic") {
                Rules::Classic
            } else {
                Rules::Seed
            };
            fresh = false;
        }
        if let Some(status) = line.split(' ').next().filter(|w| w.ends_with("converged")) {
            assert_eq!(
                status, "converged",
                "the Python solver did not converge: {line}"
            );
            blocks += 1;
            fresh = true;
            continue;
        }
        let (fen, value) = line.rsplit_once(' ').unwrap();
        let expected: f64 = value.parse().unwrap();
        let pos = Position::from_fen(rules, fen).unwrap();
        let t = &tables.iter().find(|(r, _)| *r == rules).unwrap().1;
        let got = t.value(&pos).expect("a reachable position is in the table");
        assert!(
            (got - expected).abs() < 1e-9,
            "{}: {fen}: table {got}, Python {expected}",
            rules_name(rules)
        );
        compared += 1;
    }
    assert_eq!(blocks, requests.lines().count());
    assert!(compared > 100, "only {compared} positions compared");
    eprintln!("{compared} positions compared with the Python solver");
}

/// The slow family (a footman and a horseman each): value iteration with strategy-iteration
/// rounds (`quill::tablebase::exact`) against the Python solver's own strategy iteration
/// (`--strategy-iteration`) on every position reachable from two roots, 25,631 and 5,410 of
/// them. From the second, play leaves part of the graph with a probability of about 2e-7 a
/// turn, so a residual of 1e-14 still allows errors of 1e-7: the reference once stopped there
/// with 303 values up to 1.6e-7 off, and now runs its rounds until they change nothing.
#[test]
fn the_slow_family_agrees_with_the_python_solver() {
    let roots = [
        "4n/5/2p2/2P2/N4 w - - 0 1 0/0",
        "P1p1N/4n/5/5/5 w - - 0 1 0/1",
    ];
    let one = Signature {
        wf: 1,
        wh: 1,
        bf: 1,
        bh: 1,
    };
    let t = build::build_family(Rules::Seed, &[one], 200, None, &mut |_| {})
        .expect("the family builds")
        .table;
    assert!(t.residual() <= 1e-12, "residual {:.2e}", t.residual());
    let input: String = roots.iter().map(|r| format!("apocalypse {r}\n")).collect();
    let Some(text) = python(&["--strategy-iteration"], &input) else {
        return;
    };
    let mut compared = 0;
    let mut worst: f64 = 0.0;
    for line in text.lines() {
        if line.starts_with("converged") || line.starts_with("not-converged") {
            assert!(line.starts_with("converged"), "Python: {line}");
            continue;
        }
        let (fen, value) = line.rsplit_once(' ').unwrap();
        let expected: f64 = value.parse().unwrap();
        let pos = Position::from_fen(Rules::Seed, fen).unwrap();
        let got = t
            .value(&pos)
            .expect("a reachable position is in the family");
        worst = worst.max((got - expected).abs());
        compared += 1;
    }
    assert!(compared > 1000, "only {compared} positions compared");
    assert!(
        worst <= 1e-8,
        "largest difference {worst:.2e} over {compared} positions"
    );
    eprintln!("{compared} positions compared, largest difference {worst:.2e}");
    endless_play_is_the_vanishing_discount_limit(&t);
}

/// Roots where the turn-capped values alternate with the cap's parity and the equilibrium loops
/// forever at a tie (at the first, 2/3 and 1/2, `a1c2` against `b2c4`): their values are the
/// limits of the discounted values, computed by the Python solver's own discounted strategy
/// iteration and extrapolation (`--discount`). Value iteration and strategy iteration alone
/// stopped at one of many fixed points there: the first was 0.5936, 0.6292 or 0.6031 by the
/// path taken, the second 0.4 and the fourth 2/3 (the limits are 1/2, 1/3, 2/3 and 1/2).
fn endless_play_is_the_vanishing_discount_limit(t: &Tablebase) {
    let roots = [
        "1P3/5/2p2/1n3/N4 w - - 0 1 0/0",
        "P4/3p1/3n1/3N1/5 w - - 0 1 0/0",
        "5/5/5/2P2/1nNp1 w - - 0 1 0/0",
        "P4/5/1N1p1/5/1n3 w - - 0 1 0/0",
    ];
    let input: String = roots.iter().map(|r| format!("apocalypse {r}\n")).collect();
    let Some(text) = python(&["--discount"], &input) else {
        return;
    };
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * roots.len(), "Python: {text}");
    for (root, pair) in roots.iter().zip(lines.chunks(2)) {
        assert!(pair[1].starts_with("converged"), "Python: {}", pair[1]);
        let expected: f64 = pair[0].rsplit_once(' ').unwrap().1.parse().unwrap();
        let got = t
            .value(&Position::from_fen(Rules::Seed, root).unwrap())
            .expect("the root is in the family");
        assert!(
            (got - expected).abs() <= 1e-6,
            "{root}: table {got}, Python {expected}"
        );
    }
}
