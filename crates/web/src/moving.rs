//! A company moved into a folder and out of it (`rentrack export`,
//! `rentrack import-company`): each of its tables as JSON lines (`store::moving`),
//! each kind an import reads as the CSV of its export (`GET /exports/<kind>.api`), and
//! a manifest of counts and versions (docs/import.md, "Moving a company").

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::Path;

use serde_json::{Map, Value, json};
use store::moving::{self, Importer, MoveError, TABLES, refused};

use crate::resources::exports;
use crate::resources::imports::ImportKind;

/// The folder's layout, as the manifest's `format` names it.
const FORMAT: i64 = 1;

fn table_file(dir: &Path, table: &str) -> std::path::PathBuf {
    dir.join("tables").join(format!("{table}.jsonl"))
}

/// Writes every table of `company` into `dir` (new or empty), then the manifest, and
/// answers the manifest.
pub async fn export(
    db: &store::Db,
    company: &store::companies::Company,
    dir: &Path,
) -> Result<Value, MoveError> {
    let shown = dir.display();
    let occupied = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
    if occupied {
        return Err(refused(format!(
            "{shown} is not empty: export into a new folder"
        )));
    }
    std::fs::create_dir_all(dir.join("tables"))
        .map_err(|e| refused(format!("cannot create {shown}: {e}")))?;
    let schema = moving::schema(db).await?;
    let version = moving::schema_version(db).await?;
    // One snapshot: the tables agree with each other even while the company works.
    let mut tx = db.begin_read().await?;
    let mut counts = BTreeMap::new();
    for name in std::iter::once("companies").chain(TABLES.iter().map(|t| t.name)) {
        let path = table_file(dir, name);
        let cannot = |e: std::io::Error| refused(format!("cannot write {}: {e}", path.display()));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).map_err(cannot)?);
        let columns = schema.get(name).map(Vec::as_slice).unwrap_or(&[]);
        let mut write = |row: Map<String, Value>| {
            serde_json::to_writer(&mut out, &row)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .map_err(cannot)
        };
        let n = moving::read(&mut tx, company.id, name, columns, &mut write).await?;
        out.flush().map_err(cannot)?;
        counts.insert(name, n);
    }
    drop(tx);
    let csv = spreadsheets(db, company, dir).await?;
    let manifest = json!({
        "format": FORMAT,
        "rentrack": env!("CARGO_PKG_VERSION"),
        "schema": version,
        "subdomain": company.subdomain,
        "exported_at": chrono::Utc::now().to_rfc3339(),
        "tables": counts,
        "csv": csv,
        "left_behind": moving::LEFT_BEHIND
            .iter()
            .map(|(table, why)| json!({"table": table, "why": why}))
            .collect::<Vec<_>>(),
    });
    let path = dir.join("manifest.json");
    let text = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    std::fs::write(&path, text)
        .map_err(|e| refused(format!("cannot write {}: {e}", path.display())))?;
    Ok(manifest)
}

/// Writes `csv/<kind>.csv` of each kind an import reads, as its export gives it;
/// answers the files' names.
async fn spreadsheets(
    db: &store::Db,
    company: &store::companies::Company,
    dir: &Path,
) -> Result<Vec<String>, MoveError> {
    use domain::Vocabulary;
    let state = crate::state::AppState::new(db.clone(), crate::state::Config::default());
    let tenant = crate::auth::Tenant(company.clone());
    std::fs::create_dir_all(dir.join("csv"))
        .map_err(|e| refused(format!("cannot create {}: {e}", dir.display())))?;
    let mut names = Vec::new();
    for &kind in ImportKind::ALL {
        let name = format!("{}.csv", kind.as_str());
        let path = dir.join("csv").join(&name);
        let cannot = |e: std::io::Error| refused(format!("cannot write {}: {e}", path.display()));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).map_err(cannot)?);
        let mut chunks = exports::chunks(state.clone(), &tenant, kind, exports::Format::Csv)
            .await
            .map_err(|e| refused(format!("{name}: {}", e.message())))?;
        while let Some(chunk) = chunks.recv().await {
            out.write_all(&chunk.map_err(cannot)?).map_err(cannot)?;
        }
        out.flush().map_err(cannot)?;
        names.push(format!("csv/{name}"));
    }
    Ok(names)
}

/// Each row of `table` in `dir`.
fn rows(
    dir: &Path,
    table: &str,
) -> Result<impl Iterator<Item = Result<Map<String, Value>, MoveError>>, MoveError> {
    let path = table_file(dir, table);
    let file = std::fs::File::open(&path)
        .map_err(|e| refused(format!("cannot read {}: {e}", path.display())))?;
    let table = table.to_owned();
    Ok(std::io::BufReader::new(file)
        .lines()
        .enumerate()
        .map(move |(i, line)| {
            let line = line.map_err(|e| refused(format!("cannot read {table}.jsonl: {e}")))?;
            serde_json::from_str(&line).map_err(|e| {
                refused(format!(
                    "{table}.jsonl line {}: not a JSON object ({e})",
                    i + 1
                ))
            })
        }))
}

/// Creates the company exported into `dir` as `subdomain`, all or nothing (every
/// table as many rows as the manifest counts), and answers the rows written per table
/// (and a new API token when the export's is in use in this database).
pub async fn import(db: &store::Db, dir: &Path, subdomain: &str) -> Result<Value, MoveError> {
    let path = dir.join("manifest.json");
    let text = std::fs::read(&path).map_err(|e| {
        refused(format!(
            "cannot read {} ({e}): is {} an export?",
            path.display(),
            dir.display()
        ))
    })?;
    let manifest: Value = serde_json::from_slice(&text)
        .map_err(|e| refused(format!("manifest.json is not JSON: {e}")))?;
    if manifest["format"] != FORMAT {
        return Err(refused(format!(
            "the export's format is {}, and this rentrack reads {FORMAT}",
            manifest["format"]
        )));
    }
    let version = moving::schema_version(db).await?;
    if manifest["schema"] != version {
        return Err(refused(format!(
            "the export was made at schema {} and this database is at {version}: \
             export and import with the same version of rentrack",
            manifest["schema"]
        )));
    }
    let subdomain =
        domain::Subdomain::parse(subdomain).map_err(|e| refused(format!("the subdomain {e}")))?;
    let company = rows(dir, "companies")?
        .next()
        .ok_or_else(|| refused("companies.jsonl is empty"))??;
    let mut importer = Importer::begin(db, &company, subdomain.as_str()).await?;
    let mut counts = BTreeMap::from([("companies", 1)]);
    for table in TABLES {
        let mut n = 0_u64;
        for row in rows(dir, table.name)? {
            importer.row(table, &row?).await?;
            n += 1;
        }
        // A file cut short is refused before anything is written.
        if manifest["tables"][table.name] != n {
            return Err(refused(format!(
                "{}.jsonl holds {n} rows, and the manifest counts {}",
                table.name, manifest["tables"][table.name]
            )));
        }
        counts.insert(table.name, n);
    }
    let (_, token) = importer.finish().await?;
    let mut written = json!({"subdomain": subdomain.as_str(), "tables": counts});
    if let Some(token) = token {
        // Shown once, as when a company is created.
        written["token"] = token.0.into();
    }
    Ok(written)
}
