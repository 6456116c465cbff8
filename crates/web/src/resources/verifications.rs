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
use crate::ids::{Id, Number, kind};
use crate::input::{Format, IdList, Input, RecordId, Scalar, Shape, SomeIds, read_beside};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/verification_requests",
        post(request_one),
        Doc::new(
            "Verification",
            "Ask the custodian of a checked-out fixed asset to verify possession: a pending verification",
        )
        .input::<AuditNotes>()
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
        .input::<AuditAnswer>()
        .params::<UserQuery>()
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
        .params::<UserQuery>()
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
        .input::<AuditNotes>()
        .params::<SeqsQuery>()
        .answers::<ManyJson<'_>>(),
    )
    .route(
        "/assets/mass_verify_possessions",
        post(verify_many),
        Doc::new(
            "Verification",
            "Acknowledge possession of many assets, all or none: {\"assets\": [verification, ...]} in the order of seqs",
        )
        .input::<AuditAnswer>()
        .params::<UserQuery>()
        .params::<SeqsQuery>()
        .answers::<ManyJson<'_>>(),
    )
    .route(
        "/assets/mass_cancel_verifications",
        put_or_patch(cancel_many),
        Doc::new(
            "Verification",
            "Cancel the pending verifications of many assets, all or none: {\"assets\": [verification, ...]} in the order of seqs",
        )
        .params::<UserQuery>()
        .params::<SeqsQuery>()
        .answers::<ManyJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/verifications/{id}",
        get(details),
        Doc::new(
            "Verification",
            "One verification of the asset, by its id (a rentrack extension: what webhook events of verifications carry)",
        )
        .returns("verification")
        .record::<VerificationJson<'_>>(),
    )
    .route(
        "/assets/verification_status",
        get(status),
        Doc::new(
            "Verification",
            "The last verification of each asset of seqs, in their order (status null: never verified)",
        )
        .params::<SeqsQuery>()
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

/// The notes of a request.
#[derive(Input)]
#[input(resource = "audit")]
struct AuditNotes {
    /// Text sent with the request (null: none).
    notes: Change<String>,
}

/// `audit[response]`: one of Verified, Not in possession, Damaged, Lost, any case;
/// underscores may stand for spaces.
struct ResponseWord;

impl Scalar for ResponseWord {
    type Value = AuditResponse;

    fn parse(raw: &str) -> Result<AuditResponse, String> {
        AuditResponse::parse_typed(raw).ok_or_else(|| {
            format!(
                "is not a response: {raw:?}; use one of {} (any case; underscores may stand for spaces)",
                AuditResponse::names()
            )
        })
    }

    fn schema() -> serde_json::Value {
        let words: Vec<&str> = AuditResponse::ALL.iter().map(|r| r.as_str()).collect();
        serde_json::json!({"type": "string", "enum": words})
    }
}

/// The custodian's answer.
#[derive(Input)]
#[input(resource = "audit")]
struct AuditAnswer {
    /// One of Verified, Not in possession, Damaged, Lost (any case; underscores may
    /// stand for spaces); left out: Verified.
    #[input(format = ResponseWord)]
    response: Option<AuditResponse>,
    /// The asset's condition: text (null: none).
    condition: Change<String>,
    /// Text (null: none).
    notes: Change<String>,
}

/// The member who answers or cancels.
#[derive(Input)]
struct UserQuery {
    /// The custodian's member id (the member the asset is checked out to); left out:
    /// the custodian.
    #[input(format = RecordId)]
    user_id: Option<i64>,
}

/// `seqs`: asset numbers, at least one.
struct Seqs;

impl Format for Seqs {
    type Value = Vec<i64>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        IdList::read_unless_empty(params, path)
    }

    fn schema() -> serde_json::Value {
        SomeIds::schema()
    }

    fn blank() -> String {
        "can't be blank: send asset numbers separated by commas (seqs=1,2,3)".to_owned()
    }
}

/// The assets a mass action names.
#[derive(Input)]
struct SeqsQuery {
    /// Asset numbers (sequence_num) separated by commas (or repeated), at most 1000;
    /// repeats are dropped.
    #[input(format = Seqs)]
    seqs: Vec<i64>,
}

impl AuditAnswer {
    fn answer(self, user: UserQuery) -> Answer {
        Answer {
            user: user.user_id,
            response: self.response.unwrap_or(AuditResponse::Verified),
            condition: self.condition.as_set().cloned(),
            notes: self.notes.as_set().cloned(),
        }
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

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Number(number): Number<kind::Item>,
    Id(id): Id<kind::Verification>,
) -> Result<views::Reply, ApiError> {
    let found = verifications::find(state.db(), company.id, number, id).await?;
    Ok(views::one(
        "verification",
        render(&found, company.time_zone),
    ))
}

async fn request_one(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let notes = AuditNotes::parse(&params)?.notes.as_set().cloned();
    let done = verifications::request(state.db(), company.id, Assets::One(number), notes).await?;
    one(&company, done)
}

async fn verify_one(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let answer = AuditAnswer::read(&mut form);
    let user = read_beside::<UserQuery>(&mut form, str::to_owned);
    let (answer, user) = form.finish_with(answer.zip(user))?;
    let done = verifications::verify(
        state.db(),
        company.id,
        Assets::One(number),
        answer.answer(user),
    )
    .await?;
    one(&company, done)
}

async fn cancel_one(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let user = UserQuery::parse(&params)?.user_id;
    let done = verifications::cancel(
        state.db(),
        company.id,
        Assets::One(number),
        user.map(store::Id::new),
    )
    .await?;
    one(&company, done)
}

async fn request_many(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let notes = AuditNotes::read(&mut form);
    let seqs = read_beside::<SeqsQuery>(&mut form, str::to_owned);
    let (notes, seqs) = form.finish_with(notes.zip(seqs))?;
    let done = verifications::request(
        state.db(),
        company.id,
        Assets::Many(&seqs.seqs),
        notes.notes.as_set().cloned(),
    )
    .await?;
    Ok(many(&company, &done))
}

async fn verify_many(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "audit");
    let answer = AuditAnswer::read(&mut form);
    let seqs = read_beside::<SeqsQuery>(&mut form, str::to_owned);
    let user = read_beside::<UserQuery>(&mut form, str::to_owned);
    let (answer, seqs, user) = form.finish_with((|| Some((answer?, seqs?, user?)))())?;
    let done = verifications::verify(
        state.db(),
        company.id,
        Assets::Many(&seqs.seqs),
        answer.answer(user),
    )
    .await?;
    Ok(many(&company, &done))
}

async fn cancel_many(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "");
    let seqs = SeqsQuery::read(&mut form);
    let user = UserQuery::read(&mut form);
    let (seqs, user) = form.finish_with(seqs.zip(user))?;
    let done = verifications::cancel(
        state.db(),
        company.id,
        Assets::Many(&seqs.seqs),
        user.user_id.map(store::Id::new),
    )
    .await?;
    Ok(many(&company, &done))
}

async fn status(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let numbers = store::Number::each(SeqsQuery::parse(&params)?.seqs);
    let last = verifications::last(state.db(), company.id, &numbers).await?;
    Ok(views::Reply::of(&StatusJson {
        verification_status: last
            .iter()
            .map(|l| render_last(l, company.time_zone))
            .collect(),
    }))
}
