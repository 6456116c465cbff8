//! The owner console pages, driven like a browser without JavaScript: a cookie jar,
//! forms posted with their CSRF token.

use crate::browser::{Browser, PASSWORD, Page, unique};
use crate::common::{Kind, TestApp};
use axum::http::{Method, StatusCode};

both!(
    sign_up_creates_the_company_its_owner_and_a_session,
    sign_up_validates_every_field_and_creates_nothing_when_refused,
    forms_without_the_right_csrf_token_or_from_another_site_are_refused,
    wrong_password_and_unknown_account_get_the_same_answer,
    log_in_and_log_out,
    failed_log_ins_are_throttled_per_account_and_per_address,
    settings_switch_the_api_issue_tokens_and_show_usage,
    sessions_live_in_the_database_for_every_instance,
    parallel_wrong_passwords_are_checked_at_most_the_limit,
    forwarded_addresses_count_only_from_trusted_proxies,
    sign_ups_are_throttled_per_address,
    a_new_password_ends_the_owner_sessions,
    expired_sessions_and_stale_attempts_are_purged,
    passwords_are_trimmed_when_set_and_when_offered,
    settings_revoke_every_label_link,
);

async fn sign_up_creates_the_company_its_owner_and_a_session(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut browser = Browser::new(&app);
    let sub = unique("acme");
    let page = browser.sign_up(&sub, "Boss@Acme.test").await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
    assert_eq!(page.location.as_deref(), Some("/settings"));
    let session = browser
        .set_cookie_lines
        .iter()
        .find(|l| l.starts_with("rentrack_session="))
        .expect("a session cookie");
    for attribute in ["HttpOnly", "Secure", "SameSite=Lax", "Path=/"] {
        assert!(
            session.contains(attribute),
            "{attribute} missing from {session}"
        );
    }
    let csrf_cookie = browser
        .set_cookie_lines
        .iter()
        .find(|l| l.starts_with("rentrack_csrf="))
        .expect("a csrf cookie");
    assert!(
        csrf_cookie.contains("HttpOnly") && csrf_cookie.contains("SameSite=Strict"),
        "{csrf_cookie}"
    );

    let settings = browser.get("/settings").await;
    assert_eq!(settings.status, StatusCode::OK);
    assert!(settings.html.contains("Acme Rentals") && settings.html.contains(&sub));
    assert_eq!(
        settings.text_of("api-status"),
        "disabled",
        "the API is disabled by default"
    );
    assert_eq!(settings.text_of("plan-name"), "trial");
    assert_eq!(settings.text_of("plan-limit"), "1000 per day");
    assert_eq!(settings.text_of("usage-today"), "0");
    assert_eq!(settings.text_of("usage-remaining"), "1000");
    assert!(settings.html.contains("Generate token") && settings.value_of("new-token").is_none());
    assert!(
        settings.html.contains("boss@acme.test"),
        "the owner's e-mail is kept lower-case"
    );
    for header in ["cache-control"] {
        let res = app.anonymous(Method::GET, "/login").send().await;
        assert_eq!(res.header(header), Some("no-store"));
        assert!(
            res.header("content-security-policy")
                .unwrap()
                .contains("frame-ancestors 'none'")
        );
    }
    assert_eq!(
        browser.get("/").await.location.as_deref(),
        Some("/settings")
    );
    let mut stranger = Browser::new(&app);
    assert_eq!(
        stranger.get("/settings").await.location.as_deref(),
        Some("/login"),
        "no session: to the log-in page"
    );
    assert_eq!(stranger.get("/").await.location.as_deref(), Some("/login"));
}

async fn sign_up_validates_every_field_and_creates_nothing_when_refused(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut browser = Browser::new(&app);
    let taken = app.company.subdomain.clone();
    for (fields, message) in [
        (
            [
                ("company_name", ""),
                ("subdomain", "fresh-co"),
                ("email", "a@b.test"),
                ("password", PASSWORD),
            ],
            "Company name can&#39;t be blank",
        ),
        (
            [
                ("company_name", "Fresh"),
                ("subdomain", "Fresh Co"),
                ("email", "a@b.test"),
                ("password", PASSWORD),
            ],
            "Subdomain",
        ),
        (
            [
                ("company_name", "Fresh"),
                ("subdomain", "-fresh"),
                ("email", "a@b.test"),
                ("password", PASSWORD),
            ],
            "Subdomain",
        ),
        (
            [
                ("company_name", "Fresh"),
                ("subdomain", taken.as_str()),
                ("email", "a@b.test"),
                ("password", PASSWORD),
            ],
            "has already been taken",
        ),
        (
            [
                ("company_name", "Fresh"),
                ("subdomain", "fresh-co"),
                ("email", "not-an-email"),
                ("password", PASSWORD),
            ],
            "E-mail is not an e-mail address",
        ),
        (
            [
                ("company_name", "Fresh"),
                ("subdomain", "fresh-co"),
                ("email", "a@b.test"),
                ("password", "short"),
            ],
            "Password is too short",
        ),
    ] {
        let page = browser.submit("/signup", "/signup", &fields).await;
        assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY, "{fields:?}");
        assert!(
            page.html.contains(message),
            "{message:?} missing for {fields:?}: {}",
            page.html
        );
        assert!(
            !page.html.contains(PASSWORD),
            "the password is never echoed back"
        );
    }
    let page = browser.log_in("fresh-co", "a@b.test", PASSWORD).await;
    assert_eq!(
        page.status,
        StatusCode::UNAUTHORIZED,
        "no company was created"
    );
}

async fn forms_without_the_right_csrf_token_or_from_another_site_are_refused(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut browser = Browser::new(&app);
    let sub = unique("csrf");
    browser.get("/signup").await;
    let fields = [
        ("company_name", "Acme"),
        ("subdomain", sub.as_str()),
        ("email", "boss@acme.test"),
        ("password", PASSWORD),
    ];
    assert_eq!(
        browser.post("/signup", &fields).await.status,
        StatusCode::FORBIDDEN,
        "no token"
    );
    let mut forged = fields.to_vec();
    forged.push(("csrf_token", "forged"));
    assert_eq!(
        browser.post("/signup", &forged).await.status,
        StatusCode::FORBIDDEN,
        "a token that is not the cookie's"
    );
    let mut cookieless = Browser::new(&app);
    let csrf = browser.get("/signup").await.csrf();
    let mut with_token = fields.to_vec();
    with_token.push(("csrf_token", &csrf));
    assert_eq!(
        cookieless.post("/signup", &with_token).await.status,
        StatusCode::FORBIDDEN,
        "a token without its cookie"
    );
    let other_site = browser
        .request(
            Method::POST,
            "/signup",
            Some(&with_token),
            &[("origin", "https://evil.example"), ("host", "localhost")],
        )
        .await;
    assert_eq!(
        other_site.status,
        StatusCode::FORBIDDEN,
        "a form posted from another site"
    );
    assert_eq!(
        browser
            .log_in(&sub, "boss@acme.test", PASSWORD)
            .await
            .status,
        StatusCode::UNAUTHORIZED,
        "none of those created anything"
    );

    assert_eq!(
        browser.sign_up(&sub, "boss@acme.test").await.status,
        StatusCode::SEE_OTHER
    );
    let before = browser.get("/settings").await;
    for action in [
        "/settings/api",
        "/settings/token",
        "/settings/time_zone",
        "/settings/label_links",
        "/logout",
    ] {
        let page = browser
            .post(
                action,
                &[
                    ("csrf_token", "forged"),
                    ("enabled", "true"),
                    ("time_zone", "Asia/Tokyo"),
                ],
            )
            .await;
        assert_eq!(page.status, StatusCode::FORBIDDEN, "{action}");
    }
    let after = browser.get("/settings").await;
    assert_eq!(after.text_of("api-status"), before.text_of("api-status"));
    assert!(after.html.contains("Generate token"), "no token was issued");
    assert!(
        after.html.contains("<option value=\"UTC\" selected>"),
        "the time zone is unchanged"
    );
}

async fn wrong_password_and_unknown_account_get_the_same_answer(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut browser = Browser::new(&app);
    let sub = unique("same");
    browser.sign_up(&sub, "boss@acme.test").await;
    let mut other = Browser::new(&app);
    let wrong_password = other
        .log_in(&sub, "boss@acme.test", "not-the-password")
        .await;
    let unknown_email = other.log_in(&sub, "nobody@acme.test", PASSWORD).await;
    let unknown_company = other
        .log_in("no-such-company", "boss@acme.test", PASSWORD)
        .await;
    for page in [&wrong_password, &unknown_email, &unknown_company] {
        assert_eq!(page.status, StatusCode::UNAUTHORIZED);
        assert!(
            page.html
                .contains("The company, e-mail or password is not right."),
            "{}",
            page.html
        );
    }
    let strip = |p: &Page| {
        p.html
            .replace("nobody@acme.test", "boss@acme.test")
            .replace("no-such-company", &sub)
    };
    assert_eq!(
        strip(&wrong_password),
        strip(&unknown_email),
        "the pages differ only in what was typed"
    );
    assert_eq!(strip(&wrong_password), strip(&unknown_company));
    assert!(!other.cookies.contains_key("rentrack_session"));
    // A member of the company (not its owner) cannot log in to the console.
    app.member("Staff", "Person", "staff@acme.test", &[]).await;
    assert_eq!(
        other
            .log_in(&app.company.subdomain, "staff@acme.test", PASSWORD)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

async fn log_in_and_log_out(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut first = Browser::new(&app);
    let sub = unique("login");
    first.sign_up(&sub, "boss@acme.test").await;
    let mut browser = Browser::new(&app);
    let page = browser
        .log_in(&sub.to_uppercase(), "BOSS@acme.test", PASSWORD)
        .await;
    assert_eq!(
        page.status,
        StatusCode::SEE_OTHER,
        "subdomain and e-mail are matched case aside: {}",
        page.html
    );
    assert_eq!(browser.get("/settings").await.status, StatusCode::OK);
    let old_cookie = browser.cookies.get("rentrack_session").cloned().unwrap();

    let settings = browser.get("/settings").await;
    let out = browser
        .post("/logout", &[("csrf_token", &settings.csrf())])
        .await;
    assert_eq!(out.location.as_deref(), Some("/login?signed_out=1"));
    assert!(
        !browser.cookies.contains_key("rentrack_session"),
        "the cookie is cleared"
    );
    assert!(
        browser
            .get("/login?signed_out=1")
            .await
            .html
            .contains("You are logged out.")
    );
    assert_eq!(
        browser.get("/settings").await.location.as_deref(),
        Some("/login")
    );
    // The old cookie no longer works either: the session is gone from the database.
    browser
        .cookies
        .insert("rentrack_session".into(), old_cookie);
    assert_eq!(
        browser.get("/settings").await.location.as_deref(),
        Some("/login")
    );
    // The first browser's session is its own and still works.
    assert_eq!(first.get("/settings").await.status, StatusCode::OK);
}

async fn failed_log_ins_are_throttled_per_account_and_per_address(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut browser = Browser::new(&app);
    let sub = unique("throttle");
    browser.sign_up(&sub, "boss@acme.test").await;
    let second = unique("second");
    Browser::new(&app)
        .sign_up(&second, "owner@second.test")
        .await;
    let mut attacker = Browser::new(&app);
    for _ in 0..5 {
        assert_eq!(
            attacker
                .log_in(&sub, "boss@acme.test", "guess-guess-guess")
                .await
                .status,
            StatusCode::UNAUTHORIZED
        );
    }
    let blocked = attacker.log_in(&sub, "boss@acme.test", PASSWORD).await;
    assert_eq!(
        blocked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "even the right password waits once the account is throttled"
    );
    assert!(
        blocked
            .html
            .contains("Too many failed log-ins. Try again in 15 minutes."),
        "{}",
        blocked.html
    );
    assert!(!attacker.cookies.contains_key("rentrack_session"));
    // An unknown account is throttled the same way, so throttling reveals nothing.
    for _ in 0..5 {
        attacker
            .log_in(&sub, "ghost@acme.test", "guess-guess-guess")
            .await;
    }
    assert_eq!(
        attacker
            .log_in(&sub, "ghost@acme.test", "guess")
            .await
            .status,
        StatusCode::TOO_MANY_REQUESTS
    );
    // The address has used 10 of its 20 failures; 10 more on other accounts exhaust it.
    for i in 0..10 {
        let email = format!("user{i}@acme.test");
        assert_eq!(
            attacker
                .log_in(&sub, &email, "guess-guess-guess")
                .await
                .status,
            StatusCode::UNAUTHORIZED
        );
    }
    let page = attacker
        .log_in(&second, "owner@second.test", PASSWORD)
        .await;
    assert_eq!(
        page.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the address is throttled for every account"
    );
}

async fn settings_switch_the_api_issue_tokens_and_show_usage(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut browser = Browser::new(&app);
    let sub = unique("settings");
    browser.sign_up(&sub, "boss@acme.test").await;

    let page = browser.settings_action("/settings/token", &[]).await;
    assert_eq!(page.status, StatusCode::OK);
    let first = page
        .value_of("new-token")
        .expect("the new token is shown once");
    assert!(page.html.contains("shown only this once"));
    assert!(page.html.contains("Regenerate token"));
    let again = browser.get("/settings").await;
    assert!(
        again.value_of("new-token").is_none() && !again.html.contains(&first),
        "never shown again"
    );

    let api = |token: &str| {
        let token = token.to_owned();
        let app = &app;
        async move {
            app.anonymous(Method::GET, "/assets/vendors.api")
                .header("token", &token)
                .send()
                .await
                .status
        }
    };
    assert_eq!(
        api(&first).await,
        StatusCode::FORBIDDEN,
        "the API is still disabled"
    );
    let page = browser
        .settings_action("/settings/api", &[("enabled", "true")])
        .await;
    assert_eq!(page.text_of("api-status"), "enabled");
    for _ in 0..3 {
        assert_eq!(api(&first).await, StatusCode::OK);
    }
    let page = browser.get("/settings").await;
    assert_eq!(
        page.text_of("usage-today"),
        "3",
        "the three requests served today"
    );
    assert_eq!(page.text_of("usage-remaining"), "997");

    let page = browser.settings_action("/settings/token", &[]).await;
    let second = page.value_of("new-token").unwrap();
    assert_ne!(first, second);
    assert_eq!(
        api(&first).await,
        StatusCode::UNAUTHORIZED,
        "the old token stops working at once"
    );
    assert_eq!(api(&second).await, StatusCode::OK);

    let page = browser
        .settings_action("/settings/time_zone", &[("time_zone", "Asia/Tokyo")])
        .await;
    assert!(
        page.html.contains("<option value=\"Asia/Tokyo\" selected>"),
        "the zone is saved"
    );
    let settings = app
        .anonymous(Method::GET, "/company_settings.api")
        .header("token", &second)
        .send()
        .await;
    assert_eq!(settings.body["company_settings"]["time_zone"], "Asia/Tokyo");
    let page = browser
        .settings_action("/settings/time_zone", &[("time_zone", "Mars/Base")])
        .await;
    assert!(page.html.contains("not a time zone"), "{}", page.html);
    let page = browser
        .settings_action("/settings/api", &[("enabled", "maybe")])
        .await;
    assert!(page.html.contains("Choose whether"));

    browser
        .settings_action("/settings/api", &[("enabled", "false")])
        .await;
    assert_eq!(api(&second).await, StatusCode::FORBIDDEN, "disabled again");
    assert!(
        browser
            .get("/settings")
            .await
            .html
            .contains("Enable the API")
    );
}

async fn sessions_live_in_the_database_for_every_instance(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other_instance = TestApp::builder(kind).beside(&app).build().await;
    let mut browser = Browser::new(&app);
    let sub = unique("shared");
    browser.sign_up(&sub, "boss@acme.test").await;
    let cookies = browser.cookies.clone();
    let mut elsewhere = Browser::new(&other_instance);
    elsewhere.cookies = cookies;
    let page = elsewhere.get("/settings").await;
    assert_eq!(
        page.status,
        StatusCode::OK,
        "another instance on the same database serves the session"
    );
    assert!(page.html.contains(&sub));
}

/// A log-in post with a fixed double-submit CSRF token, from `peer` with `forwarded` as
/// its X-Forwarded-For (when given).
async fn raw_log_in(
    app: &TestApp,
    sub: &str,
    email: &str,
    password: &str,
    peer: &str,
    forwarded: Option<&str>,
) -> StatusCode {
    let mut req = app
        .anonymous(Method::POST, "/login")
        .header("cookie", "rentrack_csrf=fixed")
        .peer(peer)
        .form(&[
            ("csrf_token", "fixed"),
            ("subdomain", sub),
            ("email", email),
            ("password", password),
        ]);
    if let Some(f) = forwarded {
        req = req.header("x-forwarded-for", f);
    }
    req.send().await.status
}

async fn parallel_wrong_passwords_are_checked_at_most_the_limit(kind: Kind) {
    let app = TestApp::new(kind).await;
    let sub = unique("race");
    Browser::new(&app).sign_up(&sub, "boss@acme.test").await;
    let guesses = (0..50).map(|i| {
        let (app, sub) = (&app, &sub);
        async move {
            raw_log_in(
                app,
                sub,
                "boss@acme.test",
                &format!("guess-{i:04}-guess"),
                "192.0.2.1:5000",
                None,
            )
            .await
        }
    });
    let statuses = futures_util::future::join_all(guesses).await;
    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(checked + refused, 50, "{statuses:?}");
    assert!(
        checked <= 5,
        "{checked} guesses were checked against a limit of 5"
    );
    assert!(checked >= 1, "{statuses:?}");
    // Checks refused by the address's count are given back, so the race may have used
    // fewer than 5; the account's failures are exactly the checks made: 5 in all.
    let mut more = 0;
    while raw_log_in(
        &app,
        &sub,
        "boss@acme.test",
        "one-more-guess",
        "192.0.2.1:5000",
        None,
    )
    .await
        == StatusCode::UNAUTHORIZED
    {
        more += 1;
        assert!(more <= 5, "guesses never stop being checked");
    }
    assert_eq!(
        checked + more,
        5,
        "{checked} checked in the race, {more} after"
    );
    // Once the window's failures are used up, the right password waits too.
    let right = raw_log_in(
        &app,
        &sub,
        "boss@acme.test",
        PASSWORD,
        "192.0.2.1:5000",
        None,
    )
    .await;
    assert_eq!(right, StatusCode::TOO_MANY_REQUESTS);
}

async fn forwarded_addresses_count_only_from_trusted_proxies(kind: Kind) {
    let config = web::Config {
        trusted_proxies: web::client_addr::TrustedProxies(vec!["10.0.0.0/8".parse().unwrap()]),
        ..Default::default()
    };
    let app = TestApp::builder(kind).config(config).build().await;
    let sub = unique("proxy");
    Browser::new(&app).sign_up(&sub, "boss@acme.test").await;
    // Through the trusted proxy, each guess names a new address on the left (written by
    // the client, not believed); the rightmost untrusted one is the client.
    for i in 0..20 {
        let forwarded = format!("203.0.113.{i}, 198.51.100.7");
        let status = raw_log_in(
            &app,
            &sub,
            &format!("u{i}@acme.test"),
            "wrong-password",
            "10.1.1.1:4000",
            Some(&forwarded),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let status = raw_log_in(
        &app,
        &sub,
        "boss@acme.test",
        PASSWORD,
        "10.1.1.1:4000",
        Some("203.0.113.99, 198.51.100.7"),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "198.51.100.7 has used its 20 failures"
    );
    let status = raw_log_in(
        &app,
        &sub,
        "boss@acme.test",
        PASSWORD,
        "10.1.1.1:4000",
        Some("198.51.100.8"),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::SEE_OTHER,
        "another client behind the same proxy logs in"
    );
    // A peer that is not a trusted proxy is its own address, whatever it forwards;
    // loopback is not trusted unless named.
    for i in 0..20 {
        let status = raw_log_in(
            &app,
            &sub,
            &format!("v{i}@acme.test"),
            "wrong-password",
            "127.0.0.1:4000",
            Some(&format!("192.0.2.{i}")),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let status = raw_log_in(
        &app,
        &sub,
        "boss@acme.test",
        PASSWORD,
        "127.0.0.1:4000",
        Some("192.0.2.200"),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

async fn sign_ups_are_throttled_per_address(kind: Kind) {
    let app = TestApp::new(kind).await;
    let sign_up = |sub: String, peer: &'static str| {
        let app = &app;
        async move {
            app.anonymous(Method::POST, "/signup")
                .header("cookie", "rentrack_csrf=fixed")
                .peer(peer)
                .form(&[
                    ("csrf_token", "fixed"),
                    ("company_name", "Acme"),
                    ("subdomain", &sub),
                    ("email", "boss@acme.test"),
                    ("password", PASSWORD),
                ])
                .send()
                .await
        }
    };
    let base = unique("many");
    for i in 0..10 {
        let res = sign_up(format!("{base}x{i}"), "192.0.2.10:1000").await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.text);
    }
    let res = sign_up(format!("{base}x10"), "192.0.2.10:1000").await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        res.text.contains("Too many sign-ups from your address"),
        "{}",
        res.text
    );
    assert!(
        store::companies::find_by_subdomain(&app.db, &format!("{base}x10"))
            .await
            .is_err(),
        "the refused sign-up created nothing"
    );
    let res = sign_up(format!("{base}y"), "192.0.2.11:1000").await;
    assert_eq!(
        res.status,
        StatusCode::SEE_OTHER,
        "another address signs up"
    );
}

async fn a_new_password_ends_the_owner_sessions(kind: Kind) {
    let app = TestApp::new(kind).await;
    let sub = unique("reset");
    let mut browser = Browser::new(&app);
    browser.sign_up(&sub, "boss@acme.test").await;
    assert_eq!(browser.get("/settings").await.status, StatusCode::OK);
    let company = store::companies::find_by_subdomain(&app.db, &sub)
        .await
        .unwrap();
    store::companies::set_owner_password(
        &app.db,
        company.id,
        "boss@acme.test",
        "a brand new password",
    )
    .await
    .unwrap();
    let page = browser.get("/settings").await;
    assert_eq!(
        page.status,
        StatusCode::SEE_OTHER,
        "the old session is over"
    );
    assert_eq!(page.location.as_deref(), Some("/login"));
    let mut again = Browser::new(&app);
    assert_eq!(
        again
            .log_in(&sub, "boss@acme.test", "a brand new password")
            .await
            .status,
        StatusCode::SEE_OTHER
    );
}

async fn expired_sessions_and_stale_attempts_are_purged(kind: Kind) {
    let app = TestApp::new(kind).await;
    let sub = unique("purge");
    let mut live = Browser::new(&app);
    live.sign_up(&sub, "boss@acme.test").await;
    let mut expiring = Browser::new(&app);
    expiring.log_in(&sub, "boss@acme.test", PASSWORD).await;
    raw_log_in(
        &app,
        &sub,
        "boss@acme.test",
        "wrong-password",
        "192.0.2.50:1",
        None,
    )
    .await;
    let run = |text: &'static str| store::Sql {
        text,
        values: sea_query::Values(vec![]),
    };
    // One session has expired; the throttle rows of a long-gone window are stale.
    let expiring_token = expiring.cookies["rentrack_session"].clone();
    let expired = store::Sql {
        text: "UPDATE sessions SET expires_at = $1 WHERE token_hash = $2",
        values: sea_query::Values(vec![
            (chrono::Utc::now() - chrono::Duration::minutes(1)).into(),
            store::companies::hash_token(&expiring_token).into(),
        ]),
    };
    assert_eq!(app.db.read().execute(&expired).await.unwrap(), 1);
    app.db
        .read()
        .execute(&run(
            "UPDATE login_attempts SET window_start = window_start - 200000",
        ))
        .await
        .unwrap();
    let count = |table: &'static str| {
        let db = app.db.clone();
        async move {
            let text: &'static str =
                Box::leak(format!("SELECT count(*) FROM {table}").into_boxed_str());
            db.read()
                .one::<(i64,)>(&store::Sql {
                    text,
                    values: sea_query::Values(vec![]),
                })
                .await
                .unwrap()
                .0
        }
    };
    assert_eq!(count("sessions").await, 2);
    let attempts = count("login_attempts").await;
    assert!(attempts >= 1);
    let (sessions, purged) = store::console::purge_expired(&app.db).await.unwrap();
    assert_eq!((sessions, purged as i64), (1, attempts));
    assert_eq!(count("sessions").await, 1);
    assert_eq!(count("login_attempts").await, 0);
    assert_eq!(
        live.get("/settings").await.status,
        StatusCode::OK,
        "the live session stays"
    );
}

async fn passwords_are_trimmed_when_set_and_when_offered(kind: Kind) {
    let app = TestApp::new(kind).await;
    let sub = unique("trim");
    let mut browser = Browser::new(&app);
    let page = browser
        .submit(
            "/signup",
            "/signup",
            &[
                ("company_name", "Acme"),
                ("subdomain", &sub),
                ("email", "boss@acme.test"),
                ("password", "  spaced password  "),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
    let mut other = Browser::new(&app);
    assert_eq!(
        other
            .log_in(&sub, "boss@acme.test", "spaced password")
            .await
            .status,
        StatusCode::SEE_OTHER
    );
    // Set from the command line's rule: the same trimming.
    let company = store::companies::find_by_subdomain(&app.db, &sub)
        .await
        .unwrap();
    let password = domain::password::owner_password("  line from stdin \n").unwrap();
    store::companies::set_owner_password(&app.db, company.id, "boss@acme.test", password)
        .await
        .unwrap();
    let mut third = Browser::new(&app);
    assert_eq!(
        third
            .log_in(&sub, "boss@acme.test", " line from stdin ")
            .await
            .status,
        StatusCode::SEE_OTHER
    );
    // Too short once trimmed.
    let page = Browser::new(&app)
        .submit(
            "/signup",
            "/signup",
            &[
                ("company_name", "Acme"),
                ("subdomain", &unique("short")),
                ("email", "b@acme.test"),
                ("password", "   short    "),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.html.contains("Password is too short"), "{}", page.html);
}

async fn settings_revoke_every_label_link(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut browser = Browser::new(&app);
    let sub = unique("labels");
    browser.sign_up(&sub, "boss@acme.test").await;
    browser
        .settings_action("/settings/api", &[("enabled", "true")])
        .await;
    let token = browser
        .settings_action("/settings/token", &[])
        .await
        .value_of("new-token")
        .unwrap();
    let api = |path: &'static str, form: Vec<(&'static str, String)>| {
        let (app, token) = (&app, token.clone());
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            app.anonymous(Method::POST, path)
                .header("token", &token)
                .form(&form)
                .send()
                .await
        }
    };
    let location = api(
        "/locations.api",
        vec![("location[name]", "Main store".into())],
    )
    .await
    .into_body(StatusCode::OK)["location"]["id"]
        .to_string();
    let mut links = Vec::new();
    for _ in 0..2 {
        let answer = api(
            "/qrcode/locations.api",
            vec![("location_id", location.clone())],
        )
        .await
        .into_body(StatusCode::OK);
        let url = answer["url"].as_str().unwrap();
        links.push(url.strip_prefix("http://localhost").unwrap().to_owned());
    }
    for link in &links {
        assert_eq!(
            app.anonymous(Method::GET, link).send().await.status,
            StatusCode::OK
        );
    }
    let settings = browser.get("/settings").await;
    assert!(settings.html.contains("Revoke all label links"));
    let page = browser.settings_action("/settings/label_links", &[]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.html.contains("2 label links were revoked"),
        "{}",
        page.html
    );
    for link in &links {
        let res = app.anonymous(Method::GET, link).send().await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text);
        assert!(
            res.body["message"].is_string(),
            "a JSON error: {}",
            res.text
        );
    }
    let page = browser.settings_action("/settings/label_links", &[]).await;
    assert!(page.html.contains("no open label links"), "{}", page.html);
    // The API and its token are untouched: new links work.
    let answer = api("/qrcode/locations.api", vec![("location_id", location)])
        .await
        .into_body(StatusCode::OK);
    let link = answer["url"]
        .as_str()
        .unwrap()
        .replace("http://localhost", "");
    assert_eq!(
        app.anonymous(Method::GET, &link).send().await.status,
        StatusCode::OK
    );
}
