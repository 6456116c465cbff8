//! The one error type of the interface. Every failure renders the contract's JSON:
//! `{"message": "...", "errors": {"field": ["problem"]}}`.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;
use store::ids::Kind;
use store::{Field, FieldErrors as StoreFieldErrors, StoreError};

/// Problems per field, worded, in the order the contract renders them.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

/// What a client is told when the database is busy or out of reach.
pub const UNAVAILABLE: &str =
    "The database is busy or unavailable. Retry after the number of seconds in Retry-After.";
/// The `Retry-After` of a 503.
pub const UNAVAILABLE_RETRY_SECS: u32 = 2;

/// A 503 with `body` and the `Retry-After` every "come back later" answer carries (API
/// errors, `/healthz`, console pages).
pub fn unavailable(body: impl IntoResponse) -> Response {
    let mut response = (StatusCode::SERVICE_UNAVAILABLE, body).into_response();
    response
        .headers_mut()
        .insert("retry-after", HeaderValue::from(UNAVAILABLE_RETRY_SECS));
    response
}

/// The store's field problems in the words of the interface.
pub fn worded(errors: StoreFieldErrors) -> FieldErrors {
    errors
        .into_iter()
        .map(|(field, problems)| {
            let worded = problems.iter().map(crate::refusals::problem).collect();
            (field_name(field), worded)
        })
        .collect()
}

/// The name the request gives the part of a write the store found a problem with.
pub fn field_name(field: Field) -> String {
    match field {
        Field::Named(name) => name,
        Field::ReturnedLine(line) => format!("stock_asset_with_quantity[{line}]"),
        Field::ReturnedBundle(bundle) => format!("bundle_with_quantity[{bundle}]"),
    }
}

#[derive(Debug)]
pub enum ApiError {
    /// 400: the request cannot be read.
    BadRequest(String),
    /// 401: token missing, unknown, regenerated away, or for another company's host.
    Unauthorized(String),
    /// 403: the API is disabled, or the action is refused for this record.
    Forbidden(String),
    /// 404: no such route, or no such record in this company.
    NotFound(String),
    /// 405: the path exists but not for this method.
    MethodNotAllowed(String),
    /// 409: the record's state forbids the action.
    Conflict(String),
    /// 413: the body is larger than the server accepts.
    TooLarge(String),
    /// 422: validation failed; names each field.
    Invalid(FieldErrors),
    /// 429: over the rate limit.
    RateLimited {
        message: String,
        retry_after_secs: u32,
    },
    /// 503: the database is busy or out of reach; the same request may succeed after
    /// `Retry-After`. The detail is logged, never sent.
    Unavailable(String),
    /// 503: the request ran longer than the request timeout (seconds) and was stopped.
    TimedOut(u64),
    /// 500: our fault. The detail is logged, never sent.
    Internal(String),
}

impl ApiError {
    pub fn field(field: &str, problem: impl Into<String>) -> Self {
        ApiError::Invalid(FieldErrors::from([(
            field.to_owned(),
            vec![problem.into()],
        )]))
    }

    /// The store's field problems, worded.
    pub fn fields(errors: StoreFieldErrors) -> Self {
        ApiError::Invalid(worded(errors))
    }

    /// The same error with field `from` of a 422 named `to`: the store names a field
    /// as the record has it, a handler as its form sends it.
    pub fn renamed(self, from: &str, to: &str) -> Self {
        match self {
            ApiError::Invalid(mut errors) => {
                if let Some(problems) = errors.remove(from) {
                    errors.insert(to.to_owned(), problems);
                }
                ApiError::Invalid(errors)
            }
            other => other,
        }
    }

    /// The 404 of a record the company has no `kind` of: every "No such ..." is
    /// worded here. Items and orders are addressed by number, the rest by id.
    pub fn no_such(kind: Kind) -> Self {
        let name = match kind {
            Kind::Company => "company",
            Kind::Location => "location",
            Kind::Group => "group",
            Kind::SubGroup => "subgroup",
            Kind::Vendor => "vendor",
            Kind::Member => "member",
            Kind::Customer => "customer",
            Kind::Business => "business",
            Kind::Contact => "contact",
            Kind::CustomField => "custom field",
            Kind::CustomRole => "custom_role",
            Kind::Team => "team",
            Kind::RetireReason => "retire_reason",
            Kind::Address => "address",
            Kind::DefaultAddress => {
                return ApiError::NotFound("There is no default address here.".into());
            }
            Kind::ReservationRequest => "reservation request",
            Kind::CustomTax => "custom tax",
            Kind::Coupon => "coupon",
            Kind::GroupTax => "group tax",
            Kind::PaymentHistory => "payment history",
            Kind::Bundle => "bundle",
            Kind::Listing => "listing",
            Kind::LabelTemplate => "label template",
            Kind::Service => "service",
            Kind::Verification => "verification",
            Kind::Item => "asset",
            Kind::Order => "order",
            Kind::Webhook => "webhook",
            Kind::WebhookDelivery => "webhook delivery",
            Kind::Import => "import",
        };
        ApiError::NotFound(match kind {
            Kind::Item | Kind::Order => {
                format!("No such {name} in this company. Check the {name} number (sequence_num).")
            }
            _ => format!("No such {name} in this company. Check the id."),
        })
    }

    /// A store error on a read of an item: an item of another kind than the path's is
    /// not found there (a 404 naming the path that has it).
    pub fn from_item_read(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(c @ domain::refusal::Conflict::WrongKind { .. }) => {
                ApiError::NotFound(crate::refusals::conflict(&c))
            }
            other => other.into(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) | ApiError::TimedOut(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// "Validation failed: name is too short (minimum is 3 characters); city is too long".
fn summary(errors: &FieldErrors) -> String {
    let parts: Vec<String> = errors
        .iter()
        .flat_map(|(field, problems)| problems.iter().map(move |p| format!("{field} {p}")))
        .collect();
    format!("Validation failed: {}.", parts.join("; "))
}

impl ApiError {
    /// What the answer's `message` says (the command line prints it too).
    pub fn message(&self) -> String {
        match self {
            ApiError::Invalid(errors) => summary(errors),
            ApiError::Unavailable(_) => UNAVAILABLE.to_owned(),
            ApiError::TimedOut(secs) => format!(
                "The request took longer than {secs} s and was stopped. It may or may not have been applied: check before sending it again."
            ),
            ApiError::Internal(_) => "Something went wrong on our side. Try again; if it keeps failing, report the request id.".to_owned(),
            ApiError::BadRequest(m)
            | ApiError::Unauthorized(m)
            | ApiError::Forbidden(m)
            | ApiError::NotFound(m)
            | ApiError::MethodNotAllowed(m)
            | ApiError::Conflict(m)
            | ApiError::TooLarge(m)
            | ApiError::RateLimited { message: m, .. } => m.clone(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        match &self {
            ApiError::Unavailable(detail) => {
                tracing::warn!(detail = %detail, "database unavailable")
            }
            ApiError::Internal(detail) => tracing::error!(detail = %detail, "internal error"),
            _ => {}
        }
        let body = match &self {
            ApiError::Invalid(errors) => {
                serde_json::json!({"message": self.message(), "errors": errors})
            }
            _ => serde_json::json!({"message": self.message()}),
        };
        if let ApiError::Unavailable(_) | ApiError::TimedOut(_) = self {
            return unavailable(axum::Json(body));
        }
        let mut response = (status, axum::Json(body)).into_response();
        if let ApiError::RateLimited {
            retry_after_secs, ..
        } = self
        {
            response
                .headers_mut()
                .insert("retry-after", HeaderValue::from(retry_after_secs));
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound(kind) => ApiError::no_such(kind),
            StoreError::Forbidden(refusal) => {
                ApiError::Forbidden(crate::refusals::forbidden(refusal).to_owned())
            }
            StoreError::InUse(refusal) => ApiError::Conflict(crate::refusals::in_use(&refusal)),
            StoreError::Conflict(refusal) => ApiError::Conflict(crate::refusals::conflict(&refusal)),
            StoreError::Invalid(errors) => ApiError::fields(errors),
            e if e.is_unavailable() => ApiError::Unavailable(e.to_string()),
            e if e.is_foreign_key_violation() => ApiError::Conflict(
                "The record is still referred to by other records (it changed while this request ran); retry after checking them.".into(),
            ),
            other => ApiError::Internal(other.to_string()),
        }
    }
}
