//! The sealed search through the UCI session: its table sized by `Hash`, kept between
//! searches and emptied by a new game, `Clear Hash` and a new `Hash`.

mod common;

use std::io::Write;
use std::time::Duration;

/// Sends the lines, then returns the node count of the last `info depth` line before the
/// next `bestmove`.
fn nodes_of(q: &mut common::Quill, lines: &[&str]) -> u64 {
    for l in lines {
        writeln!(q.stdin, "{l}").unwrap();
    }
    q.stdin.flush().unwrap();
    let mut nodes = None;
    loop {
        let line = q
            .lines
            .recv_timeout(Duration::from_secs(120))
            .expect("quill answers");
        if line.starts_with("info depth") {
            let toks: Vec<&str> = line.split_whitespace().collect();
            let i = toks.iter().position(|t| *t == "nodes").unwrap();
            nodes = Some(toks[i + 1].parse().unwrap());
        }
        if line.starts_with("bestmove") {
            return nodes.expect("an info line before bestmove");
        }
    }
}

#[test]
fn the_sealed_table_is_kept_between_searches_and_emptied_by_a_new_game() {
    let mut q = common::spawn_quill(&[]);
    let go = ["position startpos", "go sealed w depth 3"];
    let first = nodes_of(
        &mut q,
        &[
            "uci",
            "setoption name UCI_Variant value apocalypse",
            "setoption name Hash value 8",
            go[0],
            go[1],
        ],
    );
    let again = nodes_of(&mut q, &go);
    assert!(again * 2 < first, "kept table: {first} then {again}");
    let fresh = nodes_of(&mut q, &["ucinewgame", go[0], go[1]]);
    assert_eq!(fresh, first, "ucinewgame empties the table");
    nodes_of(&mut q, &go);
    let cleared = nodes_of(&mut q, &["setoption name Clear Hash", go[0], go[1]]);
    assert_eq!(cleared, first, "Clear Hash empties the table");
    nodes_of(&mut q, &go);
    let resized = nodes_of(&mut q, &["setoption name Hash value 9", go[0], go[1]]);
    assert!(resized > again, "a new Hash is a new table: {resized}");
    writeln!(q.stdin, "quit").unwrap();
    q.child.wait().unwrap();
}
