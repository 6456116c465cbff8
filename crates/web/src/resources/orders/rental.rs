//! Renting an order out (`checkout.api`) and taking it back (`checkin.api`).

use axum::extract::State;
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use domain::custom_field::Target;
use std::collections::BTreeMap;
use store::orders::{self, RentOut, Return, Selection};

use super::answer;
use super::input::{both, end_of_day, set_at};
use super::payments::{CashPaid, PaymentBasket, optional_payment};
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::input::{IdList, Input, RecordId, TimeOfDay, Units};
use crate::params::Params;
use crate::resources::assets::clock;
use crate::state::AppState;
use crate::views;

/// The custom fields `item_custom_attribute_values` may name.
const VALUE_TARGETS: &[Target] = &[
    Target::FixedAssets,
    Target::Inventory,
    Target::AssetStock,
    Target::Orders,
];

pub(super) const VALUES: (&str, &str) = (
    "item_custom_attribute_values[<custom field id>]",
    "a value for a custom field of items or orders: an option id for a dropdown, a comma list of option ids for a checkbox; recorded on the order; null clears, empty keeps",
);

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/checkout",
        put_or_patch(rent_out),
        Doc::new(
            "Orders",
            "Rent a draft, web or booked order out (PATCH or PUT): its rented items are promised for the period and handed over (fixed assets become checked_out on the order, asset stock leaves its location, inventory and items for sale are used up); an order of inventory alone is completed at once. 409 when an item is retired, out or taken for part of the period; 422 when the return is not after now and the rent-out, or a location holds too few units",
        )
        .input::<RentOutQuery>()
        .custom_values("", &[VALUES])
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/checkin",
        put_or_patch(take_back),
        Doc::new(
            "Orders",
            "Take a rented-out order back, all of it or part (PATCH or PUT): fixed assets are available again, asset stock goes back to a location, late fees are charged from each line's fee up to late_due_date; the order stays Rented Out while anything is out, then is Returned while it owes, or Completed. 409 unless it is rented out; 422 for a selection naming what is not out on it",
        )
        .input::<ReturnQuery>()
        .custom_values("", &[VALUES])
        .map::<Units>(
            "stock_asset_with_quantity[<order line item id>]",
            "with partial_return: units of asset stock of that line",
        )
        .map::<Units>(
            "bundle_with_quantity[<bundle id>]",
            "with partial_return: sets of that bundle to bring back, at most the sets still out",
        )
        .input::<PaymentBasket>()
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

/// The moments of a rent-out.
#[derive(Input)]
struct RentOutQuery {
    /// The day the items go out; default now.
    rentout_date: Option<NaiveDate>,
    /// hh:mm in the company's time zone; default 00:00 (only with rentout_date).
    #[input(format = TimeOfDay, needs = "rentout_date")]
    rentout_time: Option<NaiveTime>,
    /// The day they are due back; default the order's due date.
    return_date: Option<NaiveDate>,
    /// hh:mm; default 23:59 (only with return_date).
    #[input(format = TimeOfDay, needs = "return_date")]
    return_time: Option<NaiveTime>,
    /// true: the items go out now (rentout_date aside).
    use_current_datetime: Option<bool>,
    /// The start of billing; default the rent-out moment.
    bill_from: Option<NaiveDate>,
    /// hh:mm; default 00:00 (only with bill_from).
    #[input(format = TimeOfDay, needs = "bill_from")]
    bill_from_time: Option<NaiveTime>,
    /// The end of billing; default the due moment.
    bill_to: Option<NaiveDate>,
    /// hh:mm; default 23:59 (only with bill_to).
    #[input(format = TimeOfDay, needs = "bill_to")]
    bill_to_time: Option<NaiveTime>,
}

/// The moments, selection and payment of a return (beside `PaymentBasket`).
#[derive(Input)]
struct ReturnQuery {
    /// The day the items came back; default now.
    return_date: Option<NaiveDate>,
    /// hh:mm; default 00:00 (only with return_date).
    #[input(format = TimeOfDay, needs = "return_date")]
    return_time: Option<NaiveTime>,
    /// true: they came back now (return_date aside).
    use_current_datetime: Option<bool>,
    /// A new end of billing.
    bill_to: Option<NaiveDate>,
    /// hh:mm; default 23:59 (only with bill_to).
    #[input(format = TimeOfDay, needs = "bill_to")]
    bill_to_time: Option<NaiveTime>,
    /// true: billing ends now (bill_to aside).
    use_current_datetime_bill: Option<bool>,
    /// true: only what fixed_asset_ids, stock_asset_with_quantity, subrent_item_ids and
    /// bundle_with_quantity name comes back.
    #[expect(
        dead_code,
        reason = "checked here; `selection_maps` reads it, whatever else failed"
    )]
    partial_return: Option<bool>,
    /// With partial_return: asset numbers on the order.
    #[input(format = IdList)]
    fixed_asset_ids: Option<Vec<i64>>,
    /// With partial_return: sub-rental item ids out on the order.
    #[input(format = IdList)]
    subrent_item_ids: Option<Vec<i64>>,
    /// When what stays out is due back now (after now).
    due_date_for_left_over_items: Option<NaiveDate>,
    /// hh:mm; default 23:59 (only with due_date_for_left_over_items).
    #[input(format = TimeOfDay, needs = "due_date_for_left_over_items")]
    due_time_for_left_over_items: Option<NaiveTime>,
    /// The day late fees run to; without it (or use_current_datetime_for_late_return)
    /// no late fee is charged.
    late_due_date: Option<NaiveDate>,
    /// hh:mm; default 00:00 (only with late_due_date).
    #[input(format = TimeOfDay, needs = "late_due_date")]
    late_due_time: Option<NaiveTime>,
    /// true: late fees run to now (late_due_date aside).
    use_current_datetime_for_late_return: Option<bool>,
    /// Where the items are put back; default each line's location, the order's, or
    /// the item's.
    #[input(format = RecordId)]
    location_id: Option<i64>,
    #[input(flatten)]
    payment: CashPaid,
}

/// `item_custom_attribute_values[<field id>]` of a rent-out, return or sale.
pub(super) async fn item_values(
    state: &AppState,
    tenant: &Tenant,
    form: &mut Form<'_>,
) -> Result<store::custom_fields::FieldValues, ApiError> {
    custom_attributes::read_by_id(
        state.db(),
        tenant.0.id,
        form,
        "item_custom_attribute_values",
        VALUE_TARGETS,
    )
    .await
}

async fn rent_out(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let tz = tenant.0.time_zone;
    let clock = clock(&tenant);
    let mut form = Form::new(&params, "");
    let query = RentOutQuery::read(&mut form);
    let values = item_values(&state, &tenant, &mut form).await?;
    let q = form.finish_with(query)?;
    let from = match q.use_current_datetime {
        Some(true) => clock.now,
        _ => set_at(q.rentout_date, q.rentout_time, NaiveTime::MIN, tz).unwrap_or(clock.now),
    };
    let rent = RentOut {
        from,
        to: set_at(q.return_date, q.return_time, end_of_day(), tz),
        bill_from: set_at(q.bill_from, q.bill_from_time, NaiveTime::MIN, tz),
        bill_to: set_at(q.bill_to, q.bill_to_time, end_of_day(), tz),
        values,
    };
    let view = orders::rent_out(state.db(), tenant.0.id, number, rent, &clock).await?;
    Ok(answer(&view, tz))
}

/// Now with `now`, else the moment of `date` at `time` (else `default_time`).
fn given_or_now(
    now: Option<bool>,
    date: Option<NaiveDate>,
    time: Option<NaiveTime>,
    default_time: NaiveTime,
    clock: &store::items::Clock,
) -> Option<DateTime<Utc>> {
    match now {
        Some(true) => Some(clock.now),
        _ => set_at(date, time, default_time, clock.tz),
    }
}

/// What a partial return names beside its lists: the units of asset stock lines and
/// the sets of bundles, read into `form` whatever else failed; `None` when everything
/// comes back. Lists sent without partial_return are refused.
fn selection_maps(form: &mut Form<'_>) -> Option<Maps> {
    if form.peek::<bool>("partial_return") != Some(true) {
        for field in ["fixed_asset_ids", "subrent_item_ids"] {
            if form.params().get(field).is_some() {
                form.error(
                    field,
                    "needs partial_return=true; without it everything comes back",
                );
            }
        }
        return None;
    }
    let stock = quantities_by_id(form, "stock_asset_with_quantity", "an order line item id");
    let bundles = quantities_by_id(form, "bundle_with_quantity", "a bundle id")
        .into_iter()
        .map(|(bundle, sets)| (store::Id::new(bundle), sets))
        .collect();
    Some((stock, bundles))
}

/// Units of stock lines and sets of bundles, by id.
type Maps = (
    BTreeMap<i64, domain::stock::Quantity>,
    BTreeMap<store::Id<kind::Bundle>, domain::stock::Quantity>,
);

/// Units (or sets) by record id from `path[<id>]=<quantity>`: each id once, however
/// its key is written (`4`, `04`, `+4`).
fn quantities_by_id(
    form: &mut Form<'_>,
    path: &str,
    what: &str,
) -> BTreeMap<i64, domain::stock::Quantity> {
    let mut quantities = BTreeMap::new();
    for entry in form.by_id(path, what).into_values() {
        match domain::stock::Quantity::parse(entry.value().unwrap_or_default()) {
            Ok(q) => {
                quantities.insert(entry.id, q);
            }
            Err(p) => form.error(&entry.name, p),
        }
    }
    quantities
}

async fn take_back(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let tz = tenant.0.time_zone;
    let clock = clock(&tenant);
    let mut form = Form::new(&params, "");
    let query = ReturnQuery::read(&mut form);
    let maps = selection_maps(&mut form);
    let values = item_values(&state, &tenant, &mut form).await?;
    let (q, basket) = both(form.finish_with(query), PaymentBasket::parse(&params))?;
    let only = maps.map(|(stock, bundles)| Selection {
        assets: store::Number::each(q.fixed_asset_ids.unwrap_or_default()),
        stock,
        sub_rentals: q.subrent_item_ids.unwrap_or_default(),
        bundles,
    });
    let ret = Return {
        at: given_or_now(
            q.use_current_datetime,
            q.return_date,
            q.return_time,
            NaiveTime::MIN,
            &clock,
        )
        .unwrap_or(clock.now),
        bill_to: given_or_now(
            q.use_current_datetime_bill,
            q.bill_to,
            q.bill_to_time,
            end_of_day(),
            &clock,
        ),
        only,
        leftovers_due: set_at(
            q.due_date_for_left_over_items,
            q.due_time_for_left_over_items,
            end_of_day(),
            tz,
        ),
        late_at: given_or_now(
            q.use_current_datetime_for_late_return,
            q.late_due_date,
            q.late_due_time,
            NaiveTime::MIN,
            &clock,
        ),
        location: q.location_id.map(store::Id::new),
        values,
        payment: optional_payment(q.payment, basket, &clock),
    };
    let view = orders::take_back(state.db(), tenant.0.id, number, ret, &clock).await?;
    Ok(answer(&view, tz))
}
