//! The end of an item's service and its return: delete, retire, activate again. Each
//! weighs what still holds the item (check-outs, services, orders, reservations,
//! stock), so this module sits above those families and the items family.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::NaiveDate;
use domain::Vocabulary;
use domain::item::{AssetType, ItemState};
use domain::refusal::Conflict;
use domain::refusal::{Listed, Problem};
use sea_query::{Expr, ExprTrait, Query};
use serde_json::json;

use crate::item_core::{Clock, Locked, Today, check_location, history, lock, out_conflict};
use crate::items::{ItemView, finish, reread};
use crate::{Assignments, Db, StoreError};

/// Deletes an item of `kind` and answers it as it was; refused while it (or a unit of
/// it) is checked out or it has an approved reservation that has not ended. The stock
/// it holds goes with it (the history records how much).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn delete(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    number: Number<kind::Item>,
    today: Today,
) -> Result<ItemView, StoreError> {
    let mut tx = db.begin().await?;
    let item = lock(&mut tx, company, number).await?.of_kind(kind)?;
    if item.checked_out_quantity > 0 {
        return Err(StoreError::Conflict(Conflict::StockCheckedOut {
            number: number.get(),
            quantity: item.checked_out_quantity,
        }));
    }
    if item.state() == ItemState::CheckedOut {
        return Err(out_conflict(&mut tx, company, &item).await?);
    }
    if item.state() == ItemState::InService {
        return Err(crate::availability::in_service(&mut tx, company, &item).await?);
    }
    if crate::orders::holds_item(&mut tx, company, item.id).await? {
        return Err(StoreError::Conflict(Conflict::OnOrder {
            number: number.get(),
        }));
    }
    if let Some(r) = crate::availability::approved(&mut tx, company, item.id, today.0, None)
        .await?
        .into_iter()
        .next()
    {
        return Err(StoreError::Conflict(Conflict::Reserved {
            number: number.get(),
            member: r.member_name,
            from: r.from_on,
            to: r.to_on,
            mine: false,
        }));
    }
    let gone = reread(&mut tx, company, item.id, today).await?;
    let stmt = Query::delete()
        .from_table("items")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(item.id))
        .to_owned();
    tx.execute(&stmt).await?;
    crate::counters::next(&mut tx, company, crate::counters::Sequence::ItemNames).await?;
    crate::stock::forget(&mut tx, company, number.get())?;
    history(
        &mut tx,
        company,
        item.id,
        "deleted",
        json!({"sequence_num": number, "quantity": item.quantity, "asset_type": item.asset_type}),
    )
    .await?;
    tx.commit().await?;
    Ok(gone)
}

/// Retirement: the date, the reason (a retire reason of the company), an optional
/// salvage value.
#[derive(Debug, Clone)]
pub struct Retirement {
    pub retired_on: NaiveDate,
    pub reason: Id<kind::RetireReason>,
    pub salvage_value: Option<i64>,
}

/// Retires an available fixed asset, or asset stock none of whose units is checked
/// out; its pending and approved reservations are removed.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn retire(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    retirement: Retirement,
    clock: &Clock,
) -> Result<ItemView, StoreError> {
    let mut tx = db.begin().await?;
    let item = retirable(lock(&mut tx, company, number).await?)?;
    if item.checked_out_quantity > 0 {
        return Err(StoreError::Conflict(Conflict::StockCheckedOut {
            number: number.get(),
            quantity: item.checked_out_quantity,
        }));
    }
    match item.state() {
        ItemState::Retired => {
            return Err(StoreError::Conflict(Conflict::Retired {
                number: number.get(),
            }));
        }
        ItemState::CheckedOut => return Err(out_conflict(&mut tx, company, &item).await?),
        ItemState::InService => {
            return Err(crate::availability::in_service(&mut tx, company, &item).await?);
        }
        ItemState::Available => {}
    }
    // Orders booked or out keep it: retiring takes every unit for good, so any of
    // theirs from now on is in the way (members' reservations are removed instead).
    let window = (clock.now, crate::availability::open_end());
    let orders: Vec<_> =
        crate::availability::holds(&mut tx, company, &item, window, None, clock.tz)
            .await?
            .into_iter()
            .filter(|h| matches!(h.by, domain::availability::Holder::Order { .. }))
            .collect();
    crate::availability::fit(
        &item,
        &orders,
        window,
        crate::availability::units(&item),
        clock.tz,
    )?;
    if !crate::has(&mut tx, "retire_reasons", company, retirement.reason).await? {
        return Err(StoreError::invalid(
            "retire_reason_id",
            Problem::NotInCompany {
                list: Listed::RetireReasons,
                value: retirement.reason.to_string(),
            },
        ));
    }
    let mut row = Assignments::update();
    row.set("state", ItemState::Retired.as_str())
        .set("retired_on", retirement.retired_on)
        .set("retire_reason_id", retirement.reason)
        .set("salvage_value", retirement.salvage_value);
    tx.execute(&row.into_update("items", company, item.id))
        .await?;
    let removed = crate::reservations::remove_open(&mut tx, company, item.id).await?;
    let details = json!({
        "retired_on": retirement.retired_on,
        "retire_reason_id": retirement.reason,
        "salvage_value": retirement.salvage_value.map(|v| domain::money::Money::from_minor(v).to_decimal_string()),
        "reservations_removed": removed,
    });
    finish(
        tx,
        company,
        item.id,
        ("retired", details),
        Today(clock.today),
    )
    .await
}

/// Fixed assets and asset stock retire; inventory is used up instead (409).
fn retirable(item: Locked) -> Result<Locked, StoreError> {
    match item.kind() {
        AssetType::VolatileAsset => item.fixed_asset(),
        _ => Ok(item),
    }
}

/// Brings a retired asset back, at `location` if given.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn activate(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    location: Option<Id<kind::Location>>,
    today: Today,
) -> Result<ItemView, StoreError> {
    let mut tx = db.begin().await?;
    let item = retirable(lock(&mut tx, company, number).await?)?;
    if item.state() != ItemState::Retired {
        return Err(StoreError::Conflict(Conflict::NotRetired {
            number: number.get(),
        }));
    }
    check_location(&mut tx, company, location, "location_id").await?;
    let mut row = Assignments::update();
    row.set("state", ItemState::Available.as_str())
        .set("retired_on", Option::<NaiveDate>::None)
        .set("retire_reason_id", Option::<i64>::None)
        .set("salvage_value", Option::<i64>::None)
        .given("location_id", &location);
    tx.execute(&row.into_update("items", company, item.id))
        .await?;
    finish(
        tx,
        company,
        item.id,
        ("activated", json!({"location_id": location})),
        today,
    )
    .await
}
