use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use domain::{Plan, RateLimitPolicy, Subdomain};
use serde_json::json;
use std::net::SocketAddr;
use std::path::PathBuf;
use store::companies::{self, NewCompany};
use store::{Db, SqliteSync};

#[derive(Parser)]
#[command(
    name = "rentrack",
    version,
    about = "Equipment rental and asset tracking server"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
pub struct DatabaseArg {
    /// sqlite://PATH (default: rentrack.db in the working directory) or postgres://...
    /// (or the file RENTRACK_DATABASE_URL_FILE names, holding it).
    #[arg(
        long,
        env = "RENTRACK_DATABASE_URL",
        hide_env_values = true,
        default_value = "sqlite://rentrack.db"
    )]
    pub database_url: String,
    /// SQLite only: `full` syncs every commit to disk, so an acknowledged write survives
    /// a power loss; `normal` is faster but may lose the last commits on a power loss
    /// (never on a crash of the process alone).
    #[arg(
        long,
        env = "RENTRACK_SQLITE_SYNCHRONOUS",
        default_value = "full",
        value_name = "full|normal"
    )]
    pub sqlite_synchronous: SqliteSync,
    /// A database statement that runs longer than this is logged as a warning with its
    /// SQL (never its values) inside the request's log span; 0 logs every statement.
    #[arg(
        long,
        env = "RENTRACK_SLOW_STATEMENT_MS",
        default_value_t = 250,
        value_name = "MS"
    )]
    pub slow_statement_ms: u64,
    /// Database connections this process keeps at most (default: 16 on SQLite, where
    /// they serve reads side by side; on PostgreSQL four per core of this machine, from
    /// 4 to 32). On PostgreSQL one per core (at most half of them) is shared by the
    /// statements outside transactions, pipelined; the others serve a transaction each.
    /// Each PostgreSQL connection is a server process: with several instances, keep
    /// their sum under the server's `max_connections`.
    #[arg(long, env = "RENTRACK_DB_POOL", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub db_pool: Option<u32>,
}

#[derive(Args, Clone)]
pub struct ServeArgs {
    #[command(flatten)]
    pub db: DatabaseArg,
    /// Address to listen on.
    #[arg(long, env = "RENTRACK_LISTEN", default_value = "127.0.0.1:3000")]
    pub listen: SocketAddr,
    /// With `example.com`, requests for `<sub>.example.com` must carry that company's token.
    #[arg(long, env = "RENTRACK_BASE_DOMAIN")]
    pub base_domain: Option<String>,
    /// PEM certificate chain; with --tls-key, serve HTTPS directly.
    #[arg(long, env = "RENTRACK_TLS_CERT")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key for --tls-cert (or RENTRACK_TLS_KEY_FILE, the same).
    #[arg(long, env = "RENTRACK_TLS_KEY")]
    pub tls_key: Option<PathBuf>,
    /// Where rate-limit windows live: `memory` (this process) or `database` (shared by
    /// every instance on the same database). Default: memory on SQLite, database on PostgreSQL.
    #[arg(long, env = "RENTRACK_RATE_LIMITS", value_parser = ["memory", "database"])]
    pub rate_limits: Option<String>,
    /// Seconds a request may take before it is answered 503 (logged and counted).
    #[arg(long, env = "RENTRACK_REQUEST_TIMEOUT_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub request_timeout_secs: u64,
    /// Seconds a client has to send a request's headers; on HTTP/1.1 also how long a
    /// keep-alive connection may wait for its next request.
    #[arg(long, env = "RENTRACK_HEADER_READ_TIMEOUT_SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_read_timeout_secs: u64,
    /// Seconds a connection may go without a byte read or written before it is closed
    /// (must exceed the request timeout).
    #[arg(long, env = "RENTRACK_IDLE_TIMEOUT_SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(2..=86_400))]
    pub idle_timeout_secs: u64,
    /// Connections served at once; more are closed as soon as they are accepted.
    #[arg(long, env = "RENTRACK_MAX_CONNECTIONS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
    /// A proxy (address or network, e.g. 10.0.0.0/8) whose X-Forwarded-For names the
    /// client for log-in and sign-up throttling; repeat for several. None by default:
    /// the peer's own address is used.
    #[arg(long, env = "RENTRACK_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxy: Vec<web::client_addr::IpRange>,
    /// Where clients reach this server (e.g. https://rent.example.com): label links and
    /// the links in labels' QR codes start with it. Without it, the request's Host over
    /// http; set it behind TLS or a proxy.
    #[arg(long, env = "RENTRACK_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// How long (milliseconds) a token's company is remembered per instance: a
    /// regenerated token, a disabled API or a plan changed by another instance or the
    /// CLI takes effect here within it. 0 looks the company up on every request.
    #[arg(long, env = "RENTRACK_COMPANY_TTL_MS", default_value_t = 1000)]
    pub company_ttl_ms: u64,
    /// Label PDFs this instance renders at once (each print's PDF is rendered at its
    /// link's first GET, then kept); a GET that waits over 5 s for one is answered 503.
    #[arg(long, env = "RENTRACK_LABEL_RENDERS", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub label_renders: u64,
    /// GETs of label links (/labels/<token>.pdf) allowed per client address and minute
    /// in this instance; more are answered 429.
    #[arg(long, env = "RENTRACK_LABEL_LINK_REQUESTS", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub label_link_requests: u32,
    /// Send webhooks to loopback, private and link-local addresses too, and over plain
    /// http (tests, local setups); by default only https to public addresses.
    #[arg(long, env = "RENTRACK_WEBHOOK_ALLOW_PRIVATE")]
    pub webhook_allow_private: bool,
    /// Webhook endpoints this instance sends to at once (each endpoint's events go one
    /// at a time, in order).
    #[arg(long, env = "RENTRACK_WEBHOOK_IN_FLIGHT", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub webhook_in_flight: u32,
    /// Days a delivered webhook event is kept for the delivery log; undelivered ones
    /// are kept until delivered or their endpoint is deleted.
    #[arg(long, env = "RENTRACK_WEBHOOK_RETENTION_DAYS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=3650))]
    pub webhook_retention_days: u32,
    /// Serve /metrics to clients in these networks (`127.0.0.1,10.0.0.0/8`; the client
    /// as --trusted-proxy finds it). /metrics is off (404) unless this or
    /// --metrics-token is set.
    #[arg(long, env = "RENTRACK_METRICS_FROM", value_delimiter = ',')]
    pub metrics_from: Vec<web::client_addr::IpRange>,
    /// A token that lets a client of any network read /metrics (`Authorization: Bearer
    /// <token>`); or the file RENTRACK_METRICS_TOKEN_FILE names, holding it.
    #[arg(long, env = "RENTRACK_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Send staff invitations by e-mail through this SMTP server:
    /// `smtps://user:password@host` (TLS), `smtp://user:password@host:587?tls=required`
    /// (STARTTLS) or `smtp://host:25` (a relay on this machine); or the file
    /// RENTRACK_SMTP_URL_FILE names, holding it. Without it, the console only shows
    /// the invitation link, to hand over.
    #[arg(
        long,
        env = "RENTRACK_SMTP_URL",
        hide_env_values = true,
        requires = "smtp_from"
    )]
    pub smtp_url: Option<String>,
    /// The sender of those e-mails: `Shop name <rentrack@example.com>`.
    #[arg(long, env = "RENTRACK_SMTP_FROM")]
    pub smtp_from: Option<String>,
}

/// The settings that are secrets, by argument and variable: each may instead come from
/// the file that `<VARIABLE>_FILE` names (Docker and systemd credentials, Kubernetes
/// secrets), so it is never in the environment a process listing shows.
/// `RENTRACK_TLS_KEY` already names a file; `RENTRACK_TLS_KEY_FILE` is the same
/// setting, for uniformity.
const SECRETS: [(&str, &str); 4] = [
    ("database_url", "RENTRACK_DATABASE_URL"),
    ("metrics_token", "RENTRACK_METRICS_TOKEN"),
    ("smtp_url", "RENTRACK_SMTP_URL"),
    ("tls_key", "RENTRACK_TLS_KEY"),
];

impl Cli {
    /// The command line, with the environment and the secrets of [`SECRETS`] read from
    /// their files. Exits, as clap does, on a bad command line.
    pub fn from_env() -> anyhow::Result<Cli> {
        let mut command = <Cli as clap::CommandFactory>::command();
        let secrets = secrets_from_files().inspect_err(|_| {
            // `--help` and `--version` answer whatever the secrets' files hold.
            if let Err(asked) = command.clone().try_get_matches()
                && matches!(
                    asked.kind(),
                    clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
                )
            {
                asked.exit()
            }
        })?;
        for (arg, value) in secrets {
            command = with_default(command, arg, &value);
        }
        let matches = command.get_matches();
        Ok(<Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit()))
    }
}

/// Each secret whose `_FILE` variable is set, by argument: the file's content without
/// its final line break (the TLS key's: the file's name). Refuses both variables set,
/// and a file that cannot be read.
fn secrets_from_files() -> anyhow::Result<Vec<(&'static str, String)>> {
    let mut found = Vec::new();
    for (arg, name) in SECRETS {
        let file_var = format!("{name}_FILE");
        let Some(path) = std::env::var_os(&file_var) else {
            continue;
        };
        if std::env::var_os(name).is_some() {
            bail!("set {name} or {file_var}, not both");
        }
        let path = PathBuf::from(path);
        let value = if arg == "tls_key" {
            path.to_string_lossy().into_owned()
        } else {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {file_var} ({})", path.display()))?;
            let line = text.strip_suffix('\n').unwrap_or(&text);
            line.strip_suffix('\r').unwrap_or(line).to_owned()
        };
        found.push((arg, value));
    }
    Ok(found)
}

/// `command` with `value` as the default of its argument `arg` and of its subcommands',
/// never shown by `--help`. A default gives way to the command line, and the variable
/// itself is unset (`secrets_from_files` refuses both).
fn with_default(command: clap::Command, arg: &'static str, value: &str) -> clap::Command {
    let mut command = command;
    if command.get_arguments().any(|a| a.get_id() == arg) {
        command = command.mut_arg(arg, |a| {
            a.default_value(value.to_owned()).hide_default_value(true)
        });
    }
    let subcommands: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    subcommands.into_iter().fold(command, |command, name| {
        command.mut_subcommand(name, |s| with_default(s, arg, value))
    })
}

#[derive(Subcommand)]
enum Command {
    /// Run the server (migrates the database first).
    Serve(ServeArgs),
    /// Run the server on a demo company with sample data, and print a token to try.
    Demo {
        #[command(flatten)]
        serve: ServeArgs,
    },
    /// Bring the database schema up to date.
    Migrate {
        #[command(flatten)]
        db: DatabaseArg,
        /// Change nothing: print the migrations the database lacks, and exit 1 when
        /// there are any (the database is behind this binary).
        #[arg(long)]
        check: bool,
    },
    /// Copy a SQLite database to a new file while it takes writes: every transaction
    /// committed before the copy began, checked whole (docs/operations.md; for
    /// PostgreSQL, pg_dump). Prints {"backup": ..., "bytes": ..., "migration": ...}.
    Backup {
        #[command(flatten)]
        db: DatabaseArg,
        /// The file to write (must not exist).
        #[arg(long)]
        to: PathBuf,
    },
    /// Put a backup in the place of a SQLite database (refused while a server runs on
    /// it); the next start migrates it if it is older than this rentrack.
    Restore {
        #[command(flatten)]
        db: DatabaseArg,
        /// The backup to restore.
        #[arg(long)]
        from: PathBuf,
    },
    /// Ask a running server whether it is ready (`GET /readyz`): exits 0 when it
    /// answers 200, 1 otherwise, printing why. For an image's health check without curl.
    Healthcheck(crate::healthcheck::Args),
    /// Manage companies.
    #[command(subcommand)]
    Company(CompanyCommand),
    /// Manage API tokens.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Manage the company owner's console log-in.
    #[command(subcommand)]
    Owner(OwnerCommand),
    /// Manage label links (/labels/<token>.pdf).
    #[command(subcommand)]
    Labels(LabelsCommand),
    /// Manage members' log-ins to the staff pages (/staff).
    #[command(subcommand)]
    Staff(StaffCommand),
    /// Import a CSV file into a company, all or nothing, by the rules of
    /// POST /imports.api (docs/import.md). Shows a progress bar on a terminal; prints
    /// the import as JSON; on a bad file prints every bad row as a table on standard
    /// error and exits 1, having written nothing.
    Import {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
        /// What the rows are: vendors, locations, fixed_assets, inventory,
        /// stock_assets, customers, members, groups, sub_groups, businesses or contacts.
        #[arg(long)]
        kind: String,
        /// Check every row and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Create the groups, subgroups and locations rows name that do not exist.
        #[arg(long)]
        create_missing: bool,
        /// Columns whose header is not the field's name: header=field,...
        #[arg(long, value_delimiter = ',')]
        columns: Vec<String>,
        /// The CSV file.
        file: PathBuf,
    },
    /// Write every table of a company (records, history, orders with their lines,
    /// payments, settings) as JSON lines into a new folder, with a manifest of counts
    /// and versions: what `import-company` reads (docs/import.md, "Moving a company").
    Export {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
        /// The folder to write (new or empty).
        #[arg(long)]
        to: PathBuf,
    },
    /// Create a company from a folder `export` wrote, in this database (SQLite or
    /// PostgreSQL, whichever the export came from), all or nothing: every record gets a
    /// new id and keeps its sequence number; prints the rows written per table.
    ImportCompany {
        #[command(flatten)]
        db: DatabaseArg,
        /// The folder `export` wrote.
        #[arg(long)]
        from: PathBuf,
        /// The new company's subdomain.
        #[arg(long)]
        subdomain: String,
    },
}

#[derive(Subcommand)]
enum LabelsCommand {
    /// End every open label link of a company at once (they answer 404 from then on).
    /// Prints {"subdomain": ..., "revoked": <open links ended>}.
    Revoke {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
    },
}

#[derive(Subcommand)]
enum StaffCommand {
    /// Make an invitation link for the member with this e-mail, with which they set
    /// their staff pages password (as the console's Settings, Staff, does); it works
    /// once, for 7 days, and replaces any earlier link of theirs. Prints
    /// {"subdomain": ..., "email": ..., "path": "/staff/invitations/<token>",
    /// "expires_at": ...}: the path goes after the server's address.
    Invite {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
        #[arg(long)]
        email: String,
    },
}

#[derive(Subcommand)]
enum OwnerCommand {
    /// Set (or reset) the owner's console password, read from the first line of standard
    /// input so it never shows in the process list; creates the owner if the company has
    /// none with that e-mail. Prints {"subdomain": ..., "email": ...}.
    SetPassword {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
        #[arg(long)]
        email: String,
    },
}

#[derive(Subcommand)]
enum CompanyCommand {
    /// Create a company; prints JSON with company_id, subdomain, plan and, with --enable-api, the token.
    Create {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        name: String,
        #[arg(long)]
        subdomain: String,
        #[arg(long, default_value = "trial", value_parser = ["trial", "paid", "unlimited"])]
        plan: String,
        #[arg(long)]
        owner_email: Option<String>,
        #[arg(long)]
        enable_api: bool,
    },
    /// List companies as JSON lines.
    List(DatabaseArg),
    /// Change a company's plan (resets its rate limit to the plan's default).
    SetPlan {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
        #[arg(long, value_parser = ["trial", "paid", "unlimited"])]
        plan: String,
    },
    /// Override a company's rate limit: --requests N --window-secs S, or --unlimited.
    SetRateLimit {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
        #[arg(long, required_unless_present = "unlimited", requires = "window_secs")]
        requests: Option<u32>,
        #[arg(long)]
        window_secs: Option<u32>,
        #[arg(long, conflicts_with_all = ["requests", "window_secs"])]
        unlimited: bool,
    },
    /// Enable the API for a company and issue a token if it has none (printed once).
    EnableApi {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
    },
    /// Disable the API for a company (its token then gets 403, its label links 404).
    DisableApi {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
    },
}

#[derive(Subcommand)]
enum TokenCommand {
    /// Issue a new token; the old one, and every label link, stop working at once.
    /// Prints {"token": ...}.
    Regenerate {
        #[command(flatten)]
        db: DatabaseArg,
        #[arg(long)]
        subdomain: String,
    },
}

/// The database, its schema brought up to date.
pub async fn open(db: &DatabaseArg) -> anyhow::Result<Db> {
    let store = connect(db).await?;
    store
        .migrate()
        .await
        .context("cannot migrate the database")?;
    Ok(store)
}

/// `work` on a thread that may block (a copy of a database file).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, store::StoreError> + Send + 'static,
) -> anyhow::Result<T> {
    Ok(tokio::task::spawn_blocking(work).await??)
}

/// The database as it is.
async fn connect(db: &DatabaseArg) -> anyhow::Result<Db> {
    let options = store::DbOptions {
        sqlite_synchronous: db.sqlite_synchronous,
        slow_statement: std::time::Duration::from_millis(db.slow_statement_ms),
        max_connections: db.db_pool,
        ..Default::default()
    };
    Db::connect_with(&db.database_url, &options)
        .await
        .with_context(|| format!("cannot open database {}", store::redact(&db.database_url)))
}

fn company_json(c: &companies::Company) -> serde_json::Value {
    let (requests, window) = c.rate_limit.to_columns();
    json!({
        "company_id": c.id.get(),
        "name": c.name,
        "subdomain": c.subdomain,
        "plan": c.plan.as_str(),
        "rate_limit": {"requests": requests, "window_secs": window},
        "api_enabled": c.api_enabled,
        "time_zone": c.time_zone.name(),
    })
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => crate::serve::serve(args).await,
        Command::Demo { serve } => crate::demo::run(serve).await,
        Command::Migrate { db, check: false } => {
            open(&db).await?;
            println!("{}", json!({"migrated": true}));
            Ok(())
        }
        Command::Migrate { db, check: true } => {
            // Opening a SQLite file that is not there would create it.
            if let Ok(path) = store::backup::sqlite_file(&db.database_url)
                && !path.exists()
            {
                bail!("there is no database at {}", path.display());
            }
            let pending = connect(&db).await?.pending_migrations().await?;
            let listed: Vec<_> = pending
                .iter()
                .map(|(version, description)| json!({"version": version, "description": description}))
                .collect();
            println!(
                "{}",
                json!({"up_to_date": pending.is_empty(), "pending": listed})
            );
            if !pending.is_empty() {
                bail!(
                    "the database is behind this rentrack by {} migrations: run `rentrack migrate`",
                    pending.len()
                );
            }
            Ok(())
        }
        Command::Healthcheck(args) => crate::healthcheck::run(args).await,
        Command::Backup { db, to } => {
            let started = std::time::Instant::now();
            let (url, file) = (db.database_url, to.clone());
            let copy = blocking(move || store::backup::backup(&url, &file)).await?;
            let seconds = started.elapsed().as_secs_f64();
            let (bytes, migration) = (copy.bytes, copy.migration);
            println!(
                "{}",
                json!({"backup": to, "bytes": bytes, "migration": migration, "seconds": seconds})
            );
            Ok(())
        }
        Command::Restore { db, from } => {
            let restored = store::backup::sqlite_file(&db.database_url)?;
            let (url, file) = (db.database_url, from.clone());
            let copy = blocking(move || store::backup::restore(&file, &url)).await?;
            let (bytes, migration) = (copy.bytes, copy.migration);
            println!(
                "{}",
                json!({"restored": restored, "from": from, "bytes": bytes, "migration": migration})
            );
            Ok(())
        }
        Command::Company(cmd) => company(cmd).await,
        Command::Owner(OwnerCommand::SetPassword {
            db,
            subdomain,
            email,
        }) => {
            let email = email.trim().to_lowercase();
            if !domain::wire::is_email(&email) {
                bail!("--email is not an e-mail address");
            }
            let db = open(&db).await?;
            let company = find(&db, &subdomain).await?;
            let mut password = String::new();
            std::io::stdin()
                .read_line(&mut password)
                .context("cannot read the password from standard input")?;
            let password = domain::password::owner_password(&password)
                .map_err(|problem| anyhow::anyhow!("the password {problem}"))?;
            companies::set_owner_password(&db, company.id, &email, password)
                .await
                .map_err(|e| match e {
                    store::StoreError::Invalid(errors) => {
                        anyhow::anyhow!("{}", json!(web::error::worded(errors)))
                    }
                    other => other.into(),
                })?;
            println!(
                "{}",
                json!({"subdomain": company.subdomain, "email": email})
            );
            Ok(())
        }
        Command::Staff(StaffCommand::Invite {
            db,
            subdomain,
            email,
        }) => {
            let db = open(&db).await?;
            let company = find(&db, &subdomain).await?;
            let invitation = match store::staff::invite(&db, company.id, &email).await {
                Ok(Ok(made)) => made,
                Ok(Err(store::staff::NotInvited::Owner)) => {
                    bail!(
                        "{email} is the owner's: the owner logs in to the staff pages with the console's password"
                    )
                }
                Ok(Err(store::staff::NotInvited::Inactive)) => {
                    bail!("the member {email} is deactivated; activate them first")
                }
                Err(store::StoreError::NotFound(_)) => {
                    bail!("no member of {subdomain} has the e-mail {email}")
                }
                Err(e) => return Err(e.into()),
            };
            println!(
                "{}",
                json!({
                    "subdomain": company.subdomain,
                    "email": invitation.email,
                    "path": format!("/staff/invitations/{}", invitation.token),
                    "expires_at": invitation.expires_at.to_rfc3339(),
                })
            );
            Ok(())
        }
        Command::Labels(LabelsCommand::Revoke { db, subdomain }) => {
            let db = open(&db).await?;
            let company = find(&db, &subdomain).await?;
            let revoked = store::label_prints::expire_all(&db, company.id).await?;
            println!(
                "{}",
                json!({"subdomain": company.subdomain, "revoked": revoked})
            );
            Ok(())
        }
        Command::Import {
            db,
            subdomain,
            kind,
            dry_run,
            create_missing,
            columns,
            file,
        } => {
            let kind = <web::resources::imports::ImportKind as domain::Vocabulary>::parse(&kind)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--kind must be one of {}",
                        <web::resources::imports::ImportKind as domain::Vocabulary>::names()
                    )
                })?;
            let import = crate::import::FileArgs {
                kind,
                dry_run,
                create_missing,
                columns,
                file,
            };
            let db = open(&db).await?;
            let company = find(&db, &subdomain).await?;
            crate::import::run(db, company.id, import).await
        }
        Command::Export { db, subdomain, to } => {
            let db = open(&db).await?;
            let company = find(&db, &subdomain).await?;
            let manifest = web::moving::export(&db, &company, &to).await?;
            println!("{manifest}");
            Ok(())
        }
        Command::ImportCompany {
            db,
            from,
            subdomain,
        } => {
            let db = open(&db).await?;
            let written = web::moving::import(&db, &from, &subdomain).await?;
            println!("{written}");
            Ok(())
        }
        Command::Token(TokenCommand::Regenerate { db, subdomain }) => {
            let db = open(&db).await?;
            let company = find(&db, &subdomain).await?;
            let token = companies::regenerate_token(&db, company.id).await?;
            println!("{}", json!({"token": token.0}));
            Ok(())
        }
    }
}

async fn find(db: &Db, subdomain: &str) -> anyhow::Result<companies::Company> {
    match companies::find_by_subdomain(db, subdomain).await {
        Ok(c) => Ok(c),
        Err(store::StoreError::NotFound(_)) => bail!("no company with subdomain {subdomain:?}"),
        Err(e) => Err(e.into()),
    }
}

async fn company(cmd: CompanyCommand) -> anyhow::Result<()> {
    match cmd {
        CompanyCommand::Create {
            db,
            name,
            subdomain,
            plan,
            owner_email,
            enable_api,
        } => {
            let subdomain =
                Subdomain::parse(&subdomain).map_err(|e| anyhow::anyhow!("subdomain {e}"))?;
            if name.trim().is_empty() {
                bail!("--name must not be blank");
            }
            let plan: Plan = plan.parse().map_err(anyhow::Error::msg)?;
            let db = open(&db).await?;
            let new = NewCompany {
                name: name.trim().to_owned(),
                subdomain,
                plan,
                owner_email,
                owner_password: None,
                enable_api,
            };
            let (company, token) = companies::create(&db, new).await.map_err(|e| match e {
                store::StoreError::Invalid(errors) => {
                    anyhow::anyhow!("{}", json!(web::error::worded(errors)))
                }
                other => other.into(),
            })?;
            let mut out = json!({"company_id": company.id.get(), "subdomain": company.subdomain, "plan": company.plan.as_str()});
            if let Some(token) = token {
                out["token"] = json!(token.0);
            }
            println!("{out}");
            Ok(())
        }
        CompanyCommand::List(db) => {
            let db = open(&db).await?;
            for c in companies::list(&db).await? {
                println!("{}", company_json(&c));
            }
            Ok(())
        }
        CompanyCommand::SetPlan {
            db,
            subdomain,
            plan,
        } => {
            let db = open(&db).await?;
            find(&db, &subdomain).await?;
            let c = companies::set_plan(&db, &subdomain, plan.parse().map_err(anyhow::Error::msg)?)
                .await?;
            println!("{}", company_json(&c));
            Ok(())
        }
        CompanyCommand::SetRateLimit {
            db,
            subdomain,
            requests,
            window_secs,
            unlimited,
        } => {
            let policy = match (unlimited, requests, window_secs) {
                (true, _, _) => RateLimitPolicy::Unlimited,
                (false, Some(requests), Some(window_secs)) if window_secs > 0 => {
                    RateLimitPolicy::Limited {
                        requests,
                        window_secs,
                    }
                }
                _ => bail!("give --requests N and --window-secs S (S > 0), or --unlimited"),
            };
            let db = open(&db).await?;
            find(&db, &subdomain).await?;
            let c = companies::set_rate_limit(&db, &subdomain, policy).await?;
            println!("{}", company_json(&c));
            Ok(())
        }
        CompanyCommand::EnableApi { db, subdomain } => {
            let db = open(&db).await?;
            let before = find(&db, &subdomain).await?;
            let c = companies::set_api_enabled(&db, &subdomain, true).await?;
            let mut out = company_json(&c);
            if !companies::has_token(&db, before.id).await? {
                out["token"] = json!(companies::regenerate_token(&db, c.id).await?.0);
            }
            println!("{out}");
            Ok(())
        }
        CompanyCommand::DisableApi { db, subdomain } => {
            let db = open(&db).await?;
            find(&db, &subdomain).await?;
            let c = companies::set_api_enabled(&db, &subdomain, false).await?;
            println!("{}", company_json(&c));
            Ok(())
        }
    }
}
