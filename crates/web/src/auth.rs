//! Who is calling: the token (header `token`, `Authorization: Bearer`, or the `token`
//! query parameter, in that order), the Host rule, the API switch, then the rate
//! limit. Handlers receive the company through the `Tenant` extractor.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use domain::rate_limit::Decision;
use store::companies::Company;

use crate::error::ApiError;
use crate::state::AppState;

/// The authenticated company of this request.
#[derive(Clone)]
pub struct Tenant(pub Company);

impl<S: Send + Sync> FromRequestParts<S> for Tenant {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<Tenant>().cloned().ok_or_else(|| {
            ApiError::Unauthorized("Send your company token in the `token` header.".into())
        })
    }
}

/// Marks a response with the company it was for, for the request log.
#[derive(Clone, Copy)]
pub struct ServedCompany(pub i64);

/// The token of an `Authorization: Bearer <token>` header (the scheme's case aside).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let auth = headers.get("authorization")?.to_str().ok()?;
    let (scheme, token) = auth.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

fn token_from(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    if let Some(t) = headers
        .get("token")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        return Some(t.to_owned());
    }
    if let Some(t) = bearer(headers) {
        return Some(t.to_owned());
    }
    query.and_then(|q| {
        form_urlencoded::parse(q.as_bytes())
            .find(|(k, v)| k == "token" && !v.trim().is_empty())
            .map(|(_, v)| v.trim().to_owned())
    })
}

/// A host name as DNS compares it: ASCII case aside, and with the one trailing dot of
/// a fully qualified name (`acme.RENTRACK.test.`) removed.
fn dns_name(host: &str) -> String {
    host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase()
}

/// The subdomain the Host names under the configured base domain, if any, lower-case:
/// `acme.rentrack.test`, `ACME.rentrack.test:8443` and `acme.rentrack.test.` all name
/// `acme`.
fn host_subdomain(headers: &HeaderMap, base_domain: &str) -> Option<String> {
    let host = headers.get("host")?.to_str().ok()?;
    let host = host
        .rsplit_once(':')
        .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
        .map_or(host, |(h, _)| h);
    let (host, base) = (dns_name(host), dns_name(base_domain));
    let sub = host.strip_suffix(&base)?.strip_suffix('.')?;
    (!sub.is_empty()).then(|| sub.to_owned())
}

pub async fn authenticate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    match admit(&state, &mut req).await {
        Ok(decision) => {
            let company = req.extensions().get::<Tenant>().map(|t| t.0.id.get());
            let mut response = next.run(req).await;
            if let Some(id) = company {
                response.extensions_mut().insert(ServedCompany(id));
            }
            if let Some(Decision::Allowed { limit, remaining }) = decision {
                let h = response.headers_mut();
                h.insert("x-rate-limit", HeaderValue::from(limit));
                h.insert("x-rate-limit-remaining", HeaderValue::from(remaining));
            }
            response
        }
        Err((error, company)) => {
            let limited = matches!(error, ApiError::RateLimited { .. });
            let mut response = error.into_response();
            if let Some(c) = company {
                response.extensions_mut().insert(ServedCompany(c.id.get()));
                if limited {
                    state.inner().metrics.rate_limited();
                    let h = response.headers_mut();
                    if let domain::RateLimitPolicy::Limited { requests, .. } = c.rate_limit {
                        h.insert("x-rate-limit", HeaderValue::from(requests));
                    }
                    h.insert("x-rate-limit-remaining", HeaderValue::from(0u32));
                }
            }
            response
        }
    }
}

async fn admit(
    state: &AppState,
    req: &mut Request,
) -> Result<Option<Decision>, (ApiError, Option<Company>)> {
    let token = token_from(req.headers(), req.uri().query()).ok_or_else(|| {
        (
            ApiError::Unauthorized("Send your company token in the `token` header.".into()),
            None,
        )
    })?;
    let company = state
        .inner()
        .companies
        .company(state.db(), &token)
        .await
        .map_err(|e| (ApiError::from(e), None))?
        .ok_or_else(|| {
            (ApiError::Unauthorized("The token is not valid. Generate a new one in Settings and send it in the `token` header.".into()), None)
        })?;
    if let Some(base) = &state.inner().config.base_domain
        && let Some(sub) = host_subdomain(req.headers(), base)
        && sub != company.subdomain
    {
        return Err((
            ApiError::Unauthorized(
                "The token does not belong to the company of this address.".into(),
            ),
            None,
        ));
    }
    if !company.api_enabled {
        return Err((
            ApiError::Forbidden("The API is disabled for this company. The account owner can enable it in Settings.".into()),
            Some(company),
        ));
    }
    let decision = state
        .inner()
        .limiter
        .check(state.db(), company.id, company.rate_limit)
        .await
        .map_err(|e| (ApiError::from(e), Some(company.clone())))?;
    if let Decision::Refused {
        retry_after_secs, ..
    } = decision
    {
        let error = ApiError::RateLimited {
            message: format!(
                "Rate limit exceeded: the {} plan allows {} requests. Retry after {retry_after_secs} seconds; an earlier retry restarts the wait.",
                company.plan,
                describe(company.rate_limit)
            ),
            retry_after_secs,
        };
        return Err((error, Some(company)));
    }
    state.inner().usage.record(state.db(), company.id);
    req.extensions_mut().insert(Tenant(company));
    Ok(Some(decision))
}

pub fn describe(policy: domain::RateLimitPolicy) -> String {
    match policy {
        domain::RateLimitPolicy::Unlimited => "unlimited".into(),
        domain::RateLimitPolicy::Limited {
            requests,
            window_secs: 86_400,
        } => format!("{requests} per day"),
        domain::RateLimitPolicy::Limited {
            requests,
            window_secs: 3_600,
        } => format!("{requests} per hour"),
        domain::RateLimitPolicy::Limited {
            requests,
            window_secs: 60,
        } => format!("{requests} per minute"),
        domain::RateLimitPolicy::Limited {
            requests,
            window_secs,
        } => format!("{requests} per {window_secs} seconds"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_precedence() {
        let mut h = HeaderMap::new();
        h.insert("authorization", HeaderValue::from_static("Bearer b"));
        assert_eq!(token_from(&h, Some("token=q")), Some("b".into()));
        h.insert("token", HeaderValue::from_static("t"));
        assert_eq!(token_from(&h, Some("token=q")), Some("t".into()));
        assert_eq!(
            token_from(&HeaderMap::new(), Some("page=1&token=q")),
            Some("q".into())
        );
    }

    #[test]
    fn host_rule() {
        let mut h = HeaderMap::new();
        h.insert("host", HeaderValue::from_static("acme.rentrack.test:8443"));
        assert_eq!(host_subdomain(&h, "rentrack.test"), Some("acme".into()));
        h.insert("host", HeaderValue::from_static("rentrack.test"));
        assert_eq!(host_subdomain(&h, "rentrack.test"), None);
        h.insert("host", HeaderValue::from_static("127.0.0.1:3000"));
        assert_eq!(host_subdomain(&h, "rentrack.test"), None);
        // Case and the trailing dot of a fully qualified name do not matter, on
        // either side.
        for host in [
            "acme.rentrack.test.",
            "acme.RENTRACK.test",
            "ACME.rentrack.TEST.:8443",
            "Acme.Rentrack.Test.",
        ] {
            h.insert("host", HeaderValue::from_static(host));
            assert_eq!(
                host_subdomain(&h, "rentrack.test"),
                Some("acme".into()),
                "{host}"
            );
            assert_eq!(
                host_subdomain(&h, "RentRack.test."),
                Some("acme".into()),
                "{host}"
            );
        }
        h.insert("host", HeaderValue::from_static("rentrack.test."));
        assert_eq!(host_subdomain(&h, "rentrack.test"), None);
        h.insert("host", HeaderValue::from_static("xacme.rentrack.testx"));
        assert_eq!(host_subdomain(&h, "rentrack.test"), None);
    }
}
