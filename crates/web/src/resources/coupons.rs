//! Pricing coupons: `GET /pricing_coupons.api` (the spec's list) and, as rentrack
//! extensions, `POST /pricing_coupons.api` to define one and
//! `GET|PUT|PATCH /pricing_coupons/{id}.api` to read and change one.

use axum::extract::State;
use domain::coupon::{self, Validity, ValueType};
use domain::pricing::CouponEffect;
use domain::{Change, Name, PageSize, Vocabulary};
use store::coupons::{self, CouponInput, CouponRecord};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

const FIELDS: &[(&str, &str)] = &[
    ("name", "required on create, unique in the company"),
    ("code", "text; null clears"),
    ("value_type", "required on create: flat or percent"),
    (
        "value",
        "required on create: above 0 with at most two decimal places; an amount up to 1000000000000.00 (flat) or a percentage up to 100 (percent)",
    ),
    ("effect", "discount (the default) or surcharge"),
    (
        "valid_from",
        "first day it may be used (mm/dd/yyyy or yyyy-mm-dd); null clears",
    ),
    (
        "valid_until",
        "last day it may be used, not before valid_from; null clears",
    ),
    ("active", "boolean, default true"),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/pricing_coupons",
        get(list).post(create),
        Doc::new(
            "Coupons",
            "The company's coupons, 25 a page (GET), or a new one (POST, rentrack extension)",
        )
        .form("coupon", FIELDS)
        .query(&[("page", "page number, default 1")])
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
        .form("coupon", FIELDS)
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

/// The request's fields. `stored`: the kind of the coupon an update changes, to read
/// a `value` sent without `value_type` (the store checks the pair again as it writes).
fn read_input(
    params: &Params,
    creating: bool,
    stored: Option<ValueType>,
) -> Result<CouponInput, ApiError> {
    let mut form = Form::new(params, "coupon");
    let name = if creating {
        form.name("name", Name::parse_required)
    } else {
        form.optional_name("name", Name::parse_required)
    };
    let code = form.text("code");
    let value_type = form.word::<ValueType>("value_type", creating);
    let value = match params.get("coupon[value]") {
        None => {
            if creating {
                form.error("value", "can't be blank");
            }
            None
        }
        // Which kind of value it is was refused already.
        Some(_) if form.has_errors_for("value_type") => None,
        Some(raw) => match value_type.or(stored).map(|t| t.parse_value(raw)) {
            Some(Ok(v)) => Some(coupon::hundredths(v)),
            Some(Err(problem)) => {
                form.error("value", problem);
                None
            }
            None => None,
        },
    };
    let effect = form.word::<CouponEffect>("effect", false);
    let valid_from = form.date("valid_from");
    let valid_until = form.date("valid_until");
    if let (Change::Set(from), Change::Set(until)) = (&valid_from, &valid_until)
        && let Err(problem) = Validity::check(Some(*from), Some(*until))
    {
        form.error("valid_until", problem);
    }
    let active = form.boolean("active");
    form.finish()?;
    Ok(CouponInput {
        name,
        code,
        value_type,
        value,
        effect,
        valid_from,
        valid_until,
        active,
    })
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut input = read_input(&params, true, None)?;
    let name = input.name.take().expect("reported by finish");
    let coupon = coupons::create(state.db(), company.id, name, input).await?;
    Ok(views::one("coupon", render(&coupon, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = coupons::list(state.db(), company.id, page).await?;
    Ok(views::paged("coupons", page, &records, |c| {
        render(c, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Coupon>,
) -> Result<views::Reply, ApiError> {
    let coupon = coupons::find(state.db(), company.id, id)
        .await
        .map_err(ApiError::from_record("coupon"))?;
    Ok(views::one("coupon", render(&coupon, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Coupon>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    // A value without its kind is read as the coupon's kind.
    let stored =
        if params.get("coupon[value]").is_some() && params.get("coupon[value_type]").is_none() {
            let coupon = coupons::find(state.db(), company.id, id)
                .await
                .map_err(ApiError::from_record("coupon"))?;
            Some(coupon.value_type())
        } else {
            None
        };
    let input = read_input(&params, false, stored)?;
    let coupon = coupons::update(state.db(), company.id, id, input)
        .await
        .map_err(ApiError::from_record("coupon"))?;
    Ok(views::one("coupon", render(&coupon, company.time_zone)))
}
