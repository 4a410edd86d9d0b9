//! `quill gui`: the server's refusals checked over raw HTTP, and the browser tests
//! (`tests/gui/test_gui.py`, headless Chromium through WebDriver) run with this build's binary.
//! Under `CI=true` the browser tests fail when Chromium, chromedriver or selenium is missing;
//! elsewhere they are skipped with a note.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Gui {
    child: Child,
    port: u16,
    token: String,
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Gui {
    let exe = env!("CARGO_BIN_EXE_quill");
    let mut child = Command::new(exe)
        .args(["gui", "--engine", &format!("cmd={exe} name=quill depth=1")])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("quill gui starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let rest = url.trim_start_matches("http://127.0.0.1:");
    let (port, token) = rest.split_once("/?token=").expect("port and token");
    Gui {
        child,
        port: port.parse().unwrap(),
        token: token.to_string(),
    }
}

/// The status code of a GET with these extra header lines.
fn status(gui: &Gui, path: &str, headers: &[&str]) -> u16 {
    let mut s = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n", gui.port);
    for h in headers {
        req.push_str(h);
        req.push_str("\r\n");
    }
    req.push_str("Connection: close\r\n\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut head = [0u8; 12];
    s.read_exact(&mut head).unwrap();
    std::str::from_utf8(&head[9..12]).unwrap().parse().unwrap()
}

#[test]
fn the_token_the_origin_and_the_host_are_checked() {
    let gui = start();
    let t = &gui.token;
    assert_eq!(status(&gui, &format!("/?token={t}"), &[]), 200);
    assert_eq!(status(&gui, &format!("/app.js?token={t}"), &[]), 200);
    assert_eq!(status(&gui, "/", &[]), 403);
    assert_eq!(status(&gui, "/app.js", &[]), 403);
    assert_eq!(status(&gui, "/pgn?token=nope", &[]), 403);
    let wrong = "0".repeat(t.len());
    assert_eq!(status(&gui, &format!("/?token={wrong}"), &[]), 403);
    assert_eq!(
        status(
            &gui,
            &format!("/?token={t}"),
            &["Origin: http://evil.example"]
        ),
        403
    );
    let ws = [
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ];
    assert_eq!(status(&gui, "/ws", &ws), 403);
    let mut cross = ws.to_vec();
    cross.push("Origin: http://evil.example");
    assert_eq!(status(&gui, &format!("/ws?token={t}"), &cross), 403);
    let origin = format!("Origin: http://127.0.0.1:{}", gui.port);
    let mut same = ws.to_vec();
    same.push(&origin);
    assert_eq!(status(&gui, &format!("/ws?token={t}"), &same), 101);
    // Another host name for 127.0.0.1 (DNS rebinding) is refused too.
    let mut s = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    write!(
        s,
        "GET /?token={t} HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
        gui.port
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 403"), "{text}");
}

#[test]
fn bad_arguments_are_refused_clearly() {
    let exe = env!("CARGO_BIN_EXE_quill");
    for (args, says) in [
        (
            vec!["gui", "--engine", "human"],
            "people are seated from the page",
        ),
        (vec!["gui", "--engine", "name=x"], "no cmd="),
        (vec!["gui", "--variant", "chess"], "no variant 'chess'"),
        (vec!["gui", "--person-tc", "soon"], "tc"),
    ] {
        let out = Command::new(exe).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let out = Command::new(exe)
        .args(["gui", "--port", "70000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

fn have(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn the_page_in_headless_chromium() {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let chromium = have("chromium", &["--version"]) || have("chromium-browser", &["--version"]);
    let ready = chromium
        && have("chromedriver", &["--version"])
        && have("python3", &["-c", "import selenium"]);
    if !ready {
        assert!(
            !ci,
            "CI=true: the browser tests need chromium, chromedriver and selenium (.ci/run installs them)"
        );
        eprintln!("skipped: chromium, chromedriver or python3 selenium is missing");
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .args(["-m", "unittest", "-v", "tests/gui/test_gui.py"])
        .current_dir(root)
        .env("QUILL", env!("CARGO_BIN_EXE_quill"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("{err}");
    assert!(out.status.success(), "the browser tests failed");
    assert!(err.contains("\nOK"), "no browser test ran");
}
