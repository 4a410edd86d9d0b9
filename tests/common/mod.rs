//! Helpers shared by the integration tests, declared in each of them with `mod common;` (with
//! `#[path = "../common/mod.rs"]` in the tests that are directories). Here: a `quill` process
//! with piped input and output, the crate root and the misbehaving test double
//! (`examples/misbehave.rs`) for the referee tests (`referee/`, `misbehave_double.rs`). In the
//! modules, all re-exported here:
//!
//! - for the differential tests against the Python references (`reference_compare.rs`,
//!   `gladiator_compare.rs`, `pagan_compare.rs`): a seeded generator ([`rng`]), just enough
//!   JSON to read the references' answers ([`json`]), the reference process run in its `serve`
//!   mode with the parts of a comparison run that are the same for every variant
//!   ([`reference`]), and one game of a run ([`compare`]);
//! - for the perft tests (`perft.rs`, `perft_gladiator.rs`, `perft_pagan.rs`): the `.perft`
//!   table parser and the loop comparing its counts with `Game::perft` ([`perft`]).
//!
//! Each test binary compiles this module but uses only part of it, hence the
//! `#[allow(dead_code)]` on the items and `#[allow(unused_imports)]` on the re-exports.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

mod compare;
mod json;
mod perft;
mod reference;
mod rng;

#[allow(unused_imports)]
pub use compare::*;
#[allow(unused_imports)]
pub use json::*;
#[allow(unused_imports)]
pub use perft::*;
#[allow(unused_imports)]
pub use reference::*;
#[allow(unused_imports)]
pub use rng::*;

/// A `quill` process with piped standard input and output, and the lines it prints.
#[allow(dead_code)]
pub struct Quill {
    /// The process.
    pub child: Child,
    /// Its standard input.
    pub stdin: ChildStdin,
    /// Each line it prints, in order; ends when it closes its output.
    pub lines: std::sync::mpsc::Receiver<String>,
}

/// The `quill` binary started with piped standard input and output, `args` on its command
/// line; a thread sends each line it prints (lossy UTF-8, with its `\n` when it had one) to
/// the receiver, which ends when the engine closes its output.
#[allow(dead_code)]
pub fn spawn_quill(args: &[&str]) -> Quill {
    spawn(args, true)
}

/// [`spawn_quill`] with its lines' `\n` taken off.
#[allow(dead_code)]
pub fn spawn_quill_lines(args: &[&str]) -> Quill {
    spawn(args, false)
}

fn spawn(args: &[&str], keep_newline: bool) -> Quill {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quill"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("quill starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if !keep_newline && buf.last() == Some(&b'\n') {
                        buf.pop();
                    }
                    if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Quill {
        child,
        stdin,
        lines,
    }
}

#[allow(dead_code)]
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The misbehaving test double (`examples/misbehave.rs`), next to `quill` in
/// `target/<profile>/examples`. `cargo test` builds it; a run of one test target does not, so it
/// is built here when missing or older than its source or than the `quill` binary (which is
/// rebuilt whenever the library changes).
#[allow(dead_code)]
pub fn misbehave_path() -> &'static PathBuf {
    static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let quill = PathBuf::from(env!("CARGO_BIN_EXE_quill"));
        let profile_dir = quill.parent().expect("quill is in a directory").to_owned();
        let path = profile_dir.join("examples").join("misbehave");
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let built = modified(&path);
        let stale = built.is_none()
            || built < modified(&root().join("examples/misbehave.rs"))
            || built < modified(&root().join("examples/misbehave/faults.rs"))
            || built < modified(&quill);
        if stale {
            let mut cargo = Command::new(env!("CARGO"));
            cargo.args(["build", "--example", "misbehave"]);
            if profile_dir.ends_with("release") {
                cargo.arg("--release");
            }
            assert!(cargo.status().expect("cargo runs").success());
        }
        path
    })
}
