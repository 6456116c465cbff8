//! Settings: enable the API, generate or regenerate the token, revoke the label links,
//! see the plan, its limits and today's usage, set the time zone, invite staff.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use domain::RateLimitPolicy;
use store::companies;
use store::console::Session;
use store::staff::{self, NotInvited};

use super::pages::{SettingsPage, StaffInvitation, internal, page, redirect};
use super::session::{current, posted_session};
use crate::params::Params;
use crate::state::AppState;

/// Renders Settings for `session`, with a just-issued token or a message.
pub(super) async fn settings(
    state: &AppState,
    session: Session,
    new_token: Option<String>,
    notice: Option<String>,
    error: Option<String>,
) -> Response {
    shown(state, session, new_token, None, notice, error).await
}

/// Renders Settings with, besides, a staff invitation just made.
async fn shown(
    state: &AppState,
    session: Session,
    new_token: Option<String>,
    invitation: Option<StaffInvitation>,
    notice: Option<String>,
    error: Option<String>,
) -> Response {
    let company = match companies::find(state.db(), session.company.id).await {
        Ok(c) => c,
        Err(e) => return internal(e),
    };
    let has_token = match companies::has_token(state.db(), company.id).await {
        Ok(t) => t,
        Err(e) => return internal(e),
    };
    let used_today = match state.inner().usage.today(state.db(), company.id).await {
        Ok(n) => n,
        Err(e) => return internal(e),
    };
    let remaining = match company.rate_limit {
        RateLimitPolicy::Unlimited => "no limit".to_owned(),
        RateLimitPolicy::Limited {
            requests,
            window_secs: 86_400,
        } => (i64::from(requests) - used_today).max(0).to_string(),
        RateLimitPolicy::Limited { requests, .. } => {
            format!("{requests} in each window (fair use)")
        }
    };
    let template = SettingsPage {
        csrf: session.csrf_token,
        owner_email: session.owner_email,
        company_name: company.name.clone(),
        subdomain: company.subdomain.clone(),
        api_enabled: company.api_enabled,
        has_token: has_token || new_token.is_some(),
        new_token,
        plan: company.plan.as_str().to_owned(),
        limit: crate::auth::describe(company.rate_limit),
        used_today,
        remaining,
        zones: chrono_tz::TZ_VARIANTS
            .iter()
            .map(|z| (z.name(), *z == company.time_zone))
            .collect(),
        notice,
        error,
        invitation,
    };
    page(StatusCode::OK, template, vec![])
}

pub(super) async fn settings_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match current(&state, &headers).await {
        Ok(Some(session)) => settings(&state, session, None, None, None).await,
        Ok(None) => redirect("/login", vec![]),
        Err(r) => r,
    }
}

pub(super) async fn set_api(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(enabled) = params.get("enabled").and_then(domain::wire::parse_bool) else {
        return settings(
            &state,
            session,
            None,
            None,
            Some("Choose whether to enable or disable the API.".into()),
        )
        .await;
    };
    if let Err(e) =
        companies::set_api_enabled(state.db(), &session.company.subdomain, enabled).await
    {
        return internal(e);
    }
    state.inner().companies.forget_all();
    let notice = if enabled {
        "The API is enabled."
    } else {
        "The API is disabled; tokens now get 403."
    };
    settings(&state, session, None, Some(notice.into()), None).await
}

pub(super) async fn regenerate_token(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match companies::regenerate_token(state.db(), session.company.id).await {
        Ok(token) => {
            state.inner().companies.forget_all();
            settings(&state, session, Some(token.0), None, None).await
        }
        Err(e) => internal(e),
    }
}

/// Ends every open label link of the company (`/labels/<token>.pdf`) at once.
pub(super) async fn revoke_label_links(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match store::label_prints::expire_all(state.db(), session.company.id).await {
        Ok(n) => {
            let notice = match n {
                0 => "There were no open label links; none work now.".to_owned(),
                1 => "1 label link was revoked; it no longer works.".to_owned(),
                n => format!("{n} label links were revoked; none of them work any more."),
            };
            settings(&state, session, None, Some(notice), None).await
        }
        Err(e) => internal(e),
    }
}

pub(super) async fn set_time_zone(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(tz) = params
        .get("time_zone")
        .and_then(domain::subdomain::parse_time_zone)
    else {
        return settings(
            &state,
            session,
            None,
            None,
            Some("That is not a time zone name (e.g. Europe/Paris).".into()),
        )
        .await;
    };
    if let Err(e) = companies::set_time_zone(state.db(), &session.company.subdomain, tz).await {
        return internal(e);
    }
    state.inner().companies.forget_all();
    settings(
        &state,
        session,
        None,
        Some(format!("Time zone set to {}.", tz.name())),
        None,
    )
    .await
}

/// Makes a staff invitation link for the member with the posted e-mail, shown to be
/// copied (the server may have no mail).
pub(super) async fn invite_staff(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let email = params.get("email").unwrap_or_default().trim().to_owned();
    let refused = |words: String| settings(&state, session.clone(), None, None, Some(words));
    if email.is_empty() {
        return refused("Type the e-mail of the member to invite.".into()).await;
    }
    match staff::invite(state.db(), session.company.id, &email).await {
        Ok(Ok(made)) => {
            let tz = session.company.time_zone;
            let invitation = StaffInvitation {
                link: format!(
                    "{}/staff/invitations/{}",
                    crate::resources::labels::base_url(&state, &headers),
                    made.token
                ),
                email: made.email,
                expires: made
                    .expires_at
                    .with_timezone(&tz)
                    .format("%Y-%m-%d %H:%M")
                    .to_string(),
            };
            let (notice, error) = match &state.config().mail {
                None => (None, None),
                Some(mailer) => {
                    let body = invitation_mail(&session.company.name, &invitation);
                    let subject = format!("Your log-in to {}'s staff pages", session.company.name);
                    match mailer.send(&invitation.email, &subject, body).await {
                        Ok(()) => (Some(format!("The link was sent to {} by e-mail.", invitation.email)), None),
                        Err(why) => {
                            // Never the link: it is a password until used.
                            tracing::warn!(error = %why, "console: could not send a staff invitation");
                            (None, Some(format!("The e-mail could not be sent ({why}); hand the link over yourself.")))
                        }
                    }
                }
            };
            shown(&state, session, None, Some(invitation), notice, error).await
        }
        Ok(Err(NotInvited::Owner)) => {
            refused("That is your own e-mail: you log in to the staff pages with this console's password.".into()).await
        }
        Ok(Err(NotInvited::Inactive)) => {
            refused(format!("The member {email} is deactivated; activate them first (PUT /members/<id>/activate.api).")).await
        }
        Err(store::StoreError::NotFound(_)) => {
            refused(format!("No member of this company has the e-mail {email}; add them first (POST /members.api).")).await
        }
        Err(e) => internal(e),
    }
}

/// The e-mail that carries an invitation link.
fn invitation_mail(company: &str, invitation: &StaffInvitation) -> String {
    format!(
        "Hello,\n\n{company} invites you to its rentrack staff pages, where you find, scan, check out and check in the equipment.\n\nSet your password here (the link works once, until {}):\n\n{}\n\nThen log in with this e-mail address, {}.\n",
        invitation.expires, invitation.link, invitation.email
    )
}
