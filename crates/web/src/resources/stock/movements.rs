//! Stock movements of inventory and asset stock (add stock, sale, asset stock
//! check-out through `order.api`, transfer), the minimum per location, and the
//! quantity of an item at a location.

use axum::extract::State;
use domain::stock::{OrderType, Quantity};
use serde::Serialize;
use store::stock::{self, Movement, Threshold, Transfer};
use store::stock_checkouts::{self, StockCheckout};

use super::action;
use super::checkouts::LineItemJson;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{Form, parse_id};
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::resources::assets::checkouts::{attribute_values, due};
use crate::resources::assets::records::amount;
use crate::resources::assets::{
    AssetJson, Inventory, Kind, Shown, Stock, answer, clock, fields_of, render, today,
};
use crate::state::AppState;
use crate::views;

const ORDER: &[(&str, &str)] = &[
    ("quantity", "required: whole units, 1 to 1000000000"),
    (
        "price",
        "price per unit, an amount such as 12.50; required to add stock",
    ),
    ("comments", "text"),
    (
        "location_id",
        "where the stock is added, sold or taken from; default the item's own location",
    ),
];

const TRANSFER: &[(&str, &str)] = &[("quantity", "required: whole units"), ("comments", "text")];

const TRANSFER_QUERY: &[(&str, &str)] = &[
    ("from_location", "required: the location the units leave"),
    (
        "to_location",
        "required: the location they arrive at (another one)",
    ),
    ("price", "price per unit, an amount"),
];

const THRESHOLDS: &[(&str, &str)] = &[(
    "thresholds[<location id>]",
    "the minimum wanted at that location (a whole number, 0 or more); empty or null removes it",
)];

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/inventory/{sequence_num}/order",
        action(order::<Inventory>),
        Doc::new(
            "Inventory",
            "Add stock (order_type=Add Stock) or record a sale (order_type=New Sale; refused with 422 when the location holds fewer units, 409 when the units are promised elsewhere later: orders, other members' approved reservations or check-outs) (POST, PUT or PATCH)",
        )
        .query(&[
            ("order_type", "required: Add Stock or New Sale"),
            ("user[id]", "sale: the member the units are sold to, if any; their approved reservations that have begun are fulfilled"),
            (
                "remove_stock_values[override_conflicting_reservations]",
                "sale: boolean, default false: sell over other members' approved reservations (they become removed)",
            ),
        ])
        .form("line_item", ORDER)
        .query(&[
            ("add_stock_values[c_attr_vals][<field name>]", "custom field values of the addition"),
            ("remove_stock_values[c_attr_vals][<field name>]", "custom field values of the sale"),
        ])
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}/order",
        action(order::<Stock>),
        Doc::new(
            "Asset stock",
            "Add stock (order_type=Add Stock) or check a quantity out to a member (order_type=checkout: refused with 422 when the location holds fewer units, 409 when the units are promised elsewhere until they are due back: orders, other members' approved reservations or check-outs) (POST, PUT or PATCH); a check-out also answers its line_item",
        )
        .query(&[
            ("order_type", "required: Add Stock or checkout"),
            ("user[id]", "checkout: required, an active member"),
            ("till", "checkout: due date (mm/dd/yyyy); none: no end"),
            ("till_time", "checkout: due time hh:mm in the company's time zone (default 23:59)"),
            ("add_stock_values[c_attr_vals][<field name>]", "custom field values of the addition"),
            ("remove_stock_values[c_attr_vals][<field name>]", "custom field values of the check-out"),
            (
                "remove_stock_values[override_conflicting_reservations]",
                "checkout: boolean, default false: check out over other members' approved reservations (they become removed)",
            ),
        ])
        .form("line_item", ORDER)
        .form(
            "line_item",
            &[("checked_out_to_location_id", "checkout: where the units go (they count at no location while out)")],
        )
        .answers::<StockOrderJson<'_>>(),
    )
    .route(
        "/inventory/{sequence_num}/transfer_stock",
        action(transfer::<Inventory>),
        Doc::new(
            "Inventory",
            "Move units between two locations in one step; refused with 422 when the source holds fewer (POST, PUT or PATCH)",
        )
        .form("transfer_stock", TRANSFER)
        .query(TRANSFER_QUERY)
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}/transfer_stock",
        action(transfer::<Stock>),
        Doc::new(
            "Asset stock",
            "Move units between two locations in one step; refused with 422 when the source holds fewer (POST, PUT or PATCH)",
        )
        .form("transfer_stock", TRANSFER)
        .query(TRANSFER_QUERY)
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/inventory/{sequence_num}/location_based_thresholds",
        get(thresholds::<Inventory>).put_or_patch(set_thresholds::<Inventory>),
        Doc::new(
            "Inventory",
            "The minimum wanted per location with what each holds and whether it is low (GET); set or remove minimums (PUT or PATCH)",
        )
        .query(THRESHOLDS)
        .answers::<ThresholdsJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}/location_based_thresholds",
        get(thresholds::<Stock>).put_or_patch(set_thresholds::<Stock>),
        Doc::new(
            "Asset stock",
            "The minimum wanted per location with what each holds and whether it is low (GET); set or remove minimums (PUT or PATCH)",
        )
        .query(THRESHOLDS)
        .answers::<ThresholdsJson<'_>>(),
    )
    .route(
        "/locations/get_quantity_by_location",
        get(quantity_by_location),
        Doc::new(
            "Locations",
            "Units of one item on hand at one location (inventory and asset stock; a fixed asset counts 1 when available there)",
        )
        .query(&[
            ("asset_id", "required: the item's number"),
            ("location_id", "required: a location of the company"),
        ])
        .answers::<QuantityJson>(),
    )
}

/// What an order of asset stock answers: the asset as it now is and, for a check-out,
/// its line item (`{"asset": {...}, "line_item": {...}}`).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = StockOrder)]
struct StockOrderJson<'a> {
    asset: AssetJson<'a>,
    /// The check-out (order_type=checkout only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false, nullable = false)]
    line_item: Option<LineItemJson<'a>>,
}

async fn order<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let family = K::FAMILY;
    let mut form = Form::new(&params, "line_item");
    let order_type = match params.get("order_type") {
        None => {
            form.error(
                "order_type",
                format!(
                    "can't be blank: {}",
                    OrderType::orders_of(family.kind)
                        .iter()
                        .map(|o| domain::Vocabulary::as_str(*o))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            );
            None
        }
        Some(raw) => OrderType::parse_for(family.kind, raw)
            .map_err(|p| form.error("order_type", p))
            .ok(),
    };
    let quantity = form.quantity("quantity");
    let price = amount(&mut form, "price").as_set().copied();
    if order_type == Some(OrderType::AddStock) && price.is_none() && !form.has_errors_for("price") {
        form.error(
            "price",
            "can't be blank: the price per unit of the stock added",
        );
    }
    let location = form.id("location_id").as_set().copied();
    let comments = form.text("comments").as_set().cloned();
    let values_path = if order_type == Some(OrderType::AddStock) {
        "add_stock_values[c_attr_vals]"
    } else {
        "remove_stock_values[c_attr_vals]"
    };
    let values = attribute_values(&state, &tenant, &mut form, values_path, family.target).await?;
    let checkout = order_type == Some(OrderType::Checkout);
    let member = match params.get("user[id]") {
        None if checkout => {
            form.error(
                "user_id",
                "can't be blank: the member the units go to (user[id])",
            );
            None
        }
        None => None,
        Some(raw) => parse_id(raw).or_else(|| {
            form.error("user_id", "must be a member id (a positive whole number)");
            None
        }),
    };
    let mut flags = Form::new(&params, "remove_stock_values");
    let override_conflicting = flags
        .boolean("override_conflicting_reservations")
        .unwrap_or(false);
    let flag_problem = flags.finish().err();
    let terms = checkout.then(|| {
        let due = due(&params, tenant.0.time_zone, &mut form);
        (due, form.id("checked_out_to_location_id").as_set().copied())
    });
    form.finish()?;
    if let Some(problem) = flag_problem {
        return Err(problem);
    }
    if let Some((due, to_location)) = terms {
        let checkout = StockCheckout {
            member: member.expect("reported by finish"),
            quantity: quantity.expect("reported by finish"),
            location,
            to_location,
            due,
            price,
            comments,
            values,
            override_conflicting,
        };
        let done =
            stock_checkouts::check_out(state.db(), tenant.0.id, number, checkout, &clock(&tenant))
                .await
                .map_err(ApiError::from_item)?;
        let fields = fields_of(&state, &tenant.0, &done.item).await?;
        let tz = tenant.0.time_zone;
        return Ok(views::Reply::of(&StockOrderJson {
            asset: render(&done.item, tz, &fields, Shown::all()),
            line_item: Some(super::checkouts::line_item(&done.line_item, tz)),
        }));
    }
    let movement = Movement {
        order_type: order_type.expect("reported by finish"),
        quantity: quantity.expect("reported by finish"),
        price,
        location,
        comments,
        values,
        member,
        override_conflicting,
    };
    let view = stock::order(
        state.db(),
        tenant.0.id,
        family.kind,
        number,
        movement,
        &clock(&tenant),
    )
    .await
    .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn transfer<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "transfer_stock");
    let quantity = form.quantity("quantity");
    let comments = form.text("comments").as_set().cloned();
    let mut location = |field: &str| match params.get(field) {
        None => {
            form.error(field, "can't be blank: a location id");
            None
        }
        Some(raw) => parse_id(raw).or_else(|| {
            form.error(field, "must be a location id (a positive whole number)");
            None
        }),
    };
    let from = location("from_location");
    let to = location("to_location");
    if from.is_some() && from == to {
        form.error(
            "to_location",
            "must differ from from_location: a transfer moves units between two locations",
        );
    }
    let price = match params.get("price") {
        None | Some("") => None,
        Some(raw) => domain::money::Money::parse(raw)
            .map(|m| m.minor())
            .map_err(|p| form.error("price", p))
            .ok(),
    };
    form.finish()?;
    let transfer = Transfer {
        quantity: quantity.expect("reported by finish"),
        from: from.expect("reported by finish"),
        to: to.expect("reported by finish"),
        price,
        comments,
    };
    let view = stock::transfer(
        state.db(),
        tenant.0.id,
        K::FAMILY.kind,
        number,
        transfer,
        today(&tenant),
    )
    .await
    .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

/// The minimum wanted at one location, with what it holds.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = LocationThreshold)]
// Closes the schema where it is nested too (`serde` reads it on deserializing only).
#[serde(deny_unknown_fields)]
struct ThresholdJson<'a> {
    location_id: i64,
    location_name: &'a str,
    /// The minimum wanted there.
    minimum: i64,
    /// The units there now.
    quantity: i64,
    /// Whether the quantity is below the minimum.
    low_stock: bool,
}

/// An item's minimums per location.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = LocationThresholds)]
struct ThresholdsJson<'a> {
    location_based_thresholds: Vec<ThresholdJson<'a>>,
    /// Whether any location is low.
    low_stock: bool,
}

fn render_thresholds(found: &[Threshold]) -> views::Reply {
    views::Reply::of(&ThresholdsJson {
        location_based_thresholds: found
            .iter()
            .map(|t| ThresholdJson {
                location_id: t.location_id,
                location_name: &t.location_name,
                minimum: t.minimum,
                quantity: t.quantity,
                low_stock: t.is_low(),
            })
            .collect(),
        low_stock: found.iter().any(Threshold::is_low),
    })
}

/// The units of one item at one location.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = QuantityAtLocation)]
struct QuantityJson {
    /// The item's number, as asked.
    asset_id: i64,
    location_id: i64,
    /// Units on hand there (a fixed asset: 1 when available there, else 0).
    quantity: i64,
}

async fn thresholds<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
) -> Result<views::Reply, ApiError> {
    let found = stock::thresholds(state.db(), tenant.0.id, K::FAMILY.kind, number)
        .await
        .map_err(ApiError::from_item_read)?;
    Ok(render_thresholds(&found))
}

async fn set_thresholds<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    // Keys are location ids: `4`, `04` and `+4` are one location, named once; at most
    // MAX_LIST_ENTRIES of them.
    let mut form = Form::new(&params, "thresholds");
    let given = form.by_id("thresholds", "a location id");
    if params.entries("thresholds").is_empty() {
        form.error(
            "thresholds",
            "can't be blank: send thresholds[<location id>]=<minimum>",
        );
    }
    let mut given: Vec<_> = given.into_values().collect();
    given.sort_by_key(|entry| entry.id);
    let mut minimums = Vec::with_capacity(given.len());
    for entry in given {
        let location = entry.id;
        let Some(value) = entry.value() else {
            form.error(
                &entry.name,
                "must be a whole number (the minimum), not nested",
            );
            continue;
        };
        if value.is_empty() || value == "null" {
            minimums.push((location, None));
            continue;
        }
        match value.parse::<i64>() {
            Ok(m) if (0..=Quantity::MAX).contains(&m) => minimums.push((location, Some(m))),
            _ => form.error("thresholds", format!(
                "the minimum at location {location} must be a whole number from 0 to {}, not {value:?}",
                Quantity::MAX
            )),
        }
    }
    form.finish()?;
    let found = stock::set_thresholds(state.db(), tenant.0.id, K::FAMILY.kind, number, &minimums)
        .await
        .map_err(ApiError::from_item)?;
    Ok(render_thresholds(&found))
}

async fn quantity_by_location(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut errors = store::FieldErrors::new();
    let mut id = |field: &str, what: &str| match params.get(field).map(parse_id) {
        Some(Some(id)) => Some(id),
        Some(None) => {
            errors.insert(
                field.into(),
                vec![format!("must be {what} (a positive whole number)")],
            );
            None
        }
        None => {
            errors.insert(field.into(), vec![format!("can't be blank: {what}")]);
            None
        }
    };
    let asset = id("asset_id", "the item's number");
    let location = id("location_id", "a location id");
    let (Some(asset), Some(location)) = (asset, location) else {
        return Err(ApiError::Invalid(errors));
    };
    let quantity = stock::quantity_at(state.db(), tenant.0.id, asset, location)
        .await
        .map_err(ApiError::from_item)?;
    Ok(views::Reply::of(&QuantityJson {
        asset_id: asset,
        location_id: location,
        quantity,
    }))
}
