//! Pricing coupons: `GET /pricing_coupons.api` (the spec's list) and, as rentrack
//! extensions, `POST /pricing_coupons.api` to define one and
//! `GET|PUT|PATCH /pricing_coupons/{id}.api` to read and change one.

use axum::extract::State;
use chrono::NaiveDate;
use domain::coupon::{self, Validity, ValueType};
use domain::pricing::CouponEffect;
use domain::{Change, Name, PageSize, Vocabulary};
use store::coupons::{self, CouponInput, CouponRecord};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::input::{Amount, AnyName, Input, PageQuery, Scalar, Word};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/pricing_coupons",
        get(list).post(create),
        Doc::new(
            "Coupons",
            "The company's coupons, 25 a page (GET), or a new one (POST, rentrack extension)",
        )
        .input::<NewCoupon>()
        .params::<PageQuery>()
        .returns("coupon")
        .returns_page("coupons")
        .record::<CouponJson<'_>>(),
    )
    .route(
        "/pricing_coupons/{id}",
        get(details).put_or_patch(update),
        Doc::new(
            "Coupons",
            "Coupon details (GET) or update (PUT or PATCH; fields left out are kept); rentrack extensions",
        )
        .input::<CouponChanges>()
        .returns("coupon")
        .record::<CouponJson<'_>>(),
    )
}

/// A coupon as the contract shows it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = Coupon)]
struct CouponJson<'a> {
    id: i64,
    name: &'a str,
    code: Option<&'a str>,
    #[schema(value_type = String, pattern = "^(flat|percent)$")]
    value_type: &'static str,
    /// An amount (flat) or a percentage (percent), two decimal places.
    value: String,
    #[schema(value_type = String, pattern = "^(discount|surcharge)$")]
    effect: &'static str,
    valid_from: Option<views::Day>,
    valid_until: Option<views::Day>,
    active: bool,
    created_at: views::Moment,
    updated_at: views::Moment,
}

fn render(c: &CouponRecord, tz: chrono_tz::Tz) -> CouponJson<'_> {
    CouponJson {
        id: c.id,
        name: &c.name,
        code: c.code.as_deref(),
        value_type: c.value_type().as_str(),
        value: coupon::to_fixed_string(c.value),
        effect: c.effect.as_str(),
        valid_from: c.valid_from.map(views::Day),
        valid_until: c.valid_until.map(views::Day),
        active: c.active,
        created_at: moment(c.created_at, tz),
        updated_at: moment(c.updated_at, tz),
    }
}

/// A coupon's value: above 0, at most two decimal places, in hundredths (an amount's
/// minor units, or hundredths of a percent).
struct CouponValue;

impl Scalar for CouponValue {
    type Value = i64;

    fn parse(raw: &str) -> Result<i64, String> {
        match Amount::parse(raw)? {
            0 => Err(coupon::ABOVE_ZERO.to_owned()),
            hundredths => Ok(hundredths),
        }
    }

    fn schema() -> serde_json::Value {
        let text = serde_json::json!({
            "type": "string",
            // Some digit other than 0.
            "pattern": r"^\s*\+?(?=[0.]*[1-9])\d{1,12}(?:\.\d{0,2}0*)?\s*$",
            "description": "Above 0, at most two decimal places",
        });
        crate::input::decimal(text, 0.0, crate::input::MOST_MONEY, 0.01, true)
    }
}

/// What a coupon's create and update both take.
#[derive(Input)]
#[input(resource = "coupon")]
struct CouponFields {
    code: Change<String>,
    /// discount (the default) or surcharge.
    #[input(format = Word<CouponEffect>)]
    effect: Option<CouponEffect>,
    /// The first day it may be used; `null` clears.
    valid_from: Change<NaiveDate>,
    /// The last day it may be used, not before valid_from; `null` clears.
    valid_until: Change<NaiveDate>,
    /// Whether it may be used at all (true by default).
    active: Option<bool>,
}

/// A new coupon.
#[derive(Input)]
#[input(resource = "coupon")]
struct NewCoupon {
    /// Unique in the company.
    #[input(format = AnyName)]
    name: Name,
    /// flat (an amount) or percent.
    #[input(format = Word<ValueType>)]
    value_type: ValueType,
    /// Above 0: an amount up to 1000000000000.00 (flat) or a percentage up to 100
    /// (percent), at most two decimal places.
    #[input(format = CouponValue)]
    value: i64,
    #[input(flatten)]
    fields: CouponFields,
}

/// A coupon's changes: what is left out is kept.
#[derive(Input)]
#[input(resource = "coupon")]
struct CouponChanges {
    /// Unique in the company.
    #[input(format = AnyName)]
    name: Option<Name>,
    /// flat (an amount) or percent; a value sent alone is of the coupon's kind.
    #[input(format = Word<ValueType>)]
    value_type: Option<ValueType>,
    /// As on create, of the kind sent or the coupon's.
    #[input(format = CouponValue)]
    value: Option<i64>,
    #[input(flatten)]
    fields: CouponFields,
}

/// The coupon's fields read with `read`, and the checks that span fields, whatever
/// else failed: a value within its kind's bounds (the kind sent, or `stored`: the
/// kind of the coupon an update changes) and a period that does not end before it
/// starts.
fn read_coupon<T>(
    params: &Params,
    read: fn(&mut Form<'_>) -> Option<T>,
    stored: Option<ValueType>,
) -> Result<T, ApiError> {
    let mut form = Form::new(params, "coupon");
    let input = read(&mut form);
    let kind = form.peek::<Word<ValueType>>("value_type").or(stored);
    if let (Some(kind), Some(value)) = (kind, form.peek::<CouponValue>("value"))
        && let Err(problem) = kind.value(value)
    {
        form.error("value", problem);
    }
    let from = form.peek::<NaiveDate>("valid_from");
    if let Err(problem) = Validity::check(from, form.peek::<NaiveDate>("valid_until")) {
        form.error("valid_until", problem);
    }
    form.finish_with(input)
}

fn coupon_input(
    name: Option<Name>,
    value_type: Option<ValueType>,
    value: Option<i64>,
    f: CouponFields,
) -> CouponInput {
    CouponInput {
        name,
        code: f.code,
        value_type,
        value,
        effect: f.effect,
        valid_from: f.valid_from,
        valid_until: f.valid_until,
        active: f.active,
    }
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let new = read_coupon(&params, NewCoupon::read, None)?;
    let input = coupon_input(None, Some(new.value_type), Some(new.value), new.fields);
    let coupon = coupons::create(state.db(), company.id, new.name, input).await?;
    Ok(views::one("coupon", render(&coupon, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = coupons::list(state.db(), company.id, page).await?;
    Ok(views::paged("coupons", page, &records, |c| {
        render(c, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Coupon>,
) -> Result<views::Reply, ApiError> {
    let coupon = coupons::find(state.db(), company.id, id).await?;
    Ok(views::one("coupon", render(&coupon, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Coupon>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    // A value without its kind is read as the coupon's kind.
    let stored =
        if params.get("coupon[value]").is_some() && params.get("coupon[value_type]").is_none() {
            let coupon = coupons::find(state.db(), company.id, id).await?;
            Some(coupon.value_type())
        } else {
            None
        };
    let changes = read_coupon(&params, CouponChanges::read, stored)?;
    let input = coupon_input(
        changes.name,
        changes.value_type,
        changes.value,
        changes.fields,
    );
    let coupon = coupons::update(state.db(), company.id, id, input).await?;
    Ok(views::one("coupon", render(&coupon, company.time_zone)))
}
