use std::sync::Arc;
use store::Db;

use crate::metrics::Metrics;
use crate::rate_limit::Limiter;
use crate::usage::Usage;

/// Server configuration that the HTTP layer needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// With `example.com`, a request for `acme.example.com` must carry acme's token.
    pub base_domain: Option<String>,
    /// Keep rate-limit windows in the database (needed when several instances share
    /// one PostgreSQL database) instead of in this process.
    pub shared_rate_limits: bool,
    /// A request still unanswered after this long is answered 503 (and logged and
    /// counted like any other).
    pub request_timeout: std::time::Duration,
    /// Proxies whose `X-Forwarded-For` names the client (for log-in throttling).
    pub trusted_proxies: crate::client_addr::TrustedProxies,
    /// Where clients reach this server (`https://rent.example.com`): the start of
    /// label links and of the links in labels' QR codes. Without it, the request's
    /// `Host` over http.
    pub public_url: Option<String>,
    /// How long a token's company is remembered (`company_cache`): the bound within
    /// which a change made elsewhere takes effect here. Zero looks it up every time.
    pub company_ttl: std::time::Duration,
    /// Label PDFs rendered at once by this instance (`/labels/<token>.pdf`, each
    /// rendered once and then kept); a GET that finds every one busy waits for
    /// [`Config::label_render_wait`], then is answered 503 with `Retry-After`.
    pub label_renders: usize,
    /// How long a label link's GET waits for a free render.
    pub label_render_wait: std::time::Duration,
    /// GETs of label links (`/labels/<token>.pdf`, any token) allowed per client
    /// address in this instance; more are answered 429 with `Retry-After`.
    pub label_link_limit: domain::RateLimitPolicy,
    /// Where webhooks may go and how the delivery worker runs (`crate::delivery`).
    pub webhooks: crate::delivery::Settings,
    /// Who may read `/metrics`: nobody by default.
    pub metrics: crate::metrics::Access,
    /// Where staff invitations are sent by e-mail (`--smtp-url`); none by default.
    pub mail: Option<crate::mail::Mailer>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            base_domain: None,
            shared_rate_limits: false,
            request_timeout: std::time::Duration::from_secs(30),
            trusted_proxies: Default::default(),
            public_url: None,
            company_ttl: std::time::Duration::from_secs(1),
            label_renders: 2,
            label_render_wait: std::time::Duration::from_secs(5),
            label_link_limit: domain::RateLimitPolicy::Limited {
                requests: 60,
                window_secs: 60,
            },
            webhooks: Default::default(),
            metrics: Default::default(),
            mail: None,
        }
    }
}

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub db: Db,
    pub config: Config,
    pub limiter: Limiter,
    pub metrics: Metrics,
    pub usage: Usage,
    pub companies: crate::company_cache::CompanyCache,
    /// The label renders this instance may run at once (`Config::label_renders`).
    pub label_renders: tokio::sync::Semaphore,
    /// Label link GETs per client address (`Config::label_link_limit`).
    pub label_links: crate::rate_limit::AddressLimiter,
    /// The imports this instance runs, and their progress.
    pub imports: crate::resources::imports::Running,
    /// The handlers and webhook deliveries under way ([`AppState::spawn`]), which a
    /// shutdown lets finish ([`AppState::drain`]).
    tasks: tokio_util::task::TaskTracker,
    /// Cancelled when the server begins to shut down ([`AppState::stopping`]).
    stopping: tokio_util::sync::CancellationToken,
}

impl AppState {
    pub fn new(db: Db, config: Config) -> Self {
        let companies = crate::company_cache::CompanyCache::new(config.company_ttl);
        let limiter = if config.shared_rate_limits {
            Limiter::shared()
        } else {
            Limiter::in_process()
        };
        let label_renders = tokio::sync::Semaphore::new(config.label_renders);
        let label_links = crate::rate_limit::AddressLimiter::new(config.label_link_limit);
        AppState(Arc::new(Inner {
            db,
            config,
            label_renders,
            label_links,
            limiter,
            metrics: Metrics::default(),
            usage: Usage::default(),
            companies,
            imports: Default::default(),
            tasks: Default::default(),
            stopping: Default::default(),
        }))
    }

    /// Runs `work` as a task that a shutdown waits for: a request's handler (which must
    /// not be cut off half-way when its client goes away) or a webhook delivery.
    pub fn spawn<F>(&self, work: F) -> tokio::task::JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.0.tasks.spawn(work)
    }

    /// Cancelled once the server stops taking requests: background work takes nothing
    /// new from then on, and `/readyz` answers 503.
    pub fn stopping(&self) -> &tokio_util::sync::CancellationToken {
        &self.0.stopping
    }

    /// Begins the shutdown ([`AppState::stopping`]), then waits up to `within` for the
    /// tasks of [`AppState::spawn`] to finish; answers how many had not (they stop with
    /// the process).
    pub async fn drain(&self, within: std::time::Duration) -> usize {
        self.0.stopping.cancel();
        self.0.tasks.close();
        let _ = tokio::time::timeout(within, self.0.tasks.wait()).await;
        self.0.tasks.len()
    }

    pub fn db(&self) -> &Db {
        &self.0.db
    }

    pub fn config(&self) -> &Config {
        &self.0.config
    }

    pub fn inner(&self) -> &Inner {
        &self.0
    }
}
