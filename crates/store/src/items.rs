//! Items (fixed assets today; inventory and asset stock share the table and the
//! numbering): the record, its lists, filters and search, and the changes that are not
//! check-outs (create, update, delete, retire, activate, GPS). Check-outs are in
//! `checkouts.rs`, reservations in `reservations.rs`, verifications in
//! `verifications.rs`. Every change writes the item's history (`change_log`, subject
//! `item`, the item's id) in its transaction.

use crate::CompanyId;
use crate::ids::{Id, Kind, Number, kind};
use chrono::{DateTime, NaiveDate, Utc};
use domain::asset_filter::AssetFilter;
use domain::item::{AssetType, ItemState};
use domain::pricing::LateFee;
use domain::refusal::{Listed, Problem};
use domain::{Change, Name, Page, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, Func, Order, Query, SelectStatement, Values};
use serde_json::json;

use crate::counters::{self, Sequence};
use crate::custom_fields::merge_values;
pub use crate::item_core::{Clock, Locked, Today};
use crate::item_core::{check_location, history, lock};
use crate::links::{Linked, linked};
use crate::shapes::Shape;
use crate::{Assignments, Backend, Db, PageOf, StoreError, Tx, change_log, now};

/// An item as the API shows it, with the names of what it refers to.
#[derive(Debug, Clone, crate::Row)]
pub struct Item {
    pub id: i64,
    pub sequence_num: i64,
    pub asset_type: String,
    pub name: String,
    pub description: Option<String>,
    pub identifier: Option<String>,
    pub manufacturer: Option<String>,
    pub product_model_number: Option<String>,
    pub image_url: Option<String>,
    /// JSON list of links.
    pub document_urls: String,
    pub group_id: i64,
    pub sub_group_id: Option<i64>,
    pub location_id: Option<i64>,
    pub purchased_on: Option<NaiveDate>,
    pub price: Option<i64>,
    pub state: String,
    pub assigned_to_id: Option<i64>,
    pub checkout_on: Option<DateTime<Utc>>,
    pub checkin_due_on: Option<DateTime<Utc>>,
    pub retired_on: Option<NaiveDate>,
    pub retire_reason_id: Option<i64>,
    pub salvage_value: Option<i64>,
    pub rate_per_minute: Option<i64>,
    pub rate_hourly: Option<i64>,
    pub rate_daily: Option<i64>,
    pub rate_weekly: Option<i64>,
    pub rate_monthly: Option<i64>,
    /// The fee for a late return on an order: per minute, hour, day, week, month or
    /// flat (`domain::pricing::LateFeeKind`), and its amount.
    pub late_fee_kind: Option<String>,
    pub late_fee_amount: Option<i64>,
    pub latitude: Option<String>,
    pub longitude: Option<String>,
    pub gps_updated_at: Option<DateTime<Utc>>,
    /// JSON object keyed by custom field id.
    pub custom_attributes: String,
    /// Inventory and asset stock: units on hand, all locations together.
    pub quantity: i64,
    /// Asset stock: units checked out to members.
    pub checked_out_quantity: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub group_name: String,
    pub sub_group_name: Option<String>,
    pub location_name: Option<String>,
    pub assigned_to_name: Option<String>,
    pub retire_reason_name: Option<String>,
    /// An approved reservation covers the day the item was read for.
    pub reserved_today: bool,
}

impl Item {
    pub fn state(&self) -> ItemState {
        ItemState::parse(&self.state).unwrap_or(ItemState::Available)
    }

    pub fn document_urls(&self) -> Vec<String> {
        serde_json::from_str(&self.document_urls).unwrap_or_default()
    }
}

/// An item with the custom taxes applied to it, read in one row.
#[derive(Debug, Clone, crate::Row)]
pub struct ItemView {
    #[row(flatten)]
    pub item: Item,
    pub custom_tax_ids: Linked,
}

const COLUMNS: [&str; 37] = [
    "id",
    "sequence_num",
    "asset_type",
    "name",
    "description",
    "identifier",
    "manufacturer",
    "product_model_number",
    "image_url",
    "document_urls",
    "group_id",
    "sub_group_id",
    "location_id",
    "purchased_on",
    "price",
    "state",
    "assigned_to_id",
    "checkout_on",
    "checkin_due_on",
    "retired_on",
    "retire_reason_id",
    "salvage_value",
    "rate_per_minute",
    "rate_hourly",
    "rate_daily",
    "rate_weekly",
    "rate_monthly",
    "late_fee_kind",
    "late_fee_amount",
    "latitude",
    "longitude",
    "gps_updated_at",
    "custom_attributes",
    "quantity",
    "checked_out_quantity",
    "created_at",
    "updated_at",
];

/// A day after every reservation (dates compare as text on SQLite: not `NaiveDate::MAX`).
const LAST_DAY: NaiveDate = NaiveDate::from_ymd_opt(9999, 12, 31).expect("valid");

/// What an item refers to and shows the name of: the table, the item's column that
/// holds its id, the expression of its name there and the name's column in the row.
const NAMED: [(&str, &str, &str, &str); 5] = [
    (
        "asset_groups",
        "group_id",
        r#""asset_groups"."name""#,
        "group_name",
    ),
    (
        "sub_groups",
        "sub_group_id",
        r#""sub_groups"."name""#,
        "sub_group_name",
    ),
    (
        "locations",
        "location_id",
        r#""locations"."name""#,
        "location_name",
    ),
    (
        "members",
        "assigned_to_id",
        r#""members"."first_name" || ' ' || "members"."last_name""#,
        "assigned_to_name",
    ),
    (
        "retire_reasons",
        "retire_reason_id",
        r#""retire_reasons"."name""#,
        "retire_reason_name",
    ),
];

/// The row of `table` an item's `column` refers to.
fn joined(table: &'static str, column: &'static str) -> Cond {
    Cond::all()
        .add(Expr::col((table, "company_id")).equals(("items", "company_id")))
        .add(Expr::col((table, "id")).equals(("items", column)))
}

/// Adds the names of what an item refers to (`NAMED`) to `select`.
///
/// SQLite reads them through left joins. Every item has a group (NOT NULL, a foreign
/// key), so a left join reads the same rows as an inner one, and it keeps `items` the
/// outer loop: with an inner join and statistics showing few groups, SQLite (3.51)
/// scanned the groups first, read every item of the company for each and sorted them
/// all for the page (187 µs for an asset page at 1,000 assets against 33 µs this way).
///
/// PostgreSQL reads each through a subquery in the select list: a read of one item
/// spends most of its time setting up the plan's nodes, and five joins cost more of
/// that than five subqueries (pgbench, the details statement alone: 18,300 against
/// 24,400 a second); SQLite's joins were 10% quicker than its subqueries.
fn with_names(select: &mut SelectStatement, backend: Backend) {
    for (table, column, name, alias) in NAMED {
        match backend {
            Backend::Sqlite => {
                select
                    .expr_as(Expr::cust(name), alias)
                    .left_join(table, joined(table, column));
            }
            Backend::Postgres => {
                // Names only, all of them the store's own constants. An item without
                // the reference skips the subquery: on a page most have no subgroup,
                // location, assignee or retire reason (pgbench, the asset page's
                // statement: 9,600 pages a second without the CASE, 11,000 with it).
                select.expr_as(
                    Expr::cust(format!(
                        r#"CASE WHEN "items"."{column}" IS NULL THEN NULL ELSE (SELECT {name} FROM "{table}" WHERE "{table}"."company_id" = "items"."company_id" AND "{table}"."id" = "items"."{column}") END"#
                    )),
                    alias,
                );
            }
        }
    }
}

/// The approved reservations (`r`) that cover `[from, to]` in part, selecting 1.
fn approved_covering(from: NaiveDate, to: NaiveDate) -> SelectStatement {
    Query::select()
        .expr(Expr::val(1))
        .from_as("reservation_requests", "r")
        .and_where(Expr::col(("r", "status")).eq("approved"))
        .and_where(Expr::col(("r", "from_on")).lte(to))
        .and_where(Expr::col(("r", "to_on")).gte(from))
        .take()
}

/// An approved reservation of the item (`items`) that covers `[from, to]` in part.
pub(crate) fn approved_reservation_between(from: NaiveDate, to: NaiveDate) -> Expr {
    Expr::exists(
        approved_covering(from, to)
            .and_where(Expr::col(("r", "company_id")).equals(("items", "company_id")))
            .and_where(Expr::col(("r", "item_id")).equals(("items", "id")))
            .take(),
    )
}

/// Whether an approved reservation of the item (`items`) covers `today`: the
/// item's own reservations are read only when the company has an approved one that
/// covers it (a subquery of the company alone, which both databases compute once per
/// statement), so a page of a company with none reads no reservation per row.
fn reserved_on(company: CompanyId, today: Today) -> Expr {
    let any = approved_covering(today.0, today.0)
        .and_where(Expr::col(("r", "company_id")).eq(company.0))
        .take();
    Expr::case(
        Expr::exists(any),
        approved_reservation_between(today.0, today.0),
    )
    .finally(Expr::cust("FALSE"))
    .into()
}

/// The select of whole items of `company`, with the names of what they refer to,
/// reserved as of `today`.
fn select(backend: Backend, company: CompanyId, today: Today) -> SelectStatement {
    let mut select = Query::select()
        .from("items")
        .columns(COLUMNS.map(|c| ("items", c)))
        .take();
    with_names(&mut select, backend);
    select
        .expr_as(reserved_on(company, today), "reserved_today")
        .expr_as(
            linked(
                "items",
                "item_custom_taxes",
                ("item_id", "custom_tax_id"),
                company,
            ),
            "custom_tax_ids",
        )
        .and_where(Expr::col(("items", "company_id")).eq(company.0))
        .take()
}

/// The values `select` binds, in its order.
fn select_values(company: CompanyId, today: Today) -> Vec<sea_query::Value> {
    vec![
        1.into(),
        "approved".into(),
        today.0.into(),
        today.0.into(),
        company.0.into(),
        1.into(),
        "approved".into(),
        today.0.into(),
        today.0.into(),
        company.0.into(),
        company.0.into(),
    ]
}

/// The items of one kind.
fn of_kind(company: CompanyId, kind: AssetType) -> SelectStatement {
    crate::scoped("items", company)
        .and_where(Expr::col(("items", "asset_type")).eq(kind.as_str()))
        .take()
}

/// An item of any kind by its number.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    today: Today,
) -> Result<ItemView, StoreError> {
    static FIND: Shape = Shape::new();
    let mut values = select_values(company, today);
    values.push(number.into());
    let backend = db.backend();
    let stmt = FIND.bind(
        backend,
        || {
            select(backend, company, today)
                .and_where(Expr::col(("items", "sequence_num")).eq(number))
                .take()
        },
        Values(values),
    );
    db.read()
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Item))
}

pub(crate) async fn reread(
    tx: &mut Tx,
    company: CompanyId,
    id: i64,
    today: Today,
) -> Result<ItemView, StoreError> {
    tx.one(&by_id(tx.backend(), company, id, today)).await
}

/// Commits `tx` with the item `id` read back as its last statement ([`reread`] and
/// the commit in one round trip on PostgreSQL).
pub(crate) async fn commit_reread(
    tx: Tx,
    company: CompanyId,
    id: i64,
    today: Today,
) -> Result<ItemView, StoreError> {
    let stmt = by_id(tx.backend(), company, id, today);
    tx.commit_reading(&stmt).await
}

fn by_id(backend: Backend, company: CompanyId, id: i64, today: Today) -> SelectStatement {
    select(backend, company, today)
        .and_where(Expr::col(("items", "id")).eq(id))
        .take()
}

/// The page of `base` (items of the company, narrowed) as whole items with taxes.
async fn page(
    db: &Db,
    company: CompanyId,
    kind: Option<AssetType>,
    condition: Cond,
    page: Page,
    total: crate::Total,
    today: Today,
) -> Result<PageOf<ItemView>, StoreError> {
    let rows_filtered = crate::rows_filtered(db.backend(), &total);
    let (base, rows) = parts(db.backend(), company, kind, condition, rows_filtered, today);
    crate::page_of(db, &base, rows, ("items", "id"), page, total).await
}

/// The records of an item list (`base`, without columns) and their select (`rows`),
/// which test `condition` too when `rows_filtered` (`crate::rows_filtered`).
fn parts(
    backend: Backend,
    company: CompanyId,
    kind: Option<AssetType>,
    condition: Cond,
    rows_filtered: bool,
    today: Today,
) -> (SelectStatement, SelectStatement) {
    let mut base = match kind {
        Some(kind) => of_kind(company, kind),
        None => crate::scoped("items", company),
    };
    base.cond_where(condition.clone());
    let mut rows = select(backend, company, today)
        .order_by(("items", "id"), Order::Asc)
        .take();
    if rows_filtered {
        rows.cond_where(condition);
    }
    if let Some(kind) = kind {
        rows.and_where(Expr::col(("items", "asset_type")).eq(kind.as_str()));
    }
    (base, rows)
}

/// The company's items of `kind` after item `after` (an id), at most `limit`: an
/// export's batch.
pub async fn after(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    after: i64,
    limit: u64,
    today: Today,
) -> Result<Vec<ItemView>, StoreError> {
    let (_, rows) = parts(db.backend(), company, Some(kind), Cond::all(), true, today);
    crate::after(db, rows, ("items", "id"), after, limit).await
}

/// The items of one kind, 25 a page (one or two statements).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    p: Page,
    today: Today,
) -> Result<PageOf<ItemView>, StoreError> {
    static PAGES: crate::PageMemo<(i64, &'static str, NaiveDate)> = crate::PageMemo::new();
    let total = total(company, kind, None);
    crate::memo_page_of(
        db,
        (&PAGES, (company.0, kind.as_str(), today.0)),
        || parts(db.backend(), company, Some(kind), Cond::all(), true, today),
        ("items", "id"),
        p,
        total,
        crate::Columns::Computed,
    )
    .await
}

fn col(c: &'static str) -> Expr {
    Expr::col(("items", c))
}

fn state_is(state: ItemState) -> Expr {
    col("state").eq(state.as_str())
}

fn nothing() -> Expr {
    Expr::cust("1 = 0")
}

/// The item (`items`) is on an order that has not ended, and not back from it: a
/// Draft, Web Order, Booked or Rented Out order's line with units not returned.
fn on_open_order() -> Expr {
    use domain::order::OrderState as S;
    let open = [S::Drafted, S::WebOrder, S::Booked, S::CheckedOut].map(|s| s.as_str());
    let lines = Query::select()
        .expr(Expr::val(1))
        .from_as("order_line_items", "l")
        .join_as(
            sea_query::JoinType::InnerJoin,
            "orders",
            "o",
            Cond::all()
                .add(Expr::col(("o", "company_id")).equals(("l", "company_id")))
                .add(Expr::col(("o", "id")).equals(("l", "order_id"))),
        )
        .and_where(Expr::col(("l", "company_id")).equals(("items", "company_id")))
        .and_where(Expr::col(("l", "item_id")).equals(("items", "id")))
        .and_where(Expr::col(("l", "quantity_returned")).lt(Expr::col(("l", "quantity"))))
        .and_where(Expr::col(("o", "basket_state")).is_in(open))
        .to_owned();
    Expr::exists(lines)
}

/// A pending verification of the item (`items`), of `member` if given.
fn pending_verification(member: Option<i64>) -> Expr {
    let mut q = Query::select()
        .expr(Expr::val(1))
        .from_as("verifications", "v")
        .and_where(Expr::col(("v", "company_id")).equals(("items", "company_id")))
        .and_where(Expr::col(("v", "item_id")).equals(("items", "id")))
        .and_where(Expr::col(("v", "status")).eq("pending"))
        .to_owned();
    if let Some(m) = member {
        q.and_where(Expr::col(("v", "member_id")).eq(m));
    }
    Expr::exists(q)
}

fn members_where(company: CompanyId, condition: Expr) -> SelectStatement {
    crate::scoped("members", company)
        .column("id")
        .and_where(condition)
        .to_owned()
}

/// The condition a built-in filter puts on items (custom filters are resolved to
/// their built-in ones first).
/// Units on hand of the item (`items`) at location `location`.
fn stock_held_at(location: i64) -> Expr {
    Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from_as("stock_levels", "sl")
            .and_where(Expr::col(("sl", "company_id")).equals(("items", "company_id")))
            .and_where(Expr::col(("sl", "item_sequence_num")).equals(("items", "sequence_num")))
            .and_where(Expr::col(("sl", "location_id")).eq(location))
            .and_where(Expr::col(("sl", "quantity")).gt(0))
            .to_owned(),
    )
}

/// The item (`items`) holds fewer units than the minimum at one of its locations.
fn stock_low() -> Expr {
    Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from_as("stock_thresholds", "t")
            .left_join(
                sea_query::Alias::new("stock_levels"),
                Expr::col(("stock_levels", "company_id"))
                    .equals(("t", "company_id"))
                    .and(Expr::col(("stock_levels", "location_id")).equals(("t", "location_id")))
                    .and(
                        Expr::col(("stock_levels", "item_sequence_num"))
                            .equals(("items", "sequence_num")),
                    ),
            )
            .and_where(Expr::col(("t", "company_id")).equals(("items", "company_id")))
            .and_where(Expr::col(("t", "item_id")).equals(("items", "id")))
            .and_where(Expr::cust(
                r#"COALESCE("stock_levels"."quantity", 0) < "t"."minimum""#,
            ))
            .to_owned(),
    )
}

/// The item (`items`) has units checked out to member `member`.
fn stock_held_by(member: i64) -> Expr {
    Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from_as("stock_line_items", "li")
            .and_where(Expr::col(("li", "company_id")).equals(("items", "company_id")))
            .and_where(Expr::col(("li", "member_id")).eq(member))
            .and_where(Expr::col(("li", "item_id")).equals(("items", "id")))
            .and_where(Expr::col(("li", "quantity_out")).gt(crate::constant(0)))
            .to_owned(),
    )
}

fn condition(company: CompanyId, kind: AssetType, filter: &AssetFilter, clock: &Clock) -> Cond {
    use AssetFilter as F;
    let one = |e: Expr| Cond::all().add(e);
    let stocked = kind != AssetType::FixedAsset;
    match filter {
        F::Location(l) if stocked => Cond::any()
            .add(col("location_id").eq(*l))
            .add(stock_held_at(*l)),
        F::PossessionsOf(m) if stocked => one(stock_held_by(*m)),
        F::LowStock => one(stock_low()),
        F::QuantityRange(from, to) => Cond::all()
            .add(col("quantity").gte(*from))
            .add(col("quantity").lte(*to)),
        F::Available => one(state_is(ItemState::Available)),
        F::InOrder => one(on_open_order()),
        F::BeingServiced => one(state_is(ItemState::InService)),
        F::Custom(_) => one(nothing()),
        F::AvailabilityRange(from, to) => Cond::all()
            .add(state_is(ItemState::Retired).not())
            .add(
                Cond::any()
                    .add(state_is(ItemState::CheckedOut).not())
                    .add(col("checkin_due_on").lt(clock.day_starts(*from))),
            )
            .add(approved_reservation_between(*from, *to).not()),
        F::CheckedOut => one(state_is(ItemState::CheckedOut)),
        F::Overdue => Cond::all()
            .add(state_is(ItemState::CheckedOut))
            .add(col("checkin_due_on").lt(clock.now)),
        F::DueToday => Cond::all()
            .add(state_is(ItemState::CheckedOut))
            .add(col("checkin_due_on").gte(clock.today_starts))
            .add(col("checkin_due_on").lt(clock.tomorrow_starts)),
        F::Group { group, sub_group } => {
            let c = one(col("group_id").eq(*group));
            match sub_group {
                Some(s) => c.add(col("sub_group_id").eq(*s)),
                None => c,
            }
        }
        F::Location(l) => one(col("location_id").eq(*l)),
        F::PendingAuditOf(m) => one(pending_verification(Some(*m))),
        F::PendingAudit => one(pending_verification(None)),
        F::PossessionsOf(m) => one(col("assigned_to_id").eq(*m)),
        F::PossessionsOfEmail(email) => one(col("assigned_to_id").in_subquery(members_where(
            company,
            Expr::col("email").eq(email.as_str()),
        ))),
        F::UserListing(listing, inside) => {
            let holders = members_where(company, Expr::col("user_listing_id").eq(listing.as_str()));
            let c = one(state_is(ItemState::CheckedOut));
            if *inside {
                c.add(col("assigned_to_id").in_subquery(holders))
            } else {
                c.add(col("assigned_to_id").not_in_subquery(holders))
            }
        }
        F::ProductModelNumber(m) => one(col("product_model_number").eq(m.as_str())),
        F::ReservationStartingToday => one(Expr::exists(
            Query::select()
                .expr(Expr::val(1))
                .from_as("reservation_requests", "r")
                .and_where(Expr::col(("r", "company_id")).equals(("items", "company_id")))
                .and_where(Expr::col(("r", "item_id")).equals(("items", "id")))
                .and_where(Expr::col(("r", "status")).eq("approved"))
                .and_where(Expr::col(("r", "from_on")).eq(clock.today))
                .to_owned(),
        )),
        F::Reserved => one(approved_reservation_between(clock.today, LAST_DAY)),
        F::Retired => one(state_is(ItemState::Retired)),
        F::UpdateTime(from, to) => Cond::all()
            .add(col("updated_at").gte(clock.day_starts(*from)))
            .add(col("updated_at").lt(clock.day_after_starts(*to))),
        F::UpdatedAfter(d) => one(col("updated_at").gte(clock.day_after_starts(*d))),
        F::CreatedAfter(d) => one(col("created_at").gte(clock.day_after_starts(*d))),
    }
}

/// A page of the items of `kind` a filter selects (a custom filter: all of its
/// conditions). One or two statements whatever the page.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn filter(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    filter: &AssetFilter,
    p: Page,
    clock: &Clock,
) -> Result<PageOf<ItemView>, StoreError> {
    let filters = match filter {
        AssetFilter::Custom(id) => {
            crate::custom_filters::conditions(db, company, *id, kind).await?
        }
        other => vec![other.clone()],
    };
    for f in &filters {
        if let AssetFilter::UserListing(listing, _) = f
            && !crate::listings::is_listing_id_in(db, company, listing).await?
        {
            return Err(StoreError::invalid(
                "filter_param_val",
                Problem::NotInCompany {
                    list: Listed::Listings,
                    value: format!("{listing:?}"),
                },
            ));
        }
    }
    let mut cond = Cond::all();
    for f in &filters {
        cond = cond.add(condition(company, kind, f, clock));
    }
    // A filter that is a state is counted from its partition of `list_counts`.
    let state = match filters.as_slice() {
        [AssetFilter::Available] => Some(ItemState::Available),
        [AssetFilter::CheckedOut] => Some(ItemState::CheckedOut),
        [AssetFilter::Retired] => Some(ItemState::Retired),
        [AssetFilter::BeingServiced] => Some(ItemState::InService),
        _ => None,
    };
    let total = match state {
        Some(s) => total(company, kind, Some(s)),
        None => crate::Total::Filtered,
    };
    page(db, company, Some(kind), cond, p, total, Today(clock.today)).await
}

/// The items member `member` holds: fixed assets checked out to them and asset stock
/// with units checked out to them (`kind`: one kind only), 25 a page.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn held_by(
    db: &Db,
    company: CompanyId,
    member: Id<kind::Member>,
    kind: Option<AssetType>,
    p: Page,
    today: Today,
) -> Result<PageOf<ItemView>, StoreError> {
    let fixed = Cond::all()
        .add(col("asset_type").eq(AssetType::FixedAsset.as_str()))
        .add(col("assigned_to_id").eq(member));
    let stock = Cond::all()
        .add(col("asset_type").eq(AssetType::StockAsset.as_str()))
        .add(stock_held_by(member.get()));
    let cond = match kind {
        None => Cond::any().add(fixed).add(stock),
        Some(AssetType::FixedAsset) => fixed,
        Some(AssetType::StockAsset) => stock,
        // Inventory is sold, not lent.
        Some(AssetType::VolatileAsset) => Cond::all().add(nothing()),
    };
    page(db, company, None, cond, p, crate::Total::Filtered, today).await
}

/// What `search.api` looks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Search {
    /// `#12`: the item number.
    Number(i64),
    /// `@SN-1`: the identification number, exactly.
    Identifier(String),
    /// Every word in the name, case aside (`domain::name::search_words`).
    Name(String),
}

/// Whether a name search matching `matches` of the company's `items` (of its kind),
/// more than `FEW_ALWAYS`, reads them from the trigram index, looks each up and sorts
/// them, rather than walking the company's items in order and testing each name,
/// which finds a page after about 25 / density items: while matches² <= 2 x items,
/// where the two cost about the same. Measured on PostgreSQL, a company of a million:
/// a page of 280 matches took 5 ms through the index and 43 ms walking, of 3,700
/// 16 ms and 4.5 ms; a company of 1,000 whose every asset matched answered 839 pages a
/// second through the index and 2,053 walking. SQLite, 10,000 assets, all of 1,000
/// matching: 3,454 through the index, 4,561 walking (docs/performance.md, "Search").
fn few(matches: u64, items: u64) -> bool {
    matches.saturating_mul(matches) <= items.saturating_mul(2)
}

/// A search matching at most this many takes the index whatever the company's size,
/// since walking for fewer than a page reads every item (fewer with the checks on, so
/// that the tests' small searches take both ways).
const FEW_ALWAYS: u64 = if crate::CHECKS { 5 } else { 25 };

/// A page of the items of `kind` matching `search`.
///
/// A name search compares each word with `search_name` (the name folded by
/// `domain::name::folded`) as a substring, `%` and `_` literal, on both databases. The
/// candidates come from a trigram index (SQLite: FTS5, `items_search`; PostgreSQL: a
/// GIN index of keys of the company and a trigram) for words of three characters or
/// more when few match (`name_search`); shorter words are checked on the candidates,
/// or on the company's items when every word is short. Its count is kept while the
/// company's item names do not change (`Total::Kept`, `names_version`), so a search
/// that matches every item counts them once, not per page.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn search(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    search: &Search,
    p: Page,
    today: Today,
) -> Result<PageOf<ItemView>, StoreError> {
    let (cond, total) = match search {
        Search::Number(n) => (
            Cond::all().add(col("sequence_num").eq(*n)),
            crate::Total::Filtered,
        ),
        Search::Identifier(i) => (
            Cond::all().add(col("identifier").eq(i.as_str())),
            crate::Total::Filtered,
        ),
        Search::Name(text) => {
            let words = domain::name::search_words(text);
            if words.is_empty() {
                return list(db, company, kind, p, today).await;
            }
            let key = (company, format!("{}:{}", kind.as_str(), words.join(" ")));
            let counted = db.kept_counts.latest(&key).map(|(_, n)| n);
            let total = crate::Total::Kept {
                key,
                version: Box::new(names_version(company)),
            };
            let cond = name_search(db, (company, kind), &words, counted, &total).await?;
            (cond, total)
        }
    };
    page(db, company, Some(kind), cond, p, total, today).await
}

/// The condition of a name search for `words`: each a substring of `search_name`
/// (`contains`); when the search matched few when last counted (`counted`; `few`), and
/// a word has three characters or more, its candidates first, from the trigram index
/// (SQLite: FTS5's `items_search`; PostgreSQL: `rentrack_item_candidates`, which
/// reads the GIN index of keys holding the company and a trigram, migration 0027), as
/// `id IN (<candidates>)`, which both databases read as a lookup of each candidate.
/// Otherwise the company's items are walked in order, and on PostgreSQL nothing else
/// can serve the tests (`strpos`), so that the plan it keeps for every company
/// (`plan_cache_mode = force_generic_plan`) is the walk whatever it guesses of the
/// words.
///
/// A search never counted takes the index on SQLite; on PostgreSQL it is counted
/// first, since a plan kept for every company cannot choose by the words: among its
/// candidates when at most as many as `few` allows are found, by the walk otherwise.
async fn name_search(
    db: &Db,
    (company, kind): (CompanyId, AssetType),
    words: &[String],
    counted: Option<u64>,
    search_total: &crate::Total,
) -> Result<Cond, StoreError> {
    let backend = db.backend();
    let mut all = Cond::all();
    for word in words {
        all = all.add(contains(backend, word));
    }
    let long: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| w.chars().count() >= 3)
        .collect();
    if long.is_empty() {
        return Ok(all);
    }
    // PostgreSQL's candidates are read by their keys (`search_keys`), SQLite's by words.
    let pg_keys = (backend == Backend::Postgres).then(|| search_keys(company, &long));
    let candidates = match &pg_keys {
        None => {
            let phrases: Vec<String> = long
                .iter()
                .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
                .collect();
            Query::select()
                .expr(Expr::cust("rowid"))
                .from("items_search")
                .and_where(Expr::cust_with_values(
                    "items_search MATCH ?",
                    [phrases.join(" AND ")],
                ))
                .take()
        }
        Some(keys) => pg_candidates(keys, None),
    };
    let kind_total =
        async || crate::known_total(db, &of_kind(company, kind), &total(company, kind, None)).await;
    let matches = match (counted, &pg_keys) {
        (Some(n), _) => Some(n),
        (None, None) => None,
        (None, Some(keys)) => {
            // Counted among the candidates when they are few, by the walk otherwise:
            // counting a million candidates one lookup each took seconds.
            let few_at_most =
                std::cmp::max(FEW_ALWAYS, kind_total().await?.saturating_mul(2).isqrt());
            let probe = Query::select()
                .expr(Expr::cust("count(*)"))
                .from_subquery(pg_candidates(keys, Some(few_at_most + 1)), "c")
                .take();
            let (found,): (i64,) = db.read().one(&probe).await?;
            let mut base = of_kind(company, kind).cond_where(all.clone()).take();
            if u64::try_from(found).unwrap_or(u64::MAX) <= few_at_most {
                base.and_where(col("id").in_subquery(candidates.clone()));
            }
            Some(crate::known_total(db, &base, search_total).await?)
        }
    };
    let take_index = match matches {
        None => true,
        Some(n) if n <= FEW_ALWAYS => true,
        Some(n) => few(n, kind_total().await?),
    };
    Ok(if take_index {
        all.add(col("id").in_subquery(candidates))
    } else {
        all
    })
}

/// PostgreSQL: the keys of a name search's words of three characters or more, as
/// migration 0027's `rentrack_search_keys` makes them of each name: the company and
/// every three characters in a row (`2002:giz 2002:izm 2002:zmo`), separated by
/// spaces (a word holds none). Made here: by a SQL function in the statement, they
/// cost 0.28 ms a search.
fn search_keys(company: CompanyId, long: &[&str]) -> String {
    let mut keys: Vec<String> = Vec::new();
    for word in long {
        let chars: Vec<char> = word.chars().collect();
        for window in chars.windows(3) {
            let key = format!("{}:{}", company.0, window.iter().collect::<String>());
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    keys.join(" ")
}

/// PostgreSQL: the ids of the items whose names hold every key of `keys`, at most
/// `cap` of them (`rentrack_item_candidates`, migration 0027).
fn pg_candidates(keys: &str, cap: Option<u64>) -> SelectStatement {
    let cap = cap.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    Query::select()
        .expr(Expr::cust_with_values(
            "rentrack_item_candidates($1, $2)",
            [sea_query::Value::from(keys), sea_query::Value::from(cap)],
        ))
        .take()
}

/// Whether `search_name` holds `word`, a test no index serves: `instr(search_name,
/// word) > 0` on SQLite, `strpos` on PostgreSQL. On SQLite a bound LIKE pattern also
/// made SQLite prepare the statement again at every execution (the pattern may change
/// its plan): a quarter of the server's CPU on a search's page (perf).
fn contains(backend: Backend, word: &str) -> Expr {
    let name = match backend {
        Backend::Sqlite => "instr",
        Backend::Postgres => "strpos",
    };
    Expr::expr(Func::cust(sea_query::Alias::new(name)).args([col("search_name"), Expr::val(word)]))
        .gt(0)
}

/// A number that every transaction adding, renaming or deleting an item of the company
/// raises: the sum of its item numbers' counter (each creation takes the next) and of
/// `item_names` (each rename and deletion bumps it). Both only grow, so two equal
/// readings see the same names.
fn names_version(company: CompanyId) -> SelectStatement {
    crate::scoped("company_counters", company)
        .expr_as(
            Func::coalesce([Expr::col("last_value").sum(), Expr::val(0)]).cast_as("BIGINT"),
            "n",
        )
        .and_where(Expr::col("kind").is_in(["items", "item_names"]))
        .take()
}

/// The rental rates of an item, in minor units per period.
#[derive(Debug, Clone, Default)]
pub struct Rates {
    pub per_minute: Change<i64>,
    pub hourly: Change<i64>,
    pub daily: Change<i64>,
    pub weekly: Change<i64>,
    pub monthly: Change<i64>,
}

/// Every field a create or update of a fixed asset may carry.
#[derive(Debug, Clone, Default)]
pub struct AssetInput {
    /// Required on create; an update keeps the stored one when `None`.
    pub name: Option<Name>,
    pub group_id: Option<Id<kind::Group>>,
    pub purchased_on: Option<NaiveDate>,
    pub sub_group_id: Change<Id<kind::SubGroup>>,
    pub location_id: Change<Id<kind::Location>>,
    pub description: Change<String>,
    pub manufacturer: Change<String>,
    pub product_model_number: Change<String>,
    pub image_url: Change<String>,
    pub identifier: Change<String>,
    pub price: Change<i64>,
    /// The whole list, when sent.
    pub document_urls: Option<Vec<String>>,
    pub rates: Rates,
    /// The fee for a late return on an order: set with its kind, or cleared.
    pub late_fee: Change<LateFee>,
    pub custom_attributes: crate::custom_fields::FieldValues,
    pub custom_tax_ids_to_add: Vec<i64>,
    pub custom_tax_ids_to_remove: Vec<i64>,
}

/// The one place a field of `AssetInput` meets its column.
fn assign(row: &mut Assignments, input: &AssetInput) {
    let AssetInput {
        name,
        group_id,
        purchased_on,
        sub_group_id,
        location_id,
        description,
        manufacturer,
        product_model_number,
        image_url,
        identifier,
        price,
        document_urls,
        rates:
            Rates {
                per_minute,
                hourly,
                daily,
                weekly,
                monthly,
            },
        late_fee,
        // Merged with the stored values by the caller.
        custom_attributes: _,
        // Links in their own table.
        custom_tax_ids_to_add: _,
        custom_tax_ids_to_remove: _,
    } = input;
    if let Some(name) = name {
        row.set("name", name.as_str());
    }
    row.given("group_id", group_id)
        .given("purchased_on", purchased_on)
        .change("sub_group_id", sub_group_id)
        .change("location_id", location_id)
        .change("description", description)
        .change("manufacturer", manufacturer)
        .change("product_model_number", product_model_number)
        .change("image_url", image_url)
        .change("identifier", identifier)
        .change("price", price)
        .change("rate_per_minute", per_minute)
        .change("rate_hourly", hourly)
        .change("rate_daily", daily)
        .change("rate_weekly", weekly)
        .change("rate_monthly", monthly)
        .change(
            "late_fee_kind",
            &late_fee.clone().map(|f| f.kind.as_str().to_owned()),
        )
        .change(
            "late_fee_amount",
            &late_fee.clone().map(|f| f.amount.minor()),
        );
    if let Some(urls) = document_urls {
        row.set("document_urls", json!(urls).to_string());
    }
}

/// Checks the ids an input refers to against the company's records, naming each
/// problem; `group` is the group the item will be in.
async fn check_references(
    tx: &mut Tx,
    company: CompanyId,
    input: &AssetInput,
    group: Id<kind::Group>,
    sub_group: Option<Id<kind::SubGroup>>,
) -> Result<(), StoreError> {
    let mut errors = crate::FieldErrors::new();
    if !crate::has(tx, "asset_groups", company, group).await? {
        errors.insert(
            "group_id".into(),
            vec![format!("is not a group of this company: {group}").into()],
        );
    }
    if let Some(s) = sub_group {
        let stmt = crate::scoped("sub_groups", company)
            .column("id")
            .and_where(Expr::col("id").eq(s))
            .and_where(Expr::col("group_id").eq(group))
            .to_owned();
        if tx.optional::<(i64,)>(&stmt).await?.is_none() {
            errors.insert(
                "sub_group_id".into(),
                vec![format!("is not a subgroup of group {group}: {s}").into()],
            );
        }
    }
    if let Change::Set(l) = input.location_id {
        match check_location(tx, company, Some(l), "location_id").await {
            Err(StoreError::Invalid(problem)) => errors.extend(problem),
            other => other?,
        }
    }
    let taxes: Vec<i64> = input
        .custom_tax_ids_to_add
        .iter()
        .chain(&input.custom_tax_ids_to_remove)
        .copied()
        .collect();
    if let Some(problem) = crate::unknown_ids(
        tx,
        crate::scoped("custom_taxes", company),
        &taxes,
        "custom tax",
    )
    .await?
    {
        errors.insert("custom_tax_ids".into(), vec![problem.into()]);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(StoreError::Invalid(errors))
    }
}

async fn write_taxes(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
    input: &AssetInput,
) -> Result<(), StoreError> {
    if !input.custom_tax_ids_to_remove.is_empty() {
        let stmt = Query::delete()
            .from_table("item_custom_taxes")
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("item_id").eq(item))
            .and_where(Expr::col("custom_tax_id").is_in(input.custom_tax_ids_to_remove.clone()))
            .to_owned();
        tx.execute(&stmt).await?;
    }
    if !input.custom_tax_ids_to_add.is_empty() {
        let stmt = crate::scoped("item_custom_taxes", company)
            .column("custom_tax_id")
            .and_where(Expr::col("item_id").eq(item))
            .to_owned();
        let present: Vec<(i64,)> = tx.all(&stmt).await?;
        let new: Vec<i64> = input
            .custom_tax_ids_to_add
            .iter()
            .copied()
            .filter(|t| !present.iter().any(|p| p.0 == *t))
            .collect();
        crate::insert_links(
            tx,
            company,
            "item_custom_taxes",
            ("item_id", item),
            "custom_tax_id",
            &new,
        )
        .await?;
    }
    Ok(())
}

/// Creates an item of `kind` with the company's next number. `name` and `group` (and
/// for a fixed asset `purchased_on`) are required; the HTTP layer has already said so.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    input: AssetInput,
    today: Today,
) -> Result<ItemView, StoreError> {
    let mut tx = db.begin().await?;
    let (id, _) = create_in(&mut tx, company, kind, input).await?;
    commit_reread(tx, company, id, today).await
}

/// [`create`], in a transaction of the caller's (an import's); answers the new item's
/// id and number.
pub async fn create_in(
    tx: &mut Tx,
    company: CompanyId,
    kind: AssetType,
    input: AssetInput,
) -> Result<(i64, i64), StoreError> {
    let group = input
        .group_id
        .ok_or_else(|| StoreError::invalid("group_id", "can't be blank"))?;
    check_references(
        tx,
        company,
        &input,
        group,
        input.sub_group_id.as_set().copied(),
    )
    .await?;
    let sequence_num = counters::next(tx, company, Sequence::Items).await?;
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("sequence_num", sequence_num)
        .set("asset_type", kind.as_str())
        .set("state", ItemState::Available.as_str())
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, &input);
    let search_name = input
        .name
        .as_ref()
        .map(|n| domain::name::folded(n.as_str()));
    if let Some(folded) = search_name.clone().filter(|_| !tx.defers_indexed_text()) {
        row.set("search_name", folded);
    }
    let stmt = row
        .into_insert("items")
        .returning(Query::returning().column("id"))
        .to_owned();
    let (id,): (i64,) = tx.one(&stmt).await?;
    if let Some(folded) = search_name.filter(|_| tx.defers_indexed_text()) {
        tx.write_at_commit("items", "search_name", id, folded);
    }
    write_taxes(tx, company, id, &input).await?;
    history(
        tx,
        company,
        id,
        "created",
        json!({"name": input.name.as_ref().map(Name::as_str), "group_id": group}),
    )
    .await?;
    Ok((id, sequence_num))
}

/// Up to `limit` items of `kind` that have an identification number, by number from
/// after `after`: `(sequence_num, identifier)`. An import reads them all once, a page
/// at a time, and matches its rows' identifiers in memory: a lookup a row inside the
/// import's transaction was a scan a row, since the planner, whose statistics still
/// think the table empty, took any index starting with the company.
pub async fn identifiers_in(
    tx: &mut Tx,
    company: CompanyId,
    kind: AssetType,
    after: i64,
    limit: u64,
) -> Result<Vec<(i64, String)>, StoreError> {
    let items = crate::scoped("items", company)
        .and_where(Expr::col("asset_type").eq(kind.as_str()))
        .to_owned();
    let key = ("sequence_num", "identifier");
    crate::values_after(tx, items, key, after, limit).await
}

/// Ends a change of item `id`: history, then the item as it now is.
pub(crate) async fn finish(
    mut tx: Tx,
    company: CompanyId,
    id: i64,
    (action, details): (&str, serde_json::Value),
    today: Today,
) -> Result<ItemView, StoreError> {
    history(&mut tx, company, id, action, details).await?;
    commit_reread(tx, company, id, today).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    number: Number<kind::Item>,
    input: AssetInput,
    today: Today,
) -> Result<ItemView, StoreError> {
    let mut tx = db.begin().await?;
    let id = update_in(&mut tx, company, kind, number, input).await?;
    commit_reread(tx, company, id, today).await
}

/// [`update`], in a transaction of the caller's (an import's); answers the item's id.
pub async fn update_in(
    tx: &mut Tx,
    company: CompanyId,
    kind: AssetType,
    number: Number<kind::Item>,
    input: AssetInput,
) -> Result<i64, StoreError> {
    let before = lock(tx, company, number).await?.of_kind(kind)?;
    let group = input.group_id.unwrap_or(Id::new(before.group_id));
    let sub_group = match input.sub_group_id {
        Change::Set(s) => Some(s),
        Change::Clear => None,
        // A new group without a new subgroup leaves the old subgroup behind.
        Change::Keep
            if input
                .group_id
                .is_some_and(|g| g != Id::new(before.group_id)) =>
        {
            None
        }
        Change::Keep => before.sub_group_id.map(Id::new),
    };
    check_references(tx, company, &input, group, sub_group).await?;
    let mut row = Assignments::update();
    assign(&mut row, &input);
    if input.sub_group_id.is_keep() && sub_group.is_none() && before.sub_group_id.is_some() {
        row.set("sub_group_id", Option::<i64>::None);
    }
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let fields = row.columns();
    if let Some(name) = input.name.as_ref().filter(|n| n.as_str() != before.name) {
        let folded = domain::name::folded(name.as_str());
        if tx.defers_indexed_text() {
            tx.write_at_commit("items", "search_name", before.id, folded);
        } else {
            row.set("search_name", folded);
        }
        // A search's kept count is the company's while no item is added, renamed or
        // deleted (`names_version`).
        counters::next(tx, company, Sequence::ItemNames).await?;
    }
    tx.execute(&row.into_update("items", company, before.id))
        .await?;
    write_taxes(tx, company, before.id, &input).await?;
    let details = json!({
        "fields": fields,
        "custom_tax_ids_added": input.custom_tax_ids_to_add,
        "custom_tax_ids_removed": input.custom_tax_ids_to_remove,
    });
    history(tx, company, before.id, "updated", details).await?;
    Ok(before.id)
}

/// One GPS reading.
#[derive(Debug, Clone)]
pub struct Reading {
    pub latitude: String,
    pub longitude: String,
    pub gps_asset_id: Option<String>,
}

/// Records a GPS reading of an item; the latest is shown on the item.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn record_gps(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    reading: Reading,
    today: Today,
) -> Result<ItemView, StoreError> {
    let mut tx = db.begin().await?;
    let item = lock(&mut tx, company, number).await?;
    let at = now();
    let insert = Query::insert()
        .into_table("gps_readings")
        .columns([
            "company_id",
            "item_id",
            "latitude",
            "longitude",
            "gps_asset_id",
            "recorded_at",
        ])
        .values_panic([
            company.0.into(),
            item.id.into(),
            reading.latitude.clone().into(),
            reading.longitude.clone().into(),
            reading.gps_asset_id.clone().into(),
            at.into(),
        ])
        .to_owned();
    tx.execute(&insert).await?;
    let mut row = Assignments::update();
    row.set("latitude", reading.latitude.clone())
        .set("longitude", reading.longitude.clone())
        .set("gps_updated_at", at);
    tx.execute(&row.into_update("items", company, item.id))
        .await?;
    let details = json!({
        "latitude": reading.latitude,
        "longitude": reading.longitude,
        "gps_asset_id": reading.gps_asset_id,
    });
    finish(tx, company, item.id, ("gps", details), today).await
}

/// One entry of an item's history.
pub use change_log::HistoryEntry;

/// A page of an item's history, newest first (two statements: the count on the
/// history's index, the page).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn history_page(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    p: Page,
) -> Result<PageOf<HistoryEntry>, StoreError> {
    let mut tx = db.begin_read().await?;
    let stmt = crate::scoped("items", company)
        .column("id")
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned();
    let (id,): (i64,) = tx
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Item))?;
    let entries = change_log::page(&mut tx, company, "item", id, p).await?;
    tx.commit().await?;
    Ok(entries)
}

/// Records an item in a group (and subgroup) with only a name. For tests of the
/// catalog rules; returns its sequence number.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn record(
    db: &Db,
    company: CompanyId,
    asset_type: &str,
    name: &str,
    group: Id<kind::Group>,
    sub_group: Option<Id<kind::SubGroup>>,
) -> Result<i64, StoreError> {
    let Some(asset_type) = AssetType::parse(asset_type) else {
        return Err(StoreError::invalid(
            "asset_type",
            format!("must be one of {}", AssetType::names()),
        ));
    };
    let mut tx = db.begin().await?;
    let sequence_num = counters::next(&mut tx, company, Sequence::Items).await?;
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("sequence_num", sequence_num)
        .set("asset_type", asset_type.as_str())
        .set("name", name)
        .set("search_name", domain::name::folded(name))
        .set("group_id", group)
        .set("sub_group_id", sub_group)
        .set("created_at", at)
        .set("updated_at", at);
    let stmt = row
        .into_insert("items")
        .returning(Query::returning().column("id"))
        .to_owned();
    let (id,): (i64,) = tx.one(&stmt).await?;
    history(&mut tx, company, id, "created", json!({"group_id": group})).await?;
    tx.commit().await?;
    Ok(sequence_num)
}

/// The items whose `column` (`group_id` or `sub_group_id`) is `id`.
pub(crate) fn in_column(company: CompanyId, column: &'static str, id: i64) -> SelectStatement {
    crate::scoped("items", company)
        .and_where(Expr::col(column).eq(id))
        .to_owned()
}

/// The partitions of `list_counts` items are counted in (migration 0008's trigger): by
/// kind and state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counted(AssetType, ItemState);

impl crate::Partition for Counted {
    const ALL: &'static [Self] = &{
        use AssetType as T;
        use ItemState as S;
        let mut all = [Counted(T::FixedAsset, S::Available); 12];
        let kinds = [T::FixedAsset, T::VolatileAsset, T::StockAsset];
        let states = [S::Available, S::CheckedOut, S::Retired, S::InService];
        let mut i = 0;
        while i < 12 {
            all[i] = Counted(kinds[i / 4], states[i % 4]);
            i += 1;
        }
        all
    };

    fn key(self) -> &'static str {
        use AssetType as T;
        use ItemState as S;
        match (self.0, self.1) {
            (T::FixedAsset, S::Available) => "items:FixedAsset:available",
            (T::FixedAsset, S::CheckedOut) => "items:FixedAsset:checked_out",
            (T::FixedAsset, S::Retired) => "items:FixedAsset:retired",
            (T::FixedAsset, S::InService) => "items:FixedAsset:in_service",
            (T::VolatileAsset, S::Available) => "items:VolatileAsset:available",
            (T::VolatileAsset, S::CheckedOut) => "items:VolatileAsset:checked_out",
            (T::VolatileAsset, S::Retired) => "items:VolatileAsset:retired",
            (T::VolatileAsset, S::InService) => "items:VolatileAsset:in_service",
            (T::StockAsset, S::Available) => "items:StockAsset:available",
            (T::StockAsset, S::CheckedOut) => "items:StockAsset:checked_out",
            (T::StockAsset, S::Retired) => "items:StockAsset:retired",
            (T::StockAsset, S::InService) => "items:StockAsset:in_service",
        }
    }
}

/// The total of the items of `kind`: all of them, or those in `state`.
fn total(company: CompanyId, kind: AssetType, state: Option<ItemState>) -> crate::Total {
    use crate::Partition;
    crate::Total::of(
        company,
        Counted::ALL
            .iter()
            .copied()
            .filter(|c| c.0 == kind && state.is_none_or(|s| c.1 == s)),
    )
}
