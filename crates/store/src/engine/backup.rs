//! Copies of a SQLite database: `rentrack backup` while a server writes to it, and
//! `rentrack restore` while none holds it. PostgreSQL has its own tools (`pg_dump`,
//! `pg_restore`: docs/operations.md).

use rusqlite::{Connection, OpenFlags};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{migrate, sqlite};
use crate::StoreError;

/// How long a backup or a restore waits for SQLite's locks (a write under way, a
/// checkpoint).
const BUSY: Duration = Duration::from_secs(30);

/// The file a SQLite URL names; refused for PostgreSQL and for a database in memory.
pub fn sqlite_file(url: &str) -> Result<PathBuf, StoreError> {
    if !url.starts_with("sqlite:") {
        return Err(refused(
            "backup and restore copy SQLite databases; for PostgreSQL use pg_dump and pg_restore (docs/operations.md)",
        ));
    }
    let (path, query) = sqlite::url_parts(url);
    if path.is_empty() || path == ":memory:" || query.contains("mode=memory") {
        return Err(refused("the SQLite URL names no file: use sqlite://PATH"));
    }
    Ok(PathBuf::from(path))
}

/// A checked copy of a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copy {
    /// Its size on disk.
    pub bytes: u64,
    /// The last migration it holds.
    pub migration: i64,
}

/// Writes a copy of the database at `url` to `to`, a file that must not exist yet,
/// while the database takes writes: one read transaction (`VACUUM INTO`, which also
/// leaves out free pages), so the copy holds every transaction committed before it
/// began and none after. The copy is checked whole ([`check`]) and synced to disk
/// under a name of its own (`<to>.partial`, claimed first) before it takes `to`'s:
/// `to` never names half a copy, nor replaces a file.
pub fn backup(url: &str, to: &Path) -> Result<Copy, StoreError> {
    let from = sqlite_file(url)?;
    if to.exists() {
        return Err(refused(&format!(
            "{} already exists: name a new file",
            to.display()
        )));
    }
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    // Claimed, so that two backups to one file cannot write into each other's copy
    // (`VACUUM INTO` takes an empty file).
    File::options()
        .write(true)
        .create_new(true)
        .open(&partial)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => refused(&format!(
                "{} exists: another backup to {} is under way, or one stopped half-way (then remove it)",
                partial.display(),
                to.display()
            )),
            _ => io("create", &partial, e),
        })?;
    let copied = (|| -> Result<Copy, StoreError> {
        // Never created here: a database that is not there is an error.
        let source = Connection::open_with_flags(
            &from,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| cannot("open", &from, e))?;
        source.busy_timeout(BUSY).map_err(sqlite::error)?;
        source
            .execute("VACUUM INTO ?1", [partial.to_string_lossy()])
            .map_err(|e| cannot("copy", &from, e))?;
        drop(source);
        let copied = check(&partial)?;
        File::open(&partial)
            .and_then(|f| f.sync_all())
            .map_err(|e| io("sync", &partial, e))?;
        Ok(copied)
    })();
    let copied = copied.inspect_err(|_: &StoreError| {
        let _ = std::fs::remove_file(&partial);
    })?;
    // A second name, then the first removed: unlike a rename, never over a file that
    // appeared at `to` meanwhile.
    let linked = std::fs::hard_link(&partial, to);
    let _ = std::fs::remove_file(&partial);
    linked.map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            refused(&format!("{} already exists: name a new file", to.display()))
        }
        _ => io("name", to, e),
    })?;
    sync_folder(to);
    Ok(copied)
}

/// Puts the copy `from` in the place of the database at `url` (created when there is
/// none), refused while a server holds it ([`hold`]). The copy is checked first
/// ([`check`]), then written page by page through SQLite's backup API, so the file
/// keeps its name and anyone reading it sees the old database or the new one, never a
/// mix; the result is checked again.
pub fn restore(from: &Path, url: &str) -> Result<Copy, StoreError> {
    let to = sqlite_file(url)?;
    let copied = check(from)?;
    let guard = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&to)
        .map_err(|e| io("open", &to, e))?;
    taken(&to, guard.try_lock(), || {
        format!(
            "a rentrack server is running on {}: stop it first",
            to.display()
        )
    })?;
    {
        let source = read_only(from)?;
        let mut target = Connection::open(&to).map_err(|e| cannot("open", &to, e))?;
        target.busy_timeout(BUSY).map_err(sqlite::error)?;
        rusqlite::backup::Backup::new(&source, &mut target)
            .and_then(|b| b.run_to_completion(4096, Duration::ZERO, None))
            .map_err(|e| cannot("write", &to, e))?;
    }
    check(&to)?;
    // Every SQLite connection of this process to the file is closed: closing `guard`
    // now cannot drop a lock of theirs.
    drop(guard);
    Ok(copied)
}

/// Checks a copy: whole by SQLite's `integrity_check`, a rentrack database, and of
/// migrations this binary knows.
pub fn check(path: &Path) -> Result<Copy, StoreError> {
    let conn = read_only(path)?;
    conn.busy_timeout(BUSY).map_err(sqlite::error)?;
    let verdict: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| cannot("check", path, e))?;
    if verdict != "ok" {
        return Err(refused(&format!(
            "{} fails SQLite's integrity check: {verdict}",
            path.display()
        )));
    }
    let versions: Vec<i64> = conn
        .prepare("SELECT version FROM _rentrack_migrations ORDER BY version")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(|_| {
            refused(&format!(
                "{} is not a rentrack database (it has no migrations table)",
                path.display()
            ))
        })?;
    if let Some(unknown) = versions
        .iter()
        .find(|v| !migrate::SQLITE.iter().any(|m| m.version == **v))
    {
        return Err(refused(&format!(
            "{} holds migration {unknown}, which this rentrack does not know: a newer rentrack made it",
            path.display()
        )));
    }
    let bytes = std::fs::metadata(path)
        .map_err(|e| io("read", path, e))?
        .len();
    Ok(Copy {
        bytes,
        migration: versions.last().copied().unwrap_or(0),
    })
}

/// Takes a server's hold on the SQLite database at `url` (nothing for PostgreSQL or a
/// database in memory), before the server opens it: [`restore`] refuses while any is
/// held, and a server does not start while a restore runs. An advisory lock of the
/// operating system (`flock`), apart from SQLite's. Its file is never closed: closing
/// any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
/// among them, so it stays open until the process ends.
pub fn hold(url: &str) -> Result<(), StoreError> {
    let Ok(path) = sqlite_file(url) else {
        return Ok(());
    };
    // Read only when it is there (a lock needs no more; the file may be read-only, as
    // with `?mode=ro`); made, empty, when it is not.
    let file = File::open(&path)
        .or_else(|e| match e.kind() {
            std::io::ErrorKind::NotFound => File::options()
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path),
            _ => Err(e),
        })
        .map_err(|e| io("open", &path, e))?;
    taken(&path, file.try_lock_shared(), || {
        format!(
            "{} is being restored (rentrack restore): start the server when it is done",
            path.display()
        )
    })?;
    std::mem::forget(file);
    Ok(())
}

/// The outcome of taking a lock on the file at `path` without waiting: refused with the
/// message `held` when someone else holds it.
fn taken(
    path: &Path,
    outcome: Result<(), std::fs::TryLockError>,
    held: impl FnOnce() -> String,
) -> Result<(), StoreError> {
    match outcome {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(refused(&held())),
        Err(std::fs::TryLockError::Error(e)) => Err(io("lock", path, e)),
    }
}

/// A connection that only reads the file at `path`.
fn read_only(path: &Path) -> Result<Connection, StoreError> {
    Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| cannot("open", path, e))
}

fn refused(message: &str) -> StoreError {
    StoreError::Config(message.to_owned())
}

fn cannot(what: &str, path: &Path, e: rusqlite::Error) -> StoreError {
    refused(&format!("cannot {what} {}: {e}", path.display()))
}

fn io(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    refused(&format!("cannot {what} {}: {e}", path.display()))
}

/// Syncs the folder holding `path`, so its new name survives a crash.
fn sync_folder(path: &Path) {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(f) = File::open(folder) {
        let _ = f.sync_all();
    }
}
