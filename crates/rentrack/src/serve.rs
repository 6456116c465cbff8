use anyhow::Context;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use store::{Backend, Db};
use web::{AppState, Config};

use crate::cli::{ServeArgs, open};
use crate::connections::Guarded;
use axum_server::accept::DefaultAcceptor;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use hyper_util::server::conn::auto::Builder;

/// Timeouts of the HTTP layer. Without a timer hyper enforces no header-read timeout:
/// a client sending one header byte a minute would hold its connection for ever.
fn configure(builder: &mut Builder<TokioExecutor>, args: &ServeArgs) {
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(args.header_read_timeout_secs));
    builder.http2().timer(TokioTimer::new());
}

/// Settings that only make sense together (`serve` and `demo` alike).
fn check(args: &ServeArgs) -> anyhow::Result<()> {
    // Checked here rather than by clap, which does not count a key from
    // RENTRACK_TLS_KEY_FILE (a default, to clap) as given.
    if args
        .metrics_token
        .as_ref()
        .is_some_and(|t| t.chars().count() < 16)
    {
        anyhow::bail!(
            "--metrics-token (RENTRACK_METRICS_TOKEN or its _FILE) must be at least 16 characters long"
        );
    }
    if args.tls_cert.is_some() != args.tls_key.is_some() {
        anyhow::bail!(
            "--tls-cert and --tls-key (RENTRACK_TLS_CERT, and RENTRACK_TLS_KEY or RENTRACK_TLS_KEY_FILE) go together"
        );
    }
    if args.idle_timeout_secs <= args.request_timeout_secs {
        anyhow::bail!(
            "--idle-timeout-secs ({}) must exceed --request-timeout-secs ({}): a connection waiting for its answer is not idle",
            args.idle_timeout_secs,
            args.request_timeout_secs
        );
    }
    Ok(())
}

pub fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("RENTRACK_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .json()
        .flatten_event(true)
        .with_current_span(false)
        // Its default reports a failed write with `eprintln!`, which panics when
        // stderr is a closed pipe (`rentrack serve 2>&1 | head`), and took the
        // signal task down before it could stop the server: a log line that cannot be
        // written is dropped instead.
        .log_internal_errors(false)
        .try_init();
}

pub fn state_for(db: Db, args: &ServeArgs) -> anyhow::Result<AppState> {
    let shared = match args.rate_limits.as_deref() {
        Some("database") => true,
        Some(_) => false,
        None => db.backend() == Backend::Postgres,
    };
    let mail = match (&args.smtp_url, &args.smtp_from) {
        (Some(url), Some(from)) => {
            Some(web::mail::Mailer::new(url, from).map_err(|e| anyhow::anyhow!(e))?)
        }
        _ => None,
    };
    Ok(AppState::new(
        db,
        Config {
            base_domain: args.base_domain.clone(),
            shared_rate_limits: shared,
            request_timeout: Duration::from_secs(args.request_timeout_secs),
            trusted_proxies: web::client_addr::TrustedProxies(args.trusted_proxy.clone()),
            public_url: args.public_url.clone(),
            company_ttl: Duration::from_millis(args.company_ttl_ms),
            label_renders: usize::try_from(args.label_renders).unwrap_or(1),
            label_link_limit: domain::RateLimitPolicy::Limited {
                requests: args.label_link_requests,
                window_secs: 60,
            },
            webhooks: web::delivery::Settings {
                allow_private: args.webhook_allow_private,
                in_flight: usize::try_from(args.webhook_in_flight).unwrap_or(16),
                retention: Duration::from_secs(u64::from(args.webhook_retention_days) * 86_400),
                ..Default::default()
            },
            metrics: web::metrics::Access::new(
                args.metrics_from.clone(),
                args.metrics_token.as_deref(),
            ),
            mail,
            ..Config::default()
        },
    ))
}

pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    init_logging();
    store::backup::hold(&args.db.database_url)?;
    let db = open(&args.db).await?;
    run(db, args, |_| {}).await
}

/// Housekeeping at start and every minute: fresh planner statistics and the name
/// index merged (SQLite), and expired sessions and stale log-in throttle rows purged.
async fn maintain(db: &Db) {
    if let Err(e) = db.optimize().await {
        tracing::warn!(error = %e, "could not refresh the query planner's statistics or merge the name index");
    }
    match store::console::purge_expired(db).await {
        Ok((0, 0)) => {}
        Ok((sessions, attempts)) => tracing::info!(
            sessions,
            attempts,
            "purged expired sessions and log-in attempts"
        ),
        Err(e) => tracing::warn!(error = %e, "could not purge expired sessions"),
    }
    match store::staff::purge_expired(db).await {
        Ok((0, 0)) => {}
        Ok((sessions, invitations)) => tracing::info!(
            sessions,
            invitations,
            "purged expired staff sessions and invitations"
        ),
        Err(e) => tracing::warn!(error = %e, "could not purge expired staff sessions"),
    }
}

/// How long a shutdown waits at least, from the signal, for the requests and webhook
/// deliveries under way (longer when `--request-timeout-secs` is).
const GRACE: Duration = Duration::from_secs(30);

/// Serves until SIGTERM or Ctrl-C, then takes no new connection or background work and
/// lets the requests and deliveries under way finish (up to [`GRACE`], or the request
/// timeout when longer) before it closes the database: those of connections still
/// open, and those whose client went away, which run on to their end.
pub async fn run(db: Db, args: ServeArgs, on_ready: impl FnOnce(&str)) -> anyhow::Result<()> {
    check(&args)?;
    // The certificate and key are read first: a bad one stops the start before any
    // background work (a claimed delivery) begins.
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => {
            let _ = rustls::crypto::ring::default_provider().install_default();
            Some(
                axum_server::tls_rustls::RustlsConfig::from_pem_file(cert, key)
                    .await
                    .context("cannot load the TLS certificate and key")?,
            )
        }
        _ => None,
    };
    let state = state_for(db.clone(), &args)?;
    maintain(&db).await;
    web::resources::imports::sweep(&state).await;
    state.spawn({
        let (db, state) = (db.clone(), state.clone());
        async move {
            let mut every_minute = tokio::time::interval(Duration::from_secs(60));
            every_minute.tick().await;
            loop {
                tokio::select! {
                    _ = every_minute.tick() => {}
                    () = state.stopping().cancelled() => return,
                }
                maintain(&db).await;
                web::resources::imports::sweep(&state).await;
            }
        }
    });
    web::delivery::spawn(state.clone()).map_err(|e| anyhow::anyhow!(e))?;
    let app = web::router(state.clone());
    let grace = GRACE.max(Duration::from_secs(args.request_timeout_secs));
    let handle = axum_server::Handle::new();
    let signalled = Arc::new(OnceLock::new());
    tokio::spawn({
        let (handle, state, signalled) = (handle.clone(), state.clone(), signalled.clone());
        async move {
            shutdown_signal().await;
            // The stop first, and what is said about it after.
            let _ = signalled.set(Instant::now());
            state.stopping().cancel();
            handle.graceful_shutdown(Some(grace));
            tell_the_service_manager(&[sd_notify::NotifyState::Stopping]);
            tracing::info!("shutting down: finishing requests in flight");
        }
    });
    let scheme = if args.tls_cert.is_some() {
        "https"
    } else {
        "http"
    };
    let listener = std::net::TcpListener::bind(args.listen)
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let base_url = format!("{scheme}://{addr}");
    let sqlite_synchronous = db
        .sqlite_synchronous()
        .await
        .context("cannot read SQLite's synchronous setting")?;
    tracing::info!(address = %base_url, database = ?db.backend(), sqlite_synchronous, "rentrack listening");
    on_ready(&base_url);
    let status = format!("listening on {base_url}");
    tell_the_service_manager(&[
        sd_notify::NotifyState::Ready,
        sd_notify::NotifyState::Status(&status),
    ]);
    let service = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
    let max_connections = usize::try_from(args.max_connections).unwrap_or(usize::MAX);
    let idle = Duration::from_secs(args.idle_timeout_secs);
    match tls {
        Some(config) => {
            let tls = axum_server::tls_rustls::RustlsAcceptor::new(config);
            let mut server =
                axum_server::from_tcp(listener)?.acceptor(Guarded::new(tls, max_connections, idle));
            configure(server.http_builder(), &args);
            server.handle(handle).serve(service).await?;
        }
        None => {
            let mut server = axum_server::from_tcp(listener)?.acceptor(Guarded::new(
                DefaultAcceptor,
                max_connections,
                idle,
            ));
            configure(server.http_builder(), &args);
            server.handle(handle).serve(service).await?;
        }
    }
    let left = signalled
        .get()
        .map_or(grace, |at: &Instant| grace.saturating_sub(at.elapsed()));
    let unfinished = state.drain(left).await;
    if unfinished > 0 {
        tracing::warn!(
            tasks = unfinished,
            "shutting down: requests or deliveries still under way after the grace period are stopped"
        );
    }
    // The API requests counted since the last write of the counts.
    if let Err(e) = state.inner().usage.flush(&db).await {
        tracing::warn!(error = %e, "shutting down: could not record the last API usage");
    }
    db.close();
    Ok(())
}

/// Tells systemd (a `Type=notify` unit: `NOTIFY_SOCKET` set) that the server is ready
/// or stopping; nothing without it.
fn tell_the_service_manager(states: &[sd_notify::NotifyState<'_>]) {
    if let Err(e) = sd_notify::notify(false, states) {
        tracing::warn!(error = %e, "could not notify the service manager");
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
}
