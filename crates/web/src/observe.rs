//! Around every request: a request id, one structured log line (company, route,
//! status, latency, request id; never the token or the query string), the metrics,
//! and a caught panic answered as a JSON 500.

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;
use std::time::Instant;
use tracing::Instrument;

use crate::auth::ServedCompany;
use crate::routing::display_route;
use crate::state::AppState;

#[derive(Clone)]
pub struct RequestId(pub String);

fn new_request_id() -> String {
    use rand::Rng;
    format!("{:016x}", rand::thread_rng().r#gen::<u64>())
}

pub async fn observe(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let request_id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_owned)
        .unwrap_or_else(new_request_id);
    req.extensions_mut().insert(RequestId(request_id.clone()));
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| display_route(m.as_str()))
        .unwrap_or_else(|| "unmatched".to_owned());

    // The timeout sits inside this layer, so a timed-out request is logged and counted.
    let timeout = state.inner().config.request_timeout;
    // Everything logged while the request is handled (a slow statement, a store call's
    // span) carries its id and route.
    let span = tracing::info_span!("request", request_id = %request_id, route = %route);
    // For the log line of a task that failed outside the handler (in `logged`).
    let named = (request_id.clone(), route.clone());
    // The handler runs as a task of its own, answer, log line and metrics with it: a
    // client that goes away drops only the wait for it, never the handler half-way
    // through a database transaction (which on PostgreSQL could hand its pooled
    // connection back still inside it), and the request is logged and counted all the
    // same. A timed-out handler is stopped. A shutdown waits for it (`AppState::drain`).
    let work = state.clone().spawn(async move {
        let handled = tokio::time::timeout(
            timeout,
            AssertUnwindSafe(next.run(req)).catch_unwind().instrument(span),
        )
        .await;
        let response = match handled {
            Ok(Ok(response)) => response,
            Err(_) => {
                tracing::warn!(request_id = %request_id, route = %route, timeout_ms = timeout.as_millis() as u64, "request timed out");
                crate::error::ApiError::TimedOut(timeout.as_secs()).into_response()
            }
            Ok(Err(panic)) => {
                let detail = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                tracing::error!(request_id = %request_id, route = %route, panic = %detail, "handler panicked");
                crate::error::ApiError::Internal(format!("panic: {detail}")).into_response()
            }
        };
        logged(&state, response, started, &method, &route, request_id)
    });
    match work.await {
        Ok(response) => response,
        Err(join) => {
            let (request_id, route) = named;
            tracing::error!(request_id = %request_id, route = %route, error = %join, "handler task failed");
            let mut response =
                crate::error::ApiError::Internal(format!("handler task: {join}")).into_response();
            if let Ok(v) = HeaderValue::from_str(&request_id) {
                response.headers_mut().insert("x-request-id", v);
            }
            response
        }
    }
}

/// Counts the answer in the metrics, logs its line and names the request in it.
fn logged(
    state: &AppState,
    mut response: Response,
    started: Instant,
    method: &Method,
    route: &str,
    request_id: String,
) -> Response {
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    let company = response.extensions().get::<ServedCompany>().map(|c| c.0);
    let method = crate::metrics::method_label(method);
    state
        .inner()
        .metrics
        .observe(method, route, status, elapsed);
    tracing::info!(
        target: "rentrack::request",
        request_id = %request_id,
        company = company,
        method = method,
        route = %route,
        status = status,
        latency_us = elapsed.as_micros() as u64,
        "request"
    );
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert("x-request-id", v);
    }
    response
}
