//! `quill gui`: a local web page for every variant, served by the engine binary. The server
//! holds the game (its rules through `rules_view`, its engines through `seats`, the play in
//! `table`); the page (`assets/`, built into the binary, served by `http`) draws what it is
//! sent over its socket (`socket`) and sends the person's moves. Only 127.0.0.1 is served; every request must carry the per-run token of the
//! printed address and come from the served origin. The page↔server API and what the GUI sends
//! to engines are in `protocol-docs/gui.md`.

mod error;
mod http;
pub(crate) mod rules_view;
pub(crate) mod seats;
mod socket;
pub(crate) mod table;

pub use error::StartError;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::watch;

use crate::variant::Variant;
use seats::Spec;
use table::{Command, Config, Request, Setup, Shared, Table, Who};

/// Largest message the page may send over the socket, in bytes.
pub(crate) const MAX_MESSAGE: usize = 16 * 1024;
/// Commands that may wait for the game's thread.
pub(crate) const COMMAND_QUEUE: usize = 64;
/// Most legs a move being entered may have.
pub(crate) const MAX_LEGS: usize = 8;
/// Most sockets open at once.
pub(crate) const MAX_SOCKETS: usize = 16;

/// `quill gui`'s command line.
#[derive(Debug, clap::Args)]
pub struct GuiArgs {
    /// Port on 127.0.0.1 (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub(crate) port: u16,
    /// An engine the page may seat, in `quill match`'s seat syntax (`cmd=PATH name=N
    /// proto=uci|cecp st=1 depth=N tc=…`); repeat for more. Default: Quill itself in UCI and
    /// in XBoard, one second a move.
    #[arg(long = "engine", value_name = "SEAT")]
    pub(crate) engines: Vec<String>,
    /// Words every engine seat shares (`--each "st=0.5"`).
    #[arg(long, value_name = "WORDS", default_value = "")]
    pub(crate) each: String,
    /// The person's clock, `tc=` syntax (`5+0.1`, `40/300`); default: no clock.
    #[arg(long, value_name = "TC")]
    pub(crate) person_tc: Option<String>,
    /// Variant of the first game.
    #[arg(long, default_value = "apocalypse")]
    pub(crate) variant: String,
    /// Seconds an engine with only a depth or node limit may think.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub(crate) move_timeout: u64,
    /// Seconds a game's engines keep running once no page is open (they restart on return).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub(crate) abandon_secs: u64,
}

struct Hub {
    token: String,
    origin: String,
    hosts: [String; 2],
    commands: SyncSender<Request>,
    state: watch::Receiver<Arc<String>>,
    controller: watch::Sender<u64>,
    shared: Arc<Mutex<Shared>>,
    pgn: Arc<Mutex<String>>,
    sockets: AtomicUsize,
    next_client: AtomicU64,
    engines: Value,
}

fn random_token() -> Result<String, StartError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| StartError::Token(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn default_engines(each: &[String]) -> Result<Vec<Spec>, StartError> {
    let exe = std::env::current_exe().map_err(StartError::Program)?;
    let path = exe.to_string_lossy();
    let quoted = format!("'{}'", path.replace('\'', "'\\''"));
    let mut list = Vec::new();
    for (name, proto) in [("quill", "uci"), ("quill-xboard", "cecp")] {
        let words = vec![
            format!("cmd={quoted}"),
            format!("name={name}"),
            format!("proto={proto}"),
        ];
        let mut each = each.to_vec();
        if each.is_empty() {
            each.push("st=1".to_string());
        }
        list.push(seats::parse_words(&words, &each, name)?);
    }
    Ok(list)
}

/// The configuration the command line gives: the engines, the person's clock, the limits.
fn config(args: &GuiArgs) -> Result<Config, StartError> {
    let each = crate::referee::seat::split_words(&args.each).map_err(StartError::Words)?;
    let engines = if args.engines.is_empty() {
        default_engines(&each)?
    } else {
        args.engines
            .iter()
            .enumerate()
            .map(|(i, e)| seats::parse_engine(e, &each, &format!("engine{}", i + 1)))
            .collect::<Result<Vec<_>, _>>()?
    };
    let person_clock = match &args.person_tc {
        Some(tc) => {
            let spec = seats::parse_engine(&format!("cmd=- tc={tc}"), &[], "person")?;
            seats::clock(&seats::limits(&spec))
        }
        None => None,
    };
    Ok(Config {
        engines,
        person_clock,
        move_timeout: Duration::from_secs(args.move_timeout),
        abandon: Duration::from_secs(args.abandon_secs),
    })
}

/// Runs `quill gui` until SIGINT or SIGTERM.
///
/// # Errors
/// A bad argument, or the server cannot listen.
pub fn run(args: &GuiArgs) -> Result<(), StartError> {
    let config = config(args)?;
    let variant = Variant::from_name(&args.variant)
        .ok_or_else(|| StartError::Variant(args.variant.clone()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    runtime.block_on(serve(args.port, config, variant))
}

/// The engines the page may seat, as the `hello` message lists them.
fn engines_json(engines: &[Spec]) -> Value {
    Value::Array(
        engines
            .iter()
            .map(|e| {
                json!({"name": e.name, "dialect": e.dialect.to_string(),
                       "limits": seats::limits_text(&seats::limits(e))})
            })
            .collect(),
    )
}

/// The game's thread: the table of the first game, run until the server closes; `done` is
/// told when it has stopped its engines.
fn start_table(
    config: Config,
    variant: Variant,
    state: watch::Sender<Arc<String>>,
    hub_side: (Arc<Mutex<Shared>>, Arc<Mutex<String>>),
    commands: std::sync::mpsc::Receiver<Request>,
    done: std::sync::mpsc::Sender<()>,
) -> std::thread::JoinHandle<()> {
    let setup = Setup {
        variant,
        fen: None,
        seats: [Who::Person, Who::Engine(0)],
        cap: table::MAX_TURNS,
    };
    // The table lives on its own thread (its engines' inbox is not `Send`).
    std::thread::spawn(move || {
        let (shared, pgn) = hub_side;
        match Table::new(config, setup, state, shared) {
            Ok(mut t) => {
                t.set_pgn_sink(pgn);
                t.start_absent();
                t.run(&commands);
            }
            Err(e) => log::error!("the first game cannot be set up: {e}"),
        }
        let _ = done.send(());
    })
}

/// Resolves on SIGINT, or SIGTERM on Unix.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

async fn serve(port: u16, config: Config, variant: Variant) -> Result<(), StartError> {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port)))
        .await
        .map_err(|e| StartError::Listen(port, e))?;
    let port = listener.local_addr().map_err(StartError::Address)?.port();
    let token = random_token()?;
    let engines = engines_json(&config.engines);
    let (state_tx, state_rx) = watch::channel(Arc::new(String::from("{}")));
    let shared = Arc::new(Mutex::new(Shared::default()));
    let pgn = Arc::new(Mutex::new(String::new()));
    let (commands, rx) = sync_channel(COMMAND_QUEUE);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let hub_side = (shared.clone(), pgn.clone());
    let game = start_table(config, variant, state_tx, hub_side, rx, done_tx);
    let hub = Arc::new(Hub {
        origin: format!("http://127.0.0.1:{port}"),
        hosts: [format!("127.0.0.1:{port}"), format!("localhost:{port}")],
        token: token.clone(),
        commands: commands.clone(),
        state: state_rx,
        controller: watch::channel(0).0,
        shared,
        pgn,
        sockets: AtomicUsize::new(0),
        next_client: AtomicU64::new(0),
        engines,
    });
    crate::outln!("quill gui: open http://127.0.0.1:{port}/?token={token}");
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let served = axum::serve(listener, http::router(hub))
        .with_graceful_shutdown(shutdown_signal())
        .await;
    // Stop the game's engines before leaving.
    let _ = commands.try_send(Request {
        command: Command::Shutdown,
        reply: None,
    });
    drop(commands);
    let _ = tokio::task::spawn_blocking(move || {
        let _ = done_rx.recv_timeout(Duration::from_secs(3));
        if done_rx.try_recv().is_ok() || game.is_finished() {
            let _ = game.join();
        }
    })
    .await;
    served.map_err(StartError::Serve)
}
