//! The Apocalypse tablebase (`protocol-docs/tablebase.md`): 3-piece tables of both rule sets,
//! built here, against the independent Python solver `tests/reference/tablebase_ref.py` on a
//! random sample of positions (every position reachable from each is compared); the search's
//! root strategy inside the table against the project's exploitability measure
//! (`quill::simsearch::endgame`); and refused files.
//!
//! Without `python3` the comparison prints a note and passes (under `CI=true` it fails).

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;

use quill::search::Limits;
use quill::simsearch::endgame::Endgame;
use quill::tablebase::{Tablebase, Tables, build, format, index::Signature};
use quill::variant::Side;
use quill::variants::apocalypse::{Position, Rules};

fn table(rules: Rules) -> Tablebase {
    build::build(rules, 3, build::MAX_SWEEPS, &mut |_| {})
        .expect("a 3-piece table builds")
        .table
}

fn rules_name(r: Rules) -> &'static str {
    match r {
        Rules::Seed => "apocalypse",
        Rules::Classic => "apocalypse-classic",
    }
}

/// A small deterministic generator (SplitMix64), so the sample is the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// Positions of the table whose one-turn strategy is mixed (the hard ones), then random ones.
fn sample(t: &Tablebase, rng: &mut Rng, mixed: usize, random: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let sigs: Vec<Signature> = t.signatures().to_vec();
    let mut tries = 0;
    while out.len() < mixed && tries < 200_000 {
        tries += 1;
        let s = sigs[rng.below(sigs.len() as u64) as usize];
        let n = t.signature_values(s).unwrap().len() as u64;
        let pos = t.position(s, rng.below(n)).unwrap();
        let (mut w, mut b) = (Vec::new(), Vec::new());
        pos.legal_moves(Side::White, &mut w);
        pos.legal_moves(Side::Black, &mut b);
        if let Some(sol) = t.solve_root(&pos, &w, &b)
            && sol.rows.iter().filter(|p| **p > 0.0).count() > 1
        {
            out.push(pos);
        }
    }
    assert!(
        out.len() == mixed,
        "found only {} mixed positions",
        out.len()
    );
    while out.len() < mixed + random {
        let s = sigs[rng.below(sigs.len() as u64) as usize];
        let n = t.signature_values(s).unwrap().len() as u64;
        let pos = t.position(s, rng.below(n)).unwrap();
        if pos.end().is_none() {
            out.push(pos);
        }
    }
    out
}

/// The FEN of a position with random penalty points (0 or 1 each): the table must give every
/// penalty state the same value, and the Python solver keeps them in its positions.
fn with_penalties(pos: &Position, rng: &mut Rng) -> String {
    let fen = pos.fen();
    let board = fen.split(' ').next().unwrap();
    format!("{board} w - - 0 1 {}/{}", rng.below(2), rng.below(2))
}

/// The output of `tests/reference/tablebase_ref.py ARGS` fed `input`; `None` (a note) without
/// `python3`, which under `CI=true` fails the test instead.
fn python(args: &[&str], input: &str) -> Option<String> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/tablebase_ref.py"
    );
    let child = Command::new("python3")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "python3 is not available ({e}) and CI=true: the comparison cannot be skipped"
            );
            eprintln!("note: python3 is not available ({e}); tablebase comparison skipped");
            return None;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the Python solver failed");
    Some(String::from_utf8(out.stdout).unwrap())
}

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

#[test]
fn the_root_strategy_inside_the_table_is_unexploitable() {
    let mut rng = Rng(7);
    let t = table(Rules::Seed);
    let positions = sample(&t, &mut rng, 6, 2);
    let mut tables = Tables::default();
    tables.add(t);
    quill::tablebase::set_active(tables);
    let limits = Limits {
        depth: Some(2),
        time: None,
        nodes: None,
        exact: false,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    for pos in positions {
        let eg = Endgame::solve(&pos, 1_000_000, 1e-12, 50_000_000).unwrap();
        let a = quill::simsearch::analyse(&pos, &[], &[], limits, &stop, &mut |_| {}).unwrap();
        for side in [Side::White, Side::Black] {
            let e = eg.exploitability(&pos, side, a.strategy(side)).unwrap();
            assert!(
                e.exploitability <= 1e-9,
                "{}: {side:?} exploitable by {} ({:?})",
                pos.fen(),
                e.exploitability,
                a.strategy(side)
            );
        }
    }
}

#[test]
fn a_bad_file_is_refused() {
    let t = table(Rules::Classic);
    let good = format::encode(&t);
    let back = format::decode(&good).expect("a written table reads back");
    assert_eq!(back.rules(), Rules::Classic);
    assert_eq!(back.len(), t.len());
    for s in t.signatures() {
        assert_eq!(back.signature_values(*s), t.signature_values(*s));
    }
    let err = |b: &[u8]| format::decode(b).err().expect("refused");
    assert!(err(&[]).contains("magic"));
    assert!(err(b"PNG\0\0\0\0\0garbage").contains("magic"));
    assert!(err(&good[..30]).contains("truncated"));
    assert!(err(&good[..good.len() - 1]).contains("truncated"));
    let mut long = good.clone();
    long.push(0);
    assert!(err(&long).contains("trailing"));
    let mut flipped = good.clone();
    let mid = good.len() / 2;
    flipped[mid] ^= 1;
    assert!(err(&flipped).contains("checksum"));
    let mut version = good.clone();
    version[8] = 9;
    assert!(err(&version).contains("version"));
    let mut pieces = good.clone();
    pieces[11] = 4;
    assert!(err(&pieces).contains("signatures"));
    let dir = std::env::temp_dir().join(format!("quill-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cut.qtb");
    std::fs::write(&path, &good[..good.len() / 3]).unwrap();
    assert!(format::read(&path).err().unwrap().contains("truncated"));
    assert!(Tables::load(dir.to_str().unwrap()).is_err());
    std::fs::write(&path, &good).unwrap();
    assert!(Tables::load(dir.to_str().unwrap()).is_ok());
    assert!(format::read(&dir.join("missing.qtb")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The slow family (a footman and a horseman each): value iteration with strategy-iteration
/// rounds (`quill::tablebase::exact`) against the Python solver's own strategy iteration
/// (`--strategy-iteration`) on every position reachable from one root, 25,631 of them.
#[test]
fn the_slow_family_agrees_with_the_python_solver() {
    let root = "4n/5/2p2/2P2/N4 w - - 0 1 0/0";
    let one = Signature {
        wf: 1,
        wh: 1,
        bf: 1,
        bh: 1,
    };
    let t = build::build_family(Rules::Seed, one, 200, &mut |_| {})
        .expect("the family builds")
        .table;
    assert!(t.residual() <= 1e-12, "residual {:.2e}", t.residual());
    let Some(text) = python(&["--strategy-iteration"], &format!("apocalypse {root}\n")) else {
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
}
