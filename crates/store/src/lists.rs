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

use domain::{CompanyId, Page};
use sea_query::{Expr, ExprTrait, IntoColumnRef, Order, SelectStatement};

use crate::{Count, Db, PageOf, Record, StoreError, Tx};

/// How a list's total is found.
#[derive(Debug, Clone)]
pub(crate) enum Total {
    /// The sum of these partitions of the company's `list_counts`.
    Counted(CompanyId, Vec<&'static str>),
    /// A COUNT of the list's records, which an index holding the filter must serve.
    Filtered,
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
    let rows = base
        .clone()
        .columns(columns)
        .order_by("id", Order::Asc)
        .to_owned();
    page_of(db, &base, rows, "id", page, total).await
}

/// The page `page` of the records `base` selects (without columns; its table's `id`
/// orders the list), read whole with `rows`: a select of the columns (joins welcome)
/// ordered by `id`, the same id as `rows` names it. `rows` is narrowed to the page's
/// ids here.
pub(crate) async fn page_of<T: Record>(
    db: &Db,
    base: &SelectStatement,
    mut rows: SelectStatement,
    id: impl IntoColumnRef,
    page: Page,
    total: Total,
) -> Result<PageOf<T>, StoreError> {
    let mut tx = db.begin_read().await?;
    let n = match total {
        Total::Counted(company, lists) => {
            let n = counted(&mut tx, company, &lists).await?;
            #[cfg(debug_assertions)]
            {
                let counted_now = count(&mut tx, base).await?;
                assert_eq!(
                    n, counted_now,
                    "list_counts {lists:?} of company {} disagree with the records",
                    company.0
                );
            }
            n
        }
        Total::Filtered => count(&mut tx, base).await?,
    };
    let records = match window(n, page) {
        None => Vec::new(),
        Some(w) => {
            let ids = base
                .clone()
                .column("id")
                .order_by("id", w.order)
                .limit(w.limit)
                .offset(w.offset)
                .to_owned();
            #[cfg(debug_assertions)]
            plan::check(&mut tx, &ids).await?;
            rows.and_where(Expr::col(id).in_subquery(ids));
            tx.all(&rows).await?
        }
    };
    tx.commit().await?;
    Ok(PageOf { records, total: n })
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

async fn counted(
    tx: &mut Tx,
    company: CompanyId,
    lists: &[&'static str],
) -> Result<u64, StoreError> {
    let stmt = crate::scoped("list_counts", company)
        .expr_as(Expr::col("n"), "n")
        .and_where(Expr::col("list").is_in(lists.iter().copied()))
        .to_owned();
    let rows: Vec<Count> = tx.all(&stmt).await?;
    Ok(rows
        .iter()
        .map(|r| r.n)
        .sum::<i64>()
        .try_into()
        .unwrap_or(0))
}

async fn count(tx: &mut Tx, base: &SelectStatement) -> Result<u64, StoreError> {
    let stmt = base
        .clone()
        .expr_as(Expr::col("id").count(), "n")
        .to_owned();
    #[cfg(debug_assertions)]
    plan::check(tx, &stmt).await?;
    let total: Count = tx.one(&stmt).await?;
    Ok(total.n.try_into().unwrap_or(0))
}

/// Debug builds (the tests) check on SQLite that every count and page of ids the lists
/// run is served by an index: a plan that scans a whole table, or a whole index, fails
/// the request loudly.
#[cfg(debug_assertions)]
mod plan {
    use sea_query::SelectStatement;
    use sea_query_sqlx::SqlxValues;

    use crate::{Backend, Statement, StoreError, Tx};

    struct Explain<'a>(&'a SelectStatement);

    impl Statement for Explain<'_> {
        fn render(&self, backend: Backend) -> (String, SqlxValues) {
            let (sql, values) = self.0.render(backend);
            (format!("EXPLAIN QUERY PLAN {sql}"), values)
        }
    }

    #[derive(sqlx::FromRow)]
    struct Step {
        detail: String,
    }

    pub(super) async fn check(tx: &mut Tx, stmt: &SelectStatement) -> Result<(), StoreError> {
        if tx.backend() != Backend::Sqlite {
            return Ok(());
        }
        let steps: Vec<Step> = tx.all(&Explain(stmt)).await?;
        for step in &steps {
            // "SCAN persons" and "SCAN persons USING INDEX ..." read every row of the
            // table or index; "SEARCH ... USING INDEX ... (company_id=? ...)" reads a
            // range. Scans of a subquery's result ("SCAN (subquery-1)") are fine.
            let scans_table = step
                .detail
                .strip_prefix("SCAN ")
                .is_some_and(|rest| !rest.starts_with('(') && !rest.starts_with("CONSTANT"));
            assert!(
                !scans_table,
                "a list query scans a whole table: {}\nplan: {:?}",
                step.detail,
                steps.iter().map(|s| &s.detail).collect::<Vec<_>>()
            );
        }
        Ok(())
    }
}

/// The partitions of `list_counts` (migration 0007) each list shows.
pub(crate) mod counts {
    use domain::CompanyId;
    use domain::customer_filter::{BusinessFilter, PersonFilter};
    use domain::member::{MemberFilter, StatusFilter};

    use super::Total;
    use crate::persons::Kind;

    /// A list of every record of a table counted whole (`asset_groups`, `sub_groups`,
    /// `vendors`, `custom_roles`, `teams`, `retire_reasons`, `custom_fields`): the
    /// partition is the table's name.
    pub(crate) fn whole(company: CompanyId, table: &'static str) -> Total {
        Total::Counted(company, vec![table])
    }

    /// Locations or businesses: all of them, or those of one status.
    fn by_status(company: CompanyId, active: Option<bool>, [on, off]: [&'static str; 2]) -> Total {
        Total::Counted(
            company,
            match active {
                None => vec![on, off],
                Some(true) => vec![on],
                Some(false) => vec![off],
            },
        )
    }

    pub(crate) fn locations(company: CompanyId, active: Option<bool>) -> Total {
        by_status(company, active, ["locations:active", "locations:inactive"])
    }

    pub(crate) fn businesses(company: CompanyId, filter: BusinessFilter) -> Total {
        let all = ["businesses:active", "businesses:inactive"];
        match filter {
            BusinessFilter::All => by_status(company, None, all),
            BusinessFilter::Active => by_status(company, Some(true), all),
            BusinessFilter::Inactive => by_status(company, Some(false), all),
            _ => Total::Filtered,
        }
    }

    /// Members: all, those of a status, those who can or cannot log in.
    pub(crate) fn members(company: CompanyId, filter: &MemberFilter) -> Total {
        let lists: &[&'static str] = match filter {
            MemberFilter::Status(StatusFilter::All) => &[
                "members:active:login",
                "members:active:non_login",
                "members:inactive:login",
                "members:inactive:non_login",
            ],
            MemberFilter::Status(StatusFilter::Active) => {
                &["members:active:login", "members:active:non_login"]
            }
            MemberFilter::Status(StatusFilter::Inactive) => {
                &["members:inactive:login", "members:inactive:non_login"]
            }
            MemberFilter::Status(StatusFilter::Login) => {
                &["members:active:login", "members:inactive:login"]
            }
            MemberFilter::Status(StatusFilter::NonLogin) => {
                &["members:active:non_login", "members:inactive:non_login"]
            }
            MemberFilter::Email(_) | MemberFilter::EmployeeId(_) => return Total::Filtered,
        };
        Total::Counted(company, lists.to_vec())
    }

    /// Customers, contacts or (`kind` None) both, as `filter` narrows them.
    pub(crate) fn persons(company: CompanyId, kind: Option<Kind>, filter: &PersonFilter) -> Total {
        use PersonFilter as F;
        let lists: &[&'static str] = match (kind, filter) {
            (Some(Kind::Customer), F::Active) | (None, F::Customers) => {
                &["persons:customer:active"]
            }
            (Some(Kind::Customer), F::Inactive) => &["persons:customer:inactive"],
            (Some(Kind::Customer), F::All) => {
                &["persons:customer:active", "persons:customer:inactive"]
            }
            (Some(Kind::Contact), F::Active) | (None, F::BusinessContacts) => {
                &["persons:contact:active"]
            }
            (Some(Kind::Contact), F::Inactive) => &["persons:contact:inactive"],
            (Some(Kind::Contact), F::All) => {
                &["persons:contact:active", "persons:contact:inactive"]
            }
            (None, F::Active) => &["persons:customer:active", "persons:contact:active"],
            (None, F::Inactive) => &["persons:customer:inactive", "persons:contact:inactive"],
            (None, F::All) => &[
                "persons:customer:active",
                "persons:customer:inactive",
                "persons:contact:active",
                "persons:contact:inactive",
            ],
            _ => return Total::Filtered,
        };
        Total::Counted(company, lists.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::PageSize;

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
        let db = Db::connect("sqlite::memory:").await.unwrap();
        db.migrate().await.unwrap();
        db
    }

    #[cfg(debug_assertions)]
    #[tokio::test]
    async fn the_plan_check_passes_a_range_of_an_index() {
        let db = sqlite().await;
        let mut tx = db.begin_read().await.unwrap();
        let customers = crate::persons::live(CompanyId(1), crate::persons::Kind::Customer)
            .column("id")
            .and_where(Expr::col("active").eq(true))
            .order_by("id", Order::Desc)
            .limit(25)
            .offset(1000)
            .to_owned();
        plan::check(&mut tx, &customers).await.unwrap();
    }

    #[cfg(debug_assertions)]
    #[tokio::test]
    #[should_panic(expected = "scans a whole table")]
    async fn the_plan_check_refuses_a_scan() {
        let db = sqlite().await;
        let mut tx = db.begin_read().await.unwrap();
        // No index starts with the last name.
        let by_name = sea_query::Query::select()
            .column("id")
            .from("persons")
            .and_where(Expr::col("last_name").eq("Lovelace"))
            .to_owned();
        plan::check(&mut tx, &by_name).await.unwrap();
    }
}
