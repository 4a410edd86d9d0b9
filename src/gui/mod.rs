//! `quill gui`: a local web page for every variant, served by the engine binary. The server
//! holds the game (its rules through `rules_view`, its engines through `seats`, the play in
//! `table`); the page (`assets/`, built into the binary) draws what it is sent and sends the
//! person's moves. Only 127.0.0.1 is served; every request must carry the per-run token of the
//! printed address and come from the served origin. The page↔server API and what the GUI sends
//! to engines are in `protocol-docs/gui.md`.

mod error;
pub(crate) mod rules_view;
pub(crate) mod seats;
pub(crate) mod table;

pub use error::StartError;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use crate::variant::Variant;
use error::NewGameError;
use seats::Spec;
use table::{Command, Config, Request, Setup, Shared, Table, Who};

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

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

/// Compares without stopping at the first difference.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn query_token(query: Option<&str>) -> Option<&str> {
    query?.split('&').find_map(|kv| kv.strip_prefix("token="))
}

/// Refuses a request without the token, from another origin, or for another host name (a
/// page of another site that rebinds its name to 127.0.0.1).
async fn guard(State(hub): State<Arc<Hub>>, req: HttpRequest, next: Next) -> Response {
    let headers = req.headers();
    let host_ok = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| hub.hosts.iter().any(|x| x == h));
    let origin_ok = headers
        .get(header::ORIGIN)
        .is_none_or(|o| o.to_str().is_ok_and(|o| o == hub.origin));
    let token_ok = query_token(req.uri().query()).is_some_and(|t| same(t, &hub.token));
    if !(host_ok && origin_ok && token_ok) {
        let why = if !host_ok {
            "forbidden: wrong host"
        } else if !origin_ok {
            "forbidden: cross-origin request"
        } else {
            "forbidden: missing or wrong token"
        };
        log::info!("refused {} {}: {why}", req.method(), req.uri().path());
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    next.run(req).await
}

fn asset(kind: &'static str, body: String) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        "content-security-policy",
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             connect-src 'self'; frame-ancestors 'none'",
        ),
    );
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    (headers, body).into_response()
}

async fn index(State(hub): State<Arc<Hub>>) -> Response {
    asset(
        "text/html; charset=utf-8",
        INDEX.replace("{{TOKEN}}", &hub.token),
    )
}

async fn app_js() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS.to_string())
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE.to_string())
}

async fn pgn_file(State(hub): State<Arc<Hub>>) -> Response {
    let text = hub.pgn.lock().map(|p| p.clone()).unwrap_or_default();
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"quill-gui.pgn\""),
    );
    (headers, text).into_response()
}

async fn ws(State(hub): State<Arc<Hub>>, upgrade: WebSocketUpgrade) -> Response {
    if hub.sockets.load(Ordering::Acquire) >= MAX_SOCKETS {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many open pages").into_response();
    }
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| session(hub, socket))
}

fn command(hub: &Hub, command: Command, reply: Option<mpsc::UnboundedSender<String>>) {
    let refused = |r: Option<mpsc::UnboundedSender<String>>, text: &str| {
        if let Some(r) = r {
            let _ = r.send(json!({"t": "error", "text": text}).to_string());
        }
    };
    match hub.commands.try_send(Request { command, reply }) {
        Ok(()) => {}
        Err(TrySendError::Full(r)) => refused(r.reply, "the server is busy; try again"),
        Err(TrySendError::Disconnected(r)) => refused(r.reply, "the game has stopped"),
    }
}

fn error_message(out: &mpsc::UnboundedSender<String>, text: &str) {
    let _ = out.send(json!({"t": "error", "text": text}).to_string());
}

/// Reads one message of the page into a command, or answers it at once.
fn message(hub: &Hub, client: u64, text: &str, out: &mpsc::UnboundedSender<String>) {
    let error = |t: &str| error_message(out, t);
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return error("a message must be JSON");
    };
    let kind = v.get("t").and_then(Value::as_str).unwrap_or("");
    if kind == "claim" {
        hub.controller.send_replace(client);
        return;
    }
    if *hub.controller.borrow() != client {
        return error(
            "this game is being played in another tab; press 'Play here' to take it over",
        );
    }
    let reply = Some(out.clone());
    match kind {
        "legs" => legs(hub, &v, out),
        "move" => match v.get("move").and_then(Value::as_str) {
            Some(m) => command(hub, Command::Move(m.to_string()), reply),
            None => error("a move message needs 'move'"),
        },
        "undo" => command(hub, Command::Undo, reply),
        "resign" => command(hub, Command::Resign, reply),
        "pause" => {
            let on = v.get("on").and_then(Value::as_bool).unwrap_or(true);
            command(hub, Command::Pause(on), reply);
        }
        "new" => match new_setup(hub, &v) {
            Ok(s) => command(hub, Command::New(s), reply),
            Err(e) => error(&e.to_string()),
        },
        _ => error("unknown message"),
    }
}

/// Answers a `legs` message at once: what may follow the legs entered so far.
fn legs(hub: &Hub, v: &Value, out: &mpsc::UnboundedSender<String>) {
    let legs: Vec<String> = v
        .get("legs")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if legs.len() > MAX_LEGS || legs.iter().any(|l| l.len() > 16) {
        return error_message(out, "too many legs");
    }
    let entering = hub.shared.lock().ok().and_then(|s| s.entering.clone());
    let Some((pos, side)) = entering else {
        return error_message(out, "it is not your turn");
    };
    let o = pos.leg_options(side, &legs);
    let _ = out.send(
        json!({
            "t": "legs",
            "legs": legs,
            "fen": pos.fen(),
            "side": side.word(),
            "next": o.next,
            "complete": o.complete,
            "promotions": o.promotions.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        })
        .to_string(),
    );
}

/// Reads a `new` message: the variant, the FEN and the seats, checked before the game's
/// thread is asked.
fn new_setup(hub: &Hub, v: &Value) -> Result<Setup, NewGameError> {
    let str_field = |k: &str| v.get(k).and_then(Value::as_str);
    let engines = hub.engines.as_array().map_or(0, Vec::len);
    let name = str_field("variant").unwrap_or("apocalypse");
    let variant = Variant::from_name(name)
        .ok_or_else(|| NewGameError::NoVariant(name.chars().take(40).collect()))?;
    let fen = str_field("fen").map(str::trim).filter(|f| !f.is_empty());
    if fen.is_some_and(|f| f.len() > table::MAX_FEN) {
        return Err(NewGameError::LongFen);
    }
    let white = table::who(str_field("white").unwrap_or("person"), engines)?;
    let black = table::who(str_field("black").unwrap_or("engine:0"), engines)?;
    rules_view::Position::new(variant, fen).map_err(NewGameError::Position)?;
    Ok(Setup {
        variant,
        fen: fen.map(str::to_string),
        seats: [white, black],
    })
}

async fn session(hub: Arc<Hub>, socket: WebSocket) {
    let client = hub.next_client.fetch_add(1, Ordering::AcqRel) + 1;
    hub.controller.send_replace(client);
    if hub.sockets.fetch_add(1, Ordering::AcqRel) == 0 {
        command(&hub, Command::Present(true), None);
    }
    let (out, mut outbox) = mpsc::unbounded_channel::<String>();
    let mut socket = socket;
    let mut state = hub.state.clone();
    let mut control = hub.controller.subscribe();
    let hello = json!({"t": "hello", "client": client, "engines": hub.engines,
        "variants": Variant::ALL.iter().map(|v| v.name()).collect::<Vec<_>>()});
    let _ = out.send(hello.to_string());
    let first = state.borrow_and_update().as_ref().clone();
    let _ = out.send(first);
    let _ = out.send(json!({"t": "control", "client": *control.borrow_and_update()}).to_string());
    // One loop for both ways: what the page sends, and what the game and the other sockets
    // publish. (A socket's `recv` may be cancelled by `select!` between messages.)
    loop {
        let text = tokio::select! {
            m = socket.recv() => match m {
                Some(Ok(Message::Text(t))) => {
                    message(&hub, client, t.as_str(), &out);
                    continue;
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => continue,
            },
            m = outbox.recv() => match m { Some(m) => m, None => break },
            r = state.changed() => {
                if r.is_err() { break }
                state.borrow_and_update().as_ref().clone()
            }
            r = control.changed() => {
                if r.is_err() { break }
                json!({"t": "control", "client": *control.borrow_and_update()}).to_string()
            }
        };
        if socket.send(Message::Text(text.into())).await.is_err() {
            break;
        }
    }
    if hub.sockets.fetch_sub(1, Ordering::AcqRel) == 1 {
        command(&hub, Command::Present(false), None);
    }
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

fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style))
        .route("/pgn", get(pgn_file))
        .route("/ws", get(ws))
        .layer(middleware::from_fn_with_state(hub.clone(), guard))
        .with_state(hub)
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
    println!("quill gui: open http://127.0.0.1:{port}/?token={token}");
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let served = axum::serve(listener, router(hub))
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
