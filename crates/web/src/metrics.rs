//! Counters for `/metrics` in the Prometheus text format: requests by route and
//! status, a latency histogram by route, rate-limit refusals, and label PDFs rendered.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Who may read `/metrics`: nobody unless configured (it names every route's traffic).
#[derive(Clone, Default)]
pub struct Access {
    /// Networks whose clients may read it (the client as `--trusted-proxy` finds it).
    networks: Vec<crate::client_addr::IpRange>,
    /// The SHA-256 of a token that lets a client of any network read it
    /// (`Authorization: Bearer <token>`); the token itself is not kept.
    token: Option<[u8; 32]>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access")
            .field("networks", &self.networks)
            .field("token", &self.token.map(|_| "<set>"))
            .finish()
    }
}

impl Access {
    pub fn new(networks: Vec<crate::client_addr::IpRange>, token: Option<&str>) -> Access {
        Access {
            networks,
            token: token.map(digest),
        }
    }

    /// Whether `/metrics` is served at all (otherwise it is an unknown route, 404).
    pub fn enabled(&self) -> bool {
        !self.networks.is_empty() || self.token.is_some()
    }

    /// Whether a client at `client` presenting `bearer` may read it.
    pub fn allows(&self, client: Option<std::net::IpAddr>, bearer: Option<&str>) -> bool {
        let from_network = client.is_some_and(|ip| self.networks.iter().any(|n| n.contains(ip)));
        let with_token = match (self.token, bearer) {
            // Compared whole, whatever the first difference: the time says nothing.
            (Some(expected), Some(given)) => {
                expected
                    .iter()
                    .zip(digest(given))
                    .fold(0u8, |d, (a, b)| d | (a ^ b))
                    == 0
            }
            _ => false,
        };
        from_network || with_token
    }
}

fn digest(token: &str) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes()).into()
}

const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

#[derive(Default)]
struct Histogram {
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// The method as a metrics label: the standard methods by name, anything else `other`,
/// so invented methods cannot grow `/metrics` without bound.
pub fn method_label(method: &http::Method) -> &'static str {
    use axum::http::Method;
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
    rate_limited: AtomicU64,
    label_renders: AtomicU64,
}

impl Metrics {
    pub fn observe(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        {
            let mut requests = self.requests.lock().unwrap_or_else(|e| e.into_inner());
            *requests
                .entry((method.to_owned(), route.to_owned(), status))
                .or_default() += 1;
        }
        let mut latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
        let h = latency.entry(route.to_owned()).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if secs <= *bound {
                h.buckets[i] += 1;
            }
        }
        h.count += 1;
        h.sum += secs;
    }

    pub fn rate_limited(&self) {
        self.rate_limited.fetch_add(1, Ordering::Relaxed);
    }

    /// A label print's PDF rendered (once a print; later GETs answer the kept bytes).
    pub fn label_rendered(&self) {
        self.label_renders.fetch_add(1, Ordering::Relaxed);
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP rentrack_http_requests_total Requests served, by method, route and status.\n",
        );
        out.push_str("# TYPE rentrack_http_requests_total counter\n");
        for ((method, route, status), n) in self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let _ = writeln!(
                out,
                "rentrack_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        out.push_str("# HELP rentrack_http_request_duration_seconds Time to answer, by route.\n");
        out.push_str("# TYPE rentrack_http_request_duration_seconds histogram\n");
        for (route, h) in self
            .latency
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            for (bound, n) in BUCKETS.iter().zip(h.buckets.iter()) {
                let _ = writeln!(
                    out,
                    "rentrack_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "rentrack_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "rentrack_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "rentrack_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                h.count
            );
        }
        out.push_str("# HELP rentrack_rate_limited_total Requests refused by a rate limit.\n");
        out.push_str("# TYPE rentrack_rate_limited_total counter\n");
        let _ = writeln!(
            out,
            "rentrack_rate_limited_total {}",
            self.rate_limited.load(Ordering::Relaxed)
        );
        out.push_str("# HELP rentrack_label_renders_total Label print PDFs rendered.\n");
        out.push_str("# TYPE rentrack_label_renders_total counter\n");
        let _ = writeln!(
            out,
            "rentrack_label_renders_total {}",
            self.label_renders.load(Ordering::Relaxed)
        );
        out
    }
}
