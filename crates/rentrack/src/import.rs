//! `rentrack import`: a CSV file into a company, by the rules of `POST /imports.api`
//! (`web::resources::imports`), with a progress bar and the bad rows as a table.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{Context, bail};
use web::resources::imports::{self, FileImport, ImportKind};

pub struct FileArgs {
    pub kind: ImportKind,
    pub dry_run: bool,
    pub create_missing: bool,
    /// `header=field` each.
    pub columns: Vec<String>,
    pub file: std::path::PathBuf,
}

pub async fn run(db: store::Db, company: store::CompanyId, args: FileArgs) -> anyhow::Result<()> {
    let mut pairs = Vec::new();
    for column in &args.columns {
        let Some((header, field)) = column.split_once('=') else {
            bail!("--columns takes header=field pairs, comma separated: {column:?} has no =");
        };
        pairs.push((header.trim().to_owned(), field.trim().to_owned()));
    }
    let columns: HashMap<String, String> =
        imports::check_columns(pairs).map_err(|e| anyhow::anyhow!("--columns: {}", e.message()))?;
    let path = args.file.clone();
    let total = tokio::task::spawn_blocking(move || imports::count_rows(&path))
        .await?
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let state = web::state::AppState::new(db.clone(), web::state::Config::default());
    let (id, job) = imports::start_file(
        &state,
        company,
        FileImport {
            kind: args.kind,
            path: args.file,
            dry_run: args.dry_run,
            create_missing: args.create_missing,
            columns,
        },
    )
    .await
    .map_err(|e| anyhow::anyhow!("{}", e.message()))?;
    // Drawn on standard error, and only on a terminal.
    let bar = indicatif::ProgressBar::new(total).with_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rows, {per_sec}, {eta} left")
            .expect("a valid template"),
    );
    let mut job = job;
    loop {
        tokio::select! {
            ended = &mut job => {
                ended.context("the import stopped")?;
                break;
            }
            () = tokio::time::sleep(Duration::from_millis(200)) => {
                if let Some(done) = imports::rows_done(&state, id) {
                    bar.set_position(u64::try_from(done).unwrap_or(0));
                }
            }
        }
    }
    bar.finish_and_clear();
    let import = store::imports::find(&db, company, store::Id::new(id)).await?;
    println!(
        "{}",
        serde_json::json!({"import": imports::json(&state, &import)})
    );
    if import.state != "done" {
        if import.errors_total > 0 {
            eprint!("{}", imports::error_table(&import));
            bail!(
                "{} of {} rows are bad; nothing was written",
                import.errors_total,
                import.rows_total
            );
        }
        bail!(
            "{}",
            import
                .message
                .as_deref()
                .unwrap_or("the import failed; nothing was written")
        );
    }
    Ok(())
}
