//! Check-out, check-in and extension of fixed assets, and the members' views of what
//! they hold and held.

use axum::extract::State;
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use domain::custom_field::Target;
use domain::item::{AssetType, local_moment};
use domain::{Change, PageSize, Vocabulary};
use store::checkouts::{self, Checkin, Checkout, MemberRef};
use store::items;

use super::{AssetJson, ShowQuery, Shown, answer, answer_page, clock, today};
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Number, kind};
use crate::input::{Email, Input, PageQuery, RecordId, Scalar, TimeOfDay, read_beside};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/checkout",
        put_or_patch(check_out),
        Doc::new("Check-out and check-in", "Check an available asset out to an active member (PUT or PATCH)")
            .params::<MemberQuery>()
            .params::<DueQuery>()
            .input::<CheckoutValues>()
            .custom_values(
                "checkout_values",
                &[("c_attr_vals][<field name>", "custom field values of the check-out")],
            )
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/checkin",
        put_or_patch(check_in),
        Doc::new("Check-out and check-in", "Check a checked-out asset in (PUT or PATCH)")
            .input::<CheckinValues>()
            .custom_values(
                "checkin_values",
                &[("c_attr_vals][<field name>", "custom field values of the check-in")],
            )
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/extend_checkout",
        put_or_patch(extend),
        Doc::new("Check-out and check-in", "Move the due date of a check-out later (PUT or PATCH)")
            .params::<NewDueQuery>()
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/members/{id}/checked_out_items",
        get(checked_out_items).put_or_patch(checked_out_items),
        Doc::new("Members", "Items checked out to the member, 25 a page (GET, PUT or PATCH)")
            .params::<HeldQuery>()
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/members/{id}/checkin_checkout_history",
        get(member_history),
        Doc::new("Members", "The member's check-outs of fixed assets (each with its check-in), oldest first, 25 a page")
            .params::<PageQuery>()
            .returns_page("history")
            .record::<CheckoutJson<'_>>(),
    )
}

/// When a check-out is due back.
#[derive(Input)]
pub(crate) struct DueQuery {
    /// The day it is due back (mm/dd/yyyy or yyyy-mm-dd), later than now; left out: no
    /// end.
    till: Option<NaiveDate>,
    /// The time it is due back that day, hh:mm in the company's time zone (default
    /// 23:59); only with till.
    #[input(format = TimeOfDay, needs = "till")]
    till_time: Option<NaiveTime>,
}

/// The new due moment of an extension.
#[derive(Input)]
pub(crate) struct NewDueQuery {
    /// The day it is now due back (mm/dd/yyyy or yyyy-mm-dd), later than the current
    /// due moment.
    till: NaiveDate,
    /// The time it is due back that day, hh:mm in the company's time zone (default
    /// 23:59).
    #[input(format = TimeOfDay, needs = "till")]
    till_time: Option<NaiveTime>,
}

/// The moment an extension names in the zone `tz`, read beside the input of `form`
/// (`None` on a problem, which `form` names).
pub(crate) fn new_due(form: &mut Form<'_>, tz: chrono_tz::Tz) -> Option<DateTime<Utc>> {
    let due = read_beside::<NewDueQuery>(form, str::to_owned)?;
    Some(local_moment(due.till, due.till_time, tz))
}

/// The due moment `till` and `till_time` name in the zone `tz`, read beside the input
/// of `form`: `Some(None)` when neither is sent, `None` on a problem (`form` names it).
pub(crate) fn due(form: &mut Form<'_>, tz: chrono_tz::Tz) -> Option<Option<DateTime<Utc>>> {
    let due = read_beside::<DueQuery>(form, str::to_owned)?;
    Some(due.till.map(|day| local_moment(day, due.till_time, tz)))
}

/// The member a fixed asset is checked out to: user_id or user_email.
#[derive(Input)]
struct MemberQuery {
    /// The member's id (wins over user_email); an active member.
    #[input(format = RecordId)]
    user_id: Option<i64>,
    /// The member's e-mail, when user_id is left out.
    #[input(format = Email)]
    user_email: Option<String>,
}

/// A check-out's own values.
#[derive(Input)]
#[input(resource = "checkout_values")]
struct CheckoutValues {
    /// The location the asset goes to (null: none).
    #[input(format = RecordId)]
    location_id: Change<i64>,
    /// Text (null: none).
    comments: Change<String>,
    /// Check out over other members' approved reservations (they become removed);
    /// default false.
    override_conflicting_reservations: Option<bool>,
    /// Check out over the member's own later reservations; default true.
    override_my_conflicting_reservations: Option<bool>,
}

/// A check-in's own values.
#[derive(Input)]
#[input(resource = "checkin_values")]
struct CheckinValues {
    /// The location the asset is now (null: none).
    #[input(format = RecordId)]
    location_id: Change<i64>,
    /// Text (null: none).
    comments: Change<String>,
}

async fn check_out(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "checkout_values");
    let input = CheckoutValues::read(&mut form);
    let member = read_beside::<MemberQuery>(&mut form, str::to_owned).and_then(|m| {
        match (m.user_id, m.user_email) {
            (Some(id), _) => Some(MemberRef::Id(store::Id::new(id))),
            (None, Some(email)) => Some(MemberRef::Email(email)),
            (None, None) => {
                form.error("user_id", "can't be blank: give user_id or user_email");
                None
            }
        }
    });
    let due = due(&mut form, tenant.0.time_zone);
    let values = attribute_values(
        &state,
        &tenant,
        &mut form,
        "checkout_values[c_attr_vals]",
        Target::FixedAssets,
    )
    .await?;
    let (input, member, due) = form.finish_with((|| Some((input?, member?, due?)))())?;
    let checkout = Checkout {
        member,
        due,
        location: input.location_id.as_set().copied().map(store::Id::new),
        comments: input.comments.as_set().cloned(),
        values,
        override_conflicting: input.override_conflicting_reservations.unwrap_or(false),
        override_mine: input.override_my_conflicting_reservations.unwrap_or(true),
    };
    let view = checkouts::check_out(state.db(), tenant.0.id, number, checkout, &clock(&tenant))
        .await
        .map_err(|e| ApiError::from(e).renamed("location_id", "checkout_values[location_id]"))?;
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
) -> Result<store::custom_fields::FieldValues, ApiError> {
    let fields =
        custom_attributes::fields_for_input(state.db(), tenant.0.id, target, form, path).await?;
    Ok(custom_attributes::read(form, path, &fields, target))
}

async fn check_in(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "checkin_values");
    let input = CheckinValues::read(&mut form);
    let values = attribute_values(
        &state,
        &tenant,
        &mut form,
        "checkin_values[c_attr_vals]",
        Target::FixedAssets,
    )
    .await?;
    let input = form.finish_with(input)?;
    let checkin = Checkin {
        location: input.location_id.as_set().copied().map(store::Id::new),
        comments: input.comments.as_set().cloned(),
        values,
    };
    let view = checkouts::check_in(state.db(), tenant.0.id, number, checkin, today(&tenant))
        .await
        .map_err(|e| ApiError::from(e).renamed("location_id", "checkin_values[location_id]"))?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn extend(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "");
    let due = new_due(&mut form, tenant.0.time_zone);
    let due = form.finish_with(due)?;
    let view = checkouts::extend(state.db(), tenant.0.id, number, due, &clock(&tenant)).await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

/// The kinds of item a member's list shows: all (the default) or one, in any of its
/// spellings (FixedAsset, fixed_assets, asset, StockAsset, asset stock, VolatileAsset,
/// inventory, ...), case, spaces and underscores aside.
struct HeldKind;

impl Scalar for HeldKind {
    /// `None`: every kind.
    type Value = Option<AssetType>;

    fn parse(raw: &str) -> Result<Option<AssetType>, String> {
        match raw
            .trim()
            .to_ascii_lowercase()
            .replace(['_', ' '], "")
            .as_str()
        {
            "all" => Ok(None),
            "fixedasset" | "fixedassets" | "asset" | "assets" => Ok(Some(AssetType::FixedAsset)),
            "stockasset" | "stockassets" | "assetstock" => Ok(Some(AssetType::StockAsset)),
            "volatileasset" | "volatileassets" | "inventory" => Ok(Some(AssetType::VolatileAsset)),
            _ => Err(format!("must be one of {}, all", AssetType::names())),
        }
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({
            "type": "string",
            "enum": [
                "all", "FixedAsset", "fixed_assets", "StockAsset", "stock_assets",
                "VolatileAsset", "volatile_assets", "inventory",
            ],
        })
    }
}

/// The parameters of a member's checked-out items.
#[derive(Input)]
struct HeldQuery {
    /// FixedAsset (also fixed_assets), StockAsset, VolatileAsset (also inventory) or all
    /// (the default).
    #[input(format = HeldKind)]
    item_type: Option<Option<AssetType>>,
    #[input(flatten)]
    show: ShowQuery,
    #[input(flatten)]
    page: PageQuery,
}

async fn checked_out_items(
    State(state): State<AppState>,
    tenant: Tenant,
    Id(member): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = HeldQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let kind = query.item_type.flatten();
    store::members::find(state.db(), tenant.0.id, member).await?;
    let records =
        items::held_by(state.db(), tenant.0.id, member, kind, page, today(&tenant)).await?;
    let shown = Shown {
        item_type: true,
        ..query.show.shown()
    };
    answer_page(&state, &tenant.0, page, records, shown).await
}

async fn member_history(
    State(state): State<AppState>,
    tenant: Tenant,
    Id(member): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = checkouts::member_history(state.db(), tenant.0.id, member, page).await?;
    let tz = tenant.0.time_zone;
    let at = |m: Option<DateTime<Utc>>| m.map(|m| moment(m, tz));
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
