//! A Python reference, run as `tests/reference/SCRIPT serve` (one JSON request a line, one
//! JSON answer a line), and the parts of the comparison runs that are the same for every
//! variant: requests, the number of games, parallel runs and their report.

use super::*;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread::JoinHandle;

#[allow(dead_code)]
pub struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// A reference's answer to one request, for the references that report a refused turn in
/// `error` and a perft divide in `perft` (Gladiator/Brawl, Pagan).
#[allow(dead_code)]
pub struct Answer<D> {
    /// The position reached (before the bad turn, if one was refused).
    pub fen: String,
    pub result: Option<String>,
    /// The refused turn (`"INDEX TOKEN"`), if any.
    pub error: Option<String>,
    /// The perft asked for: (nodes, the divide as read by the caller's `divide`).
    pub perft: Option<(u64, D)>,
}

#[allow(dead_code)]
impl Reference {
    /// Starts `tests/reference/{script} serve`; without `python3`, prints a note and returns
    /// `None` (the comparison is skipped), except under `CI=true`, where it fails.
    pub fn start(script: &str) -> Option<Reference> {
        let script = root().join("tests/reference").join(script);
        let mut child = match Command::new("python3")
            .arg(&script)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                // CI must compare: a missing python3 there is a failure, not a skip.
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "python3 is not available ({e}) and CI=true: the reference comparison \
                     cannot be skipped"
                );
                eprintln!("note: python3 is not available ({e}); reference comparison skipped");
                return None;
            }
        };
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Some(Reference {
            child,
            stdin,
            stdout,
        })
    }

    /// Sends one request line; returns the answer, parsed, and its line as read.
    pub fn exchange(&mut self, request: &str) -> Result<(Json, String), String> {
        writeln!(self.stdin, "{request}").map_err(|e| format!("writing to the reference: {e}"))?;
        self.stdin.flush().map_err(|e| e.to_string())?;
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .map_err(|e| format!("reading from the reference: {e}"))?;
        if line.is_empty() {
            return Err("the reference exited".to_string());
        }
        let reply = Parser::parse(line.trim()).map_err(|e| format!("bad JSON ({e}): {line}"))?;
        Ok((reply, line))
    }

    /// Sends one request and reads an [`Answer`]; an `error` starting with "request" (the
    /// reference did not understand the request) is an `Err`, a refused turn is not.
    pub fn ask_divide<D>(
        &mut self,
        request: &str,
        divide: fn(&Json) -> Option<D>,
    ) -> Result<Answer<D>, String> {
        let (reply, line) = self.exchange(request)?;
        let error = reply.get("error").str().map(str::to_string);
        if let Some(e) = error.as_deref().filter(|e| e.starts_with("request")) {
            return Err(format!("the reference rejected {request}: {e}"));
        }
        let (fen, result) = fen_and_result(&reply, &line)?;
        let perft = match reply.get("perft") {
            Json::Null => None,
            p => Some((
                p.get("nodes").u64().ok_or("bad perft nodes")?,
                divide(p.get("divide")).ok_or("bad perft divide")?,
            )),
        };
        Ok(Answer {
            fen,
            result,
            error,
            perft,
        })
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        // Stop our own child (by its handle) and reap it.
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `fen` (required) and `result` of an answer; `line` is the answer as read, for the error.
#[allow(dead_code)]
pub fn fen_and_result(reply: &Json, line: &str) -> Result<(String, Option<String>), String> {
    let fen = reply
        .get("fen")
        .str()
        .ok_or_else(|| format!("no fen in {line}"))?
        .to_string();
    let result = reply.get("result").str().map(str::to_string);
    Ok((fen, result))
}

/// The items as the inside of a JSON array of strings: `"a", "b"`.
#[allow(dead_code)]
pub fn quoted<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|t| format!("\"{}\"", t.as_ref()))
        .collect();
    items.join(", ")
}

/// A request object: `fields` (JSON members, without the braces) and, with `perft`, the perft
/// depth asked for.
#[allow(dead_code)]
pub fn request(fields: &str, perft: Option<u32>) -> String {
    let mut request = format!("{{{fields}");
    if let Some(depth) = perft {
        request.push_str(&format!(", \"perft\": {depth}"));
    }
    request.push('}');
    request
}

/// Starts the reference (`script`) once and checks that it answers `probe`; `false` without
/// `python3` (the note is printed and the comparison skipped).
#[allow(dead_code)]
pub fn reference_answers<T>(
    script: &str,
    probe: impl FnOnce(&mut Reference) -> Result<T, String>,
) -> bool {
    let Some(mut reference) = Reference::start(script) else {
        return false;
    };
    if let Err(e) = probe(&mut reference) {
        panic!("the reference does not answer: {e}");
    }
    true
}

/// The games per run (`games_var` overrides `default`) and the seed salt (`seed_var`, else 0)
/// from the environment.
#[allow(dead_code)]
pub fn games_and_salt(games_var: &str, seed_var: &str, default: usize) -> (usize, u64) {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let games = env(games_var).map_or(default, |g| g as usize);
    let salt = env(seed_var).unwrap_or(0);
    (games, salt)
}

/// Runs `work` on each of `jobs` in parallel, each in a thread of its own with a reference
/// process of its own (`script`, which has already been started once). Returns the results of
/// the runs that agreed, in order, and the divergences the others reported.
#[allow(dead_code)]
pub fn in_parallel<J, T, W>(
    script: &'static str,
    jobs: impl IntoIterator<Item = J>,
    work: W,
) -> (Vec<T>, Vec<String>)
where
    J: Send + 'static,
    T: Send + 'static,
    W: Fn(&mut Reference, J) -> Result<T, String> + Send + Clone + 'static,
{
    let runs: Vec<JoinHandle<Result<T, String>>> = jobs
        .into_iter()
        .map(|job| {
            let work = work.clone();
            std::thread::spawn(move || {
                let mut reference = Reference::start(script).expect("python3 started once already");
                work(&mut reference, job)
            })
        })
        .collect();
    let mut done = Vec::new();
    let mut failures = Vec::new();
    for run in runs {
        match run.join().expect("a comparison thread panicked") {
            Ok(t) => done.push(t),
            Err(e) => failures.push(e),
        }
    }
    (done, failures)
}

#[allow(dead_code)]
pub fn assert_no_divergence(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "Quill and the reference disagree:\n{}",
        failures.join("\n\n")
    );
}
