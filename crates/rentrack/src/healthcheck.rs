//! `rentrack healthcheck`: a running server's `/readyz`, for images without curl.

use anyhow::{Context, bail};
use std::net::SocketAddr;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// The server's address (default: the address `serve` listens on, from
    /// `RENTRACK_LISTEN`, with 127.0.0.1 for an unspecified one, over https when
    /// `RENTRACK_TLS_CERT` is set), such as http://127.0.0.1:3000.
    #[arg(long, env = "RENTRACK_HEALTHCHECK_URL")]
    url: Option<String>,
    #[arg(
        long,
        env = "RENTRACK_LISTEN",
        default_value = "127.0.0.1:3000",
        hide = true
    )]
    listen: SocketAddr,
    #[arg(long, env = "RENTRACK_TLS_CERT", hide = true)]
    tls_cert: Option<std::path::PathBuf>,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=300))]
    timeout_secs: u64,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let own = args.url.is_none();
    let base = args.url.unwrap_or_else(|| {
        let mut at = args.listen;
        if at.ip().is_unspecified() {
            at.set_ip(match at {
                SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        let scheme = if args.tls_cert.is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{at}")
    });
    let url = format!("{}/readyz", base.trim_end_matches('/'));
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(args.timeout_secs))
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        // The server's own address on this machine: its certificate names the host
        // clients use, not 127.0.0.1.
        .tls_danger_accept_invalid_certs(own)
        .build()
        .context("cannot build the HTTP client")?;
    let response = client
        .get(&url)
        .send()
        .await
        .with_context(|| format!("{url} does not answer"))?;
    let status = response.status();
    let body = response.text().await.unwrap_or_default();
    if !status.is_success() {
        bail!("{url} answered {status}: {body}");
    }
    println!("{body}");
    Ok(())
}
