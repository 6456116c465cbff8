//! Taking a rented-out order back (`checkin.api`), all of it or part: fixed assets are
//! available again, asset stock goes back to a location, late fees are charged from
//! each line's own fee, and the order is Rented Out while anything is still out, then
//! Returned while it owes, or Completed.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::item::{AssetType, ItemState};
use domain::order::OrderAction;
use domain::pricing::{Ceiling, LateFee, LateFeeKind};
use domain::refusal::{Out, Problem};
use domain::stock::{OrderType, Quantity};
use serde_json::json;
use std::collections::BTreeMap;

use super::booking::{lock_and_promise, next, set_state};
use super::lines::{LineItem, lines_of, lines_read};
use super::payments::{Payment, Purpose, take};
use super::priced::{OrderView, reprice};
use super::rent_out::{Way, keep_until, stock_location};
use super::sub_rentals::SubRentItem;
use super::{Items, Locking, Order, id_of, lock_items, lock_reading};
use crate::custom_fields::merge_values;
use crate::item_core::{self, Clock};
use crate::{Assignments, Db, Field, StoreError, Tx, change_log, stock};

/// What comes back in a partial return.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Fixed assets, by number.
    pub assets: Vec<Number<kind::Item>>,
    /// Units of asset stock, by order line id (each line once).
    pub stock: BTreeMap<i64, Quantity>,
    /// Sub-rental items, by id.
    pub sub_rentals: Vec<i64>,
    /// Sets of each bundle, by bundle id (each bundle once).
    pub bundles: BTreeMap<Id<kind::Bundle>, Quantity>,
}

/// A return.
#[derive(Debug, Clone)]
pub struct Return {
    /// When the items came back.
    pub at: DateTime<Utc>,
    /// A new end of billing, if any.
    pub bill_to: Option<DateTime<Utc>>,
    /// Part of what is out (`partial_return`); everything when `None`.
    pub only: Option<Selection>,
    /// When what stays out is due back now; its due moment is kept when `None`.
    pub leftovers_due: Option<DateTime<Utc>>,
    /// The moment late fees run to (`late_due_date`); `None` is refused when a line
    /// with a late fee comes back after its due moment.
    pub late_at: Option<DateTime<Utc>>,
    /// Where the items are put back.
    pub location: Option<Id<kind::Location>>,
    /// `item_custom_attribute_values`, by custom field id.
    pub values: crate::custom_fields::FieldValues,
    /// Paid at the return.
    pub payment: Option<Payment>,
}

/// One line coming back: how many units.
struct Back<'a> {
    line: &'a LineItem,
    units: i64,
}

/// Takes items of a rented-out order back. Refused with 409 unless the order is
/// rented out, with 422 for a return before the rent-out, a selection naming what is
/// not out on the order, or a leftover due moment not after now; nothing changes then.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn take_back(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    ret: Return,
    clock: &Clock,
) -> Result<OrderView, StoreError> {
    let mut tx = super::begin_on_items(db, company, number).await?;
    // The order with its lines and sub-rentals, one round trip on PostgreSQL.
    let id = || id_of(company, number);
    let (lines, subs) = (
        lines_read(company, id()),
        super::sub_rentals::sub_rentals_read(company, id()),
    );
    let (order, mut reads) = lock_reading(&mut tx, company, number, &[&lines, &subs]).await?;
    let lines: Vec<LineItem> = reads.next(&mut tx)?;
    let subs: Vec<SubRentItem> = reads.next(&mut tx)?;
    // Whether the order is in a state to return at all (the outcome is decided below).
    next(
        &order,
        OrderAction::Return {
            all_back: false,
            owed: false,
        },
    )?;
    let started = order.checked_out_on.unwrap_or(ret.at);
    if ret.at < started {
        return Err(StoreError::invalid(
            "return_date",
            "must not be before the rent-out",
        ));
    }
    if let Some(late) = ret.late_at
        && late < started
    {
        return Err(StoreError::invalid(
            "late_due_date",
            "must not be before the rent-out",
        ));
    }
    if let Some(bill_to) = ret.bill_to
        && bill_to <= order.bill_from.unwrap_or(started)
    {
        return Err(StoreError::invalid(
            "bill_to",
            "must be later than the start of billing",
        ));
    }
    let back = selected(&lines, ret.only.as_ref(), number)?;
    if ret.late_at.is_none() {
        refuse_unsaid_late_fees(&back, ret.at)?;
    }
    item_core::check_location(&mut tx, company, ret.location, "location_id").await?;
    // A verification asked of a fixed asset coming back has nobody to answer it:
    // cancelled in the round trip of the items' lock.
    let fixed: Vec<i64> = back
        .iter()
        .filter(|b| b.line.kind() == AssetType::FixedAsset)
        .map(|b| b.line.item_id)
        .collect();
    let cancel = crate::verifications::cancel_pending_of_ids(company, &fixed);
    let then: &[&(dyn crate::Statement + Sync)] = if fixed.is_empty() { &[] } else { &[&cancel] };
    let out = lines.iter().filter(|l| is_out(l));
    let (mut items, mut reads) = lock_items(&mut tx, company, out, Locking::Move, then).await?;
    let mut cancelled = if fixed.is_empty() {
        Default::default()
    } else {
        crate::verifications::cancelled(reads.next(&mut tx)?)
    };
    for b in &back {
        let item = items.take(&mut tx, company, b.line.sequence_num).await?;
        let cancelled = cancelled.remove(&item.id).unwrap_or(0);
        let item = (item, &mut items, cancelled);
        put_back(&mut tx, company, (&order, b), item, &ret).await?;
    }
    let subs_back = sub_rentals_back(&subs, ret.only.as_ref(), number)?;
    super::sub_rentals::mark_returned(&mut tx, company, order.id, &subs_back, ret.at)?;
    let all_back = lines.iter().all(|l| {
        !is_out(l)
            || back
                .iter()
                .any(|b| b.line.id == l.id && b.units == l.quantity - l.quantity_returned)
    }) && subs
        .iter()
        .all(|s| !s.is_out() || subs_back.contains(&s.id));
    if !all_back && let Some(due) = ret.leftovers_due {
        if due <= clock.now || due <= ret.at {
            return Err(StoreError::invalid(
                "due_date_for_left_over_items",
                "must be later than now and than the return",
            ));
        }
        // Their items as the return left them.
        let left = lines_of(&mut tx, company, order.id).await?;
        let period = (started, due);
        lock_and_promise(&mut tx, company, &order, &left, period, clock.tz).await?;
        keep_until(&mut tx, company, order.id, (started, due)).await?;
    }
    let values = merge_values(&order.checkin_values, &ret.values);
    let mut more = vec![("checkin_values", values.clone().into())];
    if let Some(bill_to) = ret.bill_to {
        more.push(("bill_to", bill_to.into()));
    }
    if let (false, Some(due)) = (all_back, ret.leftovers_due) {
        more.push(("due_at", due.into()));
    }
    let state = order.state();
    set_state(&mut tx, company, order.id, state, more).await?;
    if let Some(payment) = &ret.payment {
        take(&mut tx, company, &order, Purpose::AtReturn, payment).await?;
    }
    let priced = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    let owed = priced.order.balance_due > 0;
    let state = next(&order, OrderAction::Return { all_back, owed })?;
    let mut more = Vec::new();
    if all_back {
        more.push(("returned_on", ret.at.into()));
    }
    if all_back && !owed {
        more.push(("completed_on", ret.at.into()));
    }
    set_state(&mut tx, company, order.id, state, more).await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "returned",
        json!({
            "returned_at": ret.at,
            "partial": !all_back,
            "sub_rent_item_ids": subs_back,
            "lines": back.iter().map(|b| json!({"line_item_id": b.line.id, "sequence_num": b.line.sequence_num, "quantity": b.units})).collect::<Vec<_>>(),
            "due_date_for_left_over_items": ret.leftovers_due.filter(|_| !all_back),
            "late_due_at": ret.late_at,
            "location_id": ret.location,
            "basket_state": state.as_str(),
            "item_custom_attribute_values": serde_json::from_str::<serde_json::Value>(&values).ok(),
        }),
    )
    .await?;
    super::priced::restated_at_commit(tx, company, priced).await
}

/// The sub-rental items coming back: all that are out, or those the selection names,
/// each of which must be out on the order (else a 422 naming it).
fn sub_rentals_back(
    subs: &[SubRentItem],
    only: Option<&Selection>,
    number: Number<kind::Order>,
) -> Result<Vec<i64>, StoreError> {
    let out: Vec<i64> = subs.iter().filter(|s| s.is_out()).map(|s| s.id).collect();
    let Some(only) = only else {
        return Ok(out);
    };
    let wrong: Vec<String> = only
        .sub_rentals
        .iter()
        .filter(|id| !out.contains(id))
        .map(i64::to_string)
        .collect();
    if wrong.is_empty() {
        Ok(only.sub_rentals.clone())
    } else {
        Err(StoreError::invalid(
            "subrent_item_ids",
            Problem::NotOut {
                order: number.get(),
                what: Out::SubRentals,
                entries: wrong,
            },
        ))
    }
}

/// A rented line with units still out.
fn is_out(l: &LineItem) -> bool {
    !l.for_sale && l.kind() != AssetType::VolatileAsset && l.quantity_returned < l.quantity
}

/// The lines coming back and how many units of each: all that is out, or the
/// selection, every entry of which must be out on the order (else a 422 naming it).
fn selected<'a>(
    lines: &'a [LineItem],
    only: Option<&Selection>,
    number: Number<kind::Order>,
) -> Result<Vec<Back<'a>>, StoreError> {
    let out = |l: &&LineItem| is_out(l);
    let Some(only) = only else {
        return Ok(lines
            .iter()
            .filter(out)
            .map(|line| Back {
                line,
                units: line.quantity - line.quantity_returned,
            })
            .collect());
    };
    if only.assets.is_empty()
        && only.stock.is_empty()
        && only.sub_rentals.is_empty()
        && only.bundles.is_empty()
    {
        return Err(StoreError::invalid(
            "partial_return",
            Problem::NothingToReturn,
        ));
    }
    let mut back = Vec::new();
    let mut wrong = Vec::new();
    for asset in &only.assets {
        match lines
            .iter()
            .filter(out)
            .find(|l| l.sequence_num == asset.get() && l.kind() == AssetType::FixedAsset)
        {
            Some(line) if !back.iter().any(|b: &Back<'_>| b.line.id == line.id) => {
                back.push(Back { line, units: 1 })
            }
            Some(_) => {}
            None => wrong.push(asset.to_string()),
        }
    }
    if !wrong.is_empty() {
        return Err(StoreError::invalid(
            "fixed_asset_ids",
            Problem::NotOut {
                order: number.get(),
                what: Out::FixedAssets,
                entries: wrong,
            },
        ));
    }
    for (id, quantity) in &only.stock {
        let field = Field::ReturnedLine(*id);
        let Some(line) = lines
            .iter()
            .filter(out)
            .find(|l| l.id == *id && l.kind() == AssetType::StockAsset)
        else {
            return Err(StoreError::invalid(
                field,
                Problem::NotOut {
                    order: number.get(),
                    what: Out::StockLine,
                    entries: vec![id.to_string()],
                },
            ));
        };
        let left = line.quantity - line.quantity_returned;
        if quantity.get() > left {
            return Err(StoreError::invalid(
                field,
                format!(
                    "is more than is out: {left} unit(s) of asset #{} on this line",
                    line.sequence_num
                ),
            ));
        }
        back.push(Back {
            line,
            units: quantity.get(),
        });
    }
    for (bundle, sets) in &only.bundles {
        let field = Field::ReturnedBundle(bundle.get());
        let of_bundle: Vec<&LineItem> = lines
            .iter()
            .filter(out)
            .filter(|l| l.bundle_id == Some(bundle.get()))
            .collect();
        if of_bundle.is_empty() {
            return Err(StoreError::invalid(
                field,
                Problem::NotOut {
                    order: number.get(),
                    what: Out::Bundle,
                    entries: vec![bundle.to_string()],
                },
            ));
        }
        // Sets still out: a set is out while any of its units is.
        let sets_out = of_bundle
            .iter()
            .map(|l| (l.quantity - l.quantity_returned + l.set_units() - 1) / l.set_units())
            .max()
            .unwrap_or(0);
        if sets.get() > sets_out {
            return Err(StoreError::invalid(
                field,
                format!("is more than is out: {sets_out} set(s) of bundle {bundle}"),
            ));
        }
        for line in of_bundle {
            let left = line.quantity - line.quantity_returned;
            let units = sets.get().saturating_mul(line.set_units()).min(left);
            match back.iter_mut().find(|b| b.line.id == line.id) {
                Some(b) => b.units = b.units.max(units),
                None => back.push(Back { line, units }),
            }
        }
    }
    Ok(back)
}

/// The spec makes `late_due_date` mandatory "when a late fee is applied": a line
/// with a late fee coming back after its due moment without it is a 422 naming the
/// field, never a return that silently charges nothing.
fn refuse_unsaid_late_fees(back: &[Back<'_>], at: DateTime<Utc>) -> Result<(), StoreError> {
    let late: Vec<String> = back
        .iter()
        .filter(|b| {
            b.line.late_fee_kind.is_some()
                && b.line.late_fee_amount.is_some_and(|a| a > 0)
                && b.line.due_at.is_some_and(|due| due < at)
        })
        .map(|b| format!("#{} ({})", b.line.sequence_num, b.line.asset_name))
        .collect();
    if late.is_empty() {
        return Ok(());
    }
    Err(StoreError::invalid(
        "late_due_date",
        Problem::LateWithoutEnd { items: late },
    ))
}

/// The late fee for `units` of `line`, due at its due moment and late until `late_at`.
fn late_fee(
    line: &LineItem,
    units: i64,
    late_at: Option<DateTime<Utc>>,
) -> Result<i64, StoreError> {
    let (Some(late_at), Some(due), Some(kind), Some(amount)) = (
        late_at,
        line.due_at,
        line.late_fee_kind.as_deref().and_then(LateFeeKind::parse),
        line.late_fee_amount,
    ) else {
        return Ok(0);
    };
    let quantity = Quantity::new(units).map_err(|p| StoreError::invalid("quantity", p))?;
    let fee = LateFee {
        kind,
        amount: domain::money::Money::from_minor(amount),
    };
    fee.charge(due, late_at, quantity)
        .map(|c| c.amount.minor())
        .map_err(|e| StoreError::invalid("late_due_date", e.to_string()))
}

/// Puts `b.units` of a line back (`item` its item's row, locked, one of `items`, and
/// `cancelled` how many pending verifications of it the return cancelled): a fixed
/// asset is available (at `location` if given), asset stock is at a location again;
/// the line counts them returned, with its fee.
async fn put_back(
    tx: &mut Tx,
    company: CompanyId,
    (order, b): (&Order, &Back<'_>),
    (item, items, cancelled): (item_core::Locked, &mut Items, u64),
    ret: &Return,
) -> Result<(), StoreError> {
    let details = if item.kind() == AssetType::FixedAsset {
        let mut row = Assignments::update();
        row.set("state", ItemState::Available.as_str())
            .set("checkout_on", Option::<DateTime<Utc>>::None)
            .set("checkin_due_on", Option::<DateTime<Utc>>::None)
            .set("rented_order_id", Option::<i64>::None)
            .given("location_id", &ret.location);
        tx.send(&row.into_update("items", company, item.id))?;
        json!({"order": order.sequence_num, "checkin_on": ret.at, "location_id": ret.location, "verifications_cancelled": cancelled})
    } else {
        let quantity = Quantity::new(b.units).map_err(|p| StoreError::invalid("quantity", p))?;
        let given = ret
            .location
            .or(b.line.location_id.map(Id::new))
            .or(order.location_id.map(Id::new));
        let location = stock_location(tx, company, &item, given.map(Id::get), Way::Back)
            .await?
            .ok_or_else(|| {
                StoreError::invalid(
                    "location_id",
                    format!(
                        "can't be blank: say where the units of asset #{} come back",
                        item.sequence_num
                    ),
                )
            })?;
        stock::put(
            tx,
            company,
            &item,
            (location, stock::Side::CheckedOut),
            quantity,
        )?;
        json!({
            "order": order.sequence_num,
            "order_type": OrderType::Checkin.as_str(),
            "quantity": b.units,
            "quantity_after_transaction": item.quantity + b.units,
            "location_id": location,
            "checkin_on": ret.at,
            "user_full_name": items.actor(tx, company).await?,
        })
    };
    let fee = late_fee(b.line, b.units, ret.late_at)?;
    let done = b.line.quantity_returned + b.units == b.line.quantity;
    let mut line = Assignments::update();
    line.set("quantity_returned", b.line.quantity_returned + b.units)
        .set("late_fee", b.line.late_fee.saturating_add(fee));
    if done {
        line.set("returned_at", ret.at).set("held_until", ret.at);
    }
    let stmt = line
        .into_update("order_line_items", company, b.line.id)
        .to_owned();
    tx.send(&stmt)?;
    let mut details = details;
    details["late_fee"] = json!(fee);
    change_log::record(tx, company, "item", item.id, "returned_on_order", details).await
}
