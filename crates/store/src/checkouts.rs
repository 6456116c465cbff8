//! Check-out, check-in and extension of fixed assets, and the members' views of them.
//!
//! An asset is out to one member at a time, however requests race: the check-out
//! locks the asset's row and moves it from `available` with a conditional UPDATE, and
//! the partial unique index `asset_checkouts_one_open` holds one open check-out per
//! asset. A refused check-out changes nothing.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::availability::Holder;
use domain::item::ItemState;
use domain::refusal::Conflict;
use domain::reservation::ReservationStatus;
use domain::{Page, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, Order, Query, SelectStatement};
use serde_json::json;

use crate::availability::{Hold, fit, holds, open_end};
use crate::custom_fields::merge_values;
use crate::item_core::{self, Today};
use crate::items::{self, ItemView};
pub use crate::members::MemberRef;
use crate::{Assignments, Db, PageOf, StoreError, now};

/// A check-out.
#[derive(Debug, Clone)]
pub struct Checkout {
    pub member: MemberRef,
    /// When it is due back; `None`: no end.
    pub due: Option<DateTime<Utc>>,
    pub location: Option<Id<kind::Location>>,
    pub comments: Option<String>,
    pub values: crate::custom_fields::FieldValues,
    /// Check out over other members' approved reservations (they are removed).
    pub override_conflicting: bool,
    /// Check out over the member's own later approved reservations (default true).
    pub override_mine: bool,
}

/// The 409 for `member`'s approved reservation `h` in the way of asset `number`.
fn reserved(number: i64, member: &str, h: &Hold, mine: bool, tz: chrono_tz::Tz) -> StoreError {
    let date = |at: DateTime<Utc>| at.with_timezone(&tz).date_naive();
    StoreError::Conflict(Conflict::Reserved {
        number,
        member: member.to_owned(),
        from: date(h.from),
        to: date(h.to),
        mine,
    })
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn check_out(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    checkout: Checkout,
    clock: &item_core::Clock,
) -> Result<ItemView, StoreError> {
    let at = now();
    if let Some(due) = checkout.due
        && due <= at
    {
        return Err(StoreError::invalid("till", "must be later than now"));
    }
    let mut tx = item_core::begin(db, company, number).await?;
    // The member it goes to, read with the asset's lock.
    let holder = crate::members::member_read(company, &checkout.member);
    let (item, mut reads) = item_core::lock_reading(&mut tx, company, number, &[&holder]).await?;
    let item = item.fixed_asset()?;
    match item.state() {
        ItemState::Retired => {
            return Err(StoreError::Conflict(Conflict::Retired {
                number: number.get(),
            }));
        }
        ItemState::CheckedOut => {
            return Err(item_core::out_conflict(&mut tx, company, &item).await?);
        }
        ItemState::InService => {
            return Err(crate::availability::in_service(&mut tx, company, &item).await?);
        }
        ItemState::Available => {}
    }
    let found = reads.next(&mut tx)?.into_iter().next();
    let holder = crate::members::found_member(found, &checkout.member, "user_id")?;
    item_core::check_location(&mut tx, company, checkout.location, "location_id").await?;
    // What else holds the asset until it is due: the member's own approved reservations
    // that have begun are fulfilled by the check-out; other reservations stand in the
    // way unless overridden; anything else (an order's booking) always does.
    let window = (at, checkout.due.unwrap_or_else(open_end));
    let (mut fulfilled, mut removed, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for h in holds(&mut tx, company, &item, window, None, clock.tz).await? {
        let Holder::Reservation {
            id,
            member_id,
            member,
        } = &h.by
        else {
            rest.push(h);
            continue;
        };
        let mine = *member_id == holder.id;
        if mine && h.from <= at {
            fulfilled.push(*id);
        } else if (mine && checkout.override_mine) || (!mine && checkout.override_conflicting) {
            removed.push(*id);
        } else {
            return Err(reserved(number.get(), member, &h, mine, clock.tz));
        }
    }
    fit(&item, &rest, window, 1, clock.tz)?;
    crate::reservations::set_status(&mut tx, company, &fulfilled, ReservationStatus::Fulfilled)
        .await?;
    crate::reservations::set_status(&mut tx, company, &removed, ReservationStatus::Removed).await?;
    let mut row = Assignments::update();
    row.set("state", ItemState::CheckedOut.as_str())
        .set("assigned_to_id", holder.id)
        .set("checkout_on", at)
        .set("checkin_due_on", checkout.due)
        .given("location_id", &checkout.location);
    let update = row
        .into_update("items", company, item.id)
        .and_where(Expr::col("state").eq(ItemState::Available.as_str()))
        .to_owned();
    if tx.execute(&update).await? != 1 {
        // Unreachable under the row lock; kept so the rule does not rest on it alone.
        return Err(StoreError::Conflict(Conflict::CheckedOut {
            number: number.get(),
            to: "another member".into(),
        }));
    }
    let insert = Query::insert()
        .into_table("asset_checkouts")
        .columns([
            "company_id",
            "item_id",
            "member_id",
            "checkout_on",
            "due_on",
            "checkout_location_id",
            "checkout_comments",
            "checkout_values",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            item.id.into(),
            holder.id.into(),
            at.into(),
            checkout.due.into(),
            checkout.location.into(),
            checkout.comments.clone().into(),
            merge_values("{}", &checkout.values).into(),
            at.into(),
            at.into(),
        ])
        .to_owned();
    tx.send(&insert)?;
    let details = json!({
        "is_checkout": true,
        "assigned_to_id": holder.id,
        "assigned_to_name": holder.name,
        "checkout_on": at,
        "checkin_due_on": checkout.due,
        "location_id": checkout.location,
        "comments": checkout.comments,
        "reservations_fulfilled": fulfilled,
        "reservations_removed": removed,
    });
    items::finish(
        tx,
        company,
        item.id,
        ("checked_out", details),
        Today(clock.today),
    )
    .await
}

/// A check-in.
#[derive(Debug, Clone, Default)]
pub struct Checkin {
    pub location: Option<Id<kind::Location>>,
    pub comments: Option<String>,
    pub values: crate::custom_fields::FieldValues,
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn check_in(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    checkin: Checkin,
    today: Today,
) -> Result<ItemView, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    // Who has it, read with its lock; a verification asked of the holder has nobody to
    // answer it once the asset is back: cancelled in the same round trip (undone with
    // the rest when the check-in is refused).
    let holder = item_core::holder_read(company, number);
    let cancel = crate::verifications::cancel_pending_of(
        company,
        Expr::col("item_id").in_subquery(item_core::id_of(company, number)),
    );
    let (item, mut reads) =
        item_core::lock_reading(&mut tx, company, number, &[&holder, &cancel]).await?;
    let name = item_core::named(reads.next(&mut tx)?, item.assigned_to_id);
    let verifications_cancelled = crate::verifications::cancelled(reads.next(&mut tx)?)
        .remove(&item.id)
        .unwrap_or(0);
    let item = item.fixed_asset()?;
    if item.state() != ItemState::CheckedOut {
        return Err(StoreError::Conflict(Conflict::NotCheckedOut {
            number: number.get(),
        }));
    }
    if let Some(order) = item.rented_order {
        return Err(StoreError::Conflict(Conflict::RentedOut {
            number: number.get(),
            order,
        }));
    }
    item_core::check_location(&mut tx, company, checkin.location, "location_id").await?;
    let at = now();
    let mut row = Assignments::update();
    row.set("state", ItemState::Available.as_str())
        .set("assigned_to_id", Option::<i64>::None)
        .set("checkout_on", Option::<DateTime<Utc>>::None)
        .set("checkin_due_on", Option::<DateTime<Utc>>::None)
        .given("location_id", &checkin.location);
    tx.send(&row.into_update("items", company, item.id))?;
    let close = Query::update()
        .table("asset_checkouts")
        .values([
            ("checkin_on", at.into()),
            ("checkin_location_id", checkin.location.into()),
            ("checkin_comments", checkin.comments.clone().into()),
            ("checkin_values", merge_values("{}", &checkin.values).into()),
            ("updated_at", at.into()),
        ])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("item_id").eq(item.id))
        .and_where(Expr::col("checkin_on").is_null())
        .to_owned();
    tx.send(&close)?;
    let details = json!({
        "is_checkout": false,
        "assigned_to_id": item.assigned_to_id,
        "assigned_to_name": name,
        "checkout_on": item.checkout_on,
        "checkin_on": at,
        "location_id": checkin.location,
        "comments": checkin.comments,
        "verifications_cancelled": verifications_cancelled,
    });
    items::finish(tx, company, item.id, ("checked_in", details), today).await
}

/// Moves the due moment of a check-out later: after now and after the check-out.
/// An approved reservation of another member in the way is refused.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn extend(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    due: DateTime<Utc>,
    clock: &item_core::Clock,
) -> Result<ItemView, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number)
        .await?
        .fixed_asset()?;
    if item.state() != ItemState::CheckedOut {
        return Err(StoreError::Conflict(Conflict::NotCheckedOut {
            number: number.get(),
        }));
    }
    if let Some(order) = item.rented_order {
        return Err(StoreError::Conflict(Conflict::RentedOut {
            number: number.get(),
            order,
        }));
    }
    if due <= now() || item.checkout_on.is_some_and(|c| due <= c) {
        return Err(StoreError::invalid(
            "till",
            "must be later than now and than the check-out",
        ));
    }
    // What else holds the asset until the new due moment, but its own check-out and
    // the holder's reservations.
    let window = (now(), due);
    let mut rest = Vec::new();
    for h in holds(&mut tx, company, &item, window, None, clock.tz).await? {
        match &h.by {
            Holder::Checkout { .. } => {}
            Holder::Reservation {
                member_id, member, ..
            } if Some(*member_id) != item.assigned_to_id => {
                return Err(reserved(number.get(), member, &h, false, clock.tz));
            }
            Holder::Reservation { .. } => {}
            _ => rest.push(h),
        }
    }
    fit(&item, &rest, window, 1, clock.tz)?;
    let mut row = Assignments::update();
    row.set("checkin_due_on", due);
    tx.send(&row.into_update("items", company, item.id))?;
    let open = Query::update()
        .table("asset_checkouts")
        .values([("due_on", due.into()), ("updated_at", now().into())])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("item_id").eq(item.id))
        .and_where(Expr::col("checkin_on").is_null())
        .to_owned();
    tx.send(&open)?;
    let details = json!({"checkin_due_on": due, "previous_due_on": item.checkin_due_on});
    items::finish(
        tx,
        company,
        item.id,
        ("checkout_extended", details),
        Today(clock.today),
    )
    .await
}

/// One check-out of a member's history.
#[derive(Debug, Clone, crate::Row)]
pub struct CheckoutRecord {
    pub id: i64,
    pub item_id: i64,
    pub sequence_num: i64,
    pub asset_name: String,
    pub member_id: i64,
    pub checkout_on: DateTime<Utc>,
    pub due_on: Option<DateTime<Utc>>,
    pub checkin_on: Option<DateTime<Utc>>,
    pub checkout_location_id: Option<i64>,
    pub checkin_location_id: Option<i64>,
    pub checkout_comments: Option<String>,
    pub checkin_comments: Option<String>,
}

fn records(company: CompanyId) -> SelectStatement {
    Query::select()
        .from("asset_checkouts")
        .columns(
            [
                "id",
                "item_id",
                "member_id",
                "checkout_on",
                "due_on",
                "checkin_on",
                "checkout_location_id",
                "checkin_location_id",
                "checkout_comments",
                "checkin_comments",
            ]
            .map(|c| ("asset_checkouts", c)),
        )
        .expr_as(Expr::col(("items", "sequence_num")), "sequence_num")
        .expr_as(Expr::col(("items", "name")), "asset_name")
        .inner_join(
            "items",
            Cond::all()
                .add(Expr::col(("items", "company_id")).equals(("asset_checkouts", "company_id")))
                .add(Expr::col(("items", "id")).equals(("asset_checkouts", "item_id"))),
        )
        .and_where(Expr::col(("asset_checkouts", "company_id")).eq(company.0))
        .to_owned()
}

/// A page of a member's check-outs, oldest first, 25 a page.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn member_history(
    db: &Db,
    company: CompanyId,
    member: Id<kind::Member>,
    p: Page,
) -> Result<PageOf<CheckoutRecord>, StoreError> {
    crate::members::find(db, company, member).await?;
    let cond = Cond::all().add(Expr::col(("asset_checkouts", "member_id")).eq(member));
    let base = crate::scoped("asset_checkouts", company)
        .cond_where(cond.clone())
        .to_owned();
    let rows = records(company)
        .cond_where(cond)
        .order_by(("asset_checkouts", "id"), Order::Asc)
        .to_owned();
    crate::page_of(
        db,
        &base,
        rows,
        ("asset_checkouts", "id"),
        p,
        crate::Total::Filtered,
    )
    .await
}
