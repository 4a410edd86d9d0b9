//! The HTTP side of `quill gui`: the guard every request passes (the token, the origin, the
//! host name), the page's files with their headers, the PGN, and the routes.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::Hub;
use super::socket::ws;

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

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

pub(super) fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style))
        .route("/pgn", get(pgn_file))
        .route("/ws", get(ws))
        .layer(middleware::from_fn_with_state(hub.clone(), guard))
        .with_state(hub)
}
