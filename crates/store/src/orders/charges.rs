//! What an order adds to or takes off its items' prices: coupons
//! (`update_basket_from_show.api` with `coupon_ids`), taxes (`apply_taxes.api`), custom
//! entries (`custom_entries.api`) and damages (`charge_damages.api`). Each is stored
//! with the order and read when it is priced (`priced.rs`).

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, NaiveDate, Utc};
use domain::Vocabulary;
use domain::coupon::ValueType;
use domain::pricing::{Ceiling, Coupon, CouponEffect, CustomEntry, Tax};
use domain::refusal::Problem;
use sea_query::{Expr, ExprTrait, Order as SqlOrder, Query};
use serde_json::json;

use super::payments::{not_closed, settle_if_paid};
use super::priced::{OrderView, reprice};
use super::{Order, lock};
use crate::item_core::Clock;
use crate::{Db, StoreError, Tx, change_log, coupons, custom_taxes, group_taxes};

/// A custom entry as stored.
#[derive(Debug, Clone, crate::Row)]
pub struct EntryRecord {
    pub id: i64,
    pub name: String,
    pub amount: i64,
    pub comments: Option<String>,
    pub tax_free: bool,
    pub created_at: DateTime<Utc>,
}

/// The coupons, taxes and custom entries of an order, as pricing takes them.
#[derive(Debug, Clone, Default)]
pub struct Charges {
    pub coupons: Vec<Coupon>,
    pub taxes: Vec<Tax>,
    pub entries: Vec<EntryRecord>,
}

impl Charges {
    pub fn custom_entries(&self) -> Vec<CustomEntry> {
        self.entries
            .iter()
            .map(|e| CustomEntry {
                name: e.name.clone(),
                amount: e.amount,
                tax_free: e.tax_free,
            })
            .collect()
    }
}

async fn coupon_ids(tx: &mut Tx, company: CompanyId, order: i64) -> Result<Vec<i64>, StoreError> {
    let rows: Vec<(i64,)> = tx.all(&coupon_ids_read(company, order)).await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}

/// The read of the ids of the coupons on order `order` ([`check_coupons_on`] takes its
/// rows).
pub(super) fn coupon_ids_read(
    company: CompanyId,
    order: impl Into<Expr>,
) -> sea_query::SelectStatement {
    crate::scoped("order_coupons", company)
        .column("coupon_id")
        .and_where(Expr::col("order_id").eq(order))
        .to_owned()
}

/// The reads of order `order`'s charges, as they were when applied (its coupons, taxes
/// and custom entries), in the order [`charges_read`] takes them.
pub(super) fn charges_reads(company: CompanyId, order: i64) -> [sea_query::SelectStatement; 3] {
    let of_order = |table: &'static str, columns: &[&'static str]| {
        crate::scoped(table, company)
            .columns(columns.iter().copied())
            .and_where(Expr::col("order_id").eq(order))
            .to_owned()
    };
    [
        of_order(
            "order_coupons",
            &["coupon_id", "name", "value_type", "value", "effect"],
        )
        .order_by("created_at", SqlOrder::Asc)
        .order_by("coupon_id", SqlOrder::Asc)
        .to_owned(),
        of_order(
            "order_taxes",
            &["custom_tax_id", "group_tax_id", "name", "rate_ppm"],
        )
        .order_by("id", SqlOrder::Asc)
        .to_owned(),
        of_order(
            "order_custom_entries",
            &["id", "name", "amount", "comments", "tax_free", "created_at"],
        )
        .order_by("id", SqlOrder::Asc)
        .to_owned(),
    ]
}

/// The order's charges, from the next three of `reads` (made by [`charges_reads`]).
pub(super) fn charges_read(
    tx: &mut Tx,
    reads: &mut crate::engine::Together,
) -> Result<Charges, StoreError> {
    #[derive(crate::Row)]
    struct Applied {
        coupon_id: i64,
        name: String,
        value_type: String,
        value: i64,
        effect: String,
    }
    #[derive(crate::Row)]
    struct Taxed {
        custom_tax_id: Option<i64>,
        group_tax_id: Option<i64>,
        name: String,
        rate_ppm: i64,
    }
    let applied: Vec<Applied> = reads.next(tx)?;
    let taxed: Vec<Taxed> = reads.next(tx)?;
    let entries = reads.next(tx)?;
    let mut coupons = Vec::with_capacity(applied.len());
    for a in applied {
        let broken = || {
            StoreError::Database(crate::DbError::decode(format!(
                "order coupon {}: {} {}",
                a.coupon_id, a.value_type, a.value
            )))
        };
        let value = ValueType::parse(&a.value_type)
            .ok_or_else(broken)?
            .value(a.value)
            .map_err(|_| broken())?;
        coupons.push(Coupon {
            id: a.coupon_id,
            name: a.name.clone(),
            value,
            effect: CouponEffect::parse(&a.effect).ok_or_else(broken)?,
        });
    }
    let taxes = taxed
        .into_iter()
        .map(|t| Tax {
            id: t.custom_tax_id.or(t.group_tax_id).unwrap_or_default(),
            name: t.name,
            rate: custom_taxes::rate(t.rate_ppm),
        })
        .collect();
    Ok(Charges {
        coupons,
        taxes,
        entries,
    })
}

/// The day an order's coupons must be valid on: its rent-out, else its expected
/// check-out, else today.
fn coupon_day(order: &Order, clock: &Clock) -> NaiveDate {
    order
        .checked_out_on
        .or(order.expected_checkout_at)
        .map_or(clock.today, |at| at.with_timezone(&clock.tz).date_naive())
}

/// Refused (422 on `coupon_ids`) unless every coupon of `ids` is active and valid on
/// `day`.
pub(super) async fn check_coupons(
    tx: &mut Tx,
    company: CompanyId,
    ids: &[Id<kind::Coupon>],
    day: NaiveDate,
) -> Result<(), StoreError> {
    let invalid: Vec<String> = coupons::for_order(tx, company, ids)
        .await?
        .into_iter()
        .filter(|c| !c.valid_on(day))
        .map(|c| format!("{} ({})", c.id, c.name))
        .collect();
    if invalid.is_empty() {
        Ok(())
    } else {
        Err(StoreError::invalid(
            "coupon_ids",
            Problem::CouponsNotValid {
                day,
                coupons: invalid,
            },
        ))
    }
}

/// The coupons already on an order (`on`, read by [`coupon_ids_read`]), checked again
/// for a rent-out on `day`.
pub(super) async fn check_coupons_on(
    tx: &mut Tx,
    company: CompanyId,
    on: Vec<(i64,)>,
    day: NaiveDate,
) -> Result<(), StoreError> {
    if on.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = on.into_iter().map(|(id,)| id).collect();
    check_coupons(tx, company, &Id::each(ids), day).await
}

/// Puts coupons on order `order` (its row locked): each must be the company's (422),
/// valid on the order's day (422), and not on it already (422).
pub(super) async fn coupons_in(
    tx: &mut Tx,
    company: CompanyId,
    order: &Order,
    ids: &[Id<kind::Coupon>],
    clock: &Clock,
) -> Result<(), StoreError> {
    let records = coupons::for_order(tx, company, ids).await?;
    check_coupons(tx, company, ids, coupon_day(order, clock)).await?;
    let present = coupon_ids(tx, company, order.id).await?;
    let twice: Vec<String> = ids
        .iter()
        .filter(|id| present.contains(&id.get()))
        .map(Id::to_string)
        .collect();
    if !twice.is_empty() {
        return Err(StoreError::invalid(
            "coupon_ids",
            format!(
                "are on order #{} already: {}",
                order.sequence_num,
                twice.join(", ")
            ),
        ));
    }
    let at = crate::now();
    let mut insert = Query::insert()
        .into_table("order_coupons")
        .columns([
            "company_id",
            "order_id",
            "coupon_id",
            "name",
            "value_type",
            "value",
            "effect",
            "created_at",
        ])
        .to_owned();
    for c in &records {
        insert.values_panic([
            company.0.into(),
            order.id.into(),
            c.id.into(),
            c.name.clone().into(),
            c.value_type().as_str().into(),
            domain::coupon::hundredths(c.value).into(),
            c.effect.as_str().into(),
            at.into(),
        ]);
    }
    tx.send(&insert)?;
    change_log::record(
        tx,
        company,
        "order",
        order.id,
        "coupons_added",
        json!({"coupon_ids": ids}),
    )
    .await
}

/// Ends a change of an order's charges: history, the price again, and a returned
/// order whose balance is now covered is completed.
async fn finish(
    mut tx: Tx,
    company: CompanyId,
    order: &Order,
    (action, details): (&str, serde_json::Value),
) -> Result<OrderView, StoreError> {
    change_log::record(&mut tx, company, "order", order.id, action, details).await?;
    let mut view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    if settle_if_paid(&mut tx, company, order, &view, crate::now()).await? {
        view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    }
    tx.commit().await?;
    Ok(view)
}

/// Sets the taxes of an order that is not closed to exactly these custom and group
/// taxes (422 naming ids that are not the company's); both empty removes them.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn apply_taxes(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    custom: &[Id<kind::CustomTax>],
    group: &[Id<kind::GroupTax>],
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    not_closed(&order, "apply taxes to")?;
    let custom_records = custom_taxes::for_order(&mut tx, company, custom).await?;
    let group_records = group_taxes::for_order(&mut tx, company, group).await?;
    let clear = Query::delete()
        .from_table("order_taxes")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("order_id").eq(order.id))
        .to_owned();
    tx.send(&clear)?;
    if !custom.is_empty() || !group.is_empty() {
        let mut insert = Query::insert()
            .into_table("order_taxes")
            .columns([
                "company_id",
                "order_id",
                "custom_tax_id",
                "group_tax_id",
                "name",
                "rate_ppm",
            ])
            .to_owned();
        let rows = custom_records
            .iter()
            .map(|t| (Some(t.id), None, &t.name, t.rate_ppm))
            .chain(
                group_records
                    .iter()
                    .map(|g| (None, Some(g.id), &g.name, g.rate_ppm())),
            );
        for (custom_id, group_id, name, rate) in rows {
            insert.values_panic([
                company.0.into(),
                order.id.into(),
                custom_id.into(),
                group_id.into(),
                name.clone().into(),
                rate.into(),
            ]);
        }
        tx.send(&insert)?;
    }
    let details = json!({"custom_tax_ids": custom, "group_tax_ids": group});
    finish(tx, company, &order, ("taxes_applied", details)).await
}

/// A custom entry to add.
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub name: String,
    /// Minor units; negative takes off.
    pub amount: i64,
    pub comments: Option<String>,
    pub tax_free: bool,
}

/// Adds a custom entry to an order that is not Sold, Void, Completed or Cancelled.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn add_custom_entry(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    entry: NewEntry,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    not_closed(&order, "add a custom entry to")?;
    let insert = Query::insert()
        .into_table("order_custom_entries")
        .columns([
            "company_id",
            "order_id",
            "name",
            "amount",
            "comments",
            "tax_free",
            "created_at",
        ])
        .values_panic([
            company.0.into(),
            order.id.into(),
            entry.name.clone().into(),
            entry.amount.into(),
            entry.comments.clone().into(),
            entry.tax_free.into(),
            crate::now().into(),
        ])
        .to_owned();
    tx.send(&insert)?;
    let details = json!({
        "name": entry.name,
        "amount": domain::money::Money::from_minor(entry.amount.abs()).to_decimal_string(),
        "negative": entry.amount < 0,
        "tax_free": entry.tax_free,
    });
    finish(tx, company, &order, ("custom_entry_added", details)).await
}

/// Sets the damages charged on an order that is not closed (minor units, 0 removes).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn charge_damages(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    amount: i64,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    not_closed(&order, "charge damages on")?;
    let stmt = Query::update()
        .table("orders")
        .value("damage_amount", amount)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(order.id))
        .to_owned();
    tx.send(&stmt)?;
    let details = json!({
        "damage_amount": domain::money::Money::from_minor(amount).to_decimal_string(),
        "before": domain::money::Money::from_minor(order.damage_amount).to_decimal_string(),
    });
    finish(tx, company, &order, ("damages_charged", details)).await
}
