//! Items on an order: `update_basket_from_show.api` adds fixed assets, asset stock
//! and inventory; `remove_asset.api` takes them off a draft.

use axum::extract::State;
use domain::stock::Quantity;
use std::collections::HashSet;
use store::orders::{self, Addition, Additions};

use super::answer;
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{Form, MAX_LIST_ENTRIES, parse_id};
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views;

const ADD: &[(&str, &str)] = &[
    (
        "asset_ids",
        "required (unless coupon_ids): a comma list of item numbers (fixed assets, asset stock, inventory) and bundles (<bundle id>-b: its items with their quantities); fixed assets and asset stock need a rental rate, inventory a price",
    ),
    (
        "coupon_ids",
        "alone or with asset_ids: a comma list of coupon ids to put on the order, each active and valid on the order's check-out day (or today)",
    ),
    (
        "bundle_with_quantity[<bundle id>]",
        "sets of bundle <bundle id>-b to put on, 1 to 1000000000, default 1; a bundle already on the order takes more sets (one holding a fixed asset goes on once)",
    ),
    (
        "stock_assets_values[<n>][quantity]",
        "units of asset stock n, 1 to 1000000000, default 1",
    ),
    (
        "stock_assets_values[<n>][location_id]",
        "where its units come from; default the item's location",
    ),
    (
        "volatile_assets_values[<n>][quantity]",
        "units of inventory n, default 1",
    ),
    (
        "volatile_assets_values[<n>][location_id]",
        "where its units come from; default the item's location",
    ),
    (
        "volatile_assets_values[<n>][price]",
        "the price per unit inventory n is sold at with the order; default the item's price",
    ),
];

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/update_basket_from_show",
        put_or_patch(add),
        Doc::new(
            "Orders",
            "Put items (or coupons) on a draft or web order (PATCH or PUT): one 422 names every item refused (unknown, retired, already on it, no rental rate, inventory without a price) and nothing is added",
        )
        .query(ADD)
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/add_sub_rent_item",
        put_or_patch(add_sub_rental),
        Doc::new(
            "Orders",
            "Add a sub-rental item, rented from someone else for this order (PATCH or PUT), to a Draft, Web Order, Booked or Rented Out order; it costs price × quantity (a sale when not for rent) and, when for rent, comes back with the order's return",
        )
        .form(
            "baskets_sub_rent_item",
            &[
                ("name", "text: what it is (default: its item_no, else \"Sub-rental item\")"),
                ("is_for_rent", "true (default) or false: sold with the order"),
                ("location", "text: where it is"),
                ("quantity", "units, 1 to 1000000000, default 1"),
                ("item_no", "text: the supplier's number"),
                ("price", "the price per unit for the order, an amount (default 0.00)"),
            ],
        )
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/remove_asset",
        put_or_patch(remove),
        Doc::new(
            "Orders",
            "Take items off a draft or web order (PATCH or PUT); an item not on it is a 422 and nothing changes",
        )
        .query(&[
            ("asset_ids", "required: a comma list of item numbers, and bundles as <id>-b"),
            ("remove_complete_bundle", "TRUE (default): a bundle's items go with it; FALSE: they stay on the order, each on its own"),
        ])
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

/// Item numbers and bundle ids.
type Named = (Vec<i64>, Vec<i64>);

/// The item numbers and bundle ids (`<id>-b`) of `asset_ids` (a comma list, or
/// `asset_ids[]` pairs): at most [`MAX_LIST_ENTRIES`], refused before any entry is
/// read; required, or `None` when not sent and not `required`.
fn numbers(params: &Params, required: bool) -> Result<Option<Named>, ApiError> {
    let blank = "can't be blank: a comma list of item numbers";
    if !params.contains("asset_ids") {
        return match required {
            true => Err(ApiError::field("asset_ids", blank)),
            false => Ok(None),
        };
    }
    let parts = params
        .list("asset_ids", MAX_LIST_ENTRIES)
        .map_err(|too_long| ApiError::field("asset_ids", too_long.to_string()))?;
    let (mut numbers, mut bundles) = (Vec::new(), Vec::new());
    let mut seen = HashSet::with_capacity(parts.len());
    let mut problems = Vec::new();
    for part in &parts {
        let (list, id, what, bundle) = match part.strip_suffix("-b") {
            Some(bundle) => (&mut bundles, bundle, "a bundle id", true),
            None => (&mut numbers, part.as_str(), "an item number", false),
        };
        match parse_id(id) {
            Some(n) if seen.insert((bundle, n)) => list.push(n),
            Some(_) => problems.push(format!("{part} is named twice")),
            None => problems.push(format!("{part:?} is not {what}")),
        }
    }
    if numbers.is_empty() && bundles.is_empty() && problems.is_empty() {
        if !required {
            return Ok(None);
        }
        problems.push(blank.to_owned());
    }
    if !problems.is_empty() {
        return Err(ApiError::field("asset_ids", problems.join("; ")));
    }
    Ok(Some((numbers, bundles)))
}

/// The items `asset_ids` names with their quantities and locations.
pub(super) fn read_additions(params: &Params, required: bool) -> Result<Additions, ApiError> {
    let Some((numbers, bundles)) = numbers(params, required)? else {
        return Ok(Additions::default());
    };
    let mut form = Form::new(params, "basket");
    let values = [
        form.by_id("stock_assets_values", "an item number"),
        form.by_id("volatile_assets_values", "an item number"),
    ];
    let sets = form.by_id("bundle_with_quantity", "a bundle id");
    let additions = numbers
        .into_iter()
        .map(|n| {
            // stock_assets_values[<n>][<field>], else volatile_assets_values[...].
            let value = |field: &str| {
                values.iter().find_map(|map| {
                    let entry = map.get(&n)?;
                    let key = format!("{}[{field}]", entry.name);
                    params.get(&key).map(|v| (key, v))
                })
            };
            let quantity = value("quantity")
                .and_then(|(key, raw)| Quantity::parse(raw).map_err(|p| form.error(&key, p)).ok());
            let location = value("location_id").and_then(|(key, raw)| {
                parse_id(raw).or_else(|| {
                    form.error(&key, "must be a location id (a positive whole number)");
                    None
                })
            });
            let price = value("price").and_then(|(key, raw)| {
                domain::money::Money::parse(raw)
                    .map(|m| m.minor())
                    .map_err(|p| form.error(&key, p))
                    .ok()
            });
            Addition {
                number: n,
                quantity,
                location,
                price,
            }
        })
        .collect();
    // A bundle goes on in sets: bundle_with_quantity[<id>], the spec's name for a
    // bundle's quantity (default one set).
    let bundles = bundles
        .into_iter()
        .filter_map(|b| {
            match sets.get(&b) {
                None => Quantity::new(1).ok(),
                Some(entry) => Quantity::parse(entry.value().unwrap_or_default())
                    .map_err(|p| form.error(&entry.name, p))
                    .ok(),
            }
            .map(|q| (b, q))
        })
        .collect();
    form.finish()?;
    Ok(Additions {
        items: additions,
        bundles,
    })
}

async fn add(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    let with_coupons = params.contains("coupon_ids");
    let coupons = match with_coupons {
        true => form.ids_at("coupon_ids", "coupon_ids", "coupon ids"),
        false => Vec::new(),
    };
    if with_coupons && coupons.is_empty() && !form.has_errors_for("coupon_ids") {
        form.error("coupon_ids", "can't be blank: a comma list of coupon ids");
    }
    // Coupons alone, or with items (the spec does not keep them apart).
    let additions = read_additions(&params, !with_coupons);
    let additions = match (form.finish(), additions) {
        (Ok(()), Ok(a)) => a,
        (Err(ApiError::Invalid(mut a)), Err(ApiError::Invalid(b))) => {
            a.extend(b);
            return Err(ApiError::Invalid(a));
        }
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let clock = crate::resources::assets::clock(&tenant);
    let view = orders::add_items(state.db(), tenant.0.id, number, additions, &coupons, &clock)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn remove(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (numbers, bundles) = numbers(&params, true)?.unwrap_or_default();
    let complete = match params.get("remove_complete_bundle").map(str::trim) {
        None | Some("") => true,
        Some(raw) => domain::wire::parse_bool(raw)
            .ok_or_else(|| ApiError::field("remove_complete_bundle", "must be TRUE or FALSE"))?,
    };
    let view = orders::remove_items(
        state.db(),
        tenant.0.id,
        number,
        numbers,
        (bundles, complete),
    )
    .await
    .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn add_sub_rental(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "baskets_sub_rent_item");
    let is_for_rent = form.boolean("is_for_rent").unwrap_or(true);
    let text = |form: &mut Form<'_>, field: &str| match form.text(field) {
        domain::Change::Set(t) => Some(t),
        _ => None,
    };
    let name = text(&mut form, "name");
    let location = text(&mut form, "location");
    let item_no = text(&mut form, "item_no");
    let quantity = match params.get("baskets_sub_rent_item[quantity]") {
        None | Some("") => Quantity::new(1).ok(),
        Some(_) => form.quantity("quantity"),
    };
    // The spec requires neither a name nor a price: a nameless item is called by its
    // item number (else "Sub-rental item"), one without a price costs nothing.
    let price = match text(&mut form, "price") {
        None => Some(0),
        Some(raw) => domain::money::Money::parse(&raw)
            .map(|m| m.minor())
            .map_err(|p| form.error("price", p))
            .ok(),
    };
    form.finish()?;
    let (Some(quantity), Some(price)) = (quantity, price) else {
        unreachable!("reported by finish");
    };
    let name = name
        .or_else(|| item_no.clone())
        .unwrap_or_else(|| "Sub-rental item".to_owned());
    let item = orders::NewSubRentItem {
        name,
        is_for_rent,
        location,
        quantity,
        item_no,
        price,
    };
    let view = orders::add_sub_rent_item(state.db(), tenant.0.id, number, item)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}
