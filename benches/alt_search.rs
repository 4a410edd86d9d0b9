//! Nodes per CPU-second of the alternating search at fixed depth: Gladiator at Hash 1, 16 and
//! 256 MiB, and Brawl at Hash 16.
//!
//! Run with `cargo bench --bench alt_search` (optionally `-- ROUNDS`, default 7, and words that
//! pick the configurations whose names contain them: `-- 3 brawl`). Every round
//! searches the same positions to the same depth with an emptied table (so every round walks
//! the same tree and the node counts, printed, must not vary), timed by the CPU time of the
//! thread (`getrusage(RUSAGE_THREAD)`), not by the wall clock: the machine is shared. The
//! configurations are interleaved within each round (in a rotating order) and the median
//! rate of the rounds is printed with the spread. This measures; it asserts nothing.
//!
//! To compare two builds, run the bench of each in turn several times (interleaved) and
//! compare the medians.

use std::sync::atomic::AtomicBool;

use quill::search::{self, Limits, TransTable};
use quill::variants::gladiator::{Position, Rules};

/// Plies played from the start (by a depth-3 search) to reach each benchmarked position.
const OPENINGS: [usize; 4] = [0, 6, 12, 20];

struct Config {
    name: &'static str,
    rules: Rules,
    mib: usize,
    depth: u32,
}

const CONFIGS: [Config; 4] = [
    Config {
        name: "gladiator hash 1",
        rules: Rules::Gladiator,
        mib: 1,
        depth: 6,
    },
    Config {
        name: "gladiator hash 16",
        rules: Rules::Gladiator,
        mib: 16,
        depth: 6,
    },
    Config {
        name: "gladiator hash 256",
        rules: Rules::Gladiator,
        mib: 256,
        depth: 6,
    },
    Config {
        name: "brawl hash 16",
        rules: Rules::Brawl,
        mib: 16,
        depth: 5,
    },
];

/// CPU seconds used by this thread so far.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    #[cfg(target_os = "linux")]
    let who = libc::RUSAGE_THREAD;
    #[cfg(not(target_os = "linux"))]
    let who = libc::RUSAGE_SELF;
    // SAFETY: a valid pointer to a rusage struct.
    let rc = unsafe { libc::getrusage(who, &mut usage) };
    assert_eq!(rc, 0, "getrusage failed");
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// The position `plies` turns into a game each side plays by a depth-3 search.
fn opening(rules: Rules, plies: usize) -> Position {
    let stop = AtomicBool::new(false);
    let mut table = TransTable::new(1).expect("a small table");
    let mut pos = Position::start(rules);
    for _ in 0..plies {
        if pos.end().is_some() {
            break;
        }
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let Some(found) = search::search(&pos, &[], &[], limits, &stop, &mut table, &mut |_| {})
        else {
            break;
        };
        let turn = pos
            .parse_turn(&found.mv)
            .expect("the search plays legal turns");
        pos = pos.play(turn);
    }
    pos
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(7)
        .clamp(1, 1000);
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.parse::<usize>().is_err() && !a.starts_with('-'))
        .collect();
    let picked: Vec<bool> = CONFIGS
        .iter()
        .map(|c| words.iter().all(|w| c.name.contains(w.as_str())))
        .collect();
    let positions: Vec<Vec<Position>> = CONFIGS
        .iter()
        .map(|c| OPENINGS.iter().map(|&n| opening(c.rules, n)).collect())
        .collect();
    let mut tables: Vec<TransTable> = CONFIGS
        .iter()
        .map(|c| TransTable::new(c.mib).expect("the table fits in memory"))
        .collect();
    let stop = AtomicBool::new(false);
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); CONFIGS.len()];
    let mut nodes_seen: Vec<Vec<u64>> = vec![Vec::new(); CONFIGS.len()];
    for round in 0..rounds {
        for k in 0..CONFIGS.len() {
            let i = (k + round) % CONFIGS.len();
            let config = &CONFIGS[i];
            if !picked[i] {
                continue;
            }
            let (mut nodes, mut cpu) = (0, 0.0);
            for pos in &positions[i] {
                tables[i].clear();
                let limits = Limits {
                    depth: Some(config.depth),
                    ..Limits::default()
                };
                let t0 = cpu_seconds();
                let found =
                    search::search(pos, &[], &[], limits, &stop, &mut tables[i], &mut |_| {});
                cpu += cpu_seconds() - t0;
                nodes += found.map_or(0, |f| f.nodes);
            }
            rates[i].push(nodes as f64 / cpu / 1e6);
            nodes_seen[i].push(nodes);
        }
    }
    for (i, config) in CONFIGS.iter().enumerate() {
        if !picked[i] {
            continue;
        }
        let r = &mut rates[i];
        r.sort_by(f64::total_cmp);
        let same = nodes_seen[i].iter().all(|&n| n == nodes_seen[i][0]);
        println!(
            "{:<20} depth {}: {:.3} M nodes/CPU-s (median of {rounds}; min {:.3}, max {:.3}); {} nodes{}",
            config.name,
            config.depth,
            r[r.len() / 2],
            r[0],
            r[r.len() - 1],
            nodes_seen[i][0],
            if same {
                ""
            } else {
                " (VARYING between rounds)"
            }
        );
    }
}
