//! Reservation requests of members for items, for whole days. An approval is a promise
//! (`availability`): it locks the item's row and weighs everything else promised of it
//! in the same transaction, so two promises racing queue on the lock. Approved ones of
//! one fixed asset never overlap.

use crate::CompanyId;
use crate::ids::{Id, Kind, Number, kind};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use domain::availability::{Holder, peak};
use domain::item::start_of_day;
use domain::item::{AssetType, ItemState};
use domain::refusal::{Conflict, Problem};
use domain::reservation::{Decision, ReservationStatus};
use domain::stock::Quantity;
use domain::{Page, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, Order, Query, SelectStatement};
use serde_json::json;

use crate::availability::{self, Hold};
use crate::item_core::{self, Clock, Today};
use crate::{Db, PageOf, StoreError, Tx, now};

#[derive(Debug, Clone, crate::Row)]
pub struct Reservation {
    pub id: i64,
    pub item_id: i64,
    pub sequence_num: i64,
    pub asset_name: String,
    pub member_id: i64,
    pub member_name: String,
    pub from_on: NaiveDate,
    pub to_on: NaiveDate,
    pub note: Option<String>,
    /// Units reserved (1 for a fixed asset).
    pub quantity: i64,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

fn select(company: CompanyId) -> SelectStatement {
    Query::select()
        .from("reservation_requests")
        .columns(
            [
                "id",
                "item_id",
                "member_id",
                "from_on",
                "to_on",
                "note",
                "quantity",
                "status",
                "created_at",
                "updated_at",
            ]
            .map(|c| ("reservation_requests", c)),
        )
        .expr_as(Expr::col(("items", "sequence_num")), "sequence_num")
        .expr_as(Expr::col(("items", "name")), "asset_name")
        .expr_as(
            Expr::cust(r#""members"."first_name" || ' ' || "members"."last_name""#),
            "member_name",
        )
        .inner_join(
            "items",
            Cond::all()
                .add(
                    Expr::col(("items", "company_id"))
                        .equals(("reservation_requests", "company_id")),
                )
                .add(Expr::col(("items", "id")).equals(("reservation_requests", "item_id"))),
        )
        .inner_join(
            "members",
            Cond::all()
                .add(
                    Expr::col(("members", "company_id"))
                        .equals(("reservation_requests", "company_id")),
                )
                .add(Expr::col(("members", "id")).equals(("reservation_requests", "member_id"))),
        )
        .and_where(Expr::col(("reservation_requests", "company_id")).eq(company.0))
        .to_owned()
}

fn r(c: &'static str) -> Expr {
    Expr::col(("reservation_requests", c))
}

/// Units leaving an item of inventory or asset stock (a sale or a check-out).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Leaving {
    /// Who takes them: their own approved reservations do not stand in the way, and
    /// those that have begun are fulfilled.
    pub member: Option<i64>,
    pub quantity: i64,
    /// Until when they are gone; `None`: for good, or without an end.
    pub until: Option<DateTime<Utc>>,
    /// Take them over other members' approved reservations (which become removed).
    pub override_conflicting: bool,
}

/// The 409 for approved reservations `reserved` of others standing in the way of units
/// leaving `item` in `window`.
fn stock_reserved(
    item: &item_core::Locked,
    reserved: &[Hold],
    window: (DateTime<Utc>, DateTime<Utc>),
    tz: chrono_tz::Tz,
) -> StoreError {
    let claims: Vec<_> = reserved.iter().map(|h| (h.from, h.to, h.units)).collect();
    let day = |t: DateTime<Utc>| t.with_timezone(&tz).date_naive();
    let first = &reserved[0];
    StoreError::Conflict(Conflict::StockReserved {
        number: item.sequence_num,
        reserved: peak(&claims, window.0, window.1).0,
        on_hand: item.quantity,
        member: match &first.by {
            Holder::Reservation { member, .. } => member.clone(),
            _ => String::new(),
        },
        from: day(first.from),
        to: day(first.to),
    })
}

/// Makes room for units leaving `item` now until `leaving.until`: beside everything
/// else promised of it (`availability`), they must fit at every moment. Other members'
/// approved reservations in the way are a 409 naming the first, or are removed when
/// overridden; anything else in the way is a 409 naming it. Answers the leaving
/// member's reservations it fulfilled (those that have begun).
pub(crate) async fn make_room(
    tx: &mut Tx,
    company: CompanyId,
    item: &item_core::Locked,
    leaving: Leaving,
    clock: &Clock,
) -> Result<Vec<i64>, StoreError> {
    let window = (
        clock.now,
        leaving.until.unwrap_or_else(availability::open_end),
    );
    let held = availability::holds(tx, company, item, window, None, clock.tz).await?;
    let (mine, others): (Vec<Hold>, Vec<Hold>) = held
        .into_iter()
        .partition(|h| h.by.is_reservation() && h.by.member() == leaving.member);
    let (q, tz) = (leaving.quantity, clock.tz);
    if availability::fit(item, &others, window, q, tz).is_err() {
        let (reserved, rest): (Vec<Hold>, Vec<Hold>) =
            others.into_iter().partition(|h| h.by.is_reservation());
        // What is not a reservation is never overridden.
        availability::fit(item, &rest, window, q, tz)?;
        if !leaving.override_conflicting {
            return Err(stock_reserved(item, &reserved, window, tz));
        }
        let removed = ids_of(&reserved);
        set_status(tx, company, &removed, ReservationStatus::Removed).await?;
        told(tx, company, item.id, "reservation_removed", &removed).await?;
    }
    let begun: Vec<Hold> = mine.into_iter().filter(|h| h.from <= clock.now).collect();
    let fulfilled = ids_of(&begun);
    set_status(tx, company, &fulfilled, ReservationStatus::Fulfilled).await?;
    told(tx, company, item.id, "reservation_fulfilled", &fulfilled).await?;
    Ok(fulfilled)
}

/// The webhook event of each reservation of `ids` of item `item` (`reservation.fulfilled`
/// or `reservation.removed`); the item's history counts them in its own entry.
async fn told(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
    action: &str,
    ids: &[i64],
) -> Result<(), StoreError> {
    for id in ids {
        crate::outbox::emit(
            tx,
            company,
            "item",
            item,
            action,
            &json!({"reservation_id": id}),
        )
        .await?;
    }
    Ok(())
}

/// The ids of the reservations among `holds`.
pub(crate) fn ids_of(holds: &[Hold]) -> Vec<i64> {
    holds
        .iter()
        .filter_map(|h| match h.by {
            Holder::Reservation { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

/// Sets reservations `ids` to `status` (a check-out fulfilling or overriding them),
/// bound in chunks: an override may remove many.
pub(crate) async fn set_status(
    tx: &mut Tx,
    company: CompanyId,
    ids: &[i64],
    status: ReservationStatus,
) -> Result<(), StoreError> {
    let at = now();
    crate::execute_in(tx, ids, |chunk| {
        Query::update()
            .table("reservation_requests")
            .values([
                ("status", status.as_str().into()),
                ("updated_at", at.into()),
            ])
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").is_in(chunk))
            .to_owned()
    })
    .await?;
    Ok(())
}

/// Removes the pending and approved reservations of item `item` (it is retired);
/// returns how many.
pub(crate) async fn remove_open(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
) -> Result<usize, StoreError> {
    let stmt = Query::update()
        .table("reservation_requests")
        .values([
            ("status", ReservationStatus::Removed.as_str().into()),
            ("updated_at", now().into()),
        ])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("item_id").eq(item))
        .and_where(Expr::col("status").is_in([
            ReservationStatus::Pending.as_str(),
            ReservationStatus::Approved.as_str(),
        ]))
        .returning_col("id")
        .to_owned();
    let removed: Vec<(i64,)> = tx.all(&stmt).await?;
    let removed: Vec<i64> = removed.into_iter().map(|(id,)| id).collect();
    told(tx, company, item, "reservation_removed", &removed).await?;
    Ok(removed.len())
}

/// A new reservation request.
#[derive(Debug, Clone)]
pub struct NewReservation {
    pub member: Id<kind::Member>,
    /// Units wanted of inventory or asset stock; `None`: 1. A fixed asset is reserved
    /// whole, so it takes none.
    pub quantity: Option<Quantity>,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub note: Option<String>,
}

async fn one(tx: &mut Tx, company: CompanyId, id: i64) -> Result<Reservation, StoreError> {
    let stmt = select(company).and_where(r("id").eq(id)).to_owned();
    tx.one(&stmt).await
}

/// Reservation request `id` of the item numbered `number` (any kind).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    id: Id<kind::ReservationRequest>,
) -> Result<Reservation, StoreError> {
    let stmt = select(company)
        .and_where(r("id").eq(id))
        .and_where(Expr::col(("items", "sequence_num")).eq(number))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(id.missing())
}

/// Asks for an item for whole days (a fixed asset whole, units of inventory or asset
/// stock); the request is pending until decided. Starting before today (in the
/// company's time zone) is refused.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    new: NewReservation,
    today: Today,
) -> Result<Reservation, StoreError> {
    if new.from < today.0 {
        return Err(StoreError::invalid(
            "from",
            format!("can't be before today ({})", today.0),
        ));
    }
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number).await?;
    let quantity = match (item.kind(), new.quantity) {
        (AssetType::FixedAsset, Some(q)) if q.get() != 1 => {
            return Err(StoreError::invalid(
                "quantity",
                Problem::ReservedWhole {
                    number: number.get(),
                },
            ));
        }
        (_, q) => q.map_or(1, Quantity::get),
    };
    if item.state() == ItemState::Retired {
        return Err(StoreError::Conflict(Conflict::Retired {
            number: number.get(),
        }));
    }
    crate::members::active_member(&mut tx, company, new.member, "member").await?;
    let at = now();
    let stmt = Query::insert()
        .into_table("reservation_requests")
        .columns([
            "company_id",
            "item_id",
            "member_id",
            "from_on",
            "to_on",
            "note",
            "quantity",
            "status",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            item.id.into(),
            new.member.into(),
            new.from.into(),
            new.to.into(),
            new.note.clone().into(),
            quantity.into(),
            ReservationStatus::Pending.as_str().into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().column("id"))
        .to_owned();
    let (id,): (i64,) = tx.one(&stmt).await?;
    let reservation = one(&mut tx, company, id).await?;
    item_core::history(
        &mut tx,
        company,
        item.id,
        "reservation_requested",
        json!({
            "reservation_id": id,
            "user_id": new.member,
            "user_full_name": reservation.member_name,
            "from": new.from,
            "to": new.to,
            "quantity": quantity,
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(reservation)
}

/// Approves or denies request `id` of the item numbered `number`. An approval is
/// refused (409) when it would overlap another approved reservation of a fixed asset,
/// when, on some day of it, the approved reservations of inventory or asset stock
/// would need more units than the item has (on hand, and for asset stock also out),
/// or when with the item's orders, check-outs and service they would
/// (`availability`).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn decide(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    id: Id<kind::ReservationRequest>,
    decision: Decision,
    tz: chrono_tz::Tz,
) -> Result<Reservation, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number).await?;
    let stmt = select(company)
        .and_where(r("id").eq(id))
        .and_where(r("item_id").eq(item.id))
        .to_owned();
    let request: Reservation = tx.optional(&stmt).await?.ok_or(id.missing())?;
    let status = ReservationStatus::parse(&request.status).unwrap_or(ReservationStatus::Pending);
    let Some(next) = decision.next(status) else {
        return Err(StoreError::Conflict(Conflict::ReservationDecided {
            id: id.get(),
            status,
            decision,
        }));
    };
    if next == ReservationStatus::Approved {
        if item.state() == ItemState::Retired {
            return Err(StoreError::Conflict(Conflict::Retired {
                number: number.get(),
            }));
        }
        let window = (
            start_of_day(request.from_on, tz),
            start_of_day(request.to_on + Duration::days(1), tz) - Duration::seconds(1),
        );
        let held = availability::holds(&mut tx, company, &item, window, None, tz).await?;
        // In service until a day of the request (for good without an expected end).
        if let Some(Holder::Service { id, service_type }) = held
            .iter()
            .map(|h| &h.by)
            .find(|by| matches!(by, Holder::Service { .. }))
        {
            return Err(StoreError::Conflict(Conflict::InService {
                number: number.get(),
                service: *id,
                service_type: service_type.clone(),
            }));
        }
        let reserved: Vec<&Hold> = held.iter().filter(|h| h.by.is_reservation()).collect();
        let day = |t: DateTime<Utc>| t.with_timezone(&tz).date_naive();
        if item.kind() == AssetType::FixedAsset {
            if let Some(other) = reserved.first()
                && let Holder::Reservation { id: other_id, .. } = other.by
            {
                return Err(StoreError::Conflict(Conflict::ReservationOverlap {
                    number: number.get(),
                    other: other_id,
                    from: day(other.from),
                    to: day(other.to),
                }));
            }
        } else {
            let claims: Vec<_> = reserved.iter().map(|h| (h.from, h.to, h.units)).collect();
            let units = availability::units(&item);
            let (already, _) = peak(&claims, window.0, window.1);
            if already + request.quantity > units {
                return Err(StoreError::Conflict(Conflict::StockOverbooked {
                    number: number.get(),
                    wanted: request.quantity,
                    units,
                    reserved: already,
                }));
            }
        }
        // Orders, check-outs and services of the item count as well.
        availability::fit(&item, &held, window, request.quantity, tz)?;
    }
    set_status(&mut tx, company, &[id.get()], next).await?;
    let action = match next {
        ReservationStatus::Approved => "reservation_approved",
        _ => "reservation_denied",
    };
    item_core::history(
        &mut tx,
        company,
        item.id,
        action,
        json!({
            "reservation_id": id,
            "user_id": request.member_id,
            "user_full_name": request.member_name,
            "from": request.from_on,
            "to": request.to_on,
            "quantity": request.quantity,
        }),
    )
    .await?;
    let decided = one(&mut tx, company, id.get()).await?;
    tx.commit().await?;
    Ok(decided)
}

/// Which requests a list shows.
#[derive(Debug, Clone, Default)]
pub struct ReservationFilter {
    /// The asset numbered so.
    pub item_number: Option<Number<kind::Item>>,
    /// Only reservations of fixed assets (`Some(true)`) or of inventory and asset
    /// stock (`Some(false)`).
    pub fixed_assets: Option<bool>,
    pub member: Option<Id<kind::Member>>,
    /// `None`: every status.
    pub status: Option<ReservationStatus>,
    pub starting_on: Option<NaiveDate>,
    /// Only those that have not ended before this day.
    pub ending_from: Option<NaiveDate>,
}

/// A page of reservation requests, newest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    filter: &ReservationFilter,
    p: Page,
) -> Result<PageOf<Reservation>, StoreError> {
    let mut cond = Cond::all();
    if let Some(number) = filter.item_number {
        let stmt = crate::scoped("items", company)
            .column("id")
            .and_where(Expr::col("sequence_num").eq(number))
            .to_owned();
        let (item,): (i64,) = db
            .read()
            .optional(&stmt)
            .await?
            .ok_or(StoreError::NotFound(Kind::Item))?;
        cond = cond.add(r("item_id").eq(item));
    }
    if let Some(m) = filter.member {
        cond = cond.add(r("member_id").eq(m));
    }
    if let Some(fixed) = filter.fixed_assets {
        let of_fixed = Expr::col("asset_type").eq(AssetType::FixedAsset.as_str());
        let items = crate::scoped("items", company)
            .column("id")
            .and_where(if fixed { of_fixed } else { of_fixed.not() })
            .to_owned();
        cond = cond.add(r("item_id").in_subquery(items));
    }
    if let Some(s) = filter.status {
        cond = cond.add(r("status").eq(s.as_str()));
    }
    if let Some(d) = filter.starting_on {
        cond = cond.add(r("from_on").eq(d));
    }
    if let Some(d) = filter.ending_from {
        cond = cond.add(r("to_on").gte(d));
    }
    let base = crate::scoped("reservation_requests", company)
        .cond_where(cond.clone())
        .to_owned();
    let rows = select(company)
        .cond_where(cond)
        .order_by(("reservation_requests", "id"), Order::Asc)
        .to_owned();
    crate::page_of(
        db,
        &base,
        rows,
        ("reservation_requests", "id"),
        p,
        crate::Total::Filtered,
    )
    .await
}
