//! `copy-company`: many companies made from one `rentrack export` folder, written into
//! the database by rentrack's own `import-company` (`web::moving::import`) in one
//! process: the crowd of small companies beside a large one (bench/run-scale.sh),
//! without starting a process and checking the migrations for each.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::json;

pub struct CopyOpts {
    pub database_url: String,
    pub from: PathBuf,
    pub prefix: String,
    pub copies: usize,
    pub concurrency: usize,
}

/// Imports `copies` companies, subdomains `<prefix>0` ... `<prefix><copies - 1>`, each
/// all or nothing; prints a human line on stderr and a JSON line on stdout.
pub async fn copy_company(opts: CopyOpts) -> Result<()> {
    let db = store::Db::connect_with(&opts.database_url, &store::DbOptions::default())
        .await
        .with_context(|| format!("opening {}", store::redact(&opts.database_url)))?;
    db.migrate().await.context("migrating the database")?;
    let opts = Arc::new(opts);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..opts.concurrency.clamp(1, opts.copies.max(1)) {
        let (db, opts, next) = (db.clone(), opts.clone(), next.clone());
        workers.spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= opts.copies {
                    return Ok::<_, anyhow::Error>(());
                }
                let subdomain = format!("{}{i}", opts.prefix);
                web::moving::import(&db, &opts.from, &subdomain)
                    .await
                    .with_context(|| format!("importing {subdomain}"))?;
            }
        });
    }
    while let Some(done) = workers.join_next().await {
        done.context("a copy worker panicked")??;
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "copied {} into {} companies in {seconds:.1} s ({:.0} a second)",
        opts.from.display(),
        opts.copies,
        opts.copies as f64 / seconds
    );
    println!(
        "{}",
        json!({"copies": opts.copies, "elapsed_s": seconds, "per_s": opts.copies as f64 / seconds})
    );
    Ok(())
}
