//! Tenant-scoped queries and transactions for SQLite and PostgreSQL. Every query on
//! company data takes the company id.

pub mod acting;
mod activation;
mod availability;
mod engine;
mod error;
pub mod ids;
mod unique_keys;

pub(crate) use records::Row;

pub mod address_block;
pub mod addresses;
pub mod bundles;
pub mod businesses;
pub mod change_log;
pub mod checkouts;
pub mod companies;
pub mod console;
pub mod counters;
pub mod coupons;
pub mod custom_fields;
pub mod custom_filters;
pub mod custom_taxes;
pub mod group_taxes;
pub mod groups;
pub mod imports;
pub mod item_core;
pub mod items;
pub mod label_prints;
pub mod label_templates;
pub mod links;
pub mod listings;
pub mod locations;
pub mod members;
pub mod moving;
pub mod orders;
pub mod outbox;
pub mod passwords;
pub mod payment_options;
pub mod persons;
pub mod rate_limits;
pub mod reference_data;
mod removal;
pub mod reservations;
pub mod retirement;
pub mod services;
mod shapes;
pub mod staff;
pub mod stock;
pub mod stock_checkouts;
pub mod sub_groups;
mod tokens;
pub mod vendors;
pub mod verifications;
pub mod webhooks;
mod words;

pub use engine::backup;
pub use engine::paging::check_list_plans;
pub use engine::{
    Backend, Db, DbError, DbErrorKind, DbOptions, Health, MigrateError, Reader, Record, Sql,
    SqliteSync, Statement, Together, Tx, redact,
};
pub use error::{Field, FieldErrors, StoreError};
pub use ids::{Id, Number};

use chrono::{DateTime, Utc};

/// Whether the store checks itself as it runs: a kept statement against the one its
/// key builds (`paging::PageMemo`, `shapes`), a counted total against a count of its
/// records, list plans against their indexes (once `check_list_plans` turns it on).
/// On in debug builds (the tests) and in release builds with the `checks` feature, so
/// the release code paths are tested too (`.ci/run`); off in a served binary.
pub(crate) const CHECKS: bool = cfg!(any(debug_assertions, feature = "checks"));

/// The tenant every query is scoped to. Only the store makes one, from a company it
/// read: authentication gets it with the company its token names
/// (`companies::authenticate_hashed`), the console with its session's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct CompanyId(pub(crate) i64);

impl CompanyId {
    /// The id, for a log line, a link or a JSON answer.
    pub fn get(self) -> i64 {
        self.0
    }
}

/// Timestamps are stored in UTC with microsecond precision, the finer of the two
/// backends' common resolution, so a value reads back exactly as written.
pub fn now() -> DateTime<Utc> {
    let t = Utc::now();
    DateTime::from_timestamp_micros(t.timestamp_micros()).unwrap_or(t)
}

/// One page of records and the total count for `total_pages` (see `engine::paging`).
#[derive(Debug)]
pub struct PageOf<T> {
    pub records: Vec<T>,
    pub total: u64,
}

#[derive(crate::Row)]
pub(crate) struct Count {
    pub(crate) n: i64,
}

pub(crate) use engine::paging::{
    ByStatus, Columns, PageMemo, Partition, Total, after, known_total, memo_page_of, page_of,
    paged, rows_filtered, with_columns,
};

/// Turns an optional-field change into the value an UPDATE sets, if any.
pub(crate) fn change_value<T>(change: &domain::Change<T>) -> Option<sea_query::Value>
where
    T: Clone + Into<sea_query::Value> + sea_query::Nullable,
{
    match change {
        domain::Change::Keep => None,
        domain::Change::Set(v) => Some(v.clone().into()),
        domain::Change::Clear => Some(Option::<T>::None.into()),
    }
}

/// The most ids one statement binds in an `IN (...)` list. Lists a request sends are
/// capped at 1,000 entries by the interface, far below SQLite's limit on a statement's
/// bound values (32,766) and PostgreSQL's (65,535); lists read from stored data (an
/// order's lines, a location's subtree, the items of the bundles an order takes) have
/// no such cap, so statements taking them bind them in chunks of this size through
/// [`all_in`] and [`execute_in`].
pub(crate) const IN_CHUNK: usize = 1000;

/// The rows of the statements `build` makes for each chunk of at most [`IN_CHUNK`] of
/// `ids` (each an `IN` of its chunk), in chunk order.
pub(crate) async fn all_in<T: Record, S: Statement>(
    tx: &mut Tx,
    ids: &[i64],
    build: impl Fn(Vec<i64>) -> S,
) -> Result<Vec<T>, StoreError> {
    let mut rows = Vec::new();
    for chunk in ids.chunks(IN_CHUNK) {
        rows.extend(tx.all::<T>(&build(chunk.to_vec())).await?);
    }
    Ok(rows)
}

/// Runs the change `build` makes for each chunk of at most [`IN_CHUNK`] of `ids`, in
/// the caller's transaction; the rows touched, summed.
pub(crate) async fn execute_in<S: Statement>(
    tx: &mut Tx,
    ids: &[i64],
    build: impl Fn(Vec<i64>) -> S,
) -> Result<u64, StoreError> {
    let mut touched = 0;
    for chunk in ids.chunks(IN_CHUNK) {
        touched += tx.execute(&build(chunk.to_vec())).await?;
    }
    Ok(touched)
}

/// The problem with `ids` when `records` (a select of the company's candidates, e.g.
/// its teams) lacks some of them: "has no team with id 7, 9", `what` naming the kind
/// of record. `None` when all exist.
pub(crate) async fn unknown_ids(
    tx: &mut Tx,
    mut records: sea_query::SelectStatement,
    ids: &[impl Into<i64> + Copy],
    what: &str,
) -> Result<Option<String>, StoreError> {
    use sea_query::{Expr, ExprTrait};
    if ids.is_empty() {
        return Ok(None);
    }
    let ids: Vec<i64> = ids.iter().map(|&id| id.into()).collect();
    let stmt = records
        .column("id")
        .and_where(Expr::col("id").is_in(ids.clone()))
        .to_owned();
    let found: Vec<(i64,)> = tx.all(&stmt).await?;
    let found: std::collections::HashSet<i64> = found.into_iter().map(|f| f.0).collect();
    let missing: Vec<String> = ids
        .iter()
        .filter(|id| !found.contains(id))
        .map(|id| id.to_string())
        .collect();
    Ok((!missing.is_empty()).then(|| format!("has no {what} with id {}", missing.join(", "))))
}

/// `records` (the company's records among `ids`) in the order of `ids`, each once
/// (repeats dropped); a 422 on `field` naming every id not among them, as
/// [`unknown_ids`] words it: "has no coupon with id 7, 9".
pub(crate) fn in_order_of<K, T: Clone>(
    ids: &[Id<K>],
    records: Vec<T>,
    id_of: impl Fn(&T) -> i64,
    field: &str,
    what: &str,
) -> Result<Vec<T>, StoreError> {
    let found: std::collections::HashMap<i64, T> =
        records.into_iter().map(|r| (id_of(&r), r)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut ordered = Vec::with_capacity(found.len());
    let mut missing = Vec::new();
    for id in ids {
        if !seen.insert(*id) {
            continue;
        }
        match found.get(&id.get()) {
            Some(record) => ordered.push(record.clone()),
            None => missing.push(id.to_string()),
        }
    }
    if missing.is_empty() {
        Ok(ordered)
    } else {
        Err(StoreError::invalid(
            field,
            format!("has no {what} with id {}", missing.join(", ")),
        ))
    }
}

/// Inserts a row of the join table `table` for each of `others` (in `other_column`),
/// linking it to `owner` (`owner_column` and its id): one statement whatever their
/// number, and none for an empty list. Repeats are dropped.
pub(crate) async fn insert_links(
    tx: &mut Tx,
    company: CompanyId,
    table: &'static str,
    (owner_column, owner): (&'static str, i64),
    other_column: &'static str,
    others: &[impl Into<i64> + Copy],
) -> Result<(), StoreError> {
    let mut others: Vec<i64> = others.iter().map(|&other| other.into()).collect();
    others.sort_unstable();
    others.dedup();
    if others.is_empty() {
        return Ok(());
    }
    let mut insert = sea_query::Query::insert()
        .into_table(table)
        .columns(["company_id", owner_column, other_column])
        .to_owned();
    for other in others {
        insert.values_panic([company.0.into(), owner.into(), other.into()]);
    }
    tx.execute(&insert).await?;
    Ok(())
}

/// True when the company has a record `id` in `table`.
pub(crate) async fn has(
    tx: &mut Tx,
    table: &'static str,
    company: CompanyId,
    id: impl Into<i64>,
) -> Result<bool, StoreError> {
    let id: i64 = id.into();
    let key = (company.0, table, id);
    if tx.bulk_mut().is_some_and(|bulk| bulk.found.contains(&key)) {
        return Ok(true);
    }
    use sea_query::{Expr, ExprTrait};
    let stmt = scoped(table, company)
        .column("id")
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let found = tx.optional::<(i64,)>(&stmt).await?.is_some();
    if found && let Some(bulk) = tx.bulk_mut() {
        bulk.found.insert(key);
    }
    Ok(found)
}

/// `value` written into the statement rather than bound: for a condition that a
/// partial index's own (`quantity_out > 0`, `status = 'pending'`) must match. Bound,
/// SQLite can only use the index by looking at the value, and then prepares the
/// statement again at every run.
pub(crate) fn constant(value: impl Into<sea_query::Value>) -> sea_query::Expr {
    sea_query::Expr::Constant(value.into())
}

/// `value` (an expression over `table`'s columns) of the row of `table` that column
/// `refers` (`(owner table, column)`) names, in the owner's company: a correlated
/// subquery, looked up by primary key for each row. Its plan is the same whatever the
/// tables' statistics, where a join's may scan the company's rows for each row.
pub(crate) fn by_key(
    table: &'static str,
    value: sea_query::Expr,
    (owner, column): (&'static str, &'static str),
) -> sea_query::Expr {
    use sea_query::{Expr, Query, QueryStatementBuilder};
    let row = Query::select()
        .from(table)
        .expr(value)
        .cond_where(joins(table, (owner, column)))
        .to_owned();
    Expr::SubQuery(None, Box::new(row.into_sub_query_statement()))
}

/// The join condition of the row of `table` that column `refers` (`(owner table,
/// column)`) names, in the owner's company.
pub(crate) fn joins(
    table: &'static str,
    (owner, column): (&'static str, &'static str),
) -> sea_query::Cond {
    use sea_query::{Cond, Expr, ExprTrait};
    Cond::all()
        .add(Expr::col((table, "company_id")).equals((owner, "company_id")))
        .add(Expr::col((table, "id")).equals((owner, column)))
}

/// A select on one of a company's tables, already scoped to the company.
pub(crate) fn scoped(table: &'static str, company: CompanyId) -> sea_query::SelectStatement {
    use sea_query::{Expr, ExprTrait, Query};
    Query::select()
        .from(table)
        .and_where(Expr::col("company_id").eq(company.0))
        .take()
}

/// `(key, value)` of the records `base` selects whose `value` is set, by `key` after
/// `after`: a natural key (identification number, e-mail) read a page at a time.
pub(crate) async fn values_after(
    tx: &mut Tx,
    mut base: sea_query::SelectStatement,
    (key, value): (&'static str, &'static str),
    after: i64,
    limit: u64,
) -> Result<Vec<(i64, String)>, StoreError> {
    use sea_query::{Expr, ExprTrait, Order};
    let stmt = base
        .columns([key, value])
        .and_where(Expr::col(key).gt(after))
        .and_where(Expr::col(value).is_not_null())
        .order_by(key, Order::Asc)
        .limit(limit)
        .to_owned();
    tx.all(&stmt).await
}

/// The column values of one INSERT or UPDATE of a company's record, gathered field by
/// field, so creates and updates share how optional fields are written.
pub(crate) struct Assignments {
    /// On insert a field left out or cleared is simply not written; on update a clear
    /// writes NULL.
    inserting: bool,
    pairs: Vec<(&'static str, sea_query::Value)>,
}

impl Assignments {
    pub(crate) fn insert() -> Self {
        Assignments {
            inserting: true,
            pairs: Vec::new(),
        }
    }

    /// Starts an update, which always stamps `updated_at`.
    pub(crate) fn update() -> Self {
        Assignments {
            inserting: false,
            pairs: vec![("updated_at", now().into())],
        }
    }

    pub(crate) fn set(
        &mut self,
        column: &'static str,
        value: impl Into<sea_query::Value>,
    ) -> &mut Self {
        self.pairs.push((column, value.into()));
        self
    }

    /// An optional field: written when set, and on update also when cleared.
    pub(crate) fn change<T>(
        &mut self,
        column: &'static str,
        change: &domain::Change<T>,
    ) -> &mut Self
    where
        T: Clone + Into<sea_query::Value> + sea_query::Nullable,
    {
        let value = match change {
            domain::Change::Set(v) => Some(v.clone().into()),
            domain::Change::Clear if !self.inserting => change_value(change),
            _ => None,
        };
        if let Some(v) = value {
            self.pairs.push((column, v));
        }
        self
    }

    /// A value given or not (`None` writes nothing).
    pub(crate) fn given<T: Clone + Into<sea_query::Value>>(
        &mut self,
        column: &'static str,
        value: &Option<T>,
    ) -> &mut Self {
        if let Some(v) = value {
            self.set(column, v.clone());
        }
        self
    }

    /// The address block, its columns spelled as `names` spells them.
    pub(crate) fn address_block(
        &mut self,
        names: address_block::AddressBlock<&'static str>,
        block: &address_block::AddressBlock<domain::Change<String>>,
    ) -> &mut Self {
        for (column, change) in names.zip(block).into_array() {
            self.change(column, change);
        }
        self
    }

    /// The columns written besides `updated_at`, for the change log.
    pub(crate) fn columns(&self) -> Vec<&'static str> {
        self.pairs
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| *c != "updated_at")
            .collect()
    }

    pub(crate) fn into_insert(self, table: &'static str) -> sea_query::InsertStatement {
        let (columns, values): (Vec<_>, Vec<_>) = self.pairs.into_iter().unzip();
        sea_query::Query::insert()
            .into_table(table)
            .columns(columns)
            .values_panic(values.into_iter().map(sea_query::Expr::val))
            .to_owned()
    }

    /// An UPDATE of the record `id` of `company`.
    pub(crate) fn into_update(
        self,
        table: &'static str,
        company: CompanyId,
        id: i64,
    ) -> sea_query::UpdateStatement {
        use sea_query::{Expr, ExprTrait};
        sea_query::Query::update()
            .table(table)
            .values(self.pairs.into_iter().map(|(c, v)| (c, Expr::val(v))))
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").eq(id))
            .to_owned()
    }
}

/// Every partition of `list_counts` a family names is one the triggers of both
/// migration folders keep: its list's prefix (or, counted whole, its table) is written
/// by them, and each further part of its key is a word they write, unless they take the
/// rest of the key from the record's columns. (That the counts agree with the records
/// is checked as the tests read every counted list: `CHECKS`.)
#[cfg(test)]
mod partitions {
    use crate::Partition;

    fn keys() -> Vec<&'static str> {
        fn all<P: Partition>() -> impl Iterator<Item = &'static str> {
            P::ALL.iter().map(|p| p.key())
        }
        let by_status = [
            crate::locations::COUNTED,
            crate::listings::COUNTED,
            crate::businesses::COUNTED,
        ];
        let mut keys: Vec<&'static str> = by_status
            .iter()
            .flat_map(|b| [b.active, b.inactive])
            .chain(all::<crate::members::Counted>())
            .chain(all::<crate::label_templates::Counted>())
            .chain(all::<crate::items::Counted>())
            .chain(all::<crate::orders::Counted>())
            .chain(all::<crate::persons::Counted>())
            .collect();
        // Counted whole: the partition is the table (`Total::whole`).
        let source_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        for path in sources(std::path::Path::new(source_dir)) {
            let text = std::fs::read_to_string(path).expect("reads a source");
            for found in text.split("Total::whole(company, \"").skip(1) {
                let table = found.split('"').next().expect("a name");
                keys.push(Box::leak(table.to_owned().into_boxed_str()));
            }
        }
        keys.extend(
            [
                crate::reference_data::Kind::CustomRole,
                crate::reference_data::Kind::Team,
                crate::reference_data::Kind::RetireReason,
            ]
            .map(crate::reference_data::Kind::table),
        );
        keys
    }

    fn sources(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                found.extend(sources(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
        found
    }

    /// Whether the triggers of `sql` take a key's parts after `prefix` from columns
    /// (`'items:' || NEW.asset_type`).
    fn from_columns(sql: &str, prefix: &str) -> bool {
        sql.split(&format!("'{prefix}:' ||")).skip(1).any(|rest| {
            let next = rest.trim_start();
            next.starts_with(|c: char| c.is_ascii_alphabetic()) && !next.starts_with("CASE")
        })
    }

    #[test]
    fn every_partition_is_kept_by_the_triggers_of_both_folders() {
        let keys = keys();
        assert!(keys.len() > 40, "{keys:?}");
        for folder in ["sqlite", "postgres"] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(folder);
            let sql: String = std::fs::read_dir(dir)
                .expect("the folder")
                .map(|e| std::fs::read_to_string(e.expect("an entry").path()).expect("reads"))
                .collect();
            for key in &keys {
                let mut parts = key.split(':');
                let prefix = parts.next().expect("a prefix");
                assert!(
                    sql.contains(&format!("'{prefix}:")) || sql.contains(&format!("'{prefix}'")),
                    "{folder}: no trigger keeps {key}"
                );
                if from_columns(&sql, prefix) {
                    continue;
                }
                for part in parts {
                    assert!(
                        [
                            format!("'{part}'"),
                            format!("':{part}'"),
                            format!("'{part}:"),
                            format!(":{part}'")
                        ]
                        .iter()
                        .any(|w| sql.contains(w.as_str())),
                        "{folder}: the triggers never write {part:?} of {key}"
                    );
                }
            }
        }
    }
}

/// The store's modules import each other without a circle, and the engine imports none
/// of them: read from the sources, each top-level module (its file or folder) pointing
/// at every module it names as `crate::<module>`. (`crate::<item>` of this file, such
/// as `crate::Tx`, is no module.)
#[cfg(test)]
mod layers {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The text of `path`, a file or every `.rs` file under a folder, before its tests.
    fn text(path: &Path) -> String {
        if path.is_dir() {
            let mut all = String::new();
            for entry in std::fs::read_dir(path).expect("a folder") {
                all.push_str(&text(&entry.expect("an entry").path()));
            }
            return all;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            return String::new();
        }
        let source = std::fs::read_to_string(path).expect("a source");
        match source.find("#[cfg(test)]") {
            Some(tests) => source[..tests].to_owned(),
            None => source,
        }
    }

    /// Each module and the modules it names.
    fn graph() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut modules: BTreeMap<String, String> = BTreeMap::new();
        for entry in std::fs::read_dir(&src).expect("src") {
            let path = entry.expect("an entry").path();
            let name = path
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if name != "lib" {
                modules.insert(name, text(&path));
            }
        }
        let names: BTreeSet<String> = modules.keys().cloned().collect();
        modules
            .iter()
            .map(|(name, source)| {
                let mut named = BTreeSet::new();
                let mut words: Vec<&str> = source.split("crate::").skip(1).collect();
                // `use crate::{a, b::c}`: each entry of the braces.
                let grouped: Vec<&str> = source
                    .split("use crate::{")
                    .skip(1)
                    .flat_map(|rest| rest.split('}').next().unwrap_or("").split(','))
                    .collect();
                words.extend(grouped);
                for word in words {
                    let first: String = word
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if names.contains(&first) && first != *name {
                        named.insert(first);
                    }
                }
                (name.clone(), named)
            })
            .collect()
    }

    #[test]
    fn the_engine_imports_no_other_module() {
        let graph = graph();
        assert!(graph.len() > 40, "{graph:?}");
        assert_eq!(graph["engine"], BTreeSet::new());
    }

    #[test]
    fn modules_import_each_other_without_a_circle() {
        let graph = graph();
        // Depth-first: a module met again while still on the path closes a circle.
        fn visit<'g>(
            module: &'g str,
            graph: &'g BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<&'g str>,
            done: &mut BTreeSet<&'g str>,
        ) {
            if let Some(at) = path.iter().position(|m| *m == module) {
                panic!("an import circle: {} -> {module}", path[at..].join(" -> "));
            }
            if !done.insert(module) {
                return;
            }
            path.push(module);
            for next in &graph[module] {
                visit(next, graph, path, done);
            }
            path.pop();
        }
        let mut done = BTreeSet::new();
        for module in graph.keys() {
            visit(module, &graph, &mut Vec::new(), &mut done);
        }
    }
}
