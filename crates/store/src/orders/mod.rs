//! Rental orders (baskets): the order's own fields (`fields.rs`), its line items
//! (`lines.rs`) and its totals (`priced.rs`). The state machine is `domain::order`, the
//! arithmetic `domain::pricing`; these modules read and write them. Every change of an
//! order locks its row, checks the state allows it, writes, prices the order again and
//! stores `net_amount` and `balance_due` in the same transaction.

mod booking;
mod charges;
mod closing;
mod fields;
mod lines;
mod payments;
mod priced;
mod rent_out;
mod returning;
mod sub_rentals;

pub(crate) use booking::refuse_if_promised;
pub use booking::{ItemBooking, book, cancel_booking, item_bookings};
pub use charges::{EntryRecord, NewEntry, add_custom_entry, apply_taxes, charge_damages};
pub use closing::{Sale, cancel, mark_for_sale, sell, void};
pub use fields::{OrderInput, create, update};
pub(crate) use lines::holds_item;
pub use lines::{Addition, Additions, LineItem, add_items, remove_items};
pub use payments::{Payment, PaymentRecord, pre_pay, void_payment};
pub use priced::{OrderView, PricedLine, find};
pub use rent_out::{RentOut, rent_out};
pub use returning::{Return, Selection, take_back};
pub use sub_rentals::{NewSubRentItem, SubRentItem, add_sub_rent_item};

use crate::CompanyId;
use crate::ids::{Id, Kind, Number, kind};
use chrono::{DateTime, Utc};
use domain::order::OrderState;
use domain::pricing::Percent;
use domain::{Page, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, LockType, Query, QueryStatementBuilder, SelectStatement};
use serde_json::json;

use crate::item_core;
use crate::{Assignments, Db, PageOf, StoreError, Tx, change_log, counters, now};
use counters::Sequence;

/// Records an order for a customer or contact (and optionally a business) in a given
/// state, nothing else: the customer filters' tests and the benchmark seed use it.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn record(
    db: &Db,
    company: CompanyId,
    customer: Option<Id<kind::Customer>>,
    business: Option<Id<kind::Business>>,
    state: &str,
) -> Result<i64, StoreError> {
    let Some(state) = OrderState::parse(state) else {
        return Err(StoreError::invalid(
            "basket_state",
            format!("must be one of {}", OrderState::names()),
        ));
    };
    let mut tx = db.begin().await?;
    let sequence_num = counters::next(&mut tx, company, Sequence::Orders).await?;
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("sequence_num", sequence_num)
        .set("customer_id", customer)
        .set("business_id", business)
        .set("basket_state", state.as_str())
        .set("created_at", at)
        .set("updated_at", at);
    let (id,): (i64,) = tx
        .one(
            &row.into_insert("orders")
                .returning(Query::returning().column("id"))
                .to_owned(),
        )
        .await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        id,
        "created",
        json!({"basket_state": state.as_str()}),
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// An order's row, with the names of whom it is for.
#[derive(Debug, Clone, crate::Row)]
pub struct Order {
    pub id: i64,
    pub sequence_num: i64,
    pub customer_id: Option<i64>,
    pub customer_name: Option<String>,
    /// The customer (or contact) pays no tax.
    pub customer_tax_free: Option<bool>,
    pub business_id: Option<i64>,
    pub business_name: Option<String>,
    pub business_tax_free: Option<bool>,
    pub basket_state: String,
    pub description: Option<String>,
    pub identification_number: Option<String>,
    pub invoice_heading: Option<String>,
    pub expected_checkout_at: Option<DateTime<Utc>>,
    pub due_at: Option<DateTime<Utc>>,
    pub bill_from: Option<DateTime<Utc>>,
    pub bill_to: Option<DateTime<Utc>>,
    pub location_id: Option<i64>,
    pub pick_up_location_id: Option<i64>,
    pub shipping_address_id: Option<i64>,
    pub pick_up_address_id: Option<i64>,
    pub location_for_delivery: bool,
    pub location_for_pickup: bool,
    /// Hundredths of a percent.
    pub order_discount: i64,
    pub assigned_to_id: Option<i64>,
    pub user_listing_name: Option<String>,
    /// JSON object keyed by custom field id.
    pub custom_attributes: String,
    pub checked_out_on: Option<DateTime<Utc>>,
    pub returned_on: Option<DateTime<Utc>>,
    pub completed_on: Option<DateTime<Utc>>,
    pub damage_amount: i64,
    pub amount_paid: i64,
    pub net_amount: i64,
    pub balance_due: i64,
    /// `item_custom_attribute_values` of the rent-out, JSON keyed by custom field id.
    pub checkout_values: String,
    /// Those of the returns.
    pub checkin_values: String,
    /// The company's pricing settings as they were when the order went out or was
    /// sold (`None` before: the current ones apply).
    pub inclusive_return: Option<bool>,
    pub best_pricing: Option<bool>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Order {
    pub fn state(&self) -> OrderState {
        OrderState::parse(&self.basket_state).unwrap_or(OrderState::Drafted)
    }

    /// The order discount as a percentage.
    pub fn discount(&self) -> Percent {
        Percent::from_hundredths(self.order_discount).unwrap_or(Percent::ZERO)
    }

    /// The billing period: `bill_from`..`bill_to`, each defaulting to the order's
    /// check-out and due moments.
    pub fn billing(&self) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
        self.line_billing(None)
    }

    /// The period a line is billed for: the order's, except that without a `bill_to`
    /// a line due at its own moment (leftovers of a partial return kept longer) is
    /// billed to it.
    pub fn line_billing(
        &self,
        line_due: Option<DateTime<Utc>>,
    ) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
        Some((
            self.bill_from
                .or(self.checked_out_on)
                .or(self.expected_checkout_at)?,
            self.bill_to.or(line_due).or(self.due_at)?,
        ))
    }
}

const ORDER_COLUMNS: [&str; 36] = [
    "id",
    "sequence_num",
    "customer_id",
    "business_id",
    "basket_state",
    "description",
    "identification_number",
    "invoice_heading",
    "expected_checkout_at",
    "due_at",
    "bill_from",
    "bill_to",
    "location_id",
    "pick_up_location_id",
    "shipping_address_id",
    "pick_up_address_id",
    "location_for_delivery",
    "location_for_pickup",
    "order_discount",
    "assigned_to_id",
    "user_listing_name",
    "custom_attributes",
    "checked_out_on",
    "returned_on",
    "completed_on",
    "damage_amount",
    "amount_paid",
    "net_amount",
    "balance_due",
    "checkout_values",
    "checkin_values",
    "inclusive_return",
    "best_pricing",
    "created_at",
    "updated_at",
    "company_id",
];

/// The orders of `company` with their customer's and business's names.
fn select(company: CompanyId) -> SelectStatement {
    let o = |c: &'static str| ("orders", c);
    Query::select()
        .from("orders")
        .columns(ORDER_COLUMNS[..35].iter().map(|c| o(c)))
        .expr_as(
            Expr::cust(
                r#"CASE WHEN "persons"."first_name" IS NULL THEN "persons"."last_name" ELSE "persons"."first_name" || ' ' || "persons"."last_name" END"#,
            ),
            "customer_name",
        )
        .expr_as(
            Expr::col(("persons", "collect_tax")).not(),
            "customer_tax_free",
        )
        .expr_as(Expr::col(("businesses", "name")), "business_name")
        .expr_as(Expr::col(("businesses", "tax_free")), "business_tax_free")
        .left_join(
            "persons",
            Cond::all()
                .add(Expr::col(("persons", "company_id")).equals(o("company_id")))
                .add(Expr::col(("persons", "id")).equals(o("customer_id"))),
        )
        .left_join(
            "businesses",
            Cond::all()
                .add(Expr::col(("businesses", "company_id")).equals(o("company_id")))
                .add(Expr::col(("businesses", "id")).equals(o("business_id"))),
        )
        .and_where(Expr::col(o("company_id")).eq(company.0))
        .to_owned()
}

/// Which orders a list shows.
#[derive(Debug, Clone, Copy, Default)]
pub enum OrderFilter {
    /// Every order.
    #[default]
    All,
    /// Those in one state.
    State(OrderState),
}

/// A page of orders, oldest number first (without their lines).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    filter: OrderFilter,
    page: Page,
) -> Result<PageOf<Order>, StoreError> {
    let mut base = crate::scoped("orders", company);
    let mut rows = select(company);
    if let OrderFilter::State(state) = filter {
        base.and_where(Expr::col("basket_state").eq(state.as_str()));
        rows.and_where(Expr::col(("orders", "basket_state")).eq(state.as_str()));
    }
    let state = match filter {
        OrderFilter::All => None,
        OrderFilter::State(s) => Some(s),
    };
    crate::page_of(
        db,
        &base,
        rows,
        ("orders", "id"),
        page,
        total(company, state),
    )
    .await
}

/// A page of the orders whose expected check-out falls in `[from, to)` (a day of
/// `checkout_requests/filter.api`), oldest number first: those still waiting to go
/// out (Draft, Web Order, Booked) unless `every_state`.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn starting(
    db: &Db,
    company: CompanyId,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    every_state: bool,
    page: Page,
) -> Result<PageOf<Order>, StoreError> {
    let waiting = [
        OrderState::Drafted,
        OrderState::WebOrder,
        OrderState::Booked,
    ]
    .map(|s| s.as_str());
    let narrow = |table: Option<&'static str>| {
        let col = |c: &'static str| match table {
            Some(t) => Expr::col((t, c)),
            None => Expr::col(c),
        };
        let mut cond = Cond::all()
            .add(col("expected_checkout_at").gte(from))
            .add(col("expected_checkout_at").lt(to));
        if !every_state {
            cond = cond.add(col("basket_state").is_in(waiting));
        }
        cond
    };
    let base = crate::scoped("orders", company)
        .cond_where(narrow(None))
        .to_owned();
    let rows = select(company)
        .cond_where(narrow(Some("orders")))
        .order_by(("orders", "id"), sea_query::Order::Asc)
        .to_owned();
    crate::page_of(
        db,
        &base,
        rows,
        ("orders", "id"),
        page,
        crate::Total::Filtered,
    )
    .await
}

/// Locks the order numbered `number` for the rest of the transaction (`FOR NO KEY
/// UPDATE`, as items are locked: its lines' foreign-key checks don't wait for it).
async fn lock(
    tx: &mut Tx,
    company: CompanyId,
    number: Number<kind::Order>,
) -> Result<Order, StoreError> {
    let (order, _) = lock_reading(tx, company, number, &[]).await?;
    Ok(order)
}

/// The read of [`lock`].
fn locking(company: CompanyId, number: Number<kind::Order>) -> SelectStatement {
    select(company)
        .and_where(Expr::col(("orders", "sequence_num")).eq(number))
        .lock_with_tables(LockType::NoKeyUpdate, ["orders"])
        .to_owned()
}

/// Locks order `number` as [`lock`] does and reads `with` after it, in one round trip
/// on PostgreSQL with the company's webhook endpoints: reads of the order's records
/// that name it by [`id_of`]. Their rows are the answer's, one read after the other.
async fn lock_reading(
    tx: &mut Tx,
    company: CompanyId,
    number: Number<kind::Order>,
    with: &[&(dyn crate::Statement + Sync)],
) -> Result<(Order, crate::Together), StoreError> {
    let locking = locking(company, number);
    // Where the change's events go, in the same round trip.
    crate::outbox::lock_with_endpoints(tx, company, &locking, Kind::Order, with).await
}

/// Locks order `number` ([`lock`]) and reads its lines with it ([`lock_reading`]).
async fn lock_with_lines(
    tx: &mut Tx,
    company: CompanyId,
    number: Number<kind::Order>,
) -> Result<(Order, Vec<LineItem>), StoreError> {
    let lines = lines::lines_read(company, id_of(company, number));
    let (order, mut reads) = lock_reading(tx, company, number, &[&lines]).await?;
    Ok((order, reads.next(tx)?))
}

/// The id of order `number`, as a subquery: what a read in the round trip of the
/// order's lock ([`lock_reading`]) names the order by.
fn id_of(company: CompanyId, number: Number<kind::Order>) -> Expr {
    Expr::SubQuery(
        None,
        Box::new(
            crate::scoped("orders", company)
                .column("id")
                .and_where(Expr::col("sequence_num").eq(number))
                .to_owned()
                .into_sub_query_statement(),
        ),
    )
}

/// Starts the write transaction of a move of order `number`'s items (booking, rent-out,
/// sale, return): on PostgreSQL it first reads which items the order's lines name and
/// waits in this process for their turns (`Db::begin_turns`), holding no connection, as
/// a write of one item does (`item_core::begin`). Orders sharing an item then queue for
/// it in order instead of on its row lock, each holding a pooled connection. Lines all
/// back need no turn; a line put on the order between that read and the lock goes
/// without its turn: the row locks still decide.
async fn begin_on_items(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
) -> Result<Tx, StoreError> {
    if !db.takes_turns() {
        return db.begin().await;
    }
    let l = |c: &'static str| ("order_line_items", c);
    let stmt = lines_joined(company)
        .distinct()
        .column(("items", "sequence_num"))
        .and_where(Expr::col(("orders", "sequence_num")).eq(number))
        .and_where(Expr::col(l("quantity_returned")).lt(Expr::col(l("quantity"))))
        .limit(ORDER_TURNS as u64 + 1)
        .to_owned();
    let numbers: Vec<(i64,)> = db.read().all(&stmt).await?;
    if numbers.len() > ORDER_TURNS {
        return db.begin().await;
    }
    let numbers: Vec<i64> = numbers.into_iter().map(|n| n.0).collect();
    db.begin_turns(company, &numbers).await
}

/// The company's order lines, each with its order and its item joined.
fn lines_joined(company: CompanyId) -> SelectStatement {
    Query::select()
        .from("order_line_items")
        .inner_join(
            "orders",
            crate::joins("orders", ("order_line_items", "order_id")),
        )
        .inner_join(
            "items",
            crate::joins("items", ("order_line_items", "item_id")),
        )
        .and_where(Expr::col(("order_line_items", "company_id")).eq(company.0))
        .to_owned()
}

/// The most items whose turns an order's move takes (`begin_on_items`): a larger order
/// goes by its items' row locks alone rather than hold turns that other items' writes
/// share (one in every 4,096 of them each).
const ORDER_TURNS: usize = 64;

/// Locks the items of `lines` in number order (`item_core::lock_many`), before a move that
/// changes several of them: rent-out, sale and return all take their items in this one
/// order first, so two of them sharing items wait for each other instead of one
/// changing an asset (and the list counts' rows with it) while the other holds a stock
/// item it needs, which deadlocks on PostgreSQL. Their rows as locked are kept
/// ([`Items`]), so the move reads none of them again; a move of stock among them
/// ([`Locking::Move`]) reads whoever acts (named in its history) in the same round trip.
/// With the lock, `then` is read in its round trip (one pipeline on PostgreSQL, each
/// read seeing what was committed before the lock was granted; a write among them is
/// undone with the rest when the move is refused): the rows of `then` are next in the
/// reads that come back.
async fn lock_items<'a>(
    tx: &mut Tx,
    company: CompanyId,
    lines: impl IntoIterator<Item = &'a LineItem>,
    locking: Locking,
    then: &[&(dyn crate::Statement + Sync)],
) -> Result<(Items, crate::Together), StoreError> {
    let (mut numbers, mut stock) = (Vec::new(), false);
    for line in lines {
        numbers.push(line.sequence_num);
        stock |= locking == Locking::Move && line.kind() != domain::item::AssetType::FixedAsset;
    }
    let (lock, actor) = (
        item_core::lock_many_read(company, &numbers),
        crate::stock::actor_read(company),
    );
    let mut reads: Vec<&(dyn crate::Statement + Sync)> = Vec::with_capacity(2 + then.len());
    if !numbers.is_empty() {
        reads.push(&lock);
        if stock {
            reads.push(&actor);
        }
    }
    reads.extend_from_slice(then);
    let mut reads = tx.read_together(&reads).await?;
    if numbers.is_empty() {
        let none = Items {
            rows: Vec::new(),
            actor: None,
        };
        return Ok((none, reads));
    }
    let rows: Vec<item_core::Locked> = reads.next(tx)?;
    let actor = if stock {
        Some(crate::stock::acting(reads.next(tx)?))
    } else {
        None
    };
    let items = Items {
        rows: rows.into_iter().map(|row| (row, false)).collect(),
        actor,
    };
    Ok((items, reads))
}

/// What [`lock_items`] locks an order's items for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Locking {
    /// To weigh them only (a booking's promise).
    Weigh,
    /// To move them (a rent-out, a sale, a return), as well as weighing them.
    Move,
}

/// The rows of an order's items as [`lock_items`] locked them, in number order, each
/// with whether the move has taken it to change it; and whoever acts, once read.
struct Items {
    rows: Vec<(item_core::Locked, bool)>,
    actor: Option<String>,
}

impl Items {
    /// Whoever acts (`stock::actor`), read with the items' lock when any is stock.
    async fn actor(&mut self, tx: &mut Tx, company: CompanyId) -> Result<String, StoreError> {
        if let Some(actor) = &self.actor {
            return Ok(actor.clone());
        }
        let actor = crate::stock::actor(tx, company).await?;
        self.actor = Some(actor.clone());
        Ok(actor)
    }

    /// Item `number` as locked (404 when no line locked names it).
    fn get(&self, number: i64) -> Result<&item_core::Locked, StoreError> {
        self.at(number).map(|at| &self.rows[at].0)
    }

    /// Item `number` to change: its row as locked the first time; read again after, as
    /// a line before, naming it too, changed it in this transaction.
    async fn take(
        &mut self,
        tx: &mut Tx,
        company: CompanyId,
        number: i64,
    ) -> Result<item_core::Locked, StoreError> {
        let at = self.at(number)?;
        let (row, taken) = &mut self.rows[at];
        if std::mem::replace(taken, true) {
            item_core::lock(tx, company, Number::new(number)).await
        } else {
            Ok(row.clone())
        }
    }

    fn at(&self, number: i64) -> Result<usize, StoreError> {
        self.rows
            .binary_search_by_key(&number, |(row, _)| row.sequence_num)
            .map_err(|_| StoreError::NotFound(Kind::Item))
    }
}

/// A page of the order's history, newest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn history_page(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    p: Page,
) -> Result<PageOf<change_log::HistoryEntry>, StoreError> {
    let mut tx = db.begin_read().await?;
    let stmt = crate::scoped("orders", company)
        .column("id")
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned();
    let (id,): (i64,) = tx
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Order))?;
    let entries = change_log::page(&mut tx, company, "order", id, p).await?;
    tx.commit().await?;
    Ok(entries)
}

/// The partitions of `list_counts` orders are counted in (migration 0010's trigger):
/// one per state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counted(OrderState);

impl crate::Partition for Counted {
    const ALL: &'static [Self] = &[
        Counted(OrderState::Drafted),
        Counted(OrderState::WebOrder),
        Counted(OrderState::Booked),
        Counted(OrderState::CheckedOut),
        Counted(OrderState::Returned),
        Counted(OrderState::Completed),
        Counted(OrderState::Void),
        Counted(OrderState::Sold),
        Counted(OrderState::Cancelled),
    ];

    fn key(self) -> &'static str {
        match self.0 {
            OrderState::Drafted => "orders:drafted",
            OrderState::WebOrder => "orders:web_order",
            OrderState::Booked => "orders:booked",
            OrderState::CheckedOut => "orders:checked_out",
            OrderState::Returned => "orders:returned",
            OrderState::Completed => "orders:completed",
            OrderState::Void => "orders:void",
            OrderState::Sold => "orders:sold",
            OrderState::Cancelled => "orders:cancelled",
        }
    }
}

/// The total of the orders in `state`, or of all.
fn total(company: CompanyId, state: Option<OrderState>) -> crate::Total {
    use crate::Partition;
    match state {
        Some(state) => crate::Total::of(company, [Counted(state)]),
        None => crate::Total::of(company, Counted::ALL.iter().copied()),
    }
}
