//! `quill gui`: a local web page for every variant, served by the engine binary. The server
//! holds the game (its rules through `rules_view`, its engines through `seats`, the play in
//! `table`); the page (`assets/`, built into the binary) draws what it is sent and sends the
//! person's moves. Only 127.0.0.1 is served; every request must carry the per-run token of the
//! printed address and come from the served origin. The page↔server API and what the GUI sends
//! to engines are in `protocol-docs/gui.md`.

pub(crate) mod rules_view;
pub(crate) mod seats;
pub(crate) mod table;

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

fn random_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes for the token: {e}"))?;
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

/// Reads one message of the page into a command, or answers it at once.
fn message(hub: &Hub, client: u64, text: &str, out: &mpsc::UnboundedSender<String>) {
    let error = |t: &str| {
        let _ = out.send(json!({"t": "error", "text": t}).to_string());
    };
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
    let str_field = |k: &str| v.get(k).and_then(Value::as_str);
    match kind {
        "legs" => {
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
                return error("too many legs");
            }
            let entering = hub.shared.lock().ok().and_then(|s| s.entering.clone());
            let Some((pos, side)) = entering else {
                return error("it is not your turn");
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
        "move" => match str_field("move") {
            Some(m) => command(hub, Command::Move(m.to_string()), Some(out.clone())),
            None => error("a move message needs 'move'"),
        },
        "undo" => command(hub, Command::Undo, Some(out.clone())),
        "resign" => command(hub, Command::Resign, Some(out.clone())),
        "pause" => {
            let on = v.get("on").and_then(Value::as_bool).unwrap_or(true);
            command(hub, Command::Pause(on), Some(out.clone()));
        }
        "new" => {
            let engines = hub.engines.as_array().map_or(0, Vec::len);
            let setup = (|| -> Result<Setup, String> {
                let name = str_field("variant").unwrap_or("apocalypse");
                let variant = Variant::from_name(name).ok_or_else(|| {
                    format!("no variant '{}'", name.chars().take(40).collect::<String>())
                })?;
                let fen = str_field("fen").map(str::trim).filter(|f| !f.is_empty());
                if fen.is_some_and(|f| f.len() > table::MAX_FEN) {
                    return Err(format!("a FEN is at most {} bytes", table::MAX_FEN));
                }
                let white = table::who(str_field("white").unwrap_or("person"), engines)?;
                let black = table::who(str_field("black").unwrap_or("engine:0"), engines)?;
                rules_view::Position::new(variant, fen)
                    .map_err(|e| format!("that position is refused: {e}"))?;
                Ok(Setup {
                    variant,
                    fen: fen.map(str::to_string),
                    seats: [white, black],
                })
            })();
            match setup {
                Ok(s) => command(hub, Command::New(s), Some(out.clone())),
                Err(e) => error(&e),
            }
        }
        _ => error("unknown message"),
    }
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

fn default_engines(each: &[String]) -> Result<Vec<Spec>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
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

/// Runs `quill gui` until SIGINT or SIGTERM.
///
/// # Errors
/// A bad argument, or the server cannot listen.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    let each = crate::referee::seat::split_words(&args.each)?;
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
    let variant = Variant::from_name(&args.variant).ok_or_else(|| {
        format!(
            "no variant '{}' (try apocalypse, gladiator, brawl, pagan)",
            args.variant
        )
    })?;
    let config = Config {
        engines: engines.clone(),
        person_clock,
        move_timeout: Duration::from_secs(args.move_timeout),
        abandon: Duration::from_secs(args.abandon_secs),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(serve(args.port, config, variant))
}

async fn serve(port: u16, config: Config, variant: Variant) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port)))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?
        .port();
    let token = random_token()?;
    let engines_json = Value::Array(
        config
            .engines
            .iter()
            .map(|e| {
                json!({"name": e.name, "dialect": e.dialect.to_string(),
                       "limits": seats::limits_text(&seats::limits(e))})
            })
            .collect(),
    );
    let setup = Setup {
        variant,
        fen: None,
        seats: [Who::Person, Who::Engine(0)],
    };
    let (state_tx, state_rx) = watch::channel(Arc::new(String::from("{}")));
    let shared = Arc::new(Mutex::new(Shared::default()));
    let pgn = Arc::new(Mutex::new(String::new()));
    let (commands, rx) = sync_channel(COMMAND_QUEUE);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let (table_shared, table_pgn) = (shared.clone(), pgn.clone());
    // The table lives on its own thread (its engines' inbox is not `Send`).
    let game = std::thread::spawn(move || {
        match Table::new(config, setup, state_tx, table_shared) {
            Ok(mut t) => {
                t.set_pgn_sink(table_pgn);
                t.start_absent();
                t.run(&rx);
            }
            Err(e) => log::error!("the first game cannot be set up: {e}"),
        }
        let _ = done_tx.send(());
    });
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
        engines: engines_json,
    });
    let app = Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style))
        .route("/pgn", get(pgn_file))
        .route("/ws", get(ws))
        .layer(middleware::from_fn_with_state(hub.clone(), guard))
        .with_state(hub);
    println!("quill gui: open http://127.0.0.1:{port}/?token={token}");
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let shutdown = async {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            tokio::select! {
                _ = ctrl_c => {}
                _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending::<()>().await } } => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = ctrl_c.await;
        }
    };
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
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
    served.map_err(|e| format!("the server failed: {e}"))
}
