//! The engine driven by real third-party client code: python-chess's UCI and XBoard protocol
//! objects (`tests/clients/*.py`, with python-chess from PyPI) and two tiny CECP clients, one
//! that answers no feature (as python-chess) and one that accepts every feature (as
//! cutechess-cli and XBoard). Each script asserts on what the engine printed and, for
//! python-chess, that `chess.engine` logged no warning; it exits non-zero on any failure.
//!
//! Without `python3` or its `chess` module these tests say so and pass, except under `CI=true`
//! (as `.ci/run` runs), where they fail: `.ci/run` installs python-chess when it is missing.
//! `protocol-docs/clients.md` is the user's page for the same clients.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

/// The python-chess release the clients are written against (`.ci/run` installs it).
const PYTHON_CHESS: &str = "1.11.2";

/// The longest a client script may run before it is killed and the test fails.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(240);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What a client script needs besides the engine.
#[derive(Clone, Copy, PartialEq)]
enum Needs {
    Python,
    PythonChess,
}

/// Why the clients cannot run here, if they cannot: `python3`, then its `chess` module.
fn missing(needs: Needs) -> Option<String> {
    static PYTHON: OnceLock<Option<String>> = OnceLock::new();
    static CHESS: OnceLock<Option<String>> = OnceLock::new();
    let python = PYTHON.get_or_init(|| match Command::new("python3").arg("--version").output() {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!("python3 --version failed: {:?}", out.status)),
        Err(e) => Some(format!("no python3: {e}")),
    });
    if python.is_some() || needs == Needs::Python {
        return python.clone();
    }
    CHESS
        .get_or_init(|| {
            let out = Command::new("python3")
                .args(["-c", "import chess, chess.engine; print(chess.__version__)"])
                .output();
            match out {
                Ok(out) if out.status.success() => {
                    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
                    if version != PYTHON_CHESS {
                        let _ = writeln!(
                            std::io::stderr(),
                            "note: python-chess {version}; the clients are written for {PYTHON_CHESS}"
                        );
                    }
                    None
                }
                _ => Some(format!(
                    "python3 has no `chess` module (pip install chess=={PYTHON_CHESS})"
                )),
            }
        })
        .clone()
}

/// Reads all of a pipe on its own thread.
fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Waits for `child` at most `timeout`; kills it past that. Returns whether it exited in time.
fn wait_or_kill(child: &mut Child, timeout: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `tests/clients/SCRIPT ENGINE ARGS…` and panics with its output unless it succeeds and
/// says `ok`. Skips (or, under `CI=true`, fails) when Python or python-chess is missing.
fn client(script: &str, args: &[&str], needs: Needs) {
    if let Some(reason) = missing(needs) {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and the real clients cannot run: {reason}"
        );
        // Written to stderr directly, not through eprintln!, which the test harness captures.
        let _ = writeln!(std::io::stderr(), "skipped {script}: {reason}");
        return;
    }
    let path = root().join("tests/clients").join(script);
    let mut child = Command::new("python3")
        .arg(&path)
        .arg(env!("CARGO_BIN_EXE_quill"))
        .args(args)
        // Engine logging on stderr would be logged as a warning by python-chess.
        .env_remove("RUST_LOG")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start python3 {}: {e}", path.display()));
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let status = wait_or_kill(&mut child, CLIENT_TIMEOUT);
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    let shown = format!("tests/clients/{script} {}", args.join(" "));
    let output = format!("--- stdout\n{stdout}--- stderr\n{stderr}");
    match status {
        None => panic!("{shown}: killed after {CLIENT_TIMEOUT:?}\n{output}"),
        Some(status) => assert!(status.success(), "{shown}: {status}\n{output}"),
    }
    assert!(
        stdout.lines().any(|line| line.starts_with("ok ")),
        "{shown}: no `ok` line\n{output}"
    );
    eprint!("{stdout}");
}

#[test]
fn python_chess_uci_handshake_options_ping_quit() {
    client("uci_handshake.py", &[], Needs::PythonChess);
}

#[test]
fn python_chess_xboard_handshake_options_variant_ping_quit() {
    client("xboard_handshake.py", &[], Needs::PythonChess);
}

#[test]
fn python_chess_uci_analysis_of_a_gladiator_position() {
    client("uci_analysis.py", &[], Needs::PythonChess);
}

#[test]
fn python_chess_gladiator_game_uci_against_cecp() {
    client("games.py", &["gladiator"], Needs::PythonChess);
}

#[test]
fn python_chess_pagan_game_uci_against_cecp() {
    client("games.py", &["pagan"], Needs::PythonChess);
}

#[test]
fn python_chess_sealed_apocalypse_game_in_uci() {
    client("games.py", &["apocalypse"], Needs::PythonChess);
}

#[test]
fn cecp_client_that_answers_no_feature() {
    client("cecp_client.py", &["silent"], Needs::Python);
}

#[test]
fn cecp_client_that_accepts_every_feature() {
    client("cecp_client.py", &["accepting"], Needs::Python);
}

/// The fenced blocks of `lang` in a Markdown text.
fn fenced(markdown: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut current, fence) {
            (None, Some(info)) if info.trim() == lang => current = Some(String::new()),
            (Some(_), Some("")) => blocks.push(current.take().unwrap()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

/// The page for users is the tests' code: every Python block of `protocol-docs/clients.md`
/// appears word for word in a client script, and every `tests/clients/…` file it names exists.
#[test]
fn the_clients_page_shows_the_tests_code() {
    let page_path = root().join("protocol-docs/clients.md");
    let page = std::fs::read_to_string(&page_path).unwrap();
    let dir = root().join("tests/clients");
    let mut scripts = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "py") {
            scripts.push(std::fs::read_to_string(&path).unwrap());
        }
    }
    let blocks = fenced(&page, "python");
    assert!(!blocks.is_empty(), "no ```python block in clients.md");
    for block in &blocks {
        assert!(
            scripts.iter().any(|s| s.contains(block.as_str())),
            "this block of clients.md is in no tests/clients/*.py file:\n{block}"
        );
    }
    let named = page
        .split("tests/clients/")
        .skip(1)
        .map(|rest| {
            rest.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .next()
                .unwrap()
                .trim_end_matches('.')
        })
        .filter(|name| !name.is_empty());
    for name in named {
        assert!(
            Path::new(&dir).join(name).exists(),
            "clients.md names tests/clients/{name}, which does not exist"
        );
    }
}
