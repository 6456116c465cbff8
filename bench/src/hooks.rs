//! Webhooks during a run (`run --webhooks N`): a receiver in this process, N endpoints
//! of the server subscribed to `*` that point at it, and the delivery lag of every
//! event that arrives: the moment it arrived less the event's `timestamp` (when the
//! change wrote it, in its transaction). The server must send to loopback
//! (`--webhook-allow-private`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use hyper::Method;
use serde_json::{Value, json};

use crate::conn::Conn;
use crate::stats::{LatencySummary, micros, ms};

pub struct Hooks {
    endpoints: Vec<i64>,
    /// Lags in microseconds, one per delivery received.
    lags: Arc<Mutex<Vec<u32>>>,
}

/// Starts the receiver and subscribes `n` endpoints to every event.
pub async fn start(conn: &mut Conn, n: usize) -> Result<Hooks> {
    let lags: Arc<Mutex<Vec<u32>>> = Arc::default();
    let app = axum::Router::new().fallback({
        let lags = lags.clone();
        move |body: String| {
            let lags = lags.clone();
            async move {
                let arrived = chrono::Utc::now();
                let written = serde_json::from_str::<Value>(&body)
                    .ok()
                    .and_then(|v| v["timestamp"].as_str().map(str::to_owned))
                    .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok());
                if let Some(written) = written {
                    let lag = (arrived - written.to_utc()).to_std().unwrap_or_default();
                    lags.lock().expect("not poisoned").push(micros(lag));
                }
                "ok"
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .context("binding the webhook receiver")?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    let mut endpoints = Vec::with_capacity(n);
    for i in 0..n {
        let url = format!("http://{addr}/hook/{i}");
        let req = {
            let t = conn.target();
            t.post_form(
                t.uri("/webhooks.api")?,
                &[("webhook[url]", url.as_str()), ("webhook[events]", "*")],
            )
        };
        let reply = conn.call(req).await?;
        if !reply.is_success() {
            bail!(
                "creating a webhook endpoint answered {}: {} (start the server with --webhook-allow-private)",
                reply.status,
                reply.snippet()
            );
        }
        let id = reply.json()?["webhook"]["id"]
            .as_i64()
            .context("a webhook id")?;
        endpoints.push(id);
    }
    Ok(Hooks { endpoints, lags })
}

impl Hooks {
    /// Waits for deliveries still on their way (until none came for a second, at most
    /// `drain`), deletes the endpoints, and summarises what arrived.
    pub async fn finish(self, conn: &mut Conn, drain: Duration) -> Result<Value> {
        let start = std::time::Instant::now();
        let mut seen = self.lags.lock().expect("not poisoned").len();
        while start.elapsed() < drain {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let now = self.lags.lock().expect("not poisoned").len();
            if now == seen {
                break;
            }
            seen = now;
        }
        for id in &self.endpoints {
            let req = {
                let t = conn.target();
                t.with_form(Method::DELETE, t.uri(&format!("/webhooks/{id}.api"))?, None)
            };
            conn.call(req).await?;
        }
        let mut lags = std::mem::take(&mut *self.lags.lock().expect("not poisoned"));
        let lag = LatencySummary::from_samples(&mut lags);
        Ok(json!({
            "endpoints": self.endpoints.len(),
            "received": lag.count,
            "lag_p50_ms": ms(lag.p50.into()),
            "lag_p99_ms": ms(lag.p99.into()),
            "lag_max_ms": ms(lag.max.into()),
        }))
    }
}
