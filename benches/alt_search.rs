//! Nodes per CPU-second of the alternating search at fixed depth: Gladiator at Hash 1, 16, 256
//! and 1024 MiB, and Brawl and Pagan at Hash 16; and how much of each table the searches used.
//!
//! Run with `cargo bench --bench alt_search` (optionally `-- ROUNDS`, default 7, and words that
//! pick the configurations whose names contain them: `-- 3 brawl`). Every round
//! searches the same positions to the same depth with an emptied table (so every round walks
//! the same tree and the node counts, printed, must not vary), timed by the CPU time of the
//! thread (`CLOCK_THREAD_CPUTIME_ID`), not by the wall clock: the machine is shared. The
//! configurations are interleaved within each round (in a rotating order) and the median
//! rate of the rounds is printed with the spread. This measures; it asserts nothing.
//!
//! To compare two builds, run the bench of each in turn several times (interleaved) and
//! compare the medians.
//!
//! Why a big table was slower per node than Hash 16 (2026-12-02, idle 2-core AMD EPYC with a
//! 32 MiB L3, `-- 3 gladiator`): 4.05, 3.45 and 3.10 M nodes/CPU-s at Hash 1, 16 and 256, that is
//! 1.44, 1.34 and 1.47 CPU s to depth 6. A 16 MiB table fits in the L3; a 256 MiB one did not,
//! so most probes waited on memory even though the table is on huge pages and the child's
//! bucket is prefetched. Since 2026-12-07 a table of more than 16 MiB starts on its first 16
//! and widens as it fills (`search::TransTable`): these searches use at most 23 MiB of a 256 or
//! 1024 MiB table. Counted by `valgrind --tool=cachegrind --LL=33554432,16,64` (a simulated
//! 32 MiB last-level cache, so the count does not depend on the machine's load), a `go depth 6`
//! of Gladiator from the start at Hash 256 missed that cache on 2,256,000 reads before and
//! 254,000 after (a `go depth 1`'s taken off: the start and the table's first touch), for 2,819
//! and 2,843 instructions a node. On this shared machine the timings of the bench swing by
//! 20–30 % between runs, more than the difference that makes.
//!
//! Since 2026-12-07 (later) it widens at three quarters full, not half: the Hash 256 and 1024
//! searches then stay on 16 MiB, walk the Hash 16 tree (4,612,867 nodes) and are as fast
//! (5.27–5.32 against 5.29–5.30 M nodes/CPU-s, two runs each; 5.21–5.23 when they widened to
//! 23 MiB).
//!
//! Since Gladiator tries ten supporter moves a pawn move (2e6fb71) these searches go to depth
//! 5 (`GLADIATOR_DEPTH`), and there the tables of 256 and 1024 MiB widen to 63 MiB and are
//! slower per node again (`-- 3 gladiator`, 2026-12-07: Hash 1, 16, 256, 1024 at 4.87, 4.17,
//! 3.83, 3.81 M nodes/CPU-s): "no slower at Hash 256 than at Hash 16" does not hold on this tree.
//!
//! Since 2026-12-08 quiescence keeps its results in a part of the table of its own (at most
//! 1 MiB; `search::TransTable`), and the main search's part of a 256 or 1024 MiB table no
//! longer widens at depth 5 (17 MiB used): two interleaved runs of `-- 3`, the single table
//! against the two parts, M nodes/CPU-s and nodes: Gladiator Hash 1 4.97/5.42 against
//! 4.98/5.33 (32.0 M nodes, 35.2 M with a sixteenth for quiescence, 31.7 M with the quarter
//! kept), Hash 16 4.53/4.66 against 4.90/5.17 (26.8 M nodes either way: CPU time -9 %), Hash
//! 256 3.97/4.12 against 4.95/5.26 (26.2 M, 26.9 M: -19 %), Brawl 4.10/4.37 against 4.64/4.80
//! (29.2 M, 29.5 M: -9 %), Pagan 2.54/2.72 against 2.62/2.73 (2.12 M, 2.30 M: +6 %; deeper
//! Pagan searches, depths 13 and 14 from three positions, took 10 % less CPU time in all).

use std::sync::atomic::AtomicBool;

use quill::search::{self, Limits, Searchable, TransTable};
use quill::variants::gladiator::{self, Rules};
use quill::variants::pagan;

mod cpu;

/// Plies played from the start (by a depth-3 search) to reach each benchmarked position.
const OPENINGS: [usize; 4] = [0, 6, 12, 20];

/// The depth of the Gladiator configurations: 6 until Gladiator tried ten supporter moves
/// after each pawn move (2e6fb71), when its four depth-6 trees grew from 4,612,867 nodes to
/// 371,813,440 (about 90 CPU s a round); at depth 5 a round takes seconds again.
const GLADIATOR_DEPTH: u32 = 5;

/// Which game a configuration searches.
#[derive(Clone, Copy)]
enum Game {
    /// Gladiator or Brawl Chess.
    Gladiator(Rules),
    /// Pagan Chess.
    Pagan,
}

struct Config {
    name: &'static str,
    game: Game,
    mib: usize,
    depth: u32,
}

/// A benchmarked position of either game.
enum Position {
    Gladiator(gladiator::Position),
    Pagan(pagan::Position),
}

const CONFIGS: [Config; 6] = [
    Config {
        name: "gladiator hash 1",
        game: Game::Gladiator(Rules::Gladiator),
        mib: 1,
        depth: GLADIATOR_DEPTH,
    },
    Config {
        name: "gladiator hash 16",
        game: Game::Gladiator(Rules::Gladiator),
        mib: 16,
        depth: GLADIATOR_DEPTH,
    },
    Config {
        name: "gladiator hash 256",
        game: Game::Gladiator(Rules::Gladiator),
        mib: 256,
        depth: GLADIATOR_DEPTH,
    },
    Config {
        name: "gladiator hash 1024",
        game: Game::Gladiator(Rules::Gladiator),
        mib: 1024,
        depth: GLADIATOR_DEPTH,
    },
    Config {
        name: "brawl hash 16",
        game: Game::Gladiator(Rules::Brawl),
        mib: 16,
        depth: 5,
    },
    Config {
        name: "pagan hash 16",
        game: Game::Pagan,
        mib: 16,
        depth: 10,
    },
];

/// CPU seconds used by this thread so far (`CLOCK_THREAD_CPUTIME_ID`: up to date when read;
/// `getrusage(RUSAGE_THREAD)`, read before 2026-12-07, counts in whole 4 ms ticks here, steps
/// of about 1 % of a Brawl search).
fn cpu_seconds() -> f64 {
    cpu::cpu_seconds(cpu::Clock::Thread)
}

/// The position `plies` turns into a game each side plays by a depth-3 search, from `start`.
fn opening<P: Searchable>(start: P, plies: usize) -> P {
    let stop = AtomicBool::new(false);
    let mut table = TransTable::new(1).expect("a small table");
    let mut pos = start;
    for _ in 0..plies {
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        // The search answers nothing in a position where the game is over.
        let Some(found) = search::search(&pos, &[], &[], limits, &stop, &mut table, &mut |_| {})
        else {
            break;
        };
        let turn = pos
            .read_wire(&found.mv)
            .expect("the search plays legal turns");
        pos = pos.after(turn);
    }
    pos
}

/// The benchmarked position of `game` reached after `plies` turns.
fn opening_of(game: Game, plies: usize) -> Position {
    match game {
        Game::Gladiator(rules) => {
            Position::Gladiator(opening(gladiator::Position::start(rules), plies))
        }
        Game::Pagan => Position::Pagan(opening(pagan::Position::start(), plies)),
    }
}

/// Searches `pos` to `depth` with `table` (emptied first): its nodes and the CPU seconds taken.
/// (A table of more than 16 MiB starts on 16 and grows as it fills: `TransTable::in_use`.)
fn run<P: Searchable>(pos: &P, depth: u32, table: &mut TransTable) -> (u64, f64) {
    let stop = AtomicBool::new(false);
    table.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let t0 = cpu_seconds();
    let found = search::search(pos, &[], &[], limits, &stop, table, &mut |_| {});
    let cpu = cpu_seconds() - t0;
    (found.map_or(0, |f| f.nodes), cpu)
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
        .zip(&picked)
        .map(|(c, &on)| {
            let plies: &[usize] = if on { &OPENINGS } else { &[] };
            plies.iter().map(|&n| opening_of(c.game, n)).collect()
        })
        .collect();
    // Only the tables of the configurations picked (the biggest is 1 GiB).
    let mut tables: Vec<TransTable> = CONFIGS
        .iter()
        .zip(&picked)
        .map(|(c, &on)| {
            TransTable::new(if on { c.mib } else { 0 }).expect("the table fits in memory")
        })
        .collect();
    // The most of each table a search used, in entries.
    let mut most_used = vec![0; CONFIGS.len()];
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
                let (n, c) = match pos {
                    Position::Gladiator(p) => run(p, config.depth, &mut tables[i]),
                    Position::Pagan(p) => run(p, config.depth, &mut tables[i]),
                };
                nodes += n;
                cpu += c;
                most_used[i] = most_used[i].max(tables[i].in_use());
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
            "{:<20} depth {}: {:.3} M nodes/CPU-s (median of {rounds}; min {:.3}, max {:.3}); {} nodes; table used up to {} MiB{}",
            config.name,
            config.depth,
            r[r.len() / 2],
            r[0],
            r[r.len() - 1],
            nodes_seen[i][0],
            (most_used[i] * 16) >> 20,
            if same {
                ""
            } else {
                " (VARYING between rounds)"
            }
        );
    }
}
