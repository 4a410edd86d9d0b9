//! The page's WebSocket: each message read into a command for the game's thread or answered at
//! once (`legs`, refusals), and the game's states and the control of the game sent back.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::TrySendError;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::error::NewGameError;
use super::table::{self, Command, Request, Setup};
use super::{Hub, MAX_LEGS, MAX_MESSAGE, MAX_SOCKETS, rules_view};
use crate::variant::Variant;

pub(super) async fn ws(State(hub): State<Arc<Hub>>, upgrade: WebSocketUpgrade) -> Response {
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
    let cap = turn_cap(v.get("cap"))?;
    rules_view::Position::new(variant, fen).map_err(NewGameError::Position)?;
    Ok(Setup {
        variant,
        fen: fen.map(str::to_string),
        seats: [white, black],
        cap,
    })
}

/// The `cap` of a `new` message: absent, null or empty is the largest cap; otherwise a whole
/// number (or the text of one, as the page's form sends it) from 1 to [`table::MAX_TURNS`].
fn turn_cap(v: Option<&Value>) -> Result<usize, NewGameError> {
    let text = match v {
        None | Some(Value::Null) => return Ok(table::MAX_TURNS),
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(table::MAX_TURNS),
        Some(Value::String(s)) => s.trim().to_string(),
        Some(other) => other.to_string(),
    };
    text.parse::<usize>()
        .ok()
        .filter(|c| (1..=table::MAX_TURNS).contains(c))
        .ok_or_else(|| NewGameError::Cap(text.chars().take(40).collect()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_cap_is_a_whole_number_from_1_to_the_largest() {
        let cap = |v: Value| turn_cap(Some(&v)).map_err(|e| e.to_string());
        assert_eq!(turn_cap(None).unwrap(), 2000);
        assert_eq!(cap(Value::Null).unwrap(), 2000);
        assert_eq!(cap(json!(" ")).unwrap(), 2000);
        assert_eq!(cap(json!(1)).unwrap(), 1);
        assert_eq!(cap(json!(" 150 ")).unwrap(), 150);
        assert_eq!(cap(json!("2000")).unwrap(), 2000);
        for bad in [
            json!(0),
            json!(2001),
            json!(-3),
            json!(1.5),
            json!("ten"),
            json!([1]),
        ] {
            let e = cap(bad.clone()).unwrap_err();
            assert!(
                e.starts_with("a turn cap is a whole number from 1 to 2000, not '"),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            cap(json!("9".repeat(100))).unwrap_err(),
            format!(
                "a turn cap is a whole number from 1 to 2000, not '{}'",
                "9".repeat(40)
            )
        );
    }
}
