//! The order record: create, list, details, update (what the state allows), history.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::custom_field::Target;
use domain::order::OrderState;
use domain::pricing::Percent;
use domain::wire::{parse_date, parse_time};
use domain::{Change, PageSize, Vocabulary};
use store::orders::{self, OrderFilter, OrderInput};

use super::{answer, render};
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views;

const FIELDS: &[(&str, &str)] = &[
    (
        "customer_id",
        "required on create: a customer or business contact of the company",
    ),
    ("description", "text"),
    ("identification_number", "text"),
    ("invoice_heading", "text"),
    ("location_id", "a location of the company"),
    ("pick_up_location_id", "a location of the company"),
    (
        "shipping_address_id",
        "an address of the order's customer; null unlinks it",
    ),
    (
        "pick_up_address_id",
        "an address of the order's customer; null unlinks it",
    ),
    ("location_for_delivery", "boolean"),
    ("location_for_pickup", "boolean"),
    (
        "order_discount",
        "a percentage, 0 to 100, at most two decimal places",
    ),
    ("assigned_to_id", "a member of the company"),
    (
        "custom_attributes][<field name>",
        "value of a custom field that applies to orders; null clears",
    ),
];

const QUERY: &[(&str, &str)] = &[
    (
        "expected_checkout_date",
        "the day the order goes out (mm/dd/yyyy)",
    ),
    (
        "expected_checkout_time",
        "hh:mm in the company's time zone; default 00:00",
    ),
    (
        "due_date",
        "the day it is due back; later than the check-out",
    ),
    ("due_time", "hh:mm; default 23:59"),
    (
        "start_time",
        "hh:mm: the time of due_date, as the spec pairs them (due_time wins when both are sent)",
    ),
    (
        "bill_from",
        "the first day billed (default the check-out); not before it",
    ),
    ("bill_from_time", "hh:mm; default 00:00"),
    (
        "bill_to",
        "the last day billed (default the due date); not after it",
    ),
    ("bill_to_time", "hh:mm; default 23:59"),
    (
        "business_id",
        "a business the customer is a contact of; required (or business_name) when the customer is a contact of several businesses, and set to the one business of a contact of one",
    ),
    (
        "business_name",
        "the business by its exact name, instead of business_id (the two must agree when both are sent)",
    ),
    (
        "user_listing_name",
        "text: the store listing the order belongs to",
    ),
];

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets",
        get(list).post(create),
        Doc::new(
            "Orders",
            "List orders, 25 a page, oldest number first (GET), or create a draft order (POST)",
        )
        .form("basket", FIELDS)
        .query(QUERY)
        .query(&[
            ("asset_ids", "create: items to put on the order at once (see update_basket_from_show)"),
            ("filters[all]", "list: every order (the default)"),
            ("filters[state]", "list: one basket_state (drafted, web_order, booked, checked_out, returned, completed, void, sold, cancelled) or its display name"),
            ("filters[completed]", "list: boolean, completed orders only"),
            ("page", "page number, default 1"),
        ])
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
        .form("basket", FIELDS)
        .query(QUERY)
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/history",
        get(history),
        Doc::new("Orders", "Every change of the order, newest first, 25 a page")
            .query(&[("page", "page number, default 1")])
            .returns_page("history")
            .record::<crate::resources::assets::HistoryEntryJson>(),
    )
}

/// A moment from a date and a time parameter: not sent keeps, `null` clears.
pub(super) fn moment_at(
    form: &mut Form<'_>,
    date_field: &str,
    time_fields: &[&str],
    default_time: chrono::NaiveTime,
    tz: chrono_tz::Tz,
) -> Change<DateTime<Utc>> {
    let params = form.params();
    let time = time_fields
        .iter()
        .find_map(|f| params.get(f).map(|v| (*f, v)));
    let date = match params.get(date_field) {
        None => {
            if let Some((f, _)) = time {
                form.error(f, format!("can't be given without {date_field}"));
            }
            return Change::Keep;
        }
        Some("null") | Some("") => return Change::Clear,
        Some(raw) => match parse_date(raw) {
            Ok(d) => d,
            Err(problem) => {
                form.error(date_field, problem.to_string());
                return Change::Keep;
            }
        },
    };
    let time = match time {
        None | Some((_, "")) => default_time,
        Some((f, raw)) => match parse_time(raw) {
            Some(t) => t,
            None => {
                form.error(f, format!("{raw:?} is not a time (hh:mm, 24-hour)"));
                return Change::Keep;
            }
        },
    };
    Change::Set(domain::item::local_moment(date, Some(time), tz))
}

async fn read_input(
    state: &AppState,
    tenant: &Tenant,
    params: &Params,
    creating: bool,
) -> Result<OrderInput, ApiError> {
    let mut form = Form::new(params, "basket");
    let fields = custom_attributes::fields_for_input(
        state.db(),
        tenant.0.id,
        Target::Orders,
        &form,
        ATTRIBUTES,
    )
    .await?;
    let tz = tenant.0.time_zone;
    let start = chrono::NaiveTime::MIN;
    let end = chrono::NaiveTime::from_hms_opt(23, 59, 0).expect("valid");
    let customer_id = if creating {
        form.required_id("customer_id")
    } else {
        match form.id("customer_id") {
            Change::Set(id) => Some(id),
            Change::Clear => {
                form.error("customer_id", "can't be blank: an order is for a customer");
                None
            }
            Change::Keep => None,
        }
    };
    let business_id = match params.get("business_id") {
        None => Change::Keep,
        Some("null") | Some("") => Change::Clear,
        Some(raw) => match crate::form::parse_id(raw) {
            Some(id) => Change::Set(id),
            None => {
                form.error(
                    "business_id",
                    "must be a business id (a positive whole number)",
                );
                Change::Keep
            }
        },
    };
    let order_discount = match form.params().get("basket[order_discount]") {
        None => None,
        Some(raw) => Percent::parse(raw)
            .map_err(|p| form.error("order_discount", p))
            .ok(),
    };
    let business_name = params
        .get("business_name")
        .map(str::trim)
        .filter(|n| !n.is_empty() && *n != "null")
        .map(str::to_owned);
    let input = OrderInput {
        customer_id,
        business_id,
        business_name,
        description: form.text("description"),
        identification_number: form.text("identification_number"),
        invoice_heading: form.text("invoice_heading"),
        expected_checkout_at: moment_at(
            &mut form,
            "expected_checkout_date",
            &["expected_checkout_time"],
            start,
            tz,
        ),
        // The spec pairs start_time with due_date ("due_date, start_time: Date; time").
        due_at: moment_at(&mut form, "due_date", &["due_time", "start_time"], end, tz),
        bill_from: moment_at(&mut form, "bill_from", &["bill_from_time"], start, tz),
        bill_to: moment_at(&mut form, "bill_to", &["bill_to_time"], end, tz),
        location_id: form.id("location_id"),
        pick_up_location_id: form.id("pick_up_location_id"),
        shipping_address_id: form.id("shipping_address_id"),
        pick_up_address_id: form.id("pick_up_address_id"),
        location_for_delivery: form.boolean("location_for_delivery"),
        location_for_pickup: form.boolean("location_for_pickup"),
        order_discount,
        assigned_to_id: form.id("assigned_to_id"),
        user_listing_name: match params.get("user_listing_name") {
            None => Change::Keep,
            Some("null") | Some("") => Change::Clear,
            Some(v) => Change::Set(v.trim().to_owned()),
        },
        custom_attributes: custom_attributes::read(&mut form, ATTRIBUTES, &fields, Target::Orders),
    };
    form.finish()?;
    Ok(input)
}

const ATTRIBUTES: &str = "basket[custom_attributes]";

async fn create(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input(&state, &tenant, &params, true).await?;
    let additions = super::items::read_additions(&params, false)?;
    let view = orders::create(state.db(), tenant.0.id, input, additions).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn list(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let completed = views::flag(&params, "filters[completed]")?;
    let filter = match params.get("filters[state]") {
        Some(raw) if !raw.is_empty() => {
            let state = OrderState::parse_any(raw).ok_or_else(|| {
                ApiError::field(
                    "filters[state]",
                    format!("must be one of {}", OrderState::names()),
                )
            })?;
            if completed && state != OrderState::Completed {
                return Err(ApiError::field(
                    "filters[completed]",
                    "can't be combined with another filters[state]",
                ));
            }
            OrderFilter::State(state)
        }
        _ if completed => OrderFilter::State(OrderState::Completed),
        _ => OrderFilter::All,
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
    Number(number, _): Number<kind::Order>,
) -> Result<views::Reply, ApiError> {
    let view = orders::find(state.db(), tenant.0.id, number)
        .await
        .map_err(ApiError::from_order)?;
    Ok(views::one("basket", render(&view, tenant.0.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input(&state, &tenant, &params, false).await?;
    let view = orders::update(state.db(), tenant.0.id, number, input, tenant.0.time_zone)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn history(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let entries = orders::history_page(state.db(), tenant.0.id, number, page)
        .await
        .map_err(ApiError::from_order)?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("history", page, &entries, |e| {
        crate::resources::assets::history_entry(e, tz)
    }))
}
