//! Stock movements of inventory and asset stock (add stock, sale, asset stock
//! check-out through `order.api`, transfer), the minimum per location, and the
//! quantity of an item at a location.

use std::marker::PhantomData;

use axum::extract::State;
use domain::stock::{OrderType, Quantity};
use domain::{Change, Vocabulary};
use serde::Serialize;
use store::stock::{self, Movement, Threshold, Transfer};
use store::stock_checkouts::{self, StockCheckout};

use super::action;
use super::checkouts::LineItemJson;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::input::{Amount, FieldDoc, Format, Input, RecordId, Scalar, Units, read_beside};
use crate::params::Params;
use crate::resources::assets::checkouts::{DueQuery, attribute_values, due};
use crate::resources::assets::{
    AssetJson, Inventory, Kind, Shown, Stock, answer, clock, fields_of, render, today,
};
use crate::state::AppState;
use crate::views;

const THRESHOLDS: &str = "thresholds[<location id>]";
const THRESHOLD: &str = "The minimum wanted at that location (a whole number, 0 or more); empty or null removes it; a location left out keeps its own.";

/// A location's minimum: a whole number of units from 0.
struct Minimum;

impl Scalar for Minimum {
    type Value = i64;

    fn parse(raw: &str) -> Result<i64, String> {
        raw.parse::<i64>()
            .ok()
            .filter(|m| (0..=Quantity::MAX).contains(m))
            .ok_or_else(|| format!("must be a whole number from 0 to {}", Quantity::MAX))
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "integer", "minimum": 0, "maximum": Quantity::MAX})
    }
}

/// The custom field values of a stock addition (beside those of the sale or check-out).
const ADDITION_VALUES: (&str, &str) = (
    "add_stock_values[c_attr_vals][<field name>]",
    "custom field values of the addition; null clears, empty keeps",
);

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/inventory/{sequence_num}/order",
        action(order::<Inventory>),
        Doc::new(
            "Inventory",
            "Add stock (order_type=Add Stock) or record a sale (order_type=New Sale; refused with 422 when the location holds fewer units, 409 when the units are promised elsewhere later: orders, other members' approved reservations or check-outs) (POST, PUT or PATCH)",
        )
        .params::<OrderQuery<Inventory>>()
        .params::<MemberParam>()
        .params::<OverrideFlag>()
        .input::<OrderLine>()
        .custom_values("", &[ADDITION_VALUES, ("remove_stock_values[c_attr_vals][<field name>]", "custom field values of the sale; null clears, empty keeps")])
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
        .params::<OrderQuery<Stock>>()
        .params::<MemberParam>()
        .params::<DueQuery>()
        .params::<OverrideFlag>()
        .custom_values("", &[ADDITION_VALUES, ("remove_stock_values[c_attr_vals][<field name>]", "custom field values of the check-out; null clears, empty keeps")])
        .input::<OrderLine>()
        .input::<CheckoutLine>()
        .answers::<StockOrderJson<'_>>(),
    )
    .route(
        "/inventory/{sequence_num}/transfer_stock",
        action(transfer::<Inventory>),
        Doc::new(
            "Inventory",
            "Move units between two locations in one step; refused with 422 when the source holds fewer (POST, PUT or PATCH)",
        )
        .input::<TransferLine>()
        .params::<TransferQuery>()
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
        .input::<TransferLine>()
        .params::<TransferQuery>()
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
        .clearing_map::<Minimum>(THRESHOLDS, THRESHOLD)
        .answers::<ThresholdsJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}/location_based_thresholds",
        get(thresholds::<Stock>).put_or_patch(set_thresholds::<Stock>),
        Doc::new(
            "Asset stock",
            "The minimum wanted per location with what each holds and whether it is low (GET); set or remove minimums (PUT or PATCH)",
        )
        .clearing_map::<Minimum>(THRESHOLDS, THRESHOLD)
        .answers::<ThresholdsJson<'_>>(),
    )
    .route(
        "/locations/get_quantity_by_location",
        get(quantity_by_location),
        Doc::new(
            "Locations",
            "Units of one item on hand at one location (inventory and asset stock; a fixed asset counts 1 when available there)",
        )
        .params::<QuantityQuery>()
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

/// `order_type`: the movements an item of the kind `K` takes (Add Stock or New Sale
/// for inventory, Add Stock or checkout for asset stock), case, spaces and underscores
/// aside.
struct OrderWord<K>(PhantomData<K>);

impl<K: Kind> Scalar for OrderWord<K> {
    type Value = OrderType;

    fn parse(raw: &str) -> Result<OrderType, String> {
        OrderType::parse_for(K::FAMILY.kind, raw)
    }

    fn schema() -> serde_json::Value {
        let words: Vec<&str> = Self::words().collect();
        serde_json::json!({"type": "string", "enum": words})
    }

    fn blank() -> String {
        format!(
            "can't be blank: {}",
            Self::words().collect::<Vec<_>>().join(" or ")
        )
    }
}

impl<K: Kind> OrderWord<K> {
    fn words() -> impl Iterator<Item = &'static str> {
        OrderType::orders_of(K::FAMILY.kind)
            .iter()
            .map(|o| Vocabulary::as_str(*o))
    }
}

/// The movement an order of an item of the kind `K` is (its words are the kind's, so
/// the struct is written out rather than derived).
struct OrderQuery<K> {
    order_type: OrderType,
    kind: PhantomData<K>,
}

impl<K: Kind> Input for OrderQuery<K> {
    const RESOURCE: &'static str = "";

    fn read(form: &mut Form<'_>) -> Option<Self> {
        let order_type = form.required::<OrderWord<K>>("order_type")?;
        Some(OrderQuery {
            order_type,
            kind: PhantomData,
        })
    }

    fn document(fields: &mut Vec<FieldDoc>) {
        fields.push(FieldDoc::required::<OrderWord<K>>(
            "order_type",
            "The movement: Add Stock, or New Sale (inventory) or checkout (asset stock).",
        ));
    }
}

/// The line item of an order.
#[derive(Input)]
#[input(resource = "line_item")]
struct OrderLine {
    /// Whole units, 1 to 1000000000; a sale or check-out is refused when the location
    /// holds fewer.
    #[input(format = Units)]
    quantity: Quantity,
    /// The price per unit, an amount such as 12.50; required to add stock (null: none).
    #[input(format = Amount)]
    price: Change<i64>,
    /// Text (null: none).
    comments: Change<String>,
    /// Where the stock is added, sold or taken from; left out (or null): the item's own
    /// location.
    #[input(format = RecordId)]
    location_id: Change<i64>,
}

/// What a check-out of asset stock adds to its line item.
#[derive(Input)]
#[input(resource = "line_item")]
struct CheckoutLine {
    /// A check-out: the location the units go to (they count at no location while out).
    #[input(format = RecordId)]
    checked_out_to_location_id: Change<i64>,
}

/// `user[id]`: the member of a sale or check-out (its problems are named `user_id`).
#[derive(Input)]
#[input(resource = "user")]
pub(super) struct MemberParam {
    /// The member: required for a check-out (an active member); on a sale, the member
    /// the units are sold to, if any, whose approved reservations that have begun are
    /// fulfilled.
    #[input(format = RecordId)]
    id: Option<i64>,
}

/// `remove_stock_values[override_conflicting_reservations]`.
#[derive(Input)]
#[input(resource = "remove_stock_values")]
pub(super) struct OverrideFlag {
    /// A sale or check-out: take the units over other members' approved reservations
    /// (they become removed); default false.
    pub(super) override_conflicting_reservations: Option<bool>,
}

async fn order<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let family = K::FAMILY;
    let mut form = Form::new(&params, "line_item");
    let line = OrderLine::read(&mut form);
    let query = read_beside::<OrderQuery<K>>(&mut form, str::to_owned);
    let order_type = query.as_ref().map(|q| q.order_type);
    if order_type == Some(OrderType::AddStock)
        && form.peek::<Amount>("price").is_none()
        && !form.has_errors_for("price")
    {
        form.error(
            "price",
            "can't be blank: the price per unit of the stock added",
        );
    }
    let values_path = if order_type == Some(OrderType::AddStock) {
        "add_stock_values[c_attr_vals]"
    } else {
        "remove_stock_values[c_attr_vals]"
    };
    let values = attribute_values(&state, &tenant, &mut form, values_path, family.target).await?;
    let member = read_beside::<MemberParam>(&mut form, |_| "user_id".to_owned());
    let flag = read_beside::<OverrideFlag>(&mut form, str::to_owned);
    let checkout = order_type == Some(OrderType::Checkout);
    // A check-out: (member, due moment, where the units go).
    let terms = if checkout {
        let member_id = member.as_ref().and_then(|m| m.id);
        if member_id.is_none() && !form.has_errors_for("user_id") {
            form.error(
                "user_id",
                "can't be blank: the member the units go to (user[id])",
            );
        }
        let due = due(&mut form, tenant.0.time_zone);
        let to = CheckoutLine::read(&mut form);
        (|| Some(Some((member_id?, due?, to?))))()
    } else {
        Some(None)
    };
    let read = (|| Some((line?, order_type?, member?, flag?, terms?)))();
    let (line, order_type, member, flag, terms) = form.finish_with(read)?;
    let override_conflicting = flag.override_conflicting_reservations.unwrap_or(false);
    let price = line.price.as_set().copied();
    let location = line.location_id.as_set().copied();
    let comments = line.comments.as_set().cloned();
    if let Some((member, due, to)) = terms {
        let checkout = StockCheckout {
            member: store::Id::new(member),
            quantity: line.quantity,
            location: location.map(store::Id::new),
            to_location: to
                .checked_out_to_location_id
                .as_set()
                .copied()
                .map(store::Id::new),
            due,
            price,
            comments,
            values,
            override_conflicting,
        };
        let done =
            stock_checkouts::check_out(state.db(), tenant.0.id, number, checkout, &clock(&tenant))
                .await?;
        let fields = fields_of(&state, &tenant.0, &done.item).await?;
        let tz = tenant.0.time_zone;
        return Ok(views::Reply::of(&StockOrderJson {
            asset: render(&done.item, tz, &fields, Shown::all()),
            line_item: Some(super::checkouts::line_item(&done.line_item, tz)),
        }));
    }
    let movement = Movement {
        order_type,
        quantity: line.quantity,
        price,
        location: location.map(store::Id::new),
        comments,
        values,
        member: member.id.map(store::Id::new),
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
    .await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

/// The units a transfer moves.
#[derive(Input)]
#[input(resource = "transfer_stock")]
struct TransferLine {
    /// Whole units, 1 to 1000000000; refused when the source holds fewer.
    #[input(format = Units)]
    quantity: Quantity,
    /// Text (null: none).
    comments: Change<String>,
}

/// An amount that may be sent empty, which is none.
struct OptionalAmount;

impl Format for OptionalAmount {
    type Value = i64;

    fn read(params: &Params, path: &str) -> Option<Result<i64, String>> {
        params
            .get(path)
            .filter(|raw| !raw.is_empty())
            .map(Amount::parse)
    }

    fn schema() -> serde_json::Value {
        <Amount as Scalar>::schema()
    }
}

/// Where a transfer's units go.
#[derive(Input)]
struct TransferQuery {
    /// The location the units leave.
    #[input(format = RecordId)]
    from_location: i64,
    /// The location they arrive at: another one.
    #[input(format = RecordId)]
    to_location: i64,
    /// The price per unit, an amount such as 12.50 (empty: none).
    #[input(format = OptionalAmount)]
    price: Option<i64>,
}

async fn transfer<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "transfer_stock");
    let line = TransferLine::read(&mut form);
    let query = read_beside::<TransferQuery>(&mut form, str::to_owned);
    let top = Form::new(&params, "");
    let from = top.peek::<RecordId>("from_location");
    if from.is_some() && from == top.peek::<RecordId>("to_location") {
        form.error(
            "to_location",
            "must differ from from_location: a transfer moves units between two locations",
        );
    }
    let (line, query) = form.finish_with(line.zip(query))?;
    let transfer = Transfer {
        quantity: line.quantity,
        from: query.from_location,
        to: query.to_location,
        price: query.price,
        comments: line.comments.as_set().cloned(),
    };
    let view = stock::transfer(
        state.db(),
        tenant.0.id,
        K::FAMILY.kind,
        number,
        transfer,
        today(&tenant),
    )
    .await?;
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
    Number(number): Number<kind::Item>,
) -> Result<views::Reply, ApiError> {
    let found = stock::thresholds(state.db(), tenant.0.id, K::FAMILY.kind, number)
        .await
        .map_err(ApiError::from_item_read)?;
    Ok(render_thresholds(&found))
}

async fn set_thresholds<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    // Keys are location ids: `4`, `04` and `+4` are one location, named once; at most
    // MAX_LIST_ENTRIES of them.
    let mut form = Form::new(&params, "thresholds");
    let given = form.by_id("thresholds", "a location id");
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
        match Minimum::parse(value) {
            Ok(m) => minimums.push((location, Some(m))),
            Err(problem) => form.error(
                "thresholds",
                format!("the minimum at location {location} {problem}, not {value:?}"),
            ),
        }
    }
    form.finish()?;
    let found =
        stock::set_thresholds(state.db(), tenant.0.id, K::FAMILY.kind, number, &minimums).await?;
    Ok(render_thresholds(&found))
}

/// The item and location of a quantity.
#[derive(Input)]
struct QuantityQuery {
    /// The item's number (sequence_num).
    #[input(format = RecordId)]
    asset_id: i64,
    /// A location of the company.
    #[input(format = RecordId)]
    location_id: i64,
}

async fn quantity_by_location(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let QuantityQuery {
        asset_id: asset,
        location_id: location,
    } = QuantityQuery::parse(&params)?;
    let quantity = stock::quantity_at(
        state.db(),
        tenant.0.id,
        store::Number::new(asset),
        store::Id::new(location),
    )
    .await?;
    Ok(views::Reply::of(&QuantityJson {
        asset_id: asset,
        location_id: location,
        quantity,
    }))
}
