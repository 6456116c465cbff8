//! Check-out, check-in and extension of fixed assets, and the members' views of what
//! they hold and held.

use axum::extract::State;
use domain::custom_field::Target;
use domain::item::{AssetType, local_moment};
use domain::wire::{parse_date, parse_time};
use domain::{PageSize, Vocabulary};
use store::checkouts::{self, Checkin, Checkout, MemberRef};
use store::items;

use super::{AssetJson, Shown, answer, answer_page, clock, today};
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::{Form, parse_id};
use crate::ids::{Id, Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/checkout",
        put_or_patch(check_out),
        Doc::new("Check-out and check-in", "Check an available asset out to an active member (PUT or PATCH)")
            .query(&[
                ("user_id", "the member (wins over user_email)"),
                ("user_email", "the member's e-mail"),
                ("till", "due date (mm/dd/yyyy); none: no end"),
                ("till_time", "due time hh:mm in the company's time zone (default 23:59)"),
            ])
            .form(
                "checkout_values",
                &[
                    ("location_id", "where it goes"),
                    ("comments", "text"),
                    ("override_conflicting_reservations", "boolean, default false: check out over other members' approved reservations (they become removed)"),
                    ("override_my_conflicting_reservations", "boolean, default true: over the member's own later reservations"),
                    ("c_attr_vals][<field name>", "custom field values of the check-out"),
                ],
            )
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/checkin",
        put_or_patch(check_in),
        Doc::new("Check-out and check-in", "Check a checked-out asset in (PUT or PATCH)")
            .form(
                "checkin_values",
                &[
                    ("location_id", "where it is now"),
                    ("comments", "text"),
                    ("c_attr_vals][<field name>", "custom field values of the check-in"),
                ],
            )
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/extend_checkout",
        put_or_patch(extend),
        Doc::new("Check-out and check-in", "Move the due date of a check-out later (PUT or PATCH)")
            .query(&[
                ("till", "required: the new due date, later than now and than the check-out"),
                ("till_time", "hh:mm, default 23:59"),
            ])
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/members/{id}/checked_out_items",
        get(checked_out_items).put_or_patch(checked_out_items),
        Doc::new("Members", "Items checked out to the member, 25 a page (GET, PUT or PATCH)")
            .query(&[
                ("item_type", "FixedAsset (fixed_assets), StockAsset, VolatileAsset or all (default)"),
                ("page", "page number, default 1"),
            ])
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/members/{id}/checkin_checkout_history",
        get(member_history),
        Doc::new("Members", "The member's check-outs of fixed assets (each with its check-in), oldest first, 25 a page")
            .query(&[("page", "page number, default 1")])
            .returns_page("history")
            .record::<CheckoutJson<'_>>(),
    )
}

/// The due moment of `till` and `till_time` (see `moment_of`).
pub(crate) fn due(
    params: &Params,
    tz: chrono_tz::Tz,
    form: &mut Form<'_>,
) -> Option<chrono::DateTime<chrono::Utc>> {
    moment_of(
        params,
        [("till", "till"), ("till_time", "till_time")],
        tz,
        form,
    )
}

/// The moment a date parameter and an optional time parameter (default the end of the
/// day) name in the company's time zone, each given as (parameter, field the 422
/// names); `None` when neither is sent or one is bad (the form says which).
pub(crate) fn moment_of(
    params: &Params,
    [(date_key, date_field), (time_key, time_field)]: [(&str, &str); 2],
    tz: chrono_tz::Tz,
    form: &mut Form<'_>,
) -> Option<chrono::DateTime<chrono::Utc>> {
    let date = params.get(date_key);
    let time = params.get(time_key);
    let date = match date {
        None if time.is_some() => {
            form.error(
                date_field,
                format!("can't be blank when {time_field} is given"),
            );
            return None;
        }
        None => return None,
        Some(raw) => match parse_date(raw) {
            Ok(d) => d,
            Err(problem) => {
                form.error(date_field, problem.to_string());
                return None;
            }
        },
    };
    let time = match time {
        None => None,
        Some(raw) => match parse_time(raw) {
            Some(t) => Some(t),
            None => {
                form.error(
                    time_field,
                    format!("{raw:?} is not a time (hh:mm, 24-hour)"),
                );
                return None;
            }
        },
    };
    Some(local_moment(date, time, tz))
}

fn flag(form: &mut Form<'_>, field: &str, default: bool) -> bool {
    form.boolean(field).unwrap_or(default)
}

async fn check_out(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "checkout_values");
    let member = match (params.get("user_id"), params.get("user_email")) {
        (Some(raw), _) => match parse_id(raw) {
            Some(id) => Some(MemberRef::Id(id)),
            None => {
                form.error("user_id", "must be a member id (a positive whole number)");
                None
            }
        },
        (None, Some(email)) => Some(MemberRef::Email(email.to_owned())),
        (None, None) => {
            form.error("user_id", "can't be blank: give user_id or user_email");
            None
        }
    };
    let due = due(&params, tenant.0.time_zone, &mut form);
    let location = form.id("location_id").as_set().copied();
    let comments = form.text("comments").as_set().cloned();
    let override_conflicting = flag(&mut form, "override_conflicting_reservations", false);
    let override_mine = flag(&mut form, "override_my_conflicting_reservations", true);
    let values = attribute_values(
        &state,
        &tenant,
        &mut form,
        "checkout_values[c_attr_vals]",
        Target::FixedAssets,
    )
    .await?;
    form.finish()?;
    let checkout = Checkout {
        member: member.expect("reported by finish"),
        due,
        location,
        comments,
        values,
        override_conflicting,
        override_mine,
    };
    let view = checkouts::check_out(state.db(), tenant.0.id, number, checkout, &clock(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

/// Custom field values of a check-out, check-in or stock movement (the fields of the
/// item's kind, `target`).
pub(crate) async fn attribute_values(
    state: &AppState,
    tenant: &Tenant,
    form: &mut Form<'_>,
    path: &str,
    target: Target,
) -> Result<std::collections::BTreeMap<i64, domain::Change<String>>, ApiError> {
    let fields =
        custom_attributes::fields_for_input(state.db(), tenant.0.id, target, form, path).await?;
    Ok(custom_attributes::read(form, path, &fields, target))
}

async fn check_in(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "checkin_values");
    let location = form.id("location_id").as_set().copied();
    let comments = form.text("comments").as_set().cloned();
    let values = attribute_values(
        &state,
        &tenant,
        &mut form,
        "checkin_values[c_attr_vals]",
        Target::FixedAssets,
    )
    .await?;
    form.finish()?;
    let checkin = Checkin {
        location,
        comments,
        values,
    };
    let view = checkouts::check_in(state.db(), tenant.0.id, number, checkin, today(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn extend(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "checkout_values");
    let due = due(&params, tenant.0.time_zone, &mut form);
    if due.is_none() && !form.has_errors_for("till") && !form.has_errors_for("till_time") {
        form.error("till", "can't be blank: the new due date");
    }
    form.finish()?;
    let due = due.expect("reported by finish");
    let view = checkouts::extend(state.db(), tenant.0.id, number, due, &clock(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn checked_out_items(
    State(state): State<AppState>,
    tenant: Tenant,
    Id(member, _): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let kind = match params.get("item_type") {
        None => None,
        Some(raw) => match raw
            .trim()
            .to_ascii_lowercase()
            .replace(['_', ' '], "")
            .as_str()
        {
            "all" => None,
            "fixedasset" | "fixedassets" | "asset" | "assets" => Some(AssetType::FixedAsset),
            "stockasset" | "stockassets" | "assetstock" => Some(AssetType::StockAsset),
            "volatileasset" | "volatileassets" | "inventory" => Some(AssetType::VolatileAsset),
            _ => {
                return Err(ApiError::field(
                    "item_type",
                    format!("must be one of {}, all", AssetType::names()),
                ));
            }
        },
    };
    store::members::find(state.db(), tenant.0.id, member).await?;
    let records =
        items::held_by(state.db(), tenant.0.id, member, kind, page, today(&tenant)).await?;
    let shown = Shown {
        item_type: true,
        ..Shown::read(&params)?
    };
    answer_page(&state, &tenant.0, page, records, shown).await
}

async fn member_history(
    State(state): State<AppState>,
    tenant: Tenant,
    Id(member, _): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = checkouts::member_history(state.db(), tenant.0.id, member, page).await?;
    let tz = tenant.0.time_zone;
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    Ok(views::paged("history", page, &records, |c| CheckoutJson {
        id: c.id,
        sequence_num: c.sequence_num,
        asset_name: &c.asset_name,
        item_type: "FixedAsset",
        is_checkout: c.checkin_on.is_none(),
        assigned_to_id: c.member_id,
        checkout_on: moment(c.checkout_on, tz),
        checkin_due_on: at(c.due_on),
        checkin_on: at(c.checkin_on),
        location_id: c.checkout_location_id,
        checkin_location_id: c.checkin_location_id,
        checkout_comments: c.checkout_comments.as_deref(),
        checkin_comments: c.checkin_comments.as_deref(),
    }))
}

/// A member's check-out of a fixed asset, with its check-in once checked in.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = FixedAssetCheckout)]
struct CheckoutJson<'a> {
    /// The check-out's id.
    id: i64,
    /// The asset's number.
    sequence_num: i64,
    asset_name: &'a str,
    #[schema(value_type = String, pattern = "^FixedAsset$")]
    item_type: &'static str,
    /// True while the asset is still out (not checked in).
    is_checkout: bool,
    /// The member.
    assigned_to_id: i64,
    checkout_on: Moment,
    /// When it was due back; null: no end.
    #[schema(required)]
    checkin_due_on: Option<Moment>,
    /// Null while out.
    #[schema(required)]
    checkin_on: Option<Moment>,
    /// Where it went.
    #[schema(required)]
    location_id: Option<i64>,
    /// Where it came back.
    #[schema(required)]
    checkin_location_id: Option<i64>,
    #[schema(required)]
    checkout_comments: Option<&'a str>,
    #[schema(required)]
    checkin_comments: Option<&'a str>,
}
