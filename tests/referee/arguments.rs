//! The command line: no numeric argument makes any subcommand panic.

use super::*;

use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Values that once made an argument panic, or that no argument may take.
const EXTREME: [&str; 9] = [
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "-1",
    "1e400",
    "1e19",
    "NaN",
    "inf",
    "",
];

#[test]
fn no_numeric_argument_makes_any_subcommand_panic() {
    let dir = scratch("argfuzz");
    let seats = [
        "--engine",
        "cmd=false name=a",
        "--engine",
        "cmd=false name=b",
    ];
    let mut cases: Vec<Vec<String>> = Vec::new();
    let owned = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<String>>();
    for (n, v) in EXTREME.iter().enumerate() {
        for option in [
            "games",
            "concurrency",
            "seed",
            "opening-turns",
            "max-turns",
            "repetitions",
            "margin-ms",
            "move-timeout",
        ] {
            let mut c = owned(&["match", &format!("--{option}={v}")]);
            c.extend(owned(&seats));
            c.extend(owned(&["--results", &format!("r-{option}-{n}.txt")]));
            cases.push(c);
        }
        for (option, form) in [
            ("resign", format!("{v}:3")),
            ("resign", format!("300:{v}")),
            ("draw", format!("{v}:10:3")),
            ("draw", format!("10:{v}:3")),
            ("sprt", format!("0:{v}:0.05:0.05")),
            ("sprt", format!("{v}:5:0.05:0.05")),
            ("shard", format!("{v}/2")),
            ("shard", format!("0/{v}")),
        ] {
            let mut c = owned(&["match", &format!("--{option}={form}")]);
            c.extend(owned(&seats));
            c.extend(owned(&["--results", &format!("r-{option}-{n}.txt")]));
            cases.push(c);
        }
        for word in [
            "tc={v}",
            "tc=1/{v}",
            "tc=10+{v}",
            "tc={v}:00",
            "st={v}",
            "depth={v}",
            "nodes={v}",
        ] {
            let word = word.replace("{v}", v);
            cases.push(owned(&[
                "match",
                "--engine",
                &format!("cmd=false name=a {word}"),
                "--engine",
                "cmd=false name=b",
                "--results",
                &format!("r-word-{n}.txt"),
            ]));
        }
        cases.push(owned(&[
            "merge",
            "none.txt",
            &format!("--sprt=0:{v}:0.05:0.05"),
        ]));
        cases.push(owned(&["perft", &format!("--depth={v}")]));
        cases.push(owned(&["perft", "--", v]));
        cases.push(owned(&["bench", "--", v]));
        cases.push(owned(&["exploit", &format!("--movetime={v}")]));
        cases.push(owned(&["exploit", &format!("--depth={v}")]));
        cases.push(owned(&["replay", "none.txt", &format!("--timeout={v}")]));
    }
    for case in &cases {
        let mut child = Command::new(QUILL)
            .args(case)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > until {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("{case:?} still runs after 20 s");
            }
            thread::sleep(Duration::from_millis(5));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(
            status.code().is_some_and(|c| c != 101),
            "{case:?}: {status}\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{case:?}: {stderr}");
    }
}
