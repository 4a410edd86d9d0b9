//! Engine mode (`quill` with no subcommand): the protocol on standard input and output, with
//! a bounded reader thread and the optional `--log` transcript.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;

use clap::Args;
use log::{debug, warn};

use quill::session::{Input, MAX_INPUT_LINE, Session};
use quill::transcript::{self, Logger};

/// Options of engine mode (no subcommand).
#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    /// Write the dialogue to FILE as a transcript (`> ` lines in, `< ` lines out) that
    /// `quill replay` accepts.
    #[arg(long, value_name = "FILE")]
    pub(crate) log: Option<PathBuf>,
    /// Start on this variant instead of the default (apocalypse); a GUI may still choose
    /// another (UCI_Variant, CECP variant).
    #[arg(long, value_parser = crate::parse_variant)]
    pub(crate) variant: Option<quill::variant::Variant>,
}

/// Bytes of input read but not yet handled, past which the reader waits: with
/// [`MAX_INPUT_LINE`], the most input the engine ever holds.
const MAX_PENDING_INPUT: usize = 4 << 20;

/// Input read but not yet handled, in bytes: the reader waits while it is above
/// [`MAX_PENDING_INPUT`], so a client that floods the engine only fills the pipe.
#[derive(Default)]
struct Pending {
    bytes: Mutex<usize>,
    drained: Condvar,
}

impl Pending {
    fn add(&self, n: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        while *bytes > MAX_PENDING_INPUT {
            bytes = self
                .drained
                .wait(bytes)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *bytes += n;
    }

    fn done(&self, n: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        *bytes = bytes.saturating_sub(n);
        // The reader waits above the bound and is woken once half of it has drained.
        if *bytes <= MAX_PENDING_INPUT / 2 {
            self.drained.notify_all();
        }
    }
}

/// What an input counts for in [`Pending`] (the reader adds it, the handler takes it away).
/// A line counts its bytes and a share for the message that carries it, so that many short
/// lines are bounded as well as a few long ones.
fn pending_size(input: &Input) -> usize {
    const MESSAGE: usize = 64;
    match input {
        Input::Line(line) => line.len() + MESSAGE,
        Input::Overlong(_) => MESSAGE,
        Input::Eof | Input::Search(_) => 0,
    }
}

/// Reads one line (up to and without its newline) into `buf`, keeping at most
/// [`MAX_INPUT_LINE`] bytes: returns the line's whole length, or `None` at the end of input.
fn read_bounded_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((total > 0).then_some(total));
        }
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let room = (MAX_INPUT_LINE + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        total = total.saturating_add(part.len());
        let used = part.len();
        input.consume(used);
        if found {
            return Ok(Some(total));
        }
    }
}

/// Reads standard input line by line into `inputs`, then sends [`Input::Eof`]. A line longer
/// than [`MAX_INPUT_LINE`] is dropped and reported as [`Input::Overlong`].
fn read_stdin(inputs: Sender<Input>, pending: Arc<Pending>) {
    let stdin = io::stdin();
    let mut stdin = stdin.lock();
    let mut buf = Vec::new();
    loop {
        match read_bounded_line(&mut stdin, &mut buf) {
            Ok(None) => break,
            Ok(Some(total)) => {
                // The bound is on the bytes read, line ending included.
                let input = if total > MAX_INPUT_LINE {
                    Input::Overlong(total as u64)
                } else {
                    Input::Line(transcript::decode_line(&buf))
                };
                pending.add(pending_size(&input));
                if inputs.send(input).is_err() {
                    return;
                }
            }
            Err(e) => {
                warn!("reading standard input: {e}");
                break;
            }
        }
    }
    let _ = inputs.send(Input::Eof);
}

/// Writes to the `--log` file, if any; on a write error, warns once and stops logging.
struct Log(Option<Logger>);

impl Log {
    fn with(&mut self, write: impl FnOnce(&mut Logger) -> io::Result<()>) {
        if let Some(logger) = &mut self.0
            && let Err(e) = write(logger)
        {
            warn!("writing the log: {e}; logging stops");
            self.0 = None;
        }
    }
}

/// Runs the engine on standard input and output until `quit` or the end of input.
pub(crate) fn run_engine(args: &EngineArgs) -> ExitCode {
    let mut log = Log(None);
    if let Some(path) = &args.log {
        match Logger::create(path) {
            Ok(logger) => log.0 = Some(logger),
            Err(e) => {
                eprintln!("quill: cannot create log file {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    let (sender, inputs) = mpsc::channel();
    let mut session = Session::new(sender.clone());
    if let Some(variant) = args.variant {
        session.start_on(variant);
    }
    if io::stdin().is_terminal() {
        // A person, not a GUI: stderr never disturbs the protocol on stdout.
        eprintln!(
            "Quill {}: type 'uci' for UCI or 'xboard' for XBoard (CECP), or 'help'; 'quit' ends.",
            env!("CARGO_PKG_VERSION")
        );
    }
    let pending = Arc::new(Pending::default());
    let reader_pending = Arc::clone(&pending);
    if let Err(e) = thread::Builder::new()
        .name("stdin".to_string())
        .spawn(move || read_stdin(sender, reader_pending))
    {
        eprintln!("quill: cannot start the input thread: {e}");
        return ExitCode::FAILURE;
    }
    if !serve(&mut session, &inputs, &pending, &mut log) {
        return ExitCode::FAILURE;
    }
    log.with(Logger::exit);
    ExitCode::SUCCESS
}

/// Logs an input as it is handed to the session; whether it is the end of input.
fn note_input(input: &Input, log: &mut Log) -> bool {
    match input {
        Input::Line(line) => {
            debug!(">> {line}");
            log.with(|l| l.input(line));
        }
        Input::Overlong(bytes) => {
            debug!(">> (a line of {bytes} bytes, dropped)");
        }
        Input::Eof => {
            debug!(">> (end of input)");
            log.with(Logger::eof);
            return true;
        }
        Input::Search(_) => {}
    }
    false
}

/// Hands each input to the session and writes its answers, until the session is idle and
/// finished or the input has ended; `false` when standard output cannot be written.
fn serve(
    session: &mut Session,
    inputs: &mpsc::Receiver<Input>,
    pending: &Pending,
    log: &mut Log,
) -> bool {
    let stdout = io::stdout();
    let mut stdout = stdout.lock();
    let mut input_closed = false;
    while let Ok(input) = inputs.recv() {
        pending.done(pending_size(&input));
        input_closed |= note_input(&input, log);
        let lines = session.handle(input);
        for line in &lines {
            debug!("<< {line}");
            log.with(|l| l.output(line));
            if let Err(e) = writeln!(stdout, "{line}") {
                warn!("writing standard output: {e}");
                return false;
            }
        }
        if let Err(e) = stdout.flush() {
            warn!("writing standard output: {e}");
            return false;
        }
        // Stop once idle and finished; also once idle with no more input, since then nothing
        // could ever arrive again.
        if !session.is_busy() && (session.is_finished() || input_closed) {
            break;
        }
    }
    true
}
