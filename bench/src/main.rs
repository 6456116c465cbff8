//! Load generator for the rentrack HTTP API. See bench/README.md.

mod conn;
mod copies;
mod hooks;
mod load;
mod logins;
mod plan;
mod seed;
mod stats;

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};

use crate::conn::Target;
use crate::plan::Mix;

#[derive(Parser)]
#[command(
    name = "rentrack-bench",
    version,
    about = "Seed and load-test a rentrack server"
)]
struct Cli {
    /// Tokio worker threads for the load generator (default: all CPUs).
    #[arg(long, global = true, env = "BENCH_THREADS")]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create locations, groups, vendors, members, customers, assets, stock and orders through the API.
    Seed(SeedArgs),
    /// Run a fixed request mix and report throughput and latency.
    Run(RunArgs),
    /// Serve a bare axum server: `GET /healthz` answers a constant `{"status":"ok"}`,
    /// with no database, no middleware and the same runtime as `rentrack serve` (one
    /// worker thread per CPU). The ceiling every figure of the request path is a
    /// ratio of, measured in the same run.
    Bare(BareArgs),
    /// Create many companies from one `rentrack export` folder, straight into a
    /// database with rentrack's own `import-company` (no server needed): the crowd of
    /// small companies of bench/run-scale.sh.
    CopyCompany(CopyArgs),
}

#[derive(Args)]
struct CopyArgs {
    /// sqlite://PATH or postgres://...
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    /// The folder `rentrack export` wrote.
    #[arg(long)]
    from: std::path::PathBuf,
    /// Subdomain of each copy: the prefix and the copy's number from 0.
    #[arg(long, default_value = "crowd")]
    prefix: String,
    /// Companies to create.
    #[arg(long)]
    copies: usize,
    /// Imports at once (each one transaction).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
}

#[derive(Args)]
struct BareArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:3990")]
    listen: std::net::SocketAddr,
}

#[derive(Args)]
struct Server {
    /// Server base URL, e.g. http://127.0.0.1:3000 (plain HTTP only).
    #[arg(long, env = "BASE_URL")]
    base_url: String,
    /// API token, sent as the `token` header.
    #[arg(long, env = "TOKEN", hide_env_values = true)]
    token: String,
    /// Per-request timeout in seconds; slower requests count as errors.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
}

#[derive(Args)]
struct SeedArgs {
    #[command(flatten)]
    server: Server,
    /// Locations to create.
    #[arg(long, default_value_t = 1000)]
    locations: usize,
    /// Groups to create.
    #[arg(long, default_value_t = 100)]
    groups: usize,
    /// Vendors to create.
    #[arg(long, default_value_t = 100)]
    vendors: usize,
    /// Members to create.
    #[arg(long, default_value_t = 0)]
    members: usize,
    /// Customers to create.
    #[arg(long, default_value_t = 0)]
    customers: usize,
    /// Fixed assets to create (in a group of their own).
    #[arg(long, default_value_t = 0)]
    assets: usize,
    /// Inventory items and as many asset stock items to create (in a group of their
    /// own), each with 1,000,000 units at each of two new locations, and a member to
    /// check asset stock out to: what the stock-* mixes need (at least one item per
    /// connection).
    #[arg(long, default_value_t = 0)]
    stock: usize,
    /// Draft rental orders to create, each with a rentable fixed asset and 2 units of a
    /// rentable asset stock item (made first, with one customer, a group and a
    /// location): what the order-* mixes need. One request each.
    #[arg(long, default_value_t = 0)]
    orders: usize,
    /// Rentable fixed assets (daily rate 10.00) made with --orders; the order-cycle mix
    /// needs one per connection, order-full-cycle four (5 per connection serve both).
    #[arg(long, default_value_t = 100)]
    order_assets: usize,
    /// Concurrent create requests (one connection each).
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Create 10% of the locations first and make the rest their children.
    #[arg(long)]
    nested: bool,
    /// Suffix for record names (default: a per-run tag, so seeds never collide).
    #[arg(long)]
    tag: Option<String>,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    server: Server,
    /// Request mix.
    #[arg(long, value_enum)]
    mix: Mix,
    /// Concurrent keep-alive connections (one worker each).
    #[arg(long, default_value_t = 64)]
    connections: usize,
    /// Measured seconds.
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Seconds of load before measuring starts.
    #[arg(long, default_value_t = 2.0)]
    warmup: f64,
    /// Max list pages read to discover ids for the *-details mixes (25 ids
    /// each); the default covers 1000 seeded records.
    #[arg(long, default_value_t = 40)]
    id_pages: u64,
    /// Owner-console log-ins kept running in the background during the run (each
    /// runs argon2), to measure what they cost the mix. Each names an unknown owner of
    /// --login-subdomain and a new X-Forwarded-For address, so no throttle applies:
    /// start the server with --trusted-proxy 127.0.0.1.
    #[arg(long, default_value_t = 0)]
    logins: usize,
    /// Company whose console the background log-ins try.
    #[arg(long, env = "LOGIN_SUBDOMAIN")]
    login_subdomain: Option<String>,
    /// Webhook endpoints subscribed to every event during the run, delivered to a
    /// receiver in this process; the report adds their delivery lag. The server must
    /// run with --webhook-allow-private.
    #[arg(long, default_value_t = 0)]
    webhooks: usize,
}

fn seconds(name: &str, v: f64) -> Result<Duration> {
    if !v.is_finite() || v < 0.0 {
        bail!("--{name} must be a non-negative number of seconds");
    }
    Ok(Duration::from_secs_f64(v))
}

/// The bare server: axum's own routing and JSON, nothing of rentrack's.
fn bare(args: BareArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    runtime.block_on(async move {
        let app = axum::Router::new().route(
            "/healthz",
            axum::routing::get(|| async { axum::Json(serde_json::json!({"status": "ok"})) }),
        );
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("listening on {}", args.listen))?;
        eprintln!("bare axum server on http://{}", args.listen);
        axum::serve(listener, app).await.context("serving")
    })
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    if let Command::Bare(args) = cli.command {
        return bare(args);
    }
    let threads = match cli.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;

    match cli.command {
        Command::Seed(a) => {
            let target = Arc::new(Target::new(&a.server.base_url, &a.server.token)?);
            let opts = seed::SeedOpts {
                locations: a.locations,
                groups: a.groups,
                vendors: a.vendors,
                members: a.members,
                customers: a.customers,
                assets: a.assets,
                stock: a.stock,
                orders: a.orders,
                order_assets: a.order_assets,
                concurrency: a.concurrency,
                nested: a.nested,
                tag: a.tag,
                timeout: seconds("timeout", a.server.timeout)?,
            };
            runtime.block_on(seed::seed(target, opts))
        }
        Command::Run(a) => {
            let target = Arc::new(Target::new(&a.server.base_url, &a.server.token)?);
            let opts = load::RunOpts {
                mix: a.mix,
                connections: a.connections,
                duration: seconds("duration", a.duration)?,
                warmup: seconds("warmup", a.warmup)?,
                timeout: seconds("timeout", a.server.timeout)?,
                id_pages: a.id_pages,
                threads,
                webhooks: a.webhooks,
                logins: match a.logins {
                    0 => None,
                    n => Some((
                        n,
                        logins::Account {
                            subdomain: a
                                .login_subdomain
                                .context("--logins needs --login-subdomain")?,
                        },
                    )),
                },
            };
            if opts.duration.is_zero() {
                bail!("--duration must be positive");
            }
            runtime.block_on(load::run(target, &a.server.base_url, opts))
        }
        Command::CopyCompany(a) => runtime.block_on(copies::copy_company(copies::CopyOpts {
            database_url: a.database_url,
            from: a.from,
            prefix: a.prefix,
            copies: a.copies,
            concurrency: a.concurrency,
        })),
        Command::Bare(_) => unreachable!("served above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn parses_run() {
        let cli = Cli::try_parse_from([
            "rentrack-bench",
            "run",
            "--base-url",
            "http://127.0.0.1:3000",
            "--token",
            "t",
            "--mix",
            "location-details",
            "--connections",
            "8",
            "--duration",
            "1.5",
        ])
        .unwrap();
        let Command::Run(a) = cli.command else {
            panic!("not run")
        };
        assert_eq!(a.mix, Mix::LocationDetails);
        assert_eq!((a.connections, a.duration, a.warmup), (8, 1.5, 2.0));
    }

    #[test]
    fn rejects_unknown_mix() {
        assert!(
            Cli::try_parse_from([
                "rentrack-bench",
                "run",
                "--base-url",
                "http://x",
                "--token",
                "t",
                "--mix",
                "nope",
            ])
            .is_err()
        );
    }
}
