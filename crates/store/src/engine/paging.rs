//! Paging every list: one page of records and the list's total for `total_pages`, at a
//! cost that does not grow with the company's records nor with the page number (within
//! a small factor; see `page_of`).
//!
//! - **Totals.** An unfiltered list (and a list narrowed to a status) sums a few rows of
//!   `list_counts`, which triggers (migration 0007) keep exact in the transaction of
//!   every insert, delete, soft delete and status change; `Total::Counted` names the
//!   partitions to add up, and the functions at the end of this module say which
//!   partitions each list shows. A filtered list counts its records, on an index that
//!   holds the filter (`Total::Filtered`): the cost grows with the matches, not with
//!   the company.
//! - **Pages.** The page's ids are read from the list's index with LIMIT and OFFSET,
//!   from whichever end of the list is nearer the page (the exact total says where the
//!   end is), and only those records are read whole. So page 1 and the last page cost
//!   the same; a page in the middle of a list of `n` walks up to `n / 2` index entries.
//! - **Consistency.** The total and the page are read in one read-only transaction, one
//!   snapshot, so a page read backwards from the end is the same page a forward read
//!   would give, whatever is written meanwhile.

use crate::CompanyId;
use domain::Page;
use sea_query::{
    Expr, ExprTrait, IntoColumnRef, Order, QueryStatementBuilder, SelectStatement, Values,
};

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, LazyLock, RwLock};

use crate::{Backend, Count, Db, PageOf, Record, Statement, StoreError, Tx};

/// How a list's total is found.
#[derive(Debug, Clone)]
pub(crate) enum Total {
    /// The sum of these partitions of the company's `list_counts`.
    Counted(CompanyId, Vec<&'static str>),
    /// A COUNT of the list's records, which an index holding the filter must serve.
    Filtered,
    /// A COUNT of the list's records as `Filtered`, kept in this process under `key`
    /// (which names the company and the filter) while `version` reads the same
    /// number: a count that reads every match (a name search's) is made once per
    /// change of what it counts. `version` selects one row, `n`, from a number the
    /// writes that change the list raise in their own transaction, so equal numbers
    /// mean equal lists (`items::names_version`).
    Kept {
        key: (CompanyId, String),
        version: Box<SelectStatement>,
    },
}

/// The partitions of `list_counts` a family's records are counted in, kept by the
/// triggers of its migrations: each family names its own (`members::Counted`), and a
/// test reads every key against the triggers of both migration folders.
pub(crate) trait Partition: Copy + 'static {
    /// Every partition, in the order of `key`.
    const ALL: &'static [Self];

    /// The partition's key in `list_counts.list`.
    fn key(self) -> &'static str;
}

impl Total {
    /// The sum of `partitions` of the company's counts.
    pub(crate) fn of<P: Partition>(
        company: CompanyId,
        partitions: impl IntoIterator<Item = P>,
    ) -> Total {
        Total::Counted(company, partitions.into_iter().map(P::key).collect())
    }

    /// A list of every record of a table counted whole (`asset_groups`, `vendors`, ...):
    /// the partition is the table's name (migration 0007's `list_count_rows`).
    pub(crate) fn whole(company: CompanyId, table: &'static str) -> Total {
        Total::Counted(company, vec![table])
    }

    /// Records counted by status: all of them (`active` None), or those of one.
    pub(crate) fn by_status(company: CompanyId, active: Option<bool>, counted: ByStatus) -> Total {
        let ByStatus {
            active: on,
            inactive: off,
        } = counted;
        match active {
            None => Total::Counted(company, vec![on, off]),
            Some(true) => Total::Counted(company, vec![on]),
            Some(false) => Total::Counted(company, vec![off]),
        }
    }
}

/// The two partitions of a list counted by status (`locations:active` and
/// `locations:inactive`), as its family names them for `Total::by_status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByStatus {
    pub(crate) active: &'static str,
    pub(crate) inactive: &'static str,
}

/// A page of a company-scoped select (`base`: the records of the list, filter applied,
/// without columns), ordered by id.
pub(crate) async fn paged<T: Record, C: IntoColumnRef>(
    db: &Db,
    base: SelectStatement,
    columns: impl IntoIterator<Item = C>,
    page: Page,
    total: Total,
) -> Result<PageOf<T>, StoreError> {
    let (base, rows) = with_columns(base, columns);
    read_list(db, &base, rows, "id", page, total, Columns::Own).await
}

/// `base` (without columns) and the select of its `columns` ordered by `id`: what
/// `page_of` takes.
pub(crate) fn with_columns<C: IntoColumnRef>(
    base: SelectStatement,
    columns: impl IntoIterator<Item = C>,
) -> (SelectStatement, SelectStatement) {
    let rows = base
        .clone()
        .columns(columns)
        .order_by("id", Order::Asc)
        .take();
    (base, rows)
}

/// The records of `rows` (a select ordered by `id`, as [`page_of`] takes it) whose `id`
/// is above `after`, at most `limit`: an export's batches, each found by the index
/// whatever how far into the list it starts, where a page number would skip.
pub(crate) async fn after<T: Record>(
    db: &Db,
    mut rows: SelectStatement,
    id: impl IntoColumnRef,
    after: i64,
    limit: u64,
) -> Result<Vec<T>, StoreError> {
    rows.and_where(Expr::col(id.into_column_ref()).gt(after))
        .limit(limit);
    db.read().all(&rows).await
}

/// Pages that start before this record (the first ten of 25) are read forward in one
/// statement with the total: skipping that few records costs less than another
/// statement.
const FORWARD_IN_ONE: u64 = 250;

/// The page `page` of the records `base` selects (without columns; its table's `id`
/// orders the list), read whole with `rows`: a select of the columns (joins welcome)
/// ordered by `id`, the same id as `rows` names it. `rows` is narrowed to the page here.
///
/// Every statement reads the page with the list's total as a column of each record, so
/// the two come from one snapshot. A page counted from the start holds the same records
/// whatever the total; a page counted from the end is computed from a total known
/// before (for a counted list, the last one this process saw, see `LastTotals`; else
/// one read just before) and is used only when the statement's own total is that one;
/// otherwise it is read again from the statement's total. So a counted list takes one
/// statement on the pool while it does not change, two when it did. A filtered list
/// past its first ten pages reads its count and then the page from the nearer end in
/// one read-only transaction: two statements, one count.
pub(crate) async fn page_of<T: Record>(
    db: &Db,
    base: &SelectStatement,
    rows: SelectStatement,
    id: impl IntoColumnRef,
    page: Page,
    total: Total,
) -> Result<PageOf<T>, StoreError> {
    read_list(db, base, rows, id, page, total, Columns::Computed).await
}

/// `page_of` for rows of either kind.
async fn read_list<T: Record>(
    db: &Db,
    base: &SelectStatement,
    rows: SelectStatement,
    id: impl IntoColumnRef,
    page: Page,
    total: Total,
    columns: Columns,
) -> Result<PageOf<T>, StoreError> {
    let list = List {
        backend: db.backend(),
        id: id.into_column_ref(),
        total: &total,
        columns,
    };
    let read_page = |w: &Window, with_total: bool| {
        Arc::new(PageRows::new(&list, base, rows.clone(), w, with_total).rendered(list.backend))
    };
    read_pages(db, || Cow::Borrowed(base), read_page, page, &total).await
}

/// `page_of` for a list whose page statements, when it is counted, are a function of
/// `key` alone (with the backend and the window; a counted list's filter holds no
/// value of the request's, its counters being per partition). Each statement is built
/// and rendered once and kept in `memo`: building and rendering an asset page's
/// statement (45 columns, five joins) was a tenth of the server's CPU for the page on
/// SQLite (perf). `parts` builds the list's `base` and `rows` when a statement is not
/// kept yet; a filtered list's pages are built every time. In debug builds (the
/// tests) every read also builds its statement and checks that the kept one is the
/// same text with the same values, so a key that misses an input fails the tests.
pub(crate) async fn memo_page_of<T: Record, K: Hash + Eq + Clone>(
    db: &Db,
    (memo, key): (&'static PageMemo<K>, K),
    parts: impl Fn() -> (SelectStatement, SelectStatement),
    id: impl IntoColumnRef,
    page: Page,
    total: Total,
    columns: Columns,
) -> Result<PageOf<T>, StoreError> {
    let id = id.into_column_ref();
    if matches!(total, Total::Filtered | Total::Kept { .. }) {
        // A filter's values are not in the key: such pages are built every time.
        let (base, rows) = parts();
        return read_list(db, &base, rows, id, page, total, columns).await;
    }
    let backend = db.backend();
    let list = List {
        backend,
        id,
        total: &total,
        columns,
    };
    let read_page = |w: &Window, with_total: bool| {
        let build = || {
            let (base, rows) = parts();
            PageRows::new(&list, &base, rows, w, with_total).rendered(backend)
        };
        let slot = (
            key.clone(),
            backend,
            w.order == Order::Asc,
            w.limit,
            w.offset,
            with_total,
        );
        memo.get_or_build(slot, build)
    };
    read_pages(db, || Cow::Owned(parts().0), read_page, page, &total).await
}

/// The statements of pages kept by `memo_page_of`, under the key, the backend, and the
/// window (ascending, LIMIT, OFFSET, with the total). At most `LIMIT` are kept (an
/// asset page's statement is about 3 kB); past that the memory starts afresh.
pub(crate) struct PageMemo<K>(LazyLock<RwLock<HashMap<Slot<K>, Arc<PageStatement>>>>);

/// Where a page statement is kept: the list's key, the backend, and the window
/// (ascending, LIMIT, OFFSET, with the total).
type Slot<K> = (K, Backend, bool, u64, u64, bool);

impl<K: Hash + Eq> PageMemo<K> {
    const LIMIT: usize = 256;

    pub(crate) const fn new() -> PageMemo<K> {
        PageMemo(LazyLock::new(|| RwLock::new(HashMap::new())))
    }

    fn get_or_build(
        &self,
        slot: Slot<K>,
        build: impl FnOnce() -> PageStatement,
    ) -> Arc<PageStatement> {
        let kept = self
            .0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&slot)
            .cloned();
        match kept {
            Some(kept) if !crate::CHECKS => kept,
            kept => {
                let built = Arc::new(build());
                if let Some(kept) = kept {
                    assert_eq!(
                        (&kept.text, &kept.values),
                        (&built.text, &built.values),
                        "a kept page statement differs from the one its key builds"
                    );
                }
                let mut all = self
                    .0
                    .write()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if all.len() >= Self::LIMIT {
                    all.clear();
                }
                all.insert(slot, Arc::clone(&built));
                built
            }
        }
    }
}

/// The reading of a page, whatever makes its statements: `base()` is the list's
/// records (for its count), `read_page(window, with_total)` the statement of a window.
async fn read_pages<'b, T: Record>(
    db: &Db,
    base: impl Fn() -> Cow<'b, SelectStatement>,
    read_page: impl Fn(&Window, bool) -> Arc<PageStatement>,
    page: Page,
    total: &Total,
) -> Result<PageOf<T>, StoreError> {
    let mut read = Source::Pool(db.read());
    let forward = Window {
        order: Order::Asc,
        limit: page.limit(),
        offset: page.offset(),
    };
    // A kept count: the page, from the nearer end by the count kept, with the version
    // of what it counts, in one statement; its answer when the version is the one the
    // count was kept at.
    if let Total::Kept { key, .. } = total
        && let Some((version, n)) = db.kept_counts.latest(key)
        && let Some(w) = window(n, page)
    {
        let found: Vec<Checked<T>> = read_page(&w, true).read(&mut read).await?;
        if found.first().is_some_and(|f| f.list_total == version) {
            return Ok(PageOf {
                records: found.into_iter().map(|c| c.record).collect(),
                total: n,
            });
        }
    }
    let kept = matches!(total, Total::Kept { .. });
    if page.offset() < FORWARD_IN_ONE && !kept {
        let found: Vec<Checked<T>> = read_page(&forward, true).read(&mut read).await?;
        if let Some(first) = found.first() {
            let n = checked_total(first.list_total, total);
            db.last_totals.remember(total, n);
            return Ok(PageOf {
                records: found.into_iter().map(|c| c.record).collect(),
                total: n,
            });
        }
    }
    // A filtered list past its first pages (or an empty one): its count, then the page
    // from the nearer end, in one snapshot; counting costs more than a statement, so
    // once.
    if matches!(total, Total::Filtered) || kept {
        return filtered_page(db, &base(), total, page, read_page).await;
    }
    // The total the window is computed from, and whether it was read just now (rather
    // than remembered).
    let (mut expected, mut fresh) = match db.last_totals.get(total) {
        Some(n) if page.offset() >= FORWARD_IN_ONE => (n, false),
        _ => (total_of(db, &mut read, &base(), total).await?, true),
    };
    for _ in 0..3 {
        let Some(w) = window(expected, page) else {
            if fresh {
                return Ok(PageOf {
                    records: Vec::new(),
                    total: expected,
                });
            }
            // Past the end, unless the list has grown since `expected` was seen.
            (expected, fresh) = (total_of(db, &mut read, &base(), total).await?, true);
            continue;
        };
        // A counted list: the page with its total, read forward (the page does not
        // depend on the total) or from the end (it does: kept if the total is the one
        // the window was computed from).
        let found: Vec<Checked<T>> = read_page(&w, true).read(&mut read).await?;
        let Some(first) = found.first() else { break };
        let n = checked_total(first.list_total, total);
        db.last_totals.remember(total, n);
        if w.order == Order::Asc || n == expected {
            return Ok(PageOf {
                records: found.into_iter().map(|c| c.record).collect(),
                total: n,
            });
        }
        (expected, fresh) = (n, true);
    }
    filtered_page(db, &base(), total, page, read_page).await
}

/// The total and then the page counted from the nearer end, in one read-only
/// transaction (one snapshot).
async fn filtered_page<T: Record>(
    db: &Db,
    base: &SelectStatement,
    total: &Total,
    page: Page,
    read_page: impl Fn(&Window, bool) -> Arc<PageStatement>,
) -> Result<PageOf<T>, StoreError> {
    let mut snapshot = Source::Snapshot(Box::new(db.begin_read().await?));
    let n = total_of(db, &mut snapshot, base, total).await?;
    let records = match window(n, page) {
        None => Vec::new(),
        Some(w) => read_page(&w, false).read(&mut snapshot).await?,
    };
    if let Source::Snapshot(tx) = snapshot {
        tx.commit().await?;
    }
    Ok(PageOf { records, total: n })
}

/// The last total this process read of each counted list, to choose before reading a
/// page from which end to read it. A stale one costs a second statement (the page's
/// statement reads the total too and tells), never a wrong page. At most `LIMIT`
/// lists are kept; past that the memory starts afresh.
#[derive(Debug, Default)]
pub(crate) struct LastTotals(std::sync::Mutex<HashMap<(i64, Vec<&'static str>), u64>>);

impl LastTotals {
    const LIMIT: usize = 10_000;

    fn get(&self, total: &Total) -> Option<u64> {
        let Total::Counted(company, lists) = total else {
            return None;
        };
        let seen = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        seen.get(&(company.0, lists.clone())).copied()
    }

    fn remember(&self, total: &Total, n: u64) {
        let Total::Counted(company, lists) = total else {
            return;
        };
        let mut seen = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if seen.len() >= Self::LIMIT {
            seen.clear();
        }
        seen.insert((company.0, lists.clone()), n);
    }
}

/// The counts of `Total::Kept` lists, each with the version it was counted at. At most
/// `LIMIT` are kept; past that the memory starts afresh.
#[derive(Debug, Default)]
pub(crate) struct KeptCounts(
    std::sync::Mutex<HashMap<(CompanyId, String), (i64, u64)>>,
    /// One gate a list being counted: requests that find no count wait for the one
    /// counting rather than count too. 64 connections asking at once for a search
    /// matching 100,000 assets on PostgreSQL counted 64 times over and met 503s.
    std::sync::Mutex<Gates>,
);

/// The gates of `KeptCounts`, by list.
type Gates = HashMap<(CompanyId, String), Arc<tokio::sync::Mutex<()>>>;

impl KeptCounts {
    const LIMIT: usize = 10_000;

    /// The gate of `key`'s count (see the struct).
    fn gate(&self, key: &(CompanyId, String)) -> Arc<tokio::sync::Mutex<()>> {
        let mut gates = self
            .1
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if gates.len() >= Self::LIMIT {
            gates.retain(|_, gate| Arc::strong_count(gate) > 1);
        }
        gates.entry(key.clone()).or_default().clone()
    }

    /// The count kept under `key`, if it was counted at `version`.
    pub(crate) fn get(&self, key: &(CompanyId, String), version: i64) -> Option<u64> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.get(key)
            .filter(|(v, _)| *v == version)
            .map(|(_, n)| *n)
    }

    fn remember(&self, key: &(CompanyId, String), version: i64, n: u64) {
        let mut kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() >= Self::LIMIT {
            kept.clear();
        }
        kept.insert(key.clone(), (version, n));
    }

    /// The count last kept under `key` with its version: the answer of a page read
    /// with that version, else a guess of the list's size that may choose a
    /// statement's shape.
    pub(crate) fn latest(&self, key: &(CompanyId, String)) -> Option<(i64, u64)> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.get(key).copied()
    }
}

/// Where a list is read from: straight from the pool, or in a read-only transaction.
enum Source<'a> {
    Pool(crate::Reader<'a>),
    Snapshot(Box<Tx>),
}

impl Source<'_> {
    /// The statement's rows; `may_sort`: whether its plan may sort what it reads (the
    /// plan is checked in the tests, see `plan`).
    async fn all<T: Record>(
        &mut self,
        stmt: &(impl Statement + Sync),
        #[cfg_attr(
            not(any(debug_assertions, feature = "checks")),
            expect(unused_variables)
        )]
        may_sort: bool,
    ) -> Result<Vec<T>, StoreError> {
        #[cfg(any(debug_assertions, feature = "checks"))]
        plan::check(self, stmt, may_sort).await?;
        self.unchecked(stmt).await
    }

    /// The statement's rows, its plan unchecked.
    async fn unchecked<T: Record>(
        &mut self,
        stmt: &(impl Statement + Sync),
    ) -> Result<Vec<T>, StoreError> {
        match self {
            Source::Pool(read) => read.all(stmt).await,
            Source::Snapshot(tx) => tx.all(stmt).await,
        }
    }

    #[cfg(any(debug_assertions, feature = "checks"))]
    fn backend(&self) -> Backend {
        match self {
            Source::Pool(read) => read.backend(),
            Source::Snapshot(tx) => tx.backend(),
        }
    }

    async fn one<T: Record>(&mut self, stmt: &(impl Statement + Sync)) -> Result<T, StoreError> {
        #[cfg(any(debug_assertions, feature = "checks"))]
        plan::check(self, stmt, true).await?;
        match self {
            Source::Pool(read) => read.one(stmt).await,
            Source::Snapshot(tx) => tx.one(stmt).await,
        }
    }
}

/// What a page's rows are, which decides how a PostgreSQL page skips records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Columns {
    /// The table's own columns (`paged`): a skipped record costs its read.
    Own,
    /// Joins or correlated subqueries (`page_of`), which PostgreSQL would compute for
    /// every record a plain OFFSET skips.
    Computed,
}

/// What every page statement of one read of a list shares.
struct List<'a> {
    backend: Backend,
    id: sea_query::ColumnRef,
    total: &'a Total,
    columns: Columns,
}

/// The statement that reads a window's records whole.
///
/// - SQLite, the first page of either end: `rows` in the window's order with LIMIT
///   written into the SQL text. Literal numbers keep the statement cached: SQLite
///   (3.51) plans a statement again at every execution that binds its LIMIT anew,
///   since the number may change the plan.
/// - SQLite, any page that skips records: `rows` from the window's first id on, in the
///   window's order with a literal LIMIT, that id read from the list's index alone
///   (`id <= (SELECT "id" FROM (<ids>) ORDER BY "id" DESC LIMIT 1 OFFSET m)`, literal;
///   SQLite takes no LIMIT after a parenthesized select). With a plain OFFSET SQLite
///   skips only the columns of a skipped record: it still performs the record's joins
///   and evaluates its WHERE on the row, so the asset list's last pages (five joins, up
///   to 225 records skipped at 1,000 assets) answered 680 times a second against 5,700
///   for the first page; through `id IN (<the window's ids>)`, 5,400. From the
///   window's first id the page reads the index as the first page does, without the
///   list of ids SQLite built for the IN and looked each record up from: the server's
///   CPU per request for the last ten asset pages (100,000 assets, alternating
///   builds) went from 97 and 103 µs to 79 and 80, the last member pages' from 78 and
///   109 to 62 and 63.
/// - PostgreSQL, a counted list's first page of either end, and its pages up to
///   `PG_DIRECT` skipped records when its rows are the table's own columns
///   (`Columns::Own`): `rows` in the window's order with LIMIT and OFFSET, literal as
///   on SQLite. Bound, they left the planner costing a generic plan for an unknown
///   LIMIT (a tenth of the list), so it planned the statement anew at every
///   execution: 2.4 ms of planning for 0.2 ms of work on the asset list (six tables)
///   at 100,000 assets. Literal, the generic plan is costed for 25 rows and kept after
///   PostgreSQL's five trial plans (0.02 ms). A page whose rows are computed
///   (`Columns::Computed`: an item's names and links, a member's teams) skips nothing
///   this way, since PostgreSQL computes the columns of every record OFFSET skips:
///   the window below answered the last ten pages of 1,000 assets 5,550 / 5,500
///   times a second against 4,100 / 4,120, and of members 6,820 / 6,820 against
///   6,100 / 5,890, while it lost on the plain lists (locations 8,530 against 12,020,
///   customers 6,580 against 9,800).
/// - PostgreSQL, a counted list's pages further in: from the window's first id, as on
///   SQLite (`id <= ((<ids> ORDER BY "id" DESC) LIMIT 1 OFFSET m)`, which PostgreSQL
///   computes once, before the page, as an InitPlan), the page read in the index's
///   order with a literal LIMIT: no list of ids to build, look up and sort. The last
///   ten asset pages at 100,000 assets went from 76 to 80 µs of the server's CPU a
///   request to 64 to 67, the last member pages from 54 to 66 to 45 or 46
///   (alternating builds, three rounds).
/// - PostgreSQL, any filtered list: `rows` narrowed to `id =
///   ANY(ARRAY(<the window's ids>))`, the ids read from the list's index alone, since
///   a plain OFFSET would fetch every skipped record from the table (and compute its
///   columns, the correlated subqueries of `links::linked` among them), and since the
///   planner, guessing a filter such as a name search selective, would otherwise join
///   (and compute the columns of) every matching record before sorting them for the
///   page: 360 ms instead of 40 ms for a search matching 100,000 assets. The window's
///   LIMIT and OFFSET are literal here too (`(<ids>) LIMIT n OFFSET m`, which
///   PostgreSQL reads as the subquery's own): bound, they made PostgreSQL plan the
///   asset page anew at every execution (1.3 ms of planning for 0.5 ms of work, 1,000
///   assets), 657 pages a second where literal numbers give 1,778. The ids are an
///   array (one subplan, run first) rather than `id IN (<ids>)`: that the planner read
///   as a hash join of the window with every record of the list, a scan of the whole
///   table (1,000 assets read for a page of 25, 0.6 ms), where the array's 25 ids are
///   looked up by the primary key (0.25 ms); the asset list's pages past the first,
///   3,000 to 3,300 -> 5,700 to 6,400 a second (alternating builds, 1,000 assets).
struct PageRows {
    select: SelectStatement,
    /// The LIMIT and OFFSET to append as literal numbers.
    literal: Option<(u64, u64)>,
    /// Read in descending order, answered in ascending.
    reverse: bool,
    /// A counted list's page, which must be read in the order of the list's index (a
    /// filtered one may sort its matches: its count reads them all anyway).
    counted: bool,
}

/// Whether the rows of a page of a list with `total` must test the list's filter
/// themselves: not on PostgreSQL when the list is filtered, whose rows are narrowed to
/// the ids of its window (`PageRows::window`), read with the filter in the same
/// statement. A name search's candidates were read twice for each page otherwise.
pub(crate) fn rows_filtered(backend: Backend, total: &Total) -> bool {
    backend == Backend::Sqlite || matches!(total, Total::Counted(..))
}

/// On PostgreSQL, the most records a page of `Columns::Own` skips with a plain OFFSET
/// (fewer with the checks on, so that the tests' lists of a few hundred records take
/// both ways).
const PG_DIRECT: u64 = if crate::CHECKS { 100 } else { 1000 };

impl PageRows {
    fn new(
        list: &List<'_>,
        base: &SelectStatement,
        rows: SelectStatement,
        w: &Window,
        with_total: bool,
    ) -> PageRows {
        let id = list.id.clone();
        let counted = matches!(list.total, Total::Counted(..));
        // The window's first record: at most it (`<=`) reading the index down, at least it
        // reading up.
        let (dir, from) = if w.order == Order::Desc {
            ("DESC", "<=")
        } else {
            ("ASC", ">=")
        };
        // The list's ids in the window's order (PostgreSQL).
        let ids_in_order = || {
            base.clone()
                .column("id")
                .order_by("id", w.order.clone())
                .take()
        };
        let mut page = match list.backend {
            Backend::Sqlite if w.offset == 0 => PageRows::direct(rows, id, w, counted),
            Backend::Sqlite => PageRows::from_first(
                rows,
                id,
                base.clone().column("id").take(),
                // SQLite's placeholders in a custom expression are `?`.
                format!(
                    r#"? {from} (SELECT "id" FROM ? AS "window" ORDER BY "id" {dir} LIMIT 1 OFFSET {})"#,
                    w.offset
                ),
                w,
                counted,
            ),
            Backend::Postgres
                if counted
                    && (w.offset == 0 || list.columns == Columns::Own && w.offset <= PG_DIRECT) =>
            {
                PageRows::direct(rows, id, w, counted)
            }
            Backend::Postgres if counted => PageRows::from_first(
                rows,
                id,
                ids_in_order(),
                format!("$1 {from} ($2 LIMIT 1 OFFSET {})", w.offset),
                w,
                counted,
            ),
            Backend::Postgres => PageRows::window(
                rows,
                id,
                ids_in_order(),
                format!("$1 = ANY(ARRAY($2 LIMIT {} OFFSET {}))", w.limit, w.offset),
                counted,
            ),
        };
        if with_total {
            page.select
                .expr_as(total_expr(base, list.total), "list_total");
        }
        page
    }

    fn rendered(&self, backend: Backend) -> PageStatement {
        let (sql, values) = self.select.render(backend);
        PageStatement {
            text: match self.literal {
                // Whole numbers, formatted here: nothing else enters the text.
                Some((limit, offset)) => format!("{sql} LIMIT {limit} OFFSET {offset}"),
                None => sql,
            },
            values,
            reverse: self.reverse,
            counted: self.counted,
        }
    }

    /// `rows` narrowed to the ids the template picks: `template` holds the record's id
    /// and the select of the list's ids as the backend's first and second placeholder,
    /// and the window's LIMIT and OFFSET as literal numbers. Answered in ascending
    /// order whichever end the window counts from.
    fn window(
        mut rows: SelectStatement,
        id: sea_query::ColumnRef,
        ids: SelectStatement,
        template: String,
        counted: bool,
    ) -> PageRows {
        PageRows {
            select: rows.and_where(id_against(template, id, ids)).take(),
            literal: None,
            reverse: false,
            counted,
        }
    }

    /// `rows` from the window's first record on, in the window's order with its LIMIT
    /// literal: `template` holds the record's id and the select of the list's ids as the
    /// backend's first and second placeholder, and compares the one with the window's
    /// first id, which it reads from the other with the window's OFFSET (literal).
    fn from_first(
        mut rows: SelectStatement,
        id: sea_query::ColumnRef,
        ids: SelectStatement,
        template: String,
        w: &Window,
        counted: bool,
    ) -> PageRows {
        let first = id_against(template, id.clone(), ids);
        let from_first = Window {
            order: w.order.clone(),
            limit: w.limit,
            offset: 0,
        };
        PageRows::direct(rows.and_where(first).take(), id, &from_first, counted)
    }

    /// `rows` in the window's order, its LIMIT and OFFSET literal.
    fn direct(
        mut rows: SelectStatement,
        id: sea_query::ColumnRef,
        w: &Window,
        counted: bool,
    ) -> PageRows {
        PageRows {
            select: rows.clear_order_by().order_by(id, w.order.clone()).take(),
            literal: Some((w.limit, w.offset)),
            reverse: w.order == Order::Desc,
            counted,
        }
    }
}

/// `template` with the record's id and the select of the list's ids as the backend's
/// first and second placeholder: the condition that picks a page's records.
fn id_against(template: String, id: sea_query::ColumnRef, ids: SelectStatement) -> Expr {
    Expr::cust_with_exprs(
        template,
        [Expr::col(id), Expr::SubQuery(None, Box::new(ids.into()))],
    )
}

/// A page's statement, rendered.
pub(crate) struct PageStatement {
    text: String,
    values: Values,
    /// Read in descending order, answered in ascending.
    reverse: bool,
    /// Read in the order of the list's index (see `PageRows`).
    counted: bool,
}

impl PageStatement {
    async fn read<T: Record>(&self, source: &mut Source<'_>) -> Result<Vec<T>, StoreError> {
        let mut records = source.all(self, !self.counted).await?;
        if self.reverse {
            records.reverse();
        }
        Ok(records)
    }
}

impl Statement for PageStatement {
    fn render(&self, _backend: Backend) -> (String, Values) {
        (self.text.clone(), self.values.clone())
    }
}

/// A record and the list's total as the statement that read the record saw it.
struct Checked<T> {
    record: T,
    list_total: i64,
}

impl<T: super::sqlite::LiteRow> super::sqlite::LiteRow for Checked<T> {
    fn read(row: &super::sqlite::Cells<'_, '_>) -> rusqlite::Result<Self> {
        Ok(Checked {
            record: T::read(row)?,
            list_total: super::sqlite::column(row, "list_total")?,
        })
    }
}

impl<T: super::pg_rows::PgRecord> super::pg_rows::PgRecord for Checked<T> {
    fn from_pg(row: &tokio_postgres::Row) -> Result<Self, crate::DbError> {
        Ok(Checked {
            record: T::from_pg(row)?,
            list_total: super::pg_rows::column(row, "list_total")?,
        })
    }
}

/// The count of a list (`base`'s records) for a list that chooses its statement by how
/// many records it holds (`items::search`): a `Total::Kept` one at the current version
/// of what it counts (the kept one, or counted now and kept); a `Total::Counted` one as
/// this process last saw it, or read now.
pub(crate) async fn known_total(
    db: &Db,
    base: &SelectStatement,
    total: &Total,
) -> Result<u64, StoreError> {
    if let Some(n) = db.last_totals.get(total) {
        return Ok(n);
    }
    total_of(db, &mut Source::Pool(db.read()), base, total).await
}

async fn total_of(
    db: &Db,
    read: &mut Source<'_>,
    base: &SelectStatement,
    total: &Total,
) -> Result<u64, StoreError> {
    if let Total::Kept { key, version } = total {
        let Count { n: version } = read.one(version.as_ref()).await?;
        if let Some(n) = db.kept_counts.get(key, version) {
            return Ok(n);
        }
        let gate = db.kept_counts.gate(key);
        let _counting = gate.lock().await;
        if let Some(n) = db.kept_counts.get(key, version) {
            return Ok(n);
        }
        let stmt = sea_query::Query::select()
            .expr_as(total_expr(base, &Total::Filtered), "n")
            .take();
        let n: Count = read.one(&stmt).await?;
        let n = checked_total(n.n, total);
        db.kept_counts.remember(key, version, n);
        return Ok(n);
    }
    let stmt = sea_query::Query::select()
        .expr_as(total_expr(base, total), "n")
        .take();
    let n: Count = read.one(&stmt).await?;
    let n = checked_total(n.n, total);
    db.last_totals.remember(total, n);
    Ok(n)
}

/// The list's total as an expression: the sum of its counters, or a count of its
/// records. In debug builds (the tests) a counted total is also compared with a count
/// of the records in the same statement (one snapshot): when they differ, the
/// expression is -1 and `checked_total` fails the request.
fn total_expr(base: &SelectStatement, total: &Total) -> Expr {
    let sub = |s: SelectStatement| Expr::SubQuery(None, Box::new(s.into_sub_query_statement()));
    match total {
        Total::Counted(company, lists) => {
            let sum = sub(counter_sum(*company, lists));
            if crate::CHECKS {
                Expr::case(sum.clone().eq(sub(count_of(base))), sum)
                    .finally(-1)
                    .into()
            } else {
                sum
            }
        }
        Total::Filtered => sub(count_of(base)),
        // Read with a page, the version of what the kept count counts.
        Total::Kept { version, .. } => sub(version.as_ref().clone()),
    }
}

fn checked_total(n: i64, total: &Total) -> u64 {
    assert!(
        !crate::CHECKS || n >= 0,
        "the counters {total:?} disagree with the records they count"
    );
    u64::try_from(n).unwrap_or(0)
}

/// The sum of the company's counters `lists`, as `n` (0 when there are none yet).
fn counter_sum(company: CompanyId, lists: &[&'static str]) -> SelectStatement {
    use sea_query::Func;
    crate::scoped("list_counts", company)
        .expr_as(
            Func::coalesce([Expr::col("n").sum(), Expr::val(0)]).cast_as("BIGINT"),
            "n",
        )
        .and_where(Expr::col("list").is_in(lists.iter().copied()))
        .take()
}

/// `SELECT COUNT(id) AS n` of the records `base` selects.
fn count_of(base: &SelectStatement) -> SelectStatement {
    base.clone().expr_as(Expr::col("id").count(), "n").take()
}

/// Which records of a list of `total` make page `page`: LIMIT and OFFSET counted from
/// the nearer end of the list, in the order to read the index in.
#[derive(Debug, PartialEq)]
struct Window {
    order: Order,
    limit: u64,
    offset: u64,
}

fn window(total: u64, page: Page) -> Option<Window> {
    let start = page.offset();
    if start >= total {
        return None;
    }
    let end = std::cmp::min(total, start + page.limit());
    let from_end = total - end;
    Some(if from_end < start {
        Window {
            order: Order::Desc,
            limit: end - start,
            offset: from_end,
        }
    } else {
        Window {
            order: Order::Asc,
            limit: end - start,
            offset: start,
        }
    })
}

/// With the checks on (`CHECKS`), once the tests turn it on (`check_list_plans`), check on SQLite that
/// every count and page of ids the lists run is served by an index: a plan that scans a
/// whole table, or a whole index, fails the request loudly. A served binary never
/// checks, whatever its build: a plan is the planner's choice for the data at hand.
#[cfg(any(debug_assertions, feature = "checks"))]
mod plan {
    use sea_query::Values;
    use std::sync::atomic::{AtomicBool, Ordering};

    pub(super) static ON: AtomicBool = AtomicBool::new(false);

    use super::Source;
    use crate::{Backend, Statement, StoreError};

    struct Explain<'a, S>(&'a S);

    impl<S: Statement> Statement for Explain<'_, S> {
        fn render(&self, backend: Backend) -> (String, Values) {
            let (sql, values) = self.0.render(backend);
            (format!("EXPLAIN QUERY PLAN {sql}"), values)
        }
    }

    #[derive(crate::Row)]
    struct Step {
        detail: String,
    }

    /// Whether ANALYZE has written statistics.
    const HAS_STATISTICS: crate::Sql = crate::Sql {
        text: "SELECT \"name\" AS \"detail\" FROM \"sqlite_schema\" WHERE \"name\" = 'sqlite_stat1'",
        values: Values(Vec::new()),
    };

    /// The tables that statistics show to hold at most one row.
    const TINY: crate::Sql = crate::Sql {
        text: "SELECT \"tbl\" AS \"detail\" FROM \"sqlite_stat1\" WHERE CAST(\"stat\" AS INTEGER) <= 1",
        values: Values(Vec::new()),
    };

    pub(super) async fn check(
        read: &mut Source<'_>,
        stmt: &(impl Statement + Sync),
        may_sort: bool,
    ) -> Result<(), StoreError> {
        if !ON.load(Ordering::Relaxed) || read.backend() != Backend::Sqlite {
            return Ok(());
        }
        let steps: Vec<Step> = read.unchecked(&Explain(stmt)).await?;
        // "SCAN persons" and "SCAN persons USING INDEX ..." read every row of the table
        // or index; "SEARCH ... USING INDEX ... (company_id=? ...)" reads a range. Scans
        // of a subquery's result ("SCAN (subquery-1)") are fine, and so is a scan of
        // `list_counts` that statistics (ANALYZE, run by `optimize`) show to hold one
        // company's few rows: with many companies the same statistics make the planner
        // search its primary key instead. So is a scan of a table that statistics show
        // to hold one row (read only when the plan scans a table).
        fn scanned(step: &Step) -> Option<&str> {
            step.detail.strip_prefix("SCAN ").and_then(|rest| {
                let table = rest.split(' ').next().unwrap_or(rest);
                // A virtual table searched through its index (FTS5's `M`: a MATCH) reads
                // what matches; `INDEX 0:` with nothing after it reads it all.
                let searched = rest
                    .split_once("VIRTUAL TABLE INDEX ")
                    .and_then(|(_, index)| index.split_once(':'))
                    .is_some_and(|(_, constraints)| !constraints.is_empty());
                (!rest.starts_with('(')
                    && !rest.starts_with("CONSTANT")
                    && table != "list_counts"
                    && !searched)
                    .then_some(table)
            })
        }
        let tiny: Vec<Step> = if !steps.iter().any(|s| scanned(s).is_some())
            || read.unchecked::<Step>(&HAS_STATISTICS).await?.is_empty()
        {
            Vec::new()
        } else {
            read.unchecked(&TINY).await?
        };
        for step in &steps {
            let scans_table =
                scanned(step).is_some_and(|table| !tiny.iter().any(|t| t.detail == table));
            assert!(
                !scans_table,
                "a list query scans a whole table: {}\nplan: {:?}",
                step.detail,
                steps.iter().map(|s| &s.detail).collect::<Vec<_>>()
            );
            // A counted list's page is read in the order of the list's index; sorting
            // means every record of the list was read to answer 25 of them.
            assert!(
                may_sort || step.detail != "USE TEMP B-TREE FOR ORDER BY",
                "a list query sorts all its matches for one page\nplan: {:?}",
                steps.iter().map(|s| &s.detail).collect::<Vec<_>>()
            );
        }
        Ok(())
    }
}

/// Turns on the check that list queries use indexes (with the checks on: `CHECKS`; see
/// `plan`).
/// For tests, whose small fresh databases have no statistics to steer the planner.
pub fn check_list_plans() {
    #[cfg(any(debug_assertions, feature = "checks"))]
    plan::ON.store(true, std::sync::atomic::Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::PageSize;

    fn statement(text: &str) -> PageStatement {
        PageStatement {
            text: text.to_owned(),
            values: Values(vec![1i64.into()]),
            reverse: false,
            counted: true,
        }
    }

    fn slot(key: i64, offset: u64) -> Slot<i64> {
        (key, Backend::Sqlite, true, 25, offset, true)
    }

    #[test]
    fn a_kept_page_statement_is_the_one_of_its_key_and_window() {
        static MEMO: PageMemo<i64> = PageMemo::new();
        let first = MEMO.get_or_build(slot(1, 0), || statement("page 1"));
        assert_eq!(first.text, "page 1");
        // Another window or another key is another statement.
        assert_eq!(
            MEMO.get_or_build(slot(1, 25), || statement("page 2")).text,
            "page 2"
        );
        assert_eq!(
            MEMO.get_or_build(slot(2, 0), || statement("other")).text,
            "other"
        );
        let again = MEMO.get_or_build(slot(1, 0), || statement("page 1"));
        assert_eq!(again.text, "page 1");
        if !crate::CHECKS {
            assert!(Arc::ptr_eq(&first, &again), "kept, not built again");
        }
        // Past the bound the memory starts afresh.
        for offset in 0..PageMemo::<i64>::LIMIT as u64 {
            MEMO.get_or_build(slot(3, offset), || statement("bulk"));
        }
        assert!(MEMO.0.read().unwrap().len() <= PageMemo::<i64>::LIMIT);
    }

    #[cfg(any(debug_assertions, feature = "checks"))]
    #[test]
    #[should_panic(expected = "a kept page statement differs from the one its key builds")]
    fn a_key_that_misses_an_input_fails_in_debug_builds() {
        static MEMO: PageMemo<i64> = PageMemo::new();
        MEMO.get_or_build(slot(1, 0), || statement("for one company"));
        MEMO.get_or_build(slot(1, 0), || statement("for another"));
    }

    fn w(order: Order, limit: u64, offset: u64) -> Window {
        Window {
            order,
            limit,
            offset,
        }
    }

    #[test]
    fn pages_are_read_from_the_nearer_end() {
        let page = |n| Page::new(n, PageSize::DEFAULT);
        // 100 records, 4 pages of 25.
        assert_eq!(window(100, page(1)), Some(w(Order::Asc, 25, 0)));
        assert_eq!(window(100, page(2)), Some(w(Order::Asc, 25, 25)));
        assert_eq!(window(100, page(3)), Some(w(Order::Desc, 25, 25)));
        assert_eq!(window(100, page(4)), Some(w(Order::Desc, 25, 0)));
        assert_eq!(window(100, page(5)), None);
        // 101 records: the last page holds one.
        assert_eq!(window(101, page(5)), Some(w(Order::Desc, 1, 0)));
        assert_eq!(window(101, page(4)), Some(w(Order::Desc, 25, 1)));
        assert_eq!(window(101, page(2)), Some(w(Order::Asc, 25, 25)));
        // Short lists and empty ones.
        assert_eq!(window(3, page(1)), Some(w(Order::Asc, 3, 0)));
        assert_eq!(window(0, page(1)), None);
        // The last of 100,000 customers.
        assert_eq!(window(100_000, page(4000)), Some(w(Order::Desc, 25, 0)));
        assert_eq!(window(100_000, page(3990)), Some(w(Order::Desc, 25, 250)));
    }

    async fn sqlite() -> Db {
        check_list_plans();
        let db = Db::connect("sqlite::memory:").await.unwrap();
        db.migrate().await.unwrap();
        db
    }

    #[cfg(any(debug_assertions, feature = "checks"))]
    #[tokio::test]
    async fn the_plan_check_passes_a_range_of_an_index() {
        let db = sqlite().await;
        let mut read = Source::Pool(db.read());
        let customers = crate::scoped("persons", CompanyId(1))
            .and_where(Expr::col("kind").eq("customer"))
            .and_where(Expr::col("deleted_at").is_null())
            .column("id")
            .and_where(Expr::col("active").eq(true))
            .order_by("id", Order::Desc)
            .limit(25)
            .offset(1000)
            .to_owned();
        plan::check(&mut read, &customers, false).await.unwrap();
    }

    #[cfg(any(debug_assertions, feature = "checks"))]
    #[tokio::test]
    #[should_panic(expected = "scans a whole table")]
    async fn the_plan_check_refuses_a_scan() {
        let db = sqlite().await;
        let mut read = Source::Snapshot(Box::new(db.begin_read().await.unwrap()));
        // No index starts with the last name.
        let by_name = sea_query::Query::select()
            .column("id")
            .from("persons")
            .and_where(Expr::col("last_name").eq("Lovelace"))
            .to_owned();
        plan::check(&mut read, &by_name, true).await.unwrap();
    }
}
