//! Verification (audit) of possession of checked-out fixed assets:
//! `/assets/{sequence_num}/verification_requests.api`, `.../verify_possession.api`,
//! `.../cancel_verification.api`, their mass forms `/assets/mass_*.api`, and
//! `/assets/verification_status.api`.

use axum::extract::State;
use domain::Change;
use domain::Vocabulary;
use domain::verification::AuditResponse;
use serde::Serialize;
use store::verifications::{self, Answer, Assets, LastVerification, Verification};

use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

const RESPONSE: &str = "one of Verified, Not in possession, Damaged, Lost (any case; underscores may stand for spaces); left out: Verified";

const ANSWER: &[(&str, &str)] = &[
    ("response", RESPONSE),
    ("condition", "text: the asset's condition"),
    ("notes", "text"),
];

const NOTES: &[(&str, &str)] = &[("notes", "text: sent with the request")];

const USER: (&str, &str) = (
    "user_id",
    "the custodian's member id (the member the asset is checked out to); left out: the custodian",
);

const SEQS: (&str, &str) = (
    "seqs",
    "required: asset numbers (sequence_num) separated by commas, at most 1000; repeats are dropped",
);

pub fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/verification_requests",
        post(request_one),
        Doc::new(
            "Verification",
            "Ask the custodian of a checked-out fixed asset to verify possession: a pending verification",
        )
        .form("audit", NOTES)
        .returns("verification")
        .record::<VerificationJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/verify_possession",
        post(verify_one),
        Doc::new(
            "Verification",
            "Acknowledge possession of a checked-out fixed asset: closes the pending verification as verified, or records a verified one",
        )
        .form("audit", ANSWER)
        .query(&[USER])
        .returns("verification")
        .record::<VerificationJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/cancel_verification",
        put_or_patch(cancel_one),
        Doc::new(
            "Verification",
            "Cancel the pending verification of a fixed asset",
        )
        .query(&[USER])
        .returns("verification")
        .record::<VerificationJson<'_>>(),
    )
    .route(
        "/assets/mass_verification_requests",
        post(request_many),
        Doc::new(
            "Verification",
            "Ask for verification of many assets, all or none: {\"assets\": [verification, ...]} in the order of seqs",
        )
        .form("audit", NOTES)
        .query(&[SEQS])
        .answers::<ManyJson<'_>>(),
    )
    .route(
        "/assets/mass_verify_possessions",
        post(verify_many),
        Doc::new(
            "Verification",
            "Acknowledge possession of many assets, all or none: {\"assets\": [verification, ...]} in the order of seqs",
        )
        .form("audit", ANSWER)
        .query(&[USER, SEQS])
        .answers::<ManyJson<'_>>(),
    )
    .route(
        "/assets/mass_cancel_verifications",
        put_or_patch(cancel_many),
        Doc::new(
            "Verification",
            "Cancel the pending verifications of many assets, all or none: {\"assets\": [verification, ...]} in the order of seqs",
        )
        .query(&[USER, SEQS])
        .answers::<ManyJson<'_>>(),
    )
    .route(
        "/assets/verification_status",
        get(status),
        Doc::new(
            "Verification",
            "The last verification of each asset of seqs, in their order (status null: never verified)",
        )
        .query(&[SEQS])
        .answers::<StatusJson<'_>>(),
    )
}

/// A verification (audit) of possession as the API shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Verification)]
// Closes the schema where it is nested too (`serde` reads it on deserializing only).
#[serde(deny_unknown_fields)]
pub struct VerificationJson<'a> {
    id: i64,
    /// The asset's number.
    sequence_num: i64,
    #[schema(value_type = String, pattern = "^(pending|verified|cancelled)$")]
    status: &'static str,
    /// The custodian's answer, once answered.
    #[schema(required, value_type = Option<String>, pattern = "^(Verified|Not in possession|Damaged|Lost)$")]
    response: Option<&'a str>,
    /// The asset's condition, as answered.
    #[schema(required)]
    condition: Option<&'a str>,
    #[schema(required)]
    notes: Option<&'a str>,
    /// The custodian asked, or the member who answered.
    #[schema(required)]
    user_id: Option<i64>,
    /// When it was asked; null for an answer given without a request.
    #[schema(required)]
    requested_at: Option<Moment>,
    #[schema(required)]
    responded_at: Option<Moment>,
}

pub fn render(v: &Verification, tz: chrono_tz::Tz) -> VerificationJson<'_> {
    VerificationJson {
        id: v.id,
        sequence_num: v.sequence_num,
        status: v.status.as_str(),
        response: v.response.as_deref(),
        condition: v.condition.as_deref(),
        notes: v.notes.as_deref(),
        user_id: v.member_id,
        requested_at: v.requested_at.map(|t| moment(t, tz)),
        responded_at: v.responded_at.map(|t| moment(t, tz)),
    }
}

/// The last verification of an asset: every key null but `sequence_num` when it
/// never had one.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = LastVerification)]
#[serde(deny_unknown_fields)]
struct LastJson<'a> {
    #[schema(required)]
    id: Option<i64>,
    /// The asset's number.
    sequence_num: i64,
    /// Null: never verified.
    #[schema(required, value_type = Option<String>, pattern = "^(pending|verified|cancelled)$")]
    status: Option<&'static str>,
    #[schema(required, value_type = Option<String>, pattern = "^(Verified|Not in possession|Damaged|Lost)$")]
    response: Option<&'a str>,
    #[schema(required)]
    condition: Option<&'a str>,
    #[schema(required)]
    notes: Option<&'a str>,
    #[schema(required)]
    user_id: Option<i64>,
    #[schema(required)]
    requested_at: Option<Moment>,
    #[schema(required)]
    responded_at: Option<Moment>,
}

fn render_last(last: &LastVerification, tz: chrono_tz::Tz) -> LastJson<'_> {
    let v = last.verification.as_ref();
    LastJson {
        id: v.map(|v| v.id),
        sequence_num: last.sequence_num,
        status: v.map(|v| v.status.as_str()),
        response: v.and_then(|v| v.response.as_deref()),
        condition: v.and_then(|v| v.condition.as_deref()),
        notes: v.and_then(|v| v.notes.as_deref()),
        user_id: v.and_then(|v| v.member_id),
        requested_at: v.and_then(|v| v.requested_at).map(|t| moment(t, tz)),
        responded_at: v.and_then(|v| v.responded_at).map(|t| moment(t, tz)),
    }
}

/// What the mass forms answer: a verification of each asset, in the order of `seqs`.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Verifications)]
struct ManyJson<'a> {
    assets: Vec<VerificationJson<'a>>,
}

/// The last verification of each asset asked about, in the order of `seqs`.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = VerificationStatuses)]
struct StatusJson<'a> {
    verification_status: Vec<LastJson<'a>>,
}

/// Optional text: left out, empty or `null` is none.
fn text(form: &mut Form<'_>, field: &str) -> Option<String> {
    match form.text(field) {
        Change::Set(v) => Some(v),
        Change::Keep | Change::Clear => None,
    }
}

/// `user_id`: left out (or empty) is none.
fn user(form: &mut Form<'_>) -> Option<i64> {
    let raw = form.params().get("user_id")?;
    match crate::form::parse_id(raw) {
        Some(id) => Some(id),
        None => {
            form.error("user_id", "must be a positive whole number (a member id)");
            None
        }
    }
}

/// `seqs`: required, a comma list of asset numbers, repeats dropped.
fn seqs(form: &mut Form<'_>) -> Vec<i64> {
    let numbers = form.ids_at("seqs", "seqs", "asset numbers");
    if numbers.is_empty() && !form.has_errors_for("seqs") {
        form.error(
            "seqs",
            "can't be blank: send asset numbers separated by commas (seqs=1,2,3)",
        );
    }
    numbers
}

fn answer(form: &mut Form<'_>) -> Answer {
    let response = match form.params().get("audit[response]") {
        None => AuditResponse::Verified,
        Some(raw) => AuditResponse::parse_typed(raw).unwrap_or_else(|| {
            form.error(
                "response",
                format!(
                    "is not a response: {raw:?}; use one of {} (any case; underscores may stand for spaces)",
                    AuditResponse::names()
                ),
            );
            AuditResponse::Verified
        }),
    };
    Answer {
        user: user(form),
        response,
        condition: text(form, "condition"),
        notes: text(form, "notes"),
    }
}

/// A single-asset write's 404 names the asset number.
fn one(
    company: &store::companies::Company,
    mut done: Vec<Verification>,
) -> Result<views::Reply, ApiError> {
    let v = done
        .pop()
        .ok_or_else(|| ApiError::Internal("no verification written".into()))?;
    Ok(views::one("verification", render(&v, company.time_zone)))
}

fn many(company: &store::companies::Company, done: &[Verification]) -> views::Reply {
    views::Reply::of(&ManyJson {
        assets: done.iter().map(|v| render(v, company.time_zone)).collect(),
    })
}

async fn request_one(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let notes = text(&mut form, "notes");
    form.finish()?;
    let done = verifications::request(state.db(), company.id, Assets::One(number), notes)
        .await
        .map_err(ApiError::from_item)?;
    one(&company, done)
}

async fn verify_one(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let answer = answer(&mut form);
    form.finish()?;
    let done = verifications::verify(state.db(), company.id, Assets::One(number), answer)
        .await
        .map_err(ApiError::from_item)?;
    one(&company, done)
}

async fn cancel_one(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let user = user(&mut form);
    form.finish()?;
    let done = verifications::cancel(state.db(), company.id, Assets::One(number), user)
        .await
        .map_err(ApiError::from_item)?;
    one(&company, done)
}

async fn request_many(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let numbers = seqs(&mut form);
    let notes = text(&mut form, "notes");
    form.finish()?;
    let done =
        verifications::request(state.db(), company.id, Assets::Many(&numbers), notes).await?;
    Ok(many(&company, &done))
}

async fn verify_many(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let numbers = seqs(&mut form);
    let answer = answer(&mut form);
    form.finish()?;
    let done =
        verifications::verify(state.db(), company.id, Assets::Many(&numbers), answer).await?;
    Ok(many(&company, &done))
}

async fn cancel_many(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let numbers = seqs(&mut form);
    let user = user(&mut form);
    form.finish()?;
    let done = verifications::cancel(state.db(), company.id, Assets::Many(&numbers), user).await?;
    Ok(many(&company, &done))
}

async fn status(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let numbers = seqs(&mut form);
    form.finish()?;
    let last = verifications::last(state.db(), company.id, &numbers).await?;
    Ok(views::Reply::of(&StatusJson {
        verification_status: last
            .iter()
            .map(|l| render_last(l, company.time_zone))
            .collect(),
    }))
}
