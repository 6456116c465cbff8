//! What every change of an item starts and ends with, below the families that change
//! items (check-outs, stock, reservations, services, orders, verifications) and the
//! items family itself: the item's row locked for the change (`lock`, `lock_many`), the
//! company's day and time (`Today`, `Clock`), the item's history, and the checks those
//! changes share.

use crate::CompanyId;
use crate::ids::{Id, Kind, Number, kind};
use chrono::{DateTime, NaiveDate, Utc};
use domain::Vocabulary;
use domain::item::{AssetType, ItemState};
use domain::refusal::Conflict;
use sea_query::{Expr, ExprTrait, LockType, Order, SelectStatement};

use crate::{StoreError, Tx, change_log};

/// The day "today" is for the company: reads mark items reserved on it.
#[derive(Debug, Clone, Copy)]
pub struct Today(pub NaiveDate);

/// The moments a filter compares with, in the company's time zone.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    pub now: DateTime<Utc>,
    pub today: NaiveDate,
    pub today_starts: DateTime<Utc>,
    pub tomorrow_starts: DateTime<Utc>,
    pub tz: chrono_tz::Tz,
}

impl Clock {
    pub fn new(now: DateTime<Utc>, tz: chrono_tz::Tz) -> Self {
        let (today, today_starts, tomorrow_starts) = domain::item::today(now, tz);
        Clock {
            now,
            today,
            today_starts,
            tomorrow_starts,
            tz,
        }
    }

    pub(crate) fn day_starts(&self, date: NaiveDate) -> DateTime<Utc> {
        domain::item::start_of_day(date, self.tz)
    }

    pub(crate) fn day_after_starts(&self, date: NaiveDate) -> DateTime<Utc> {
        self.day_starts(date.succ_opt().unwrap_or(date))
    }
}

/// The history entry of a change to item `id`.
pub(crate) async fn history(
    tx: &mut Tx,
    company: CompanyId,
    id: i64,
    action: &str,
    details: serde_json::Value,
) -> Result<(), StoreError> {
    change_log::record(tx, company, "item", id, action, details).await
}

/// Starts a write transaction that changes the one item numbered `number` (its stock
/// moved, checked out or in). On PostgreSQL it first waits in this process for the
/// item's turn, first come first served, holding no connection: writers racing for one
/// item queue here instead of on the item's row lock, where each held a pooled
/// connection (keeping it from every other write). The row lock still decides between
/// instances.
pub async fn begin(
    db: &crate::Db,
    company: CompanyId,
    number: Number<kind::Item>,
) -> Result<Tx, StoreError> {
    db.begin_turns(company, &[number.get()]).await
}

/// The row of an item locked for a change, by number.
#[derive(Debug, Clone, crate::Row)]
pub struct Locked {
    pub id: i64,
    pub sequence_num: i64,
    pub name: String,
    pub asset_type: String,
    pub state: String,
    pub location_id: Option<i64>,
    pub quantity: i64,
    pub checked_out_quantity: i64,
    pub group_id: i64,
    pub sub_group_id: Option<i64>,
    pub assigned_to_id: Option<i64>,
    pub checkout_on: Option<DateTime<Utc>>,
    pub checkin_due_on: Option<DateTime<Utc>>,
    pub custom_attributes: String,
    /// The number of the order a fixed asset is rented out on.
    pub rented_order: Option<i64>,
}

impl Locked {
    pub fn state(&self) -> ItemState {
        ItemState::parse(&self.state).unwrap_or(ItemState::Available)
    }

    /// What kind of item it is (a fixed asset when the stored word is unknown).
    pub fn kind(&self) -> AssetType {
        AssetType::parse(&self.asset_type).unwrap_or(AssetType::FixedAsset)
    }

    /// Refused unless the item is a fixed asset.
    pub fn fixed_asset(self) -> Result<Self, StoreError> {
        self.of_kind(AssetType::FixedAsset)
    }

    /// Refused (409 naming the item's own endpoints) unless the item is of `kind`.
    pub fn of_kind(self, kind: AssetType) -> Result<Self, StoreError> {
        match AssetType::parse(&self.asset_type) {
            Some(k) if k == kind => Ok(self),
            None => Ok(self),
            Some(asset_type) => Err(StoreError::Conflict(Conflict::WrongKind {
                number: self.sequence_num,
                asset_type,
                wanted: kind,
            })),
        }
    }
}

/// Locks the item numbered `number` for the rest of the transaction (a row lock on
/// PostgreSQL; SQLite's write transaction holds the whole database). Not found: 404.
pub async fn lock(
    tx: &mut Tx,
    company: CompanyId,
    number: Number<kind::Item>,
) -> Result<Locked, StoreError> {
    let (item, _) = lock_reading(tx, company, number, &[]).await?;
    Ok(item)
}

/// Locks item `number` as [`lock`] does and reads `with` after it (reads the change
/// needs whatever the item is, such as the member it goes to, or a write answering
/// rows, undone with the rest when the change is refused), in one round trip on
/// PostgreSQL with the company's webhook endpoints. Their rows are the answer's, one
/// read after the other.
pub(crate) async fn lock_reading(
    tx: &mut Tx,
    company: CompanyId,
    number: Number<kind::Item>,
    with: &[&(dyn crate::Statement + Sync)],
) -> Result<(Locked, crate::Together), StoreError> {
    let stmt = locking(company)
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned();
    crate::outbox::lock_with_endpoints(tx, company, &stmt, Kind::Item, with).await
}

/// The same row as [`lock`], read without locking it (in a read transaction).
pub(crate) async fn row(
    tx: &mut Tx,
    company: CompanyId,
    number: Number<kind::Item>,
) -> Result<Locked, StoreError> {
    let stmt = columns(company)
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned();
    tx.optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Item))
}

/// Locks the items numbered `numbers` in one statement, in ascending number order (so
/// two requests locking overlapping sets cannot deadlock); the numbers not found are
/// left out.
pub(crate) async fn lock_many(
    tx: &mut Tx,
    company: CompanyId,
    numbers: &[i64],
) -> Result<Vec<Locked>, StoreError> {
    if numbers.is_empty() {
        return Ok(Vec::new());
    }
    tx.all(&lock_many_read(company, numbers)).await
}

/// The statement of [`lock_many`] (`numbers` not empty), to read with others.
pub(crate) fn lock_many_read(company: CompanyId, numbers: &[i64]) -> SelectStatement {
    locking(company)
        .and_where(Expr::col("sequence_num").is_in(numbers.to_vec()))
        .order_by("sequence_num", Order::Asc)
        .to_owned()
}

/// The id of item `number`, as a subquery: what a write sent in the round trip of the
/// item's lock ([`lock_reading`]) names the item by.
pub(crate) fn id_of(company: CompanyId, number: Number<kind::Item>) -> SelectStatement {
    crate::scoped("items", company)
        .column("id")
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned()
}

/// Locks items for a change: `FOR NO KEY UPDATE` on PostgreSQL, which excludes every
/// other change of the item but not the key-share locks of foreign-key checks (an
/// order line or a stock row naming the item), so a write that only refers to an
/// item never waits for, or deadlocks with, one that changes it.
fn locking(company: CompanyId) -> SelectStatement {
    columns(company).lock(LockType::NoKeyUpdate).to_owned()
}

fn columns(company: CompanyId) -> SelectStatement {
    crate::scoped("items", company)
        .columns([
            "id",
            "sequence_num",
            "name",
            "asset_type",
            "state",
            "location_id",
            "quantity",
            "checked_out_quantity",
            "group_id",
            "sub_group_id",
            "assigned_to_id",
            "checkout_on",
            "checkin_due_on",
            "custom_attributes",
        ])
        .expr_as(
            Expr::cust(
                r#"(SELECT "o"."sequence_num" FROM "orders" "o" WHERE "o"."company_id" = "items"."company_id" AND "o"."id" = "items"."rented_order_id")"#,
            ),
            "rented_order",
        )
        .to_owned()
}

/// Why item `item`, checked out, can't be checked out, retired or checked in by a
/// member: it is out to a member, or rented out on an order.
pub(crate) async fn out_conflict(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
) -> Result<StoreError, StoreError> {
    Ok(StoreError::Conflict(match item.rented_order {
        Some(order) => Conflict::RentedOut {
            number: item.sequence_num,
            order,
        },
        None => Conflict::CheckedOut {
            number: item.sequence_num,
            to: holder_name(tx, company, item.assigned_to_id).await?,
        },
    }))
}

/// Refused (422 on `field`) unless `location`, if given, is a location of the company.
pub(crate) async fn check_location(
    tx: &mut Tx,
    company: CompanyId,
    location: Option<Id<kind::Location>>,
    field: &str,
) -> Result<(), StoreError> {
    match location {
        Some(l) if !crate::has(tx, "locations", company, l).await? => Err(StoreError::invalid(
            field,
            format!("is not a location of this company: {l}"),
        )),
        _ => Ok(()),
    }
}

/// The full name of member `id`, for messages.
pub(crate) async fn holder_name(
    tx: &mut Tx,
    company: CompanyId,
    id: Option<i64>,
) -> Result<String, StoreError> {
    let Some(id) = id else {
        return Ok(named(Vec::new(), None));
    };
    let stmt = names(company).and_where(Expr::col("id").eq(id)).to_owned();
    Ok(named(tx.all(&stmt).await?, Some(id)))
}

/// The read of the full name of the member item `number` is out to, as its row stands:
/// [`holder_name`] in the round trip of the item's lock ([`lock_reading`]), its rows
/// taken with [`named`] before the change moves the item.
pub(crate) fn holder_read(company: CompanyId, number: Number<kind::Item>) -> SelectStatement {
    let holder = crate::scoped("items", company)
        .column("assigned_to_id")
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned();
    names(company)
        .and_where(Expr::col("id").in_subquery(holder))
        .to_owned()
}

/// The company's members' full names.
fn names(company: CompanyId) -> SelectStatement {
    crate::scoped("members", company)
        .expr(Expr::cust(r#""first_name" || ' ' || "last_name""#))
        .to_owned()
}

/// The name of member `id` as read (`found`): "nobody" without one, "member <id>" for
/// one no longer there.
pub(crate) fn named(found: Vec<(String,)>, id: Option<i64>) -> String {
    match (found.into_iter().next(), id) {
        (_, None) => "nobody".into(),
        (Some((name,)), Some(_)) => name,
        (None, Some(id)) => format!("member {id}"),
    }
}
