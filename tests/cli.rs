//! The command line as a person meets it: `quill --variant`, `quill verify`'s messages, and
//! the engine's hint, which goes to standard error only when a person types.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn quill(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quill"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quill starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_engine_starts_on_the_variant_asked_for() {
    let out = quill(&["--variant", "gladiator"], "d\nquit\n");
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Fen: rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w - - 0 1"),
        "{stdout}"
    );
    // Not a terminal: no hint on standard error (XBoard would read it as engine output).
    assert_eq!(text(&out.stderr), "");

    let bad = quill(&["--variant", "chess"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("unknown variant 'chess' (known: apocalypse"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn verify_names_what_is_wrong_with_its_arguments() {
    let out = quill(&["verify", "abc", "c1c2", "xyz"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "quill verify: the commitment 'abc' is not 64 hexadecimal digits (3 characters)\n"
    );
    let digest = "2a8ac5209050ac857ff8b638dc3eadd007d205f06e89b610d27776b555553bd0";
    let zeros = "0".repeat(64);
    let out = quill(&["verify", digest, "b2b3", "xyz"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the nonce 'xyz' is not 64"));
    let out = quill(&["verify", digest, "b2", &zeros], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), "quill verify: 'b2' is not a move\n");
    // The documented example opens; another move does not.
    let out = quill(&["verify", digest, "b2b3", &zeros], "");
    assert!(out.status.success(), "{}", text(&out.stdout));
    let out = quill(&["verify", digest, "b2b4", &zeros], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("INVALID: "));
}

#[test]
fn exploit_measures_every_position_it_can_and_names_the_ones_it_cannot() {
    // A malformed FEN between two small endgames: both are still measured, the bad one is
    // named on standard error, and the exit status says that one was skipped.
    let out = quill(
        &[
            "exploit",
            "--depth",
            "2",
            "--fen",
            "5/2P2/5/1p1N1/5",
            "--fen",
            "5/5/9/5/5",
            "--fen",
            "5/1P3/2p2/4p/5",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("5/2P2/5/1p1N1/5 w - - 0 1 0/0: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("5/1P3/2p2/4p/5 w - - 0 1 0/0: "),
        "{stdout}"
    );
    assert!(stdout.contains("(1 position skipped)"), "{stdout}");
    assert!(
        text(&out.stderr).starts_with("quill exploit: 5/5/9/5/5: "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn exploit_skips_an_endgame_bigger_than_max_positions() {
    // 4n/1p3/5/2P2/N4 has 45,542 reachable positions: solved under the default
    // cap, named and skipped under a cap of 1,000; a cap of 0 is refused before any work.
    let args = ["exploit", "--depth", "1", "--fen", "4n/1p3/5/2P2/N4"];
    assert!(quill(&args, "").status.success());
    let out = quill(&[&args[..], &["--max-positions", "1000"]].concat(), "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("more than 1000 reachable positions"),
        "{}",
        text(&out.stderr)
    );
    let zero = quill(&[&args[..], &["--max-positions", "0"]].concat(), "");
    assert_eq!(zero.status.code(), Some(2));
    assert!(text(&zero.stderr).contains("0 is not in 1..=10000000"));
}

#[test]
fn exploit_each_depth_measures_every_iteration_before_the_answer() {
    // `--each-depth`: one line per completed iteration below the answer's depth, in order,
    // then the answer's line; without it, the answer's line alone.
    // Without the built-in tables: a 4-piece root inside them is answered at depth 1.
    let fen = "5/1P3/2p2/4p/1N3";
    let args = [
        "exploit",
        "--depth",
        "3",
        "--fen",
        fen,
        "--no-builtin-tablebase",
    ];
    let out = quill(&[&args[..], &["--each-depth"]].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let head = format!("{fen} w - - 0 1 0/0: ");
    for (i, depth) in [1, 2].iter().enumerate() {
        let want = format!("{head}depth {depth}: exploitability ");
        assert!(lines[i].starts_with(&want), "{stdout}");
        assert!(lines[i].ends_with(" (Black)"), "{stdout}");
    }
    assert!(lines[2].contains("; depth 3: White's strategy"), "{stdout}");
    let plain = quill(&args, "");
    let plain = text(&plain.stdout);
    assert_eq!(plain.lines().next(), Some(lines[2]), "{plain}");
    assert_eq!(plain.lines().count(), 2, "{plain}");
}

#[test]
fn exploit_searches_with_the_built_in_tables_unless_told_not_to() {
    // A 4-piece root: the built-in table's equilibrium at once
    // (depth 1, unexploitable); the bare search's depth 1 is exploitable.
    let args = ["exploit", "--depth", "1", "--fen", "1N3/5/p4/4P/n4"];
    let with = text(&quill(&args, "").stdout);
    assert!(with.contains("Worst exploitability: 0.000000"), "{with}");
    let bare = quill(&[&args[..], &["--no-builtin-tablebase"]].concat(), "");
    let bare = text(&bare.stdout);
    let worst = bare
        .lines()
        .find_map(|l| l.strip_prefix("Worst exploitability: "))
        .and_then(|v| v.parse::<f64>().ok())
        .expect("a worst exploitability");
    assert!(worst > 1e-3, "{bare}");
}

#[test]
fn exploit_refuses_a_tablebase_it_cannot_read_before_it_measures() {
    let out = quill(
        &[
            "exploit",
            "--tablebase",
            "/nonexistent/quill.qtb",
            "--depth",
            "1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "");
    assert!(
        text(&out.stderr).starts_with("quill exploit: /nonexistent/quill.qtb: cannot open"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn exploit_compares_its_values_with_a_tablebase_and_takes_the_endless_step_when_asked() {
    // A 3-piece table holds every position a 3-piece endgame reaches: the endgame's values
    // are compared with it, position for position. `--endless` says how many it re-valued.
    let dir = std::env::temp_dir().join(format!("quill-exploit-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("seed-3.qtb");
    let table = table.to_str().unwrap();
    let built = quill(&["tablebase", "build", "--pieces", "3", "--out", table], "");
    assert!(built.status.success(), "{}", text(&built.stderr));
    let fen = "4p/5/5/1n3/P4 w - - 0 1";
    let args = [
        "exploit",
        "--depth",
        "1",
        "--fen",
        fen,
        "--tablebase",
        table,
    ];
    for endless in [false, true] {
        let args = [&args[..], if endless { &["--endless"] } else { &[] }].concat();
        let out = quill(&args, "");
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        let line = stdout
            .lines()
            .find(|l| l.contains("against the tablebase: "))
            .unwrap_or_else(|| panic!("no comparison: {stdout}"));
        let compared: usize = line
            .split("against the tablebase: ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(compared > 100, "{line}");
        assert!(line.contains(", 0 apart by more than 1e-6"), "{line}");
        assert_eq!(
            stdout.contains("re-valued for endless play"),
            endless,
            "{stdout}"
        );
    }
    // A table of the other rule set holds none of the endgame's positions: no line.
    let classic = quill(&[&args[..], &["--classic"]].concat(), "");
    assert!(classic.status.success(), "{}", text(&classic.stderr));
    assert!(!text(&classic.stdout).contains("against the tablebase"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebase_build_keeps_a_checkpoint_while_it_runs_and_refuses_another_builds() {
    // The checkpoint sits beside the table (`OUT.part`) and is gone once the table is written;
    // a `.part` file that is not this build's checkpoint stops the build, untouched.
    let dir = std::env::temp_dir().join(format!("quill-checkpoint-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("seed-3.qtb");
    let part = dir.join("seed-3.qtb.part");
    let args = [
        "tablebase",
        "build",
        "--pieces",
        "3",
        "--out",
        table.to_str().unwrap(),
    ];
    let built = quill(&args, "");
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(table.exists() && !part.exists());
    assert!(!text(&built.stdout).contains("from the checkpoint"));
    std::fs::write(&part, "not a checkpoint").unwrap();
    let refused = quill(&args, "");
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(
        err.contains("seed-3.qtb.part is not a checkpoint of this build")
            && err.contains("remove it"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&part).unwrap(), "not a checkpoint");
    // A table that could not be written is known before any solving, not hours later.
    let nowhere = dir.join("no-such-dir").join("t.qtb");
    let out = quill(
        &[
            "tablebase",
            "build",
            "--pieces",
            "5",
            "--out",
            nowhere.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("t.qtb.part: No such file"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tool_whose_reader_has_gone_ends_quietly() {
    // `quill perft … | head -1`: the reader is gone before the tool writes. `println!` would
    // panic here (exit code 101 and a panic message on standard error).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_quill"))
        .args(["perft", "--variant", "gladiator", "1"])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("cannot write"), "{err}");
}
