//! The order record: create, list, details, update (what the state allows), history.

use axum::extract::State;
use chrono::{NaiveDate, NaiveTime};
use domain::custom_field::Target;
use domain::order::OrderState;
use domain::pricing::Percent;
use domain::{Change, PageSize, Vocabulary};
use store::orders::{self, Additions, OrderFilter, OrderInput};

use super::input::{Discount, ItemRefs, Named, at, both, end_of_day};
use super::{answer, render};
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::input::{Input, PageQuery, RecordId, Scalar, TimeOfDay};
use crate::params::Params;
use crate::state::AppState;
use crate::views;

/// The map entries an order's fields take beside its typed ones.
const ATTRIBUTE_FIELDS: &[(&str, &str)] = &[(
    "custom_attributes][<field name>",
    "value of a custom field that applies to orders; null clears",
)];

/// An order's own fields (`basket[...]`), on create and update.
#[derive(Input)]
#[input(resource = "basket")]
struct OrderFields {
    description: Change<String>,
    identification_number: Change<String>,
    invoice_heading: Change<String>,
    /// A location of the company; `null` or 0 clears.
    #[input(format = RecordId)]
    location_id: Change<i64>,
    /// A location of the company; `null` or 0 clears.
    #[input(format = RecordId)]
    pick_up_location_id: Change<i64>,
    /// An address of the order's customer; `null` or 0 unlinks it.
    #[input(format = RecordId)]
    shipping_address_id: Change<i64>,
    /// An address of the order's customer; `null` or 0 unlinks it.
    #[input(format = RecordId)]
    pick_up_address_id: Change<i64>,
    location_for_delivery: Option<bool>,
    location_for_pickup: Option<bool>,
    /// A percentage, 0 to 100, at most two decimal places.
    #[input(format = Discount)]
    order_discount: Option<Percent>,
    /// A member of the company; `null` or 0 clears.
    #[input(format = RecordId)]
    assigned_to_id: Change<i64>,
}

/// A new order's fields.
#[derive(Input)]
#[input(resource = "basket")]
struct NewOrderFields {
    /// A customer or business contact of the company.
    #[input(format = RecordId)]
    customer_id: i64,
    #[input(flatten)]
    fields: OrderFields,
}

/// An order's changes: what is left out is kept.
#[derive(Input)]
#[input(resource = "basket")]
struct OrderChanges {
    /// A customer or business contact of the company (an order is for one: it can't
    /// be cleared).
    #[input(format = RecordId)]
    customer_id: Option<i64>,
    #[input(flatten)]
    fields: OrderFields,
}

/// An order's period and parties, sent at the top level on create and update.
#[derive(Input)]
struct OrderQuery {
    /// The day the order goes out; `null` clears.
    expected_checkout_date: Change<NaiveDate>,
    /// hh:mm in the company's time zone; default 00:00 (only with
    /// expected_checkout_date).
    #[input(format = TimeOfDay, needs = "expected_checkout_date")]
    expected_checkout_time: Option<NaiveTime>,
    /// The day it is due back, later than the check-out; `null` clears.
    due_date: Change<NaiveDate>,
    /// hh:mm; default 23:59 (only with due_date).
    #[input(format = TimeOfDay, needs = "due_date")]
    due_time: Option<NaiveTime>,
    /// hh:mm: the time of due_date, as the spec pairs them (due_time wins when both
    /// are sent).
    #[input(format = TimeOfDay, needs = "due_date")]
    start_time: Option<NaiveTime>,
    /// The first day billed (default the check-out); not before it. `null` clears.
    bill_from: Change<NaiveDate>,
    /// hh:mm; default 00:00 (only with bill_from).
    #[input(format = TimeOfDay, needs = "bill_from")]
    bill_from_time: Option<NaiveTime>,
    /// The last day billed (default the due date); not after it. `null` clears.
    bill_to: Change<NaiveDate>,
    /// hh:mm; default 23:59 (only with bill_to).
    #[input(format = TimeOfDay, needs = "bill_to")]
    bill_to_time: Option<NaiveTime>,
    /// A business the customer is a contact of: required (or business_name) when the
    /// customer is a contact of several businesses, and set to the one business of a
    /// contact of one. `null` or 0 clears.
    #[input(format = RecordId)]
    business_id: Change<i64>,
    /// The business by its exact name, instead of business_id (the two must agree
    /// when both are sent).
    business_name: Change<String>,
    /// The store listing the order belongs to; `null` clears.
    user_listing_name: Change<String>,
}

/// A new order's top-level parameters.
#[derive(Input)]
struct NewOrderQuery {
    #[input(flatten)]
    query: OrderQuery,
    /// Items to put on the order at once, as update_basket_from_show takes them.
    #[input(format = ItemRefs)]
    #[expect(
        dead_code,
        reason = "checked here; read with their quantities by `read_additions`, whatever else failed"
    )]
    asset_ids: Option<Named>,
}

/// Custom attribute changes by custom field id.
type Attributes = store::custom_fields::FieldValues;

/// The parameters of the order list.
#[derive(Input)]
struct ListQuery {
    /// all: every order (the default).
    #[input(rename = "filters[all]")]
    _all: Option<String>,
    /// One basket_state, or its display name (Rented Out).
    #[input(rename = "filters[state]", format = StateFilter)]
    state: Option<OrderState>,
    /// Completed orders only.
    #[input(rename = "filters[completed]")]
    completed: Option<bool>,
    #[input(flatten)]
    page: PageQuery,
}

/// An order's state as a list filter takes it: its word or its display name, any
/// case.
struct StateFilter;

impl Scalar for StateFilter {
    type Value = OrderState;

    fn parse(raw: &str) -> Result<OrderState, String> {
        OrderState::parse_any(raw).ok_or_else(|| format!("must be one of {}", OrderState::names()))
    }

    fn schema() -> serde_json::Value {
        let mut words: Vec<&str> = OrderState::ALL.iter().map(|s| s.as_str()).collect();
        for s in OrderState::ALL {
            if !words.contains(&s.display_name()) {
                words.push(s.display_name());
            }
        }
        // The hosted service's name for Returned.
        words.push("checkin_payment_pending");
        serde_json::json!({"type": "string", "enum": words})
    }
}

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets",
        get(list).post(create),
        Doc::new(
            "Orders",
            "List orders, 25 a page, oldest number first (GET), or create a draft order (POST)",
        )
        .input::<NewOrderFields>()
        .custom_values("basket", ATTRIBUTE_FIELDS)
        .input::<NewOrderQuery>()
        .params::<ListQuery>()
        .returns("basket")
        .record::<super::OrderJson<'_>>()
        .returns_page("baskets")
        .page_record::<super::SummaryJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}",
        get(details).put_or_patch(update),
        Doc::new(
            "Orders",
            "Order details with its line items and every figure of its price (GET), or an update (PUT or PATCH) of the attributes its state allows: any other one is a 409 and nothing changes",
        )
        .input::<OrderChanges>()
        .custom_values("basket", ATTRIBUTE_FIELDS)
        .input::<OrderQuery>()
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/history",
        get(history),
        Doc::new("Orders", "Every change of the order, newest first, 25 a page")
            .params::<PageQuery>()
            .returns_page("history")
            .record::<crate::resources::assets::HistoryEntryJson>(),
    )
}

/// The order's input from its `basket[...]` fields (`customer_id` read by the caller
/// into `customer`) and its top-level `query`, with the custom attributes of `form`.
async fn read_input<F, Q>(
    state: &AppState,
    tenant: &Tenant,
    params: &Params,
    read_fields: fn(&mut Form<'_>) -> Option<F>,
    read_query: fn(&mut Form<'_>) -> Option<Q>,
    with_additions: bool,
) -> Result<(F, Q, Attributes, Additions), ApiError> {
    let mut form = Form::new(params, "basket");
    let fields = custom_attributes::fields_for_input(
        state.db(),
        tenant.0.id,
        Target::Orders,
        &form,
        ATTRIBUTES,
    )
    .await?;
    let own = read_fields(&mut form);
    let attributes = custom_attributes::read(&mut form, ATTRIBUTES, &fields, Target::Orders);
    let mut top = Form::new(params, "");
    let query = read_query(&mut top);
    let additions = if with_additions {
        let named = top.peek::<ItemRefs>("asset_ids");
        super::items::read_additions(&mut top, named)
    } else {
        Additions::default()
    };
    let (own, query) = both(form.finish_with(own), top.finish_with(query))?;
    Ok((own, query, attributes, additions))
}

fn order_input(
    customer_id: Option<i64>,
    f: OrderFields,
    q: OrderQuery,
    custom_attributes: Attributes,
    tz: chrono_tz::Tz,
) -> OrderInput {
    let start = NaiveTime::MIN;
    let end = end_of_day();
    OrderInput {
        customer_id: customer_id.map(store::Id::new),
        business_id: q.business_id.map(store::Id::new),
        business_name: match q.business_name {
            Change::Set(name) => Some(name),
            _ => None,
        },
        description: f.description,
        identification_number: f.identification_number,
        invoice_heading: f.invoice_heading,
        expected_checkout_at: at(
            q.expected_checkout_date,
            q.expected_checkout_time,
            start,
            tz,
        ),
        // The spec pairs start_time with due_date ("due_date, start_time: Date; time").
        due_at: at(q.due_date, q.due_time.or(q.start_time), end, tz),
        bill_from: at(q.bill_from, q.bill_from_time, start, tz),
        bill_to: at(q.bill_to, q.bill_to_time, end, tz),
        location_id: f.location_id.map(store::Id::new),
        pick_up_location_id: f.pick_up_location_id.map(store::Id::new),
        shipping_address_id: f.shipping_address_id.map(store::Id::new),
        pick_up_address_id: f.pick_up_address_id.map(store::Id::new),
        location_for_delivery: f.location_for_delivery,
        location_for_pickup: f.location_for_pickup,
        order_discount: f.order_discount,
        assigned_to_id: f.assigned_to_id.map(store::Id::new),
        user_listing_name: q.user_listing_name,
        custom_attributes,
    }
}

const ATTRIBUTES: &str = "basket[custom_attributes]";

async fn create(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (own, query, attributes, additions) = read_input(
        &state,
        &tenant,
        &params,
        NewOrderFields::read,
        NewOrderQuery::read,
        true,
    )
    .await?;
    let input = order_input(
        Some(own.customer_id),
        own.fields,
        query.query,
        attributes,
        tenant.0.time_zone,
    );
    let view = orders::create(state.db(), tenant.0.id, input, additions).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn list(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = ListQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let completed = query.completed.unwrap_or(false);
    let filter = match query.state {
        Some(state) => {
            if completed && state != OrderState::Completed {
                return Err(ApiError::field(
                    "filters[completed]",
                    "can't be combined with another filters[state]",
                ));
            }
            OrderFilter::State(state)
        }
        None if completed => OrderFilter::State(OrderState::Completed),
        None => OrderFilter::All,
    };
    let records = orders::list(state.db(), tenant.0.id, filter, page).await?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("baskets", page, &records, |o| {
        super::summary(o, tz)
    }))
}

async fn details(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
) -> Result<views::Reply, ApiError> {
    let view = orders::find(state.db(), tenant.0.id, number).await?;
    Ok(views::one("basket", render(&view, tenant.0.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (own, query, attributes, _) = read_input(
        &state,
        &tenant,
        &params,
        OrderChanges::read,
        OrderQuery::read,
        false,
    )
    .await?;
    let input = order_input(
        own.customer_id,
        own.fields,
        query,
        attributes,
        tenant.0.time_zone,
    );
    let view = orders::update(state.db(), tenant.0.id, number, input, tenant.0.time_zone).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn history(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let entries = orders::history_page(state.db(), tenant.0.id, number, page).await?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("history", page, &entries, |e| {
        crate::resources::assets::history_entry(e, tz)
    }))
}
