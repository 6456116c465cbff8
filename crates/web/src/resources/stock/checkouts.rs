//! Check-in of asset stock, extension of its check-outs, the open check-outs of an
//! item, and a member's history of stock check-outs. The check-out itself is
//! `order_type=checkout` on `order.api` (`movements.rs`).

use axum::extract::State;
use chrono::{NaiveDate, NaiveTime};
use domain::stock::{CheckoutStatus, OrderType, Quantity};
use domain::{Change, PageSize, Vocabulary};
use serde::Serialize;
use store::stock_checkouts::{self, LineItem, StockCheckin};

use super::action;
use super::movements::OverrideFlag;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Number, kind};
use crate::input::{
    Format, IdList, Input, PageQuery, RecordId, Scalar, Shape, TimeOfDay, Units, Word, read_beside,
};
use crate::params::Params;
use crate::resources::assets::checkouts::{NewDueQuery, attribute_values, new_due};
use crate::resources::assets::{AssetJson, Kind, Shown, Stock, answer, clock, price};
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/stock_assets/{sequence_num}/checkin",
        action(check_in),
        Doc::new(
            "Asset stock",
            "Check units in from open check-outs (POST, PUT or PATCH); with a quantity, one line item and part of it: the rest stays out",
        )
        .params::<CheckinQuery>()
        .params::<OverrideFlag>()
        .custom_values(
            "checkin_stock_values",
            &[("c_attr_vals][<field name>", "custom field values of the check-in; null clears, empty keeps")],
        )
        .input::<CheckinLine>()
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}/mass_extend_checkout_items",
        action(extend),
        Doc::new(
            "Asset stock",
            "Move the due moment of open check-outs later (POST, PUT or PATCH)",
        )
        .params::<SelectedQuery>()
        .params::<NewDueQuery>()
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}/get_current_checkouts",
        get(current),
        Doc::new("Asset stock", "The item's open check-outs (line items), oldest first, 25 a page")
            .params::<CurrentQuery>()
            .returns_page("line_items")
            .record::<LineItemJson<'_>>(),
    )
    .route(
        "/members/{id}/checkin_checkout_history_for_stock",
        get(member_history),
        Doc::new(
            "Members",
            "The member's check-outs of asset stock, oldest first, 25 a page, each with its check-ins",
        )
        .params::<PageQuery>()
        .returns_page("history")
        .record::<HistoryJson<'_>>(),
    )
}

/// An asset stock check-out (a line item) as the API shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = StockLineItem)]
// Closes the schema where it is nested too (`serde` reads it on deserializing only).
#[serde(deny_unknown_fields)]
pub(super) struct LineItemJson<'a> {
    /// The line item's id (what check-in and extension select).
    id: i64,
    /// The item's number.
    sequence_num: i64,
    asset_name: &'a str,
    #[schema(value_type = String, pattern = "^StockAsset$")]
    item_type: &'static str,
    /// The member the units are checked out to.
    assigned_to_id: i64,
    assigned_to_name: &'a str,
    /// Where the units were taken from.
    location_id: i64,
    /// Where the units went (they count at no location while out).
    #[schema(required)]
    checked_out_to_location_id: Option<i64>,
    /// Units checked out.
    quantity: i64,
    /// Units still out.
    quantity_checked_out: i64,
    /// Units back.
    quantity_checked_in: i64,
    /// The price per unit, two decimal places.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    price: Option<String>,
    #[schema(required)]
    comments: Option<&'a str>,
    checkout_on: Moment,
    /// When the units are due back; null: no end.
    #[schema(required)]
    checkin_due_on: Option<Moment>,
    /// When the last unit came back.
    #[schema(required)]
    returned_on: Option<Moment>,
    #[schema(value_type = String, pattern = "^(checked_out|returned)$")]
    status: &'static str,
}

pub(super) fn line_item(l: &LineItem, tz: chrono_tz::Tz) -> LineItemJson<'_> {
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    LineItemJson {
        id: l.id,
        sequence_num: l.sequence_num,
        asset_name: &l.asset_name,
        item_type: "StockAsset",
        assigned_to_id: l.member_id,
        assigned_to_name: &l.member_name,
        location_id: l.location_id,
        checked_out_to_location_id: l.checked_out_to_location_id,
        quantity: l.quantity,
        quantity_checked_out: l.quantity_out,
        quantity_checked_in: l.quantity - l.quantity_out,
        price: price(l.price),
        comments: l.comments.as_deref(),
        checkout_on: moment(l.checkout_on, tz),
        checkin_due_on: at(l.checkin_due_on),
        returned_on: at(l.returned_on),
        status: if l.quantity_out == 0 {
            "returned"
        } else {
            "checked_out"
        },
    }
}

/// A member's check-out of asset stock with its check-ins: a line item and two keys
/// more (the schema is the line item's, extended).
#[derive(Serialize)]
struct HistoryJson<'a> {
    #[serde(flatten)]
    line_item: LineItemJson<'a>,
    is_checkout: bool,
    checkins: Vec<CheckinJson<'a>>,
}

/// One check-in of units of a line item.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = StockCheckin)]
// Closes the schema where it is nested too (`serde` reads it on deserializing only).
#[serde(deny_unknown_fields)]
struct CheckinJson<'a> {
    id: i64,
    /// Units checked in.
    quantity: i64,
    /// Where they came back.
    location_id: i64,
    checkin_on: Moment,
    #[schema(required)]
    comments: Option<&'a str>,
}

impl utoipa::PartialSchema for HistoryJson<'_> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
        use utoipa::openapi::{Ref, RefOr};
        let mut schema = <LineItemJson<'_> as utoipa::PartialSchema>::schema();
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            object.description = Some(
                "A member's check-out of asset stock (a line item) with its check-ins.".into(),
            );
            object.properties.insert(
                "is_checkout".into(),
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .description(Some("True while units are still out"))
                    .into(),
            );
            object.properties.insert(
                "checkins".into(),
                ArrayBuilder::new()
                    .items(Ref::from_schema_name(
                        <CheckinJson<'_> as utoipa::ToSchema>::name(),
                    ))
                    .into(),
            );
            object
                .required
                .extend(["is_checkout".to_owned(), "checkins".to_owned()]);
        }
        schema
    }
}

impl utoipa::ToSchema for HistoryJson<'_> {
    fn name() -> std::borrow::Cow<'static, str> {
        "StockCheckout".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <LineItemJson<'_> as utoipa::ToSchema>::schemas(schemas);
        schemas.push((
            <CheckinJson<'_> as utoipa::ToSchema>::name().into_owned(),
            <CheckinJson<'_> as utoipa::PartialSchema>::schema(),
        ));
        <CheckinJson<'_> as utoipa::ToSchema>::schemas(schemas);
    }
}

/// `selected_line_items`: the ids of line items, at least one (repeated or a comma
/// list).
struct Selected;

impl Format for Selected {
    type Value = Vec<i64>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        // Sent empty is not sent.
        IdList::read(params, path).filter(|ids| !matches!(ids, Ok(ids) if ids.is_empty()))
    }

    fn schema() -> serde_json::Value {
        let mut schema = IdList::schema();
        schema["minItems"] = 1.into();
        schema
    }

    fn blank() -> String {
        "can't be blank: the line item ids to act on (see get_current_checkouts.api)".to_owned()
    }
}

/// The line items an action selects.
#[derive(Input)]
struct SelectedQuery {
    /// Line item ids (get_current_checkouts lists them), repeated or a comma list.
    #[input(format = Selected)]
    selected_line_items: Vec<i64>,
}

/// `order_type` of a check-in: `checkin`, the only one it takes.
struct CheckinWord;

impl Scalar for CheckinWord {
    type Value = OrderType;

    fn parse(raw: &str) -> Result<OrderType, String> {
        match OrderType::parse_loosely(raw) {
            Some(OrderType::Checkin) => Ok(OrderType::Checkin),
            _ => Err(format!("must be checkin here, not {raw:?}")),
        }
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "enum": ["checkin"]})
    }
}

/// What a check-in names beside its line item.
#[derive(Input)]
struct CheckinQuery {
    #[input(flatten)]
    selected: SelectedQuery,
    /// checkin (optional).
    #[input(format = CheckinWord, rename = "order_type")]
    _order_type: Option<OrderType>,
    /// The day the units came back (mm/dd/yyyy or yyyy-mm-dd), default now; not before
    /// the check-out, not in the future.
    actual_checkin_on: Option<NaiveDate>,
    /// hh:mm in the company's time zone (default 23:59 of that day; today: now); only
    /// with actual_checkin_on.
    #[input(format = TimeOfDay, needs = "actual_checkin_on")]
    actual_checkin_on_time: Option<NaiveTime>,
}

/// The line item of a check-in.
#[derive(Input)]
#[input(resource = "line_item")]
struct CheckinLine {
    /// Units to check in, with one line item selected; left out: all each has out.
    #[input(format = Units)]
    quantity: Option<Quantity>,
    /// Where the units come back; left out (or null): where each was taken from.
    #[input(format = RecordId)]
    location_id: Change<i64>,
    /// Text (null: none).
    comments: Change<String>,
}

async fn check_in(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "line_item");
    let line = CheckinLine::read(&mut form);
    let query = read_beside::<CheckinQuery>(&mut form, str::to_owned);
    let selected = Form::new(&params, "").peek::<Selected>("selected_line_items");
    if form.peek::<Units>("quantity").is_some() && selected.is_some_and(|ids| ids.len() > 1) {
        form.error(
            "quantity",
            "applies to one line item: select one, or leave quantity out to check each selected line item in whole",
        );
    }
    // The spec lists the flag on check-in too; units coming back cannot take what
    // reservations need, so it is read and checked (a bad value is a 422) and has
    // nothing to override.
    let flag = read_beside::<OverrideFlag>(&mut form, str::to_owned);
    let values = attribute_values(
        &state,
        &tenant,
        &mut form,
        "checkin_stock_values[c_attr_vals]",
        Stock::FAMILY.target,
    )
    .await?;
    let (line, query, _) = form.finish_with((|| Some((line?, query?, flag?)))())?;
    let tz = tenant.0.time_zone;
    let at = query
        .actual_checkin_on
        .map(|date| match query.actual_checkin_on_time {
            Some(time) => domain::item::local_moment(date, Some(time), tz),
            // A day without a time: the end of it; today, now.
            None => {
                let clock = clock(&tenant);
                let end = domain::item::local_moment(date, None, tz);
                if date == clock.today {
                    end.min(clock.now)
                } else {
                    end
                }
            }
        });
    let checkin = StockCheckin {
        line_items: query.selected.selected_line_items,
        quantity: line.quantity,
        location: line.location_id.as_set().copied().map(store::Id::new),
        at,
        comments: line.comments.as_set().cloned(),
        values,
    };
    let view = stock_checkouts::check_in(state.db(), tenant.0.id, number, checkin, &clock(&tenant))
        .await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn extend(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "");
    let selected = SelectedQuery::read(&mut form);
    let due = new_due(&mut form, tenant.0.time_zone);
    let (selected, due) = form.finish_with(selected.zip(due))?;
    let view = stock_checkouts::extend(
        state.db(),
        tenant.0.id,
        number,
        &selected.selected_line_items,
        due,
        &clock(&tenant),
    )
    .await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

/// The parameters of an item's open check-outs.
#[derive(Input)]
struct CurrentQuery {
    /// all (the default), overdue, due_today or on_time.
    #[input(format = Word<CheckoutStatus>)]
    current_checkout_status: Option<CheckoutStatus>,
    /// Only this member's.
    #[input(format = RecordId)]
    user_id: Option<i64>,
    #[input(flatten)]
    page: PageQuery,
}

async fn current(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = CurrentQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let status = query.current_checkout_status.unwrap_or(CheckoutStatus::All);
    let member = query.user_id;
    let records = stock_checkouts::current(
        state.db(),
        tenant.0.id,
        number,
        status,
        member.map(store::Id::new),
        page,
        &clock(&tenant),
    )
    .await
    .map_err(ApiError::from_item_read)?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("line_items", page, &records, |l| {
        line_item(l, tz)
    }))
}

async fn member_history(
    State(state): State<AppState>,
    tenant: Tenant,
    Id(member): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = stock_checkouts::member_history(state.db(), tenant.0.id, member, page).await?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("history", page, &records, |(l, checkins)| {
        HistoryJson {
            line_item: line_item(l, tz),
            is_checkout: l.quantity_out > 0,
            checkins: checkins
                .iter()
                .map(|c| CheckinJson {
                    id: c.id,
                    quantity: c.quantity,
                    location_id: c.location_id,
                    checkin_on: moment(c.checked_in_on, tz),
                    comments: c.comments.as_deref(),
                })
                .collect(),
        }
    }))
}
