//! A referee killed outright leaves no engine behind: `quill match`, and `quill gui`, are sent
//! `SIGKILL` (no `Drop` runs) while their engines think, and the engines must be gone soon
//! after (Linux: `PR_SET_PDEATHSIG`, see `Process::spawn`).
#![cfg(target_os = "linux")]

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const QUILL: &str = env!("CARGO_BIN_EXE_quill");

/// Waits up to `limit` for `done`; a bound on a wait, not a timing claim.
fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if done() {
            return true;
        }
        thread::sleep(Duration::from_millis(20));
    }
    done()
}

/// The process runs (and is not a zombie waiting to be reaped).
fn alive(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

/// The process ids an engine seat wrote, one per start (the match's probe, then the game).
fn pids_in(file: &Path) -> Vec<i32> {
    fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Sends `child` SIGKILL and waits up to 10 s for the processes `pids` to end; the ones left
/// (killed here, so that a failure does not leak them).
fn kill_outright(child: &mut Child, pids: &[i32]) -> Vec<i32> {
    // SAFETY: a plain signal to the child this test started.
    let killed = unsafe { libc::kill(i32::try_from(child.id()).unwrap(), libc::SIGKILL) };
    assert_eq!(killed, 0);
    let _ = child.wait();
    wait_until(Duration::from_secs(10), || pids.iter().all(|&p| !alive(p)));
    let left: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for &p in &left {
        // SAFETY: the leftovers of this test.
        unsafe { libc::kill(p, libc::SIGKILL) };
    }
    left
}

#[test]
fn a_killed_match_leaves_no_engine_running() {
    let dir = std::env::temp_dir().join(format!("quill-orphans-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    // Each engine writes its process id and runs Quill, then sleeps: Quill alone would exit
    // when its input closes with the referee, and hide a referee that leaves engines behind.
    let seat = |n: &str| {
        let pid = dir.join(format!("{n}.pid"));
        format!(
            "cmd=\"sh -c 'echo $$ >> {}; {QUILL}; exec sleep 600'\" name={n} tc=600+0",
            pid.display()
        )
    };
    let mut referee = Command::new(QUILL)
        .args(["match", "--variant", "gladiator", "--games", "2"])
        .args(["--engine", &seat("a"), "--engine", &seat("b")])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let files = [dir.join("a.pid"), dir.join("b.pid")];
    // Each seat is started twice: probed (and stopped), then for the game.
    let started = wait_until(Duration::from_secs(60), || {
        files.iter().all(|f| {
            let pids = pids_in(f);
            pids.len() >= 2 && pids.last().is_some_and(|&p| alive(p))
        })
    });
    let pids: Vec<i32> = files.iter().flat_map(|f| pids_in(f)).collect();
    assert!(started, "the engines of the game started: {pids:?}");
    let left = kill_outright(&mut referee, &pids);
    let _ = fs::remove_dir_all(&dir);
    assert!(
        left.is_empty(),
        "engines left running after the referee was killed: {left:?}"
    );
}

#[test]
fn a_killed_gui_leaves_no_engine_running() {
    let dir = std::env::temp_dir().join(format!("quill-orphans-gui-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("e.pid");
    // The same shell as above; `quill gui`'s first game (a person against engine 0, sealed)
    // asks the engine for its half at once, with no page open, and it thinks for up to 30 s.
    let seat = format!(
        "cmd=\"sh -c 'echo $$ >> {}; {QUILL}; exec sleep 600'\" name=e st=30",
        pid_file.display()
    );
    let mut gui = Command::new(QUILL)
        .args(["gui", "--variant", "apocalypse", "--engine", &seat])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = wait_until(Duration::from_secs(60), || {
        pids_in(&pid_file).last().is_some_and(|&p| alive(p))
    });
    let pids = pids_in(&pid_file);
    assert!(started, "the engine of the first game started: {pids:?}");
    let left = kill_outright(&mut gui, &pids);
    let _ = fs::remove_dir_all(&dir);
    assert!(
        left.is_empty(),
        "engines left running after quill gui was killed: {left:?}"
    );
}
