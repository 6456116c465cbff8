//! The SQLite path: rusqlite connections in a small pool, the same sea-query statements
//! as PostgreSQL (rendered with the SQLite builder, values bound here), and rows read
//! through `LiteRow` (`#[derive(Row)]` on every record type).
//!
//! A statement runs on the thread that asks for it, not on a thread of the connection's
//! own behind a channel (sqlx's driver, which cost more than the statement itself;
//! docs/performance.md): a read in WAL mode never waits for a lock, and neither does a
//! statement inside a write transaction, which took the write lock when it began.
//!
//! Writes go through one write connection, one writer at a time in the order they
//! came (`LitePool::acquire_writer`), and commit in groups (`Conn::commit_write`):
//! each write is a savepoint in a transaction that commits, on tokio's blocking pool,
//! when no other writer waits, and each is answered once that commit is on the disk.
//!
//! Errors are mapped into the engine's `DbError` by SQLite's extended result code
//! (`error`).

use super::error::{DbError, DbErrorKind, unique_key_name};
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, SecondsFormat, TimeZone, Utc};
use rusqlite::types::{FromSqlError, ToSqlOutput, Value as SqlValue, ValueRef};
use rusqlite::{Connection, OpenFlags, Row};
use sea_query::{OptionEnum, Value, Values};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

/// A row type the SQLite path can read: `#[derive(records::Row)]`.
pub trait LiteRow: Sized {
    fn read(row: &Cells<'_, '_>) -> rusqlite::Result<Self>;
}

/// A value one column holds, decoded as sqlx's SQLite driver decodes it, so rows written
/// by either driver read the same.
pub trait Column: Sized {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError>;
}

/// One row of a statement, its columns found by name.
///
/// Finding a column by name through SQLite asks it for every name and compares them
/// without case, which cost more than the rest of reading a wide row. Here the first
/// row of a statement finds each column from where the last one ended (a record reads
/// its fields in the order its statement selects them, so the next name asked for is
/// most often there; searching every name from the first was 7% of an asset page), and
/// notes where it found it; the rows after it take each lookup's column from that note
/// when the lookup at the same step asks for the same name (the same text, compared by
/// address: the names are the store's constants), and search only when it does not.
pub struct Cells<'r, 's> {
    row: &'r Row<'s>,
    /// The lookups of the statement's first row, in order.
    found: &'r std::cell::RefCell<Vec<Found>>,
    /// Which lookup of this row comes next.
    step: std::cell::Cell<usize>,
    /// The column after the last one found.
    next: std::cell::Cell<usize>,
}

/// Where one lookup of a statement's first row found the column it asked for. The name
/// is `'static` (the lookups take only such names), so the same address and length
/// mean the same text.
struct Found {
    name: &'static str,
    column: Option<usize>,
}

impl Cells<'_, '_> {
    fn index(&self, name: &'static str) -> rusqlite::Result<usize> {
        let step = self.step.get();
        self.step.set(step + 1);
        let mut found = self.found.borrow_mut();
        let column = match found.get(step) {
            Some(seen) if std::ptr::eq(seen.name, name) => seen.column,
            seen => {
                let column = self.search(name);
                if seen.is_none() && found.len() == step {
                    found.push(Found { name, column });
                }
                column
            }
        };
        let column = column.ok_or_else(|| rusqlite::Error::InvalidColumnName(name.to_owned()))?;
        self.next.set(column + 1);
        Ok(column)
    }

    /// The column named `name` (exactly, else without case), searched from the one
    /// after the last found.
    fn search(&self, name: &str) -> Option<usize> {
        let statement: &rusqlite::Statement<'_> = self.row.as_ref();
        let next = self.next.get();
        if statement.column_name(next).is_ok_and(|n| n == name) {
            return Some(next);
        }
        let names = statement.column_names();
        names
            .iter()
            .position(|n| *n == name)
            .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(name)))
    }

    fn name(&self, index: usize) -> String {
        let statement: &rusqlite::Statement<'_> = self.row.as_ref();
        statement
            .column_name(index)
            .map_or_else(|_| String::new(), str::to_owned)
    }
}

/// The column `name` of `row`, decoded.
pub(crate) fn column<T: Column>(row: &Cells<'_, '_>, name: &'static str) -> rusqlite::Result<T> {
    at(row, row.index(name)?)
}

/// The column `name` of `row`, or `T::default()` when the statement has no such column.
pub(crate) fn column_or_default<T: Column + Default>(
    row: &Cells<'_, '_>,
    name: &'static str,
) -> rusqlite::Result<T> {
    match row.index(name) {
        Ok(index) => at(row, index),
        Err(rusqlite::Error::InvalidColumnName(_)) => Ok(T::default()),
        Err(e) => Err(e),
    }
}

fn at<T: Column>(cells: &Cells<'_, '_>, index: usize) -> rusqlite::Result<T> {
    let value = cells.row.get_ref(index)?;
    T::decode(value).map_err(|e| match e {
        FromSqlError::InvalidType => {
            rusqlite::Error::InvalidColumnType(index, cells.name(index), value.data_type())
        }
        FromSqlError::OutOfRange(n) => rusqlite::Error::IntegralValueOutOfRange(index, n),
        other => {
            rusqlite::Error::FromSqlConversionFailure(index, value.data_type(), Box::new(other))
        }
    })
}

impl Column for i64 {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        match value {
            ValueRef::Integer(n) => Ok(n),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl Column for i32 {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        let n = i64::decode(value)?;
        i32::try_from(n).map_err(|_| FromSqlError::OutOfRange(n))
    }
}

impl Column for bool {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        Ok(i64::decode(value)? != 0)
    }
}

impl Column for String {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        match value {
            ValueRef::Text(bytes) => std::str::from_utf8(bytes)
                .map(str::to_owned)
                .map_err(|e| FromSqlError::Other(Box::new(e))),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl Column for Vec<u8> {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        match value {
            ValueRef::Blob(bytes) => Ok(bytes.to_vec()),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl LiteRow for super::Loose {
    fn read(row: &Cells<'_, '_>) -> rusqlite::Result<Self> {
        let statement: &rusqlite::Statement<'_> = row.row.as_ref();
        (0..statement.column_count())
            .map(|i| {
                Ok(match row.row.get_ref(i)? {
                    ValueRef::Null => None,
                    ValueRef::Integer(n) => Some(n.to_string()),
                    ValueRef::Real(x) => Some(x.to_string()),
                    ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Some(b.iter().map(|b| format!("{b:02x}")).collect()),
                })
            })
            .collect::<rusqlite::Result<_>>()
            .map(super::Loose)
    }
}

/// A moment as SQLite holds it (any of the forms either driver wrote), in UTC.
pub(crate) fn moment(text: &str) -> Option<DateTime<Utc>> {
    DateTime::<Utc>::decode(ValueRef::Text(text.as_bytes())).ok()
}

impl<T: Column> Column for Option<T> {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        match value {
            ValueRef::Null => Ok(None),
            v => T::decode(v).map(Some),
        }
    }
}

impl Column for crate::CompanyId {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        i64::decode(value).map(crate::CompanyId)
    }
}

pub(crate) fn text(value: ValueRef<'_>) -> Result<&str, FromSqlError> {
    match value {
        ValueRef::Text(bytes) => {
            std::str::from_utf8(bytes).map_err(|e| FromSqlError::Other(Box::new(e)))
        }
        _ => Err(FromSqlError::InvalidType),
    }
}

fn invalid(what: &str, value: &str) -> FromSqlError {
    FromSqlError::Other(format!("invalid {what}: {value}").into())
}

/// The timestamp formats sqlx's SQLite driver reads, in its order.
const DATETIME_FORMATS: &[&str] = &[
    "%F %T%.f",
    "%F %R",
    "%F %RZ",
    "%F %R%:z",
    "%F %T%.fZ",
    "%F %T%.f%:z",
    "%FT%R",
    "%FT%RZ",
    "%FT%R%:z",
    "%FT%T%.f",
    "%FT%T%.fZ",
    "%FT%T%.f%:z",
];

impl Column for DateTime<FixedOffset> {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        let utc = FixedOffset::east_opt(0).expect("UTC is a valid offset");
        match value {
            ValueRef::Text(_) => {
                let s = text(value)?;
                if let Some(t) = utc_moment(s) {
                    return Ok(t);
                }
                if let Ok(t) = DateTime::parse_from_rfc3339(s) {
                    return Ok(t);
                }
                for format in DATETIME_FORMATS {
                    if let Ok(t) = DateTime::parse_from_str(s, format) {
                        return Ok(t);
                    }
                    if let Ok(t) = NaiveDateTime::parse_from_str(s, format) {
                        return Ok(utc.from_utc_datetime(&t));
                    }
                }
                Err(invalid("datetime", s))
            }
            ValueRef::Integer(n) => utc
                .timestamp_opt(n, 0)
                .single()
                .ok_or(FromSqlError::OutOfRange(n)),
            ValueRef::Real(days) => {
                // A Julian day number.
                let seconds = (days - 2_440_587.5) * 86_400.0;
                if !seconds.is_finite() {
                    return Err(invalid("datetime", &days.to_string()));
                }
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                utc.timestamp_opt(seconds.trunc() as i64, (seconds.fract() * 1e9).abs() as u32)
                    .single()
                    .ok_or_else(|| invalid("datetime", &days.to_string()))
            }
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl Column for DateTime<Utc> {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        DateTime::<FixedOffset>::decode(value).map(|t| t.with_timezone(&Utc))
    }
}

impl Column for NaiveDate {
    fn decode(value: ValueRef<'_>) -> Result<Self, FromSqlError> {
        let s = text(value)?;
        year_month_day(s)
            .or_else(|| NaiveDate::parse_from_str(s, "%F").ok())
            .ok_or_else(|| invalid("date", s))
    }
}

/// A date written `YYYY-MM-DD`, as the store writes them, read without chrono's format
/// parser (which parses its pattern at every call: 2% of an asset page); any other
/// form is left to it.
fn year_month_day(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = i32::try_from(number(&b[..4])?).ok()?;
    NaiveDate::from_ymd_opt(year, number(&b[5..7])?, number(&b[8..])?)
}

/// The decimal number `digits` writes (ASCII digits only, at most nine).
fn number(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &d| {
        d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
    })
}

/// A moment in UTC written `YYYY-MM-DDTHH:MM:SS[.fraction]+00:00` (or `Z`), as the
/// store writes them, read without chrono's RFC 3339 parser (two of them a row of every
/// list: 1.5% of an asset page); any other form, a leap second among them, is left to
/// it.
fn utc_moment(s: &str) -> Option<DateTime<FixedOffset>> {
    let rest = s.strip_suffix("+00:00").or_else(|| s.strip_suffix('Z'))?;
    let b = rest.as_bytes();
    if b.len() < 19 || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let nanos = match &b[19..] {
        [] => 0,
        [b'.', fraction @ ..] if (1..=9).contains(&fraction.len()) => {
            number(fraction)? * 10u32.pow(9 - u32::try_from(fraction.len()).ok()?)
        }
        _ => return None,
    };
    let time = chrono::NaiveTime::from_hms_nano_opt(
        number(&b[11..13])?,
        number(&b[14..16])?,
        number(&b[17..19])?,
        nanos,
    )?;
    let day = year_month_day(rest.get(..10)?)?;
    Some(day.and_time(time).and_utc().fixed_offset())
}

/// Tuples read their columns in order: `(i64,)` for `SELECT count(*) ...`.
macro_rules! tuples {
    ($(($($name:ident $index:tt),+))+) => {$(
        impl<$($name: Column),+> LiteRow for ($($name,)+) {
            fn read(row: &Cells<'_, '_>) -> rusqlite::Result<Self> {
                Ok(($(at::<$name>(row, $index)?,)+))
            }
        }
    )+};
}

tuples! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
}

/// A sea-query value as SQLite stores it, written as sqlx's SQLite driver writes it
/// (timestamps as RFC 3339 text, booleans as 0 and 1), so either driver reads the other's
/// rows and text comparisons of timestamps keep their order.
fn to_sql(value: &Value) -> rusqlite::Result<ToSqlOutput<'_>> {
    fn some<T>(v: &Option<T>, f: impl FnOnce(&T) -> SqlValue) -> ToSqlOutput<'static> {
        ToSqlOutput::Owned(v.as_ref().map_or(SqlValue::Null, f))
    }
    Ok(match value {
        Value::Bool(v) => some(v, |b| SqlValue::Integer(i64::from(*b))),
        Value::TinyInt(v) => some(v, |n| SqlValue::Integer(i64::from(*n))),
        Value::SmallInt(v) => some(v, |n| SqlValue::Integer(i64::from(*n))),
        Value::Int(v) => some(v, |n| SqlValue::Integer(i64::from(*n))),
        Value::BigInt(v) => some(v, |n| SqlValue::Integer(*n)),
        Value::TinyUnsigned(v) => some(v, |n| SqlValue::Integer(i64::from(*n))),
        Value::SmallUnsigned(v) => some(v, |n| SqlValue::Integer(i64::from(*n))),
        Value::Unsigned(v) => some(v, |n| SqlValue::Integer(i64::from(*n))),
        Value::BigUnsigned(v) => match v {
            Some(n) => ToSqlOutput::Owned(SqlValue::Integer(
                i64::try_from(*n)
                    .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?,
            )),
            None => ToSqlOutput::Owned(SqlValue::Null),
        },
        Value::Float(v) => some(v, |x| SqlValue::Real(f64::from(*x))),
        Value::Double(v) => some(v, |x| SqlValue::Real(*x)),
        Value::String(Some(s)) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
        Value::String(None) => ToSqlOutput::Owned(SqlValue::Null),
        Value::Enum(OptionEnum::Some(e)) => ToSqlOutput::Owned(SqlValue::Text(e.value.to_string())),
        Value::Enum(OptionEnum::None(_)) => ToSqlOutput::Owned(SqlValue::Null),
        Value::Char(v) => some(v, |c| SqlValue::Text(c.to_string())),
        Value::Bytes(Some(b)) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        Value::Bytes(None) => ToSqlOutput::Owned(SqlValue::Null),
        Value::ChronoDate(v) => some(v, |d| SqlValue::Text(d.format("%F").to_string())),
        Value::ChronoTime(v) => some(v, |t| SqlValue::Text(t.format("%T%.f").to_string())),
        Value::ChronoDateTime(v) => some(v, |t| SqlValue::Text(t.format("%F %T%.f").to_string())),
        Value::ChronoDateTimeUtc(v) => some(v, |t| SqlValue::Text(rfc3339(t))),
        Value::ChronoDateTimeLocal(v) => some(v, |t| SqlValue::Text(rfc3339(t))),
        Value::ChronoDateTimeWithTimeZone(v) => some(v, |t| SqlValue::Text(rfc3339(t))),
        #[allow(unreachable_patterns)]
        other => {
            return Err(rusqlite::Error::ToSqlConversionFailure(
                format!("the SQLite path does not bind {other:?}").into(),
            ));
        }
    })
}

fn rfc3339<Tz: TimeZone>(t: &DateTime<Tz>) -> String
where
    Tz::Offset: std::fmt::Display,
{
    t.to_rfc3339_opts(SecondsFormat::AutoSi, false)
}

/// Binds `values` to `stmt`'s parameters: `?` in order, `?N` and `$N` to the N-th value
/// (hand-written `Sql` uses `$1`, `$2`, ... on both backends).
fn bind(stmt: &mut rusqlite::CachedStatement<'_>, values: &Values) -> rusqlite::Result<()> {
    for index in 1..=stmt.parameter_count() {
        let position = stmt
            .parameter_name(index)
            .and_then(|name| name.strip_prefix('$').or_else(|| name.strip_prefix('?')))
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(index);
        let value = values
            .0
            .get(position - 1)
            .ok_or_else(|| rusqlite::Error::InvalidParameterCount(position, values.0.len()))?;
        stmt.raw_bind_parameter(index, to_sql(value)?)?;
    }
    Ok(())
}

/// Up to `limit` rows (all when `None`) of `stmt`, its parameters bound.
fn read_rows<T: LiteRow>(
    stmt: &mut rusqlite::Statement<'_>,
    limit: Option<usize>,
) -> rusqlite::Result<Vec<T>> {
    let found = std::cell::RefCell::new(Vec::new());
    let mut rows = stmt.raw_query();
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(T::read(&Cells {
            row,
            found: &found,
            step: std::cell::Cell::new(0),
            next: std::cell::Cell::new(0),
        })?);
        if limit == Some(out.len()) {
            break;
        }
    }
    Ok(out)
}

/// One connection: from the pool, or the write connection while its writer's turn
/// lasts (`LitePool::acquire_writer`). Dropped, it goes back with what it had open
/// undone: a pooled one's transaction rolled back, a writer's savepoint rolled back to.
pub(crate) struct Conn {
    /// A pooled connection; `None` for the write connection, which stays in its slot.
    conn: Option<Connection>,
    pool: Arc<Shared>,
    /// Where it goes back to; taken when dropped.
    home: Option<Home>,
    /// Whether its page cache was enlarged for a bulk transaction (`bulk_cache`).
    big_cache: bool,
    /// Whether a write transaction's savepoint is open on the write connection.
    savepoint: bool,
}

enum Home {
    /// The pool's idle connections.
    Pool(#[allow(dead_code)] OwnedSemaphorePermit),
    /// The pool, holding the write turn: an in-memory database's one connection, which
    /// reads and writes and commits each write on its own.
    PoolWriting(
        #[allow(dead_code)] OwnedSemaphorePermit,
        #[allow(dead_code)] OwnedMutexGuard<WriteSlot>,
    ),
    /// The write connection, in its slot, with the write turn.
    Writer(OwnedMutexGuard<WriteSlot>),
}

/// The write connection of a database file, and the writes that committed into its
/// open transaction and wait for that transaction to reach the disk (group commit:
/// `Conn::commit_write`).
#[derive(Default)]
pub(crate) struct WriteSlot {
    /// Opened at the first write; closed when it fails to roll back.
    conn: Option<Connection>,
    /// One sender for each write in the open transaction.
    waiting: Vec<tokio::sync::oneshot::Sender<Result<(), DbError>>>,
    /// When the first of them joined.
    since: Option<Instant>,
}

/// A group commit's bounds: the writes it takes and how long the first waits at most
/// (besides the commit itself).
const BATCH_WRITES: usize = 32;
const BATCH_WAIT: Duration = Duration::from_millis(10);

impl WriteSlot {
    /// Commits the open transaction and tells each waiting write how it went.
    fn commit(&mut self) {
        let done = match &self.conn {
            Some(conn) if !conn.is_autocommit() => conn.execute_batch("COMMIT").map_err(error),
            // SQLite rolls a transaction back itself on some errors (a full disk).
            Some(_) => Err(undone()),
            None => Err(closed()),
        };
        if done.is_err()
            && let Some(conn) = &self.conn
            && !conn.is_autocommit()
            && conn.execute_batch("ROLLBACK").is_err()
        {
            self.conn = None;
        }
        self.answer(done);
    }

    /// Tells each waiting write that its transaction ended with `done`.
    fn answer(&mut self, done: Result<(), DbError>) {
        for write in self.waiting.drain(..) {
            let _ = write.send(done.clone());
        }
        self.since = None;
    }
}

fn undone() -> DbError {
    DbError::new(
        DbErrorKind::ConnectionLost,
        "SQLite rolled back the transaction the write was waiting to commit in",
    )
}

/// A bulk transaction's page cache (KiB, as SQLite's negative `cache_size`): an import
/// of 1,000,000 assets spent most of its time reading back from the WAL the pages of
/// the FTS5 index's segments that SQLite's default cache (2 MiB) had let go. Given
/// back at the end of the transaction.
const BULK_CACHE_KIB: i64 = 128 * 1024;

/// SQLite's default page cache, which every pooled connection has.
const DEFAULT_CACHE_KIB: i64 = 2000;

impl Drop for Conn {
    fn drop(&mut self) {
        let reset = |conn: &Connection| {
            !self.big_cache
                || conn
                    .execute_batch(&format!("PRAGMA cache_size = -{DEFAULT_CACHE_KIB}"))
                    .is_ok()
        };
        match self.home.take() {
            Some(Home::Writer(mut slot)) => {
                let kept = slot.conn.as_ref().is_some_and(|conn| {
                    // What this turn did is undone: the whole transaction when it
                    // holds no other write, else back to this write's savepoint.
                    let undone = if slot.waiting.is_empty() {
                        conn.is_autocommit() || conn.execute_batch("ROLLBACK").is_ok()
                    } else {
                        !self.savepoint
                            || conn
                                .execute_batch("ROLLBACK TO write; RELEASE write")
                                .is_ok()
                    };
                    undone && reset(conn)
                });
                if !kept {
                    // Closing the connection rolls back the writes waiting with this
                    // one's remains: none of them has been answered.
                    slot.conn = None;
                    slot.answer(Err(undone()));
                } else if self.pool.closed.load(Ordering::Acquire) {
                    if !slot.waiting.is_empty() {
                        slot.commit();
                    }
                    slot.conn = None;
                }
                drop(slot);
                self.pool.after_write_turn();
            }
            _ => {
                let Some(conn) = self.conn.take() else {
                    return;
                };
                if !conn.is_autocommit() && conn.execute_batch("ROLLBACK").is_err() {
                    // A connection that cannot roll back is not put back.
                    return;
                }
                if reset(&conn) && !self.pool.closed.load(Ordering::Acquire) {
                    self.pool
                        .idle
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(conn);
                }
            }
        }
    }
}

impl Conn {
    /// Enlarges the connection's page cache until it goes back to the pool: a bulk
    /// transaction's (`Tx::bulk`).
    pub(crate) fn bulk_cache(&mut self) -> Result<(), DbError> {
        self.batch(&format!("PRAGMA cache_size = -{BULK_CACHE_KIB}"))?;
        self.big_cache = true;
        Ok(())
    }

    fn connection(&self) -> &Connection {
        match &self.home {
            Some(Home::Writer(slot)) => slot.conn.as_ref(),
            _ => self.conn.as_ref(),
        }
        .expect("a connection is present until dropped")
    }

    /// Reads up to `limit` rows (all when `None`).
    pub(crate) fn rows<T: LiteRow>(
        &self,
        sql: &str,
        values: &Values,
        limit: Option<usize>,
    ) -> Result<Vec<T>, DbError> {
        let started = Instant::now();
        let conn = self.connection();
        let read = (|| {
            let mut stmt = conn.prepare_cached(sql)?;
            bind(&mut stmt, values)?;
            read_rows(&mut stmt, limit)
        })();
        self.pool.logged(sql, started);
        read.map_err(error)
    }

    pub(crate) fn all<T: LiteRow>(&self, sql: &str, values: &Values) -> Result<Vec<T>, DbError> {
        self.rows(sql, values, None)
    }

    pub(crate) fn optional<T: LiteRow>(
        &self,
        sql: &str,
        values: &Values,
    ) -> Result<Option<T>, DbError> {
        Ok(self.rows(sql, values, Some(1))?.pop())
    }

    pub(crate) fn one<T: LiteRow>(&self, sql: &str, values: &Values) -> Result<T, DbError> {
        self.optional(sql, values)?
            .ok_or_else(|| DbError::new(DbErrorKind::NoRow, "the statement read no row"))
    }

    /// Runs a statement to its end and returns the number of rows it changed.
    pub(crate) fn execute(&self, sql: &str, values: &Values) -> Result<u64, DbError> {
        let started = Instant::now();
        let conn = self.connection();
        let run = (|| {
            let mut stmt = conn.prepare_cached(sql)?;
            bind(&mut stmt, values)?;
            let writes = !stmt.readonly();
            let mut rows = stmt.raw_query();
            while rows.next()?.is_some() {}
            Ok(if writes { conn.changes() } else { 0 })
        })();
        self.pool.logged(sql, started);
        run.map_err(error)
    }

    pub(crate) fn batch(&self, sql: &str) -> Result<(), DbError> {
        self.connection().execute_batch(sql).map_err(error)
    }

    /// The rows written by every statement since the connection opened, those an FTS5
    /// command writes in its index's tables among them.
    pub(crate) fn total_changes(&self) -> u64 {
        self.connection().total_changes()
    }

    /// Starts a write transaction: on the write connection, a savepoint in the
    /// transaction that holds the writes waiting for their commit, or in a new one.
    ///
    /// SQLite's write lock (`BEGIN IMMEDIATE`) is taken on the asking thread when it
    /// is free, which it is unless another process writes (this process's writers
    /// queue in `LitePool::acquire_writer`); otherwise it is waited for up to the busy
    /// timeout on the blocking pool.
    pub(crate) async fn begin_write(mut self) -> Result<Self, DbError> {
        if let Some(Home::Writer(slot)) = &mut self.home
            && !slot.waiting.is_empty()
            && slot.conn.as_ref().is_some_and(Connection::is_autocommit)
        {
            slot.answer(Err(undone()));
        }
        if self.connection().is_autocommit() {
            let conn = self.connection();
            conn.busy_timeout(Duration::ZERO).map_err(error)?;
            let tried = conn.execute_batch("BEGIN IMMEDIATE").map_err(error);
            conn.busy_timeout(self.pool.busy_timeout).map_err(error)?;
            match tried {
                Ok(()) => {}
                Err(e) if e.kind == DbErrorKind::Busy => {
                    self = self.batch_blocking("BEGIN IMMEDIATE").await?;
                }
                Err(e) => return Err(e),
            }
        }
        if matches!(self.home, Some(Home::Writer(_))) {
            self.batch("SAVEPOINT write")?;
            self.savepoint = true;
        }
        Ok(self)
    }

    /// Commits a write transaction (`begin_write`), answering once it is on the disk.
    ///
    /// On the write connection it joins the writes waiting in the open transaction
    /// and commits them all when no other writer of this process is waiting for its
    /// turn (or the batch is full or old enough, `BATCH_WRITES`, `BATCH_WAIT`); else
    /// it hands the turn on, and the next writer's changes join the same commit. One
    /// commit writes each changed page once and waits for the disk once for them all,
    /// and no write is answered before its commit is on the disk.
    pub(crate) async fn commit_write(mut self) -> Result<(), DbError> {
        let Some(Home::Writer(slot)) = &mut self.home else {
            return self.batch_blocking("COMMIT").await.map(drop);
        };
        let conn = slot.conn.as_ref().ok_or_else(closed)?;
        conn.execute_batch("RELEASE write").map_err(error)?;
        self.savepoint = false;
        let (sender, answer) = tokio::sync::oneshot::channel();
        let since = *slot.since.get_or_insert_with(Instant::now);
        slot.waiting.push(sender);
        let now = self.pool.queued.load(Ordering::SeqCst) == 0
            || slot.waiting.len() >= BATCH_WRITES
            || since.elapsed() >= BATCH_WAIT;
        if now {
            // The turn is kept until the commit is done; the commit and the answers
            // run on the blocking pool, whatever becomes of this request. How it went
            // comes through `answer`, as for every write of the group.
            drop(self.commit_waiting().await);
        } else {
            drop(self);
        }
        answer.await.unwrap_or_else(|_| Err(closed()))
    }

    /// Commits the writes waiting in the write connection's transaction, so that this
    /// turn starts outside a transaction (a statement on its own, a migration).
    pub(crate) async fn settled(mut self) -> Result<Self, DbError> {
        if let Some(Home::Writer(slot)) = &self.home
            && !slot.waiting.is_empty()
        {
            self = self.commit_waiting().await?;
        }
        match &self.home {
            Some(Home::Writer(slot)) if slot.conn.is_none() => Err(closed()),
            _ => Ok(self),
        }
    }

    /// Runs `sql` (a `BEGIN` or `COMMIT`, which may wait for a lock or the disk) on
    /// the blocking pool; the connection comes back when it ran. A runtime shutting
    /// down cancels the task: the connection is dropped (rolled back) and the caller
    /// told the database is gone.
    pub(crate) async fn batch_blocking(self, sql: &'static str) -> Result<Self, DbError> {
        self.blocking(move |conn| conn.batch(sql)).await
    }

    /// Commits the writes waiting in the write connection's transaction
    /// (`WriteSlot::commit`) on the blocking pool.
    async fn commit_waiting(self) -> Result<Self, DbError> {
        self.blocking(|conn| {
            if let Some(Home::Writer(slot)) = &mut conn.home {
                slot.commit();
            }
            Ok(())
        })
        .await
    }

    /// Runs `work` on the connection on the blocking pool; the connection comes back
    /// when it succeeded, and is dropped (rolled back) there when it failed.
    async fn blocking(
        mut self,
        work: impl FnOnce(&mut Self) -> Result<(), DbError> + Send + 'static,
    ) -> Result<Self, DbError> {
        match tokio::task::spawn_blocking(move || work(&mut self).map(|()| self)).await {
            Ok(done) => done,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => Err(closed()),
        }
    }
}

struct Shared {
    target: Target,
    flags: OpenFlags,
    busy_timeout: Duration,
    synchronous: &'static str,
    slow_statement: Duration,
    acquire_timeout: Duration,
    idle: Mutex<Vec<Connection>>,
    permits: Arc<Semaphore>,
    /// One writer at a time, in the order they came (`acquire_writer`), and the write
    /// connection.
    writer: Arc<tokio::sync::Mutex<WriteSlot>>,
    /// How many writers wait for their turn.
    queued: std::sync::atomic::AtomicUsize,
    /// The health checks' connection and last answer (`LitePool::ping`).
    checks: Arc<tokio::sync::Mutex<Checks>>,
    closed: AtomicBool,
}

/// The connection health checks ask through, kept from one check to the next, with
/// the identity of the file it opened.
#[derive(Default)]
struct Checks {
    conn: Option<(Connection, FileId)>,
    /// When the last check ended, and what it found.
    last: Option<(Instant, Result<(), DbError>)>,
    /// How many connections the checks have opened, and how many checks ran.
    opened: u64,
    ran: u64,
}

/// Which file a path names: a file moved away or replaced is no longer the one a kept
/// connection reads.
type FileId = (u64, u64);

fn file_id(path: &str) -> std::io::Result<FileId> {
    let meta = std::fs::metadata(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Ok((0, 0))
    }
}

impl Checks {
    /// Reads the schema, on the kept connection while `path` still names its file, on a
    /// new one otherwise; a connection that failed is not kept.
    fn ask(&mut self, path: &str, flags: OpenFlags, busy: Duration) -> Result<(), DbError> {
        self.ran += 1;
        let id = file_id(path).map_err(|e| {
            self.conn = None;
            DbError::new(DbErrorKind::ConnectionLost, format!("{path}: {e}"))
        })?;
        let conn = match self.conn.take() {
            Some((conn, kept)) if kept == id => conn,
            _ => {
                let conn = Connection::open_with_flags(path, flags).map_err(error)?;
                self.opened += 1;
                conn.busy_timeout(busy).map_err(error)?;
                conn
            }
        };
        conn.prepare_cached("SELECT COUNT(*) FROM sqlite_schema")
            .and_then(|mut read| read.query_row([], |_| Ok(())))
            .map_err(error)?;
        self.conn = Some((conn, id));
        Ok(())
    }
}

#[derive(Debug, Clone)]
enum Target {
    File(String),
    Memory,
}

impl Shared {
    fn open(&self) -> rusqlite::Result<Connection> {
        let conn = match &self.target {
            Target::File(path) => Connection::open_with_flags(path, self.flags)?,
            Target::Memory => Connection::open_in_memory_with_flags(self.flags)?,
        };
        conn.busy_timeout(self.busy_timeout)?;
        conn.execute_batch(&format!(
            "PRAGMA foreign_keys = ON; PRAGMA synchronous = {};",
            self.synchronous
        ))?;
        conn.set_prepared_statement_cache_capacity(256);
        Ok(conn)
    }

    fn logged(&self, sql: &str, started: Instant) {
        super::log_statement(sql, started, self.slow_statement);
    }

    /// After a writer gave its turn up (or gave up waiting for it): when no writer
    /// waits and the turn is free, commits the writes left waiting in the write
    /// connection's transaction, which nobody else would. Each side looks after it
    /// has let go (the turn, or its place in the queue), so one of them sees the other
    /// gone.
    fn after_write_turn(self: &Arc<Self>) {
        if self.queued.load(Ordering::SeqCst) > 0 {
            return;
        }
        let Ok(mut slot) = self.writer.clone().try_lock_owned() else {
            return;
        };
        if slot.waiting.is_empty() {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(move || slot.commit())),
            Err(_) => slot.commit(),
        }
    }
}

/// The SQLite connections of one database.
#[derive(Clone)]
pub(crate) struct LitePool {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for LitePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LitePool")
            .field("target", &self.shared.target)
            .finish()
    }
}

/// How to reach a SQLite database and how its connections behave.
pub(crate) struct LiteOptions {
    pub(crate) max_connections: u32,
    pub(crate) acquire_timeout: Duration,
    pub(crate) busy_timeout: Duration,
    pub(crate) synchronous: &'static str,
    pub(crate) slow_statement: Duration,
}

/// A SQLite URL's path and its query (`sqlite://PATH?mode=ro`: `PATH`, `mode=ro`).
pub(crate) fn url_parts(url: &str) -> (&str, &str) {
    let rest = url.strip_prefix("sqlite:").unwrap_or(url);
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    rest.split_once('?').unwrap_or((rest, ""))
}

impl LitePool {
    /// Opens `url` (`sqlite://PATH`, `sqlite:PATH`, `sqlite::memory:`, with an optional
    /// `?mode=ro|rw|rwc|memory`), creating the file if missing, and switches it to WAL.
    /// An in-memory database lives in one connection, kept for the pool's lifetime.
    pub(crate) fn open(url: &str, options: LiteOptions) -> Result<LitePool, crate::StoreError> {
        let (path, query) = url_parts(url);
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut memory = path == ":memory:";
        for (key, value) in query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once('=').unwrap_or((p, "")))
        {
            match (key, value) {
                ("mode", "memory") => memory = true,
                ("mode", "ro") => {
                    flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
                }
                ("mode", "rw") => flags.remove(OpenFlags::SQLITE_OPEN_CREATE),
                ("mode", "rwc") => {}
                ("cache", "shared" | "private") => {}
                _ => {
                    return Err(crate::StoreError::Config(format!(
                        "unsupported SQLite URL parameter {key:?}={value:?}: use mode=ro, rw, rwc or memory"
                    )));
                }
            }
        }
        if !memory && path.is_empty() {
            return Err(crate::StoreError::Config(
                "the SQLite URL names no file: use sqlite://PATH".into(),
            ));
        }
        let max = if memory {
            1
        } else {
            options.max_connections.max(1)
        };
        let shared = Arc::new(Shared {
            target: if memory {
                Target::Memory
            } else {
                Target::File(path.to_owned())
            },
            flags,
            busy_timeout: options.busy_timeout,
            synchronous: options.synchronous,
            slow_statement: options.slow_statement,
            acquire_timeout: options.acquire_timeout,
            idle: Mutex::new(Vec::new()),
            permits: Arc::new(Semaphore::new(max as usize)),
            writer: Arc::default(),
            queued: std::sync::atomic::AtomicUsize::new(0),
            checks: Arc::default(),
            closed: AtomicBool::new(false),
        });
        let first = shared
            .open()
            .map_err(|e| crate::StoreError::Database(error(e)))?;
        if !memory && !flags.contains(OpenFlags::SQLITE_OPEN_READ_ONLY) {
            first
                .execute_batch("PRAGMA journal_mode = WAL;")
                .map_err(|e| crate::StoreError::Database(error(e)))?;
        }
        shared
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(first);
        Ok(LitePool { shared })
    }

    /// A connection, waiting at most the acquire timeout for one to be free.
    pub(crate) async fn acquire(&self) -> Result<Conn, DbError> {
        let shared = &self.shared;
        if shared.closed.load(Ordering::Acquire) {
            return Err(closed());
        }
        let permit = match shared.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                match tokio::time::timeout(
                    shared.acquire_timeout,
                    shared.permits.clone().acquire_owned(),
                )
                .await
                {
                    Ok(Ok(permit)) => permit,
                    Ok(Err(_)) => return Err(closed()),
                    Err(_) => {
                        return Err(DbError::new(
                            DbErrorKind::Busy,
                            "no SQLite connection was free in time",
                        ));
                    }
                }
            }
        };
        let idle = shared.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => shared.open().map_err(error)?,
        };
        Ok(Conn {
            conn: Some(conn),
            pool: shared.clone(),
            home: Some(Home::Pool(permit)),
            big_cache: false,
            savepoint: false,
        })
    }

    /// Reads the schema on the connection kept for these checks (the pool's may all be
    /// in use): whether the database file answers. An in-memory database always does.
    /// One check runs at a time, on one blocking thread; checks that arrive while it
    /// runs take its answer, so a burst of them holds neither the blocking pool nor a
    /// file descriptor per check.
    pub(crate) async fn ping(&self) -> Result<(), DbError> {
        let shared = &self.shared;
        if shared.closed.load(Ordering::Acquire) {
            return Err(closed());
        }
        let Target::File(path) = &shared.target else {
            return Ok(());
        };
        let asked = Instant::now();
        let mut checks = shared.checks.clone().lock_owned().await;
        if shared.closed.load(Ordering::Acquire) {
            return Err(closed());
        }
        if let Some((answered, answer)) = &checks.last
            && *answered >= asked
        {
            return answer.clone();
        }
        // Never created here: a file gone is a database that does not answer.
        let (path, flags) = (path.clone(), shared.flags - OpenFlags::SQLITE_OPEN_CREATE);
        let busy = shared.busy_timeout;
        let shared = shared.clone();
        // The turn goes with the check: one abandoned by a caller that stopped waiting
        // still holds it until SQLite answers.
        tokio::task::spawn_blocking(move || {
            let answer = checks.ask(&path, flags, busy);
            checks.last = Some((Instant::now(), answer.clone()));
            if shared.closed.load(Ordering::Acquire) {
                // Closed while it ran (`close` could not take the connection).
                checks.conn = None;
            }
            answer
        })
        .await
        .map_err(|e| DbError::new(DbErrorKind::Other, e.to_string()))?
    }

    /// The write connection with the write turn: it waits behind this process's
    /// other writers (first come, first served; at most the busy timeout). SQLite lets
    /// one transaction write at a time, and a writer that found the lock taken slept
    /// in SQLite's busy handler (1, 2, 5, 10 ... 100 ms) and tried again, so under 64
    /// writers most of a write's time was sleeping and the order was luck (check-out
    /// cycle p99 590-790 ms, docs/performance.md). Waiting here hands the turn over
    /// the moment the last writer lets go, without holding a pooled connection that
    /// readers need. Another process (the CLI) still meets the busy timeout in `BEGIN
    /// IMMEDIATE`. The connection may hold other writes waiting for their commit: a
    /// transaction starts with `Conn::begin_write`, anything else with
    /// `Conn::settled`.
    pub(crate) async fn acquire_writer(&self) -> Result<Conn, DbError> {
        let shared = &self.shared;
        if shared.closed.load(Ordering::Acquire) {
            return Err(closed());
        }
        let mut slot = match shared.writer.clone().try_lock_owned() {
            Ok(slot) => slot,
            Err(_) => {
                shared.queued.fetch_add(1, Ordering::SeqCst);
                let turn =
                    tokio::time::timeout(shared.busy_timeout, shared.writer.clone().lock_owned())
                        .await;
                shared.queued.fetch_sub(1, Ordering::SeqCst);
                match turn {
                    Ok(slot) => slot,
                    Err(_) => {
                        shared.after_write_turn();
                        return Err(DbError::new(
                            DbErrorKind::Busy,
                            "another write held the SQLite database for too long",
                        ));
                    }
                }
            }
        };
        if matches!(shared.target, Target::Memory) {
            let mut conn = self.acquire().await?;
            if let Some(Home::Pool(permit)) = conn.home.take() {
                conn.home = Some(Home::PoolWriting(permit, slot));
            }
            return Ok(conn);
        }
        if slot.conn.is_none() {
            slot.conn = Some(shared.open().map_err(error)?);
        }
        Ok(Conn {
            conn: None,
            pool: shared.clone(),
            home: Some(Home::Writer(slot)),
            big_cache: false,
            savepoint: false,
        })
    }

    /// Refuses new connections and closes the idle ones; those in use close when
    /// dropped.
    pub(crate) fn close(&self) {
        self.shared.closed.store(true, Ordering::Release);
        self.shared.permits.close();
        if let Ok(mut slot) = self.shared.writer.try_lock()
            && slot.waiting.is_empty()
        {
            slot.conn = None;
        }
        self.shared
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        if let Ok(mut checks) = self.shared.checks.try_lock() {
            checks.conn = None;
        }
    }
}

fn closed() -> DbError {
    DbError::new(DbErrorKind::ConnectionLost, "the database is closed")
}

/// A rusqlite error in the engine's terms, by SQLite's extended result code: unique
/// key (SQLITE_CONSTRAINT_UNIQUE 2067, _PRIMARYKEY 1555, whose message names the
/// columns), foreign key (787), busy (SQLITE_BUSY 5 and SQLITE_LOCKED 6 with their
/// extended codes).
pub(crate) fn error(e: rusqlite::Error) -> DbError {
    match e {
        rusqlite::Error::SqliteFailure(failure, message) => {
            let message = message.unwrap_or_else(|| failure.to_string());
            let kind = match failure.extended_code {
                2067 | 1555 => DbErrorKind::UniqueKey {
                    constraint: unique_key_of(&message).unwrap_or_default(),
                },
                787 => DbErrorKind::ForeignKey,
                code if matches!(code & 0xff, 5 | 6) => DbErrorKind::Busy,
                _ => DbErrorKind::Other,
            };
            DbError::new(kind, message)
        }
        rusqlite::Error::QueryReturnedNoRows => {
            DbError::new(DbErrorKind::NoRow, "the statement read no row")
        }
        other => DbError::new(DbErrorKind::Other, other.to_string()),
    }
}

/// The unique key "UNIQUE constraint failed: t.a, t.b" names, by PostgreSQL's name for
/// it (`t_a_b_key`).
fn unique_key_of(message: &str) -> Option<String> {
    let columns = message.strip_prefix("UNIQUE constraint failed: ")?;
    let mut table = None;
    let mut names = Vec::new();
    for column in columns.split(", ") {
        let (t, name) = column.split_once('.')?;
        if table.replace(t).is_some_and(|seen| seen != t) {
            return None;
        }
        names.push(name);
    }
    Some(unique_key_name(table?, &names))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `a` on rows whose `kind` is 1 and `b` on the others, and `missing` (no
    /// such column) as 0: the lookups differ from row to row.
    #[derive(Debug, PartialEq)]
    struct Picked(i64, i64);

    impl LiteRow for Picked {
        fn read(row: &Cells<'_, '_>) -> rusqlite::Result<Self> {
            let kind: i64 = column(row, "kind")?;
            let value = if kind == 1 {
                column(row, "a")?
            } else {
                column(row, "B")?
            };
            Ok(Picked(value, column_or_default(row, "missing")?))
        }
    }

    /// Checks that wait while one runs take its answer, on the one kept connection; a
    /// file moved away does not answer, and the file back answers on a new one.
    #[test]
    fn health_checks_share_one_kept_connection_and_see_the_file_go() {
        let dir = std::env::temp_dir().join(format!("rentrack-ping-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ping.db");
        let moved = dir.join("moved.db");
        let options = LiteOptions {
            max_connections: 2,
            acquire_timeout: Duration::from_secs(1),
            busy_timeout: Duration::from_secs(1),
            synchronous: "NORMAL",
            slow_statement: Duration::from_secs(1),
        };
        let pool = LitePool::open(&format!("sqlite://{}", path.display()), options).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let counts = || {
            let checks = pool.shared.checks.try_lock().unwrap();
            (checks.opened, checks.ran)
        };
        runtime.block_on(async {
            // Fifty checks queue behind a turn held here, then go together.
            let held = pool.shared.checks.clone().lock_owned().await;
            let burst: Vec<_> = (0..50)
                .map(|_| {
                    let pool = pool.clone();
                    tokio::spawn(async move { pool.ping().await })
                })
                .collect();
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
            drop(held);
            for check in burst {
                check.await.unwrap().unwrap();
            }
        });
        assert_eq!(
            counts(),
            (1, 1),
            "one check on one connection answered all fifty"
        );
        runtime.block_on(pool.ping()).unwrap();
        assert_eq!(
            counts(),
            (1, 2),
            "a later check asks again, on the kept connection"
        );
        std::fs::rename(&path, &moved).unwrap();
        let gone = runtime.block_on(pool.ping()).unwrap_err();
        assert_eq!(gone.kind, DbErrorKind::ConnectionLost);
        assert!(
            !path.exists(),
            "a check creates no empty database in its place"
        );
        std::fs::rename(&moved, &path).unwrap();
        runtime.block_on(pool.ping()).unwrap();
        assert_eq!(counts(), (2, 4));
        pool.close();
        assert_eq!(
            runtime.block_on(pool.ping()).unwrap_err().kind,
            DbErrorKind::ConnectionLost
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unique_keys_are_named_as_postgresql_names_them() {
        assert_eq!(
            unique_key_of("UNIQUE constraint failed: groups.company_id, groups.name").as_deref(),
            Some("groups_company_id_name_key")
        );
        assert_eq!(
            unique_key_of("UNIQUE constraint failed: t.id").as_deref(),
            Some("t_id_key")
        );
        assert_eq!(unique_key_of("UNIQUE constraint failed: index 'x'"), None);
        assert_eq!(unique_key_of("UNIQUE constraint failed: a.x, b.y"), None);
        let conn = Connection::open_in_memory().expect("opens");
        conn.execute_batch(
            "CREATE TABLE t (a INTEGER, b TEXT, UNIQUE (a, b)); INSERT INTO t VALUES (1, 'x');",
        )
        .expect("creates");
        let e = error(
            conn.execute("INSERT INTO t VALUES (1, 'x')", [])
                .expect_err("breaks the key"),
        );
        assert_eq!(
            e.kind,
            DbErrorKind::UniqueKey {
                constraint: "t_a_b_key".into()
            }
        );
    }

    #[test]
    fn dates_read_as_chrono_reads_them() {
        for text in ["2026-01-15", "0001-12-31", "9999-02-28", "2024-02-29"] {
            assert_eq!(
                year_month_day(text),
                Some(NaiveDate::parse_from_str(text, "%F").expect("a date"))
            );
        }
        for text in [
            "2026-02-30",
            "2026-13-01",
            "2026-1-15",
            "2026/01/15",
            "20260115xx",
        ] {
            assert_eq!(year_month_day(text), None, "{text}");
        }
        let decoded = NaiveDate::decode(ValueRef::Text(b"+12026-01-15")).expect("chrono reads it");
        assert_eq!(
            decoded,
            NaiveDate::from_ymd_opt(12026, 1, 15).expect("valid")
        );
        assert!(NaiveDate::decode(ValueRef::Text(b"2026-02-30")).is_err());
    }

    #[test]
    fn moments_read_as_chrono_reads_them() {
        for text in [
            "2026-11-26T10:17:44.351430+00:00",
            "2026-11-26T10:17:44+00:00",
            "2026-11-26T10:17:44Z",
            "2026-11-26T10:17:44.1Z",
            "2026-11-26T10:17:44.123456789+00:00",
            "0001-01-01T00:00:00+00:00",
            "9999-12-31T23:59:59.999999999Z",
        ] {
            let chrono = DateTime::parse_from_rfc3339(text).expect("chrono reads it");
            assert_eq!(utc_moment(text), Some(chrono), "{text}");
            assert_eq!(
                DateTime::<Utc>::decode(ValueRef::Text(text.as_bytes())),
                Ok(chrono.to_utc())
            );
        }
        // Left to chrono: other offsets, a leap second, a space, more than nine digits.
        for text in [
            "2026-11-26T10:17:44+01:00",
            "2016-12-31T23:59:60+00:00",
            "2026-11-26 10:17:44+00:00",
            "2026-11-26T10:17:44.1234567890+00:00",
            "2026-11-26T10:17:44.+00:00",
            "2026-11-26T25:17:44+00:00",
            "2026-11-26T10:1x:44+00:00",
            "+00:00",
        ] {
            assert_eq!(utc_moment(text), None, "{text}");
        }
        let leap = DateTime::<Utc>::decode(ValueRef::Text(b"2016-12-31T23:59:60+00:00"));
        assert_eq!(
            leap,
            Ok(DateTime::parse_from_rfc3339("2016-12-31T23:59:60+00:00")
                .expect("valid")
                .to_utc())
        );
    }

    #[test]
    fn rows_whose_lookups_differ_read_their_own_columns() {
        let conn = Connection::open_in_memory().expect("opens");
        let mut stmt = conn
            .prepare(
                "SELECT 1 AS kind, 10 AS a, 20 AS b UNION ALL SELECT 2, 11, 21 \
                 UNION ALL SELECT 1, 12, 22 UNION ALL SELECT 2, 13, 23",
            )
            .expect("prepares");
        let read: Vec<Picked> = read_rows(&mut stmt, None).expect("reads");
        assert_eq!(
            read,
            [Picked(10, 0), Picked(21, 0), Picked(12, 0), Picked(23, 0)]
        );
        let first: Vec<Picked> = read_rows(&mut stmt, Some(1)).expect("reads");
        assert_eq!(first, [Picked(10, 0)]);
    }
}
