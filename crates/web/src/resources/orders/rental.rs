//! Renting an order out (`checkout.api`) and taking it back (`checkin.api`).

use axum::extract::State;
use chrono::{DateTime, NaiveTime, Utc};
use domain::Change;
use domain::custom_field::Target;
use std::collections::BTreeMap;
use store::orders::{self, RentOut, Return, Selection};

use super::answer;
use super::records::moment_at;
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
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
    "a value for a custom field of items or orders: an option id for a dropdown, a comma list of option ids for a checkbox; recorded on the order",
);

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/checkout",
        put_or_patch(rent_out),
        Doc::new(
            "Orders",
            "Rent a draft, web or booked order out (PATCH or PUT): its rented items are promised for the period and handed over (fixed assets become checked_out on the order, asset stock leaves its location, inventory and items for sale are used up); an order of inventory alone is completed at once. 409 when an item is retired, out or taken for part of the period; 422 when the return is not after now and the rent-out, or a location holds too few units",
        )
        .query(&[
            ("rentout_date", "the day the items go out (mm/dd/yyyy); default now"),
            ("rentout_time", "hh:mm in the company's time zone; default 00:00"),
            ("return_date", "the day they are due back; default the order's due date"),
            ("return_time", "hh:mm; default 23:59"),
            ("use_current_datetime", "true: the items go out now"),
            ("bill_from", "start of billing; default the rent-out moment"),
            ("bill_from_time", "hh:mm; default 00:00"),
            ("bill_to", "end of billing; default the due moment"),
            ("bill_to_time", "hh:mm; default 23:59"),
            VALUES,
        ])
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
        .query(&[
            ("return_date", "the day the items came back (mm/dd/yyyy); default now"),
            ("return_time", "hh:mm; default 00:00"),
            ("use_current_datetime", "true: they came back now"),
            ("bill_to", "a new end of billing"),
            ("bill_to_time", "hh:mm; default 23:59"),
            ("use_current_datetime_bill", "true: billing ends now"),
            ("partial_return", "true: only what the next parameters name comes back"),
            ("fixed_asset_ids", "with partial_return: comma list of asset numbers on the order"),
            ("stock_asset_with_quantity[<order line item id>]", "with partial_return: units of asset stock of that line"),
            ("subrent_item_ids", "with partial_return: comma list of sub-rental item ids out on the order"),
            ("bundle_with_quantity[<bundle id>]", "with partial_return: sets of that bundle to bring back, at most the sets still out"),
            ("due_date_for_left_over_items", "when what stays out is due back now (after now)"),
            ("due_time_for_left_over_items", "hh:mm; default 23:59"),
            ("late_due_date", "the day late fees run to; without it (or use_current_datetime_for_late_return) no late fee is charged"),
            ("late_due_time", "hh:mm; default 00:00"),
            ("use_current_datetime_for_late_return", "true: late fees run to now"),
            ("location_id", "where the items are put back; default each line's location, the order's, or the item's"),
            VALUES,
        ])
        .query(&super::payments::PAYMENT_FIELDS)
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

/// `item_custom_attribute_values[<field id>]` of a rent-out, return or sale.
pub(super) async fn item_values(
    state: &AppState,
    tenant: &Tenant,
    form: &mut Form<'_>,
) -> Result<BTreeMap<i64, Change<String>>, ApiError> {
    custom_attributes::read_by_id(
        state.db(),
        tenant.0.id,
        form,
        "item_custom_attribute_values",
        VALUE_TARGETS,
    )
    .await
}

/// The end of a day given without a time.
pub(super) fn end_of_day() -> NaiveTime {
    NaiveTime::from_hms_opt(23, 59, 0).expect("valid")
}

/// A moment that may only be set (a `null` is refused).
pub(super) fn set_moment(
    form: &mut Form<'_>,
    date_field: &str,
    time_field: &str,
    default_time: NaiveTime,
    tz: chrono_tz::Tz,
) -> Option<DateTime<Utc>> {
    match moment_at(form, date_field, &[time_field], default_time, tz) {
        Change::Set(m) => Some(m),
        Change::Keep => None,
        Change::Clear => {
            form.error(date_field, "can't be null: give a date or leave it out");
            None
        }
    }
}

/// `use_current_datetime`-style flags: true or false, default false.
pub(super) fn now_flag(form: &mut Form<'_>, field: &str) -> bool {
    match form.params().get(field) {
        None | Some("") => false,
        Some(raw) => domain::wire::parse_bool(raw).unwrap_or_else(|| {
            form.error(field, "must be true or false");
            false
        }),
    }
}

async fn rent_out(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    let tz = tenant.0.time_zone;
    let clock = clock(&tenant);
    let from = set_moment(
        &mut form,
        "rentout_date",
        "rentout_time",
        NaiveTime::MIN,
        tz,
    );
    let now = now_flag(&mut form, "use_current_datetime");
    let to = set_moment(&mut form, "return_date", "return_time", end_of_day(), tz);
    let bill_from = set_moment(&mut form, "bill_from", "bill_from_time", NaiveTime::MIN, tz);
    let bill_to = set_moment(&mut form, "bill_to", "bill_to_time", end_of_day(), tz);
    let values = item_values(&state, &tenant, &mut form).await?;
    form.finish()?;
    let from = if now {
        clock.now
    } else {
        from.unwrap_or(clock.now)
    };
    let rent = RentOut {
        from,
        to,
        bill_from,
        bill_to,
        values,
    };
    let view = orders::rent_out(state.db(), tenant.0.id, number, rent, &clock)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tz))
}

/// A moment from `date_field`/`time_field`, or now with `now_field=true`.
fn moment_or_now(
    form: &mut Form<'_>,
    (date_field, time_field, now_field): (&str, &str, &str),
    default_time: NaiveTime,
    clock: &store::items::Clock,
) -> Option<DateTime<Utc>> {
    let given = set_moment(form, date_field, time_field, default_time, clock.tz);
    if now_flag(form, now_field) {
        Some(clock.now)
    } else {
        given
    }
}

/// What a partial return names; `None` when everything comes back.
fn selection(form: &mut Form<'_>) -> Option<Selection> {
    if !now_flag(form, "partial_return") {
        for field in ["fixed_asset_ids", "subrent_item_ids"] {
            if form
                .params()
                .get(field)
                .is_some_and(|v| !v.trim().is_empty())
            {
                form.error(
                    field,
                    "needs partial_return=true; without it everything comes back",
                );
            }
        }
        return None;
    }
    let assets = form.ids_at("fixed_asset_ids", "fixed_asset_ids", "asset numbers");
    let stock = quantities_by_id(form, "stock_asset_with_quantity", "an order line item id");
    let sub_rentals = form.ids_at(
        "subrent_item_ids",
        "subrent_item_ids",
        "sub-rental item ids",
    );
    let bundles = quantities_by_id(form, "bundle_with_quantity", "a bundle id");
    Some(Selection {
        assets,
        stock,
        sub_rentals,
        bundles,
    })
}

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
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    let tz = tenant.0.time_zone;
    let clock = clock(&tenant);
    let at = moment_or_now(
        &mut form,
        ("return_date", "return_time", "use_current_datetime"),
        NaiveTime::MIN,
        &clock,
    );
    let bill_to = moment_or_now(
        &mut form,
        ("bill_to", "bill_to_time", "use_current_datetime_bill"),
        end_of_day(),
        &clock,
    );
    let late_at = moment_or_now(
        &mut form,
        (
            "late_due_date",
            "late_due_time",
            "use_current_datetime_for_late_return",
        ),
        NaiveTime::MIN,
        &clock,
    );
    let leftovers_due = set_moment(
        &mut form,
        "due_date_for_left_over_items",
        "due_time_for_left_over_items",
        end_of_day(),
        tz,
    );
    let only = selection(&mut form);
    let payment = super::payments::optional_payment(&mut form, &clock);
    let location = match params.get("location_id") {
        None | Some("") => None,
        Some(raw) => crate::form::parse_id(raw).or_else(|| {
            form.error("location_id", "must be a location id");
            None
        }),
    };
    let values = item_values(&state, &tenant, &mut form).await?;
    form.finish()?;
    let ret = Return {
        at: at.unwrap_or(clock.now),
        bill_to,
        only,
        leftovers_due,
        late_at,
        location,
        values,
        payment,
    };
    let view = orders::take_back(state.db(), tenant.0.id, number, ret, &clock)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tz))
}
