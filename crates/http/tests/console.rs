//! The owner console pages, driven like a browser without JavaScript: a cookie jar,
//! forms posted with their CSRF token.

mod common;

use axum::http::{Method, StatusCode};
use common::{Kind, TestApp};
use std::collections::BTreeMap;

both!(
    sign_up_creates_the_company_its_owner_and_a_session,
    sign_up_validates_every_field_and_creates_nothing_when_refused,
    forms_without_the_right_csrf_token_or_from_another_site_are_refused,
    wrong_password_and_unknown_account_get_the_same_answer,
    log_in_and_log_out,
    failed_log_ins_are_throttled_per_account_and_per_address,
    settings_switch_the_api_issue_tokens_and_show_usage,
    sessions_live_in_the_database_for_every_instance,
);

const PASSWORD: &str = "correct-horse-battery";

/// A cookie jar in front of the app.
struct Browser<'a> {
    app: &'a TestApp,
    cookies: BTreeMap<String, String>,
    set_cookie_lines: Vec<String>,
}

struct Page {
    status: StatusCode,
    location: Option<String>,
    html: String,
}

impl Page {
    /// The value of the first hidden `csrf_token` field.
    fn csrf(&self) -> String {
        let marker = "name=\"csrf_token\" value=\"";
        let start = self
            .html
            .find(marker)
            .map(|i| i + marker.len())
            .unwrap_or_else(|| panic!("no csrf field in {}", self.html));
        self.html[start..].split('"').next().unwrap().to_owned()
    }

    /// The text of the element with this id.
    fn text_of(&self, id: &str) -> String {
        let marker = format!("id=\"{id}\"");
        let at = self
            .html
            .find(&marker)
            .unwrap_or_else(|| panic!("no #{id} in {}", self.html));
        let after = &self.html[at..];
        let start = after.find('>').unwrap() + 1;
        after[start..].split('<').next().unwrap().trim().to_owned()
    }

    /// The value of the input with this id.
    fn value_of(&self, id: &str) -> Option<String> {
        let marker = format!("id=\"{id}\"");
        let at = self.html.find(&marker)?;
        let after = &self.html[at..];
        let start = after.find("value=\"")? + 7;
        Some(after[start..].split('"').next()?.to_owned())
    }
}

impl<'a> Browser<'a> {
    fn new(app: &'a TestApp) -> Self {
        Browser {
            app,
            cookies: BTreeMap::new(),
            set_cookie_lines: Vec::new(),
        }
    }

    async fn request(
        &mut self,
        method: Method,
        path: &str,
        form: Option<&[(&str, &str)]>,
        headers: &[(&str, &str)],
    ) -> Page {
        let mut req = self.app.anonymous(method, path);
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            req = req.header("cookie", &jar.join("; "));
        }
        for (k, v) in headers {
            req = req.header(k, v);
        }
        if let Some(form) = form {
            req = req.form(form);
        }
        let res = req.send().await;
        for line in res.headers.get_all("set-cookie") {
            let line = line.to_str().unwrap().to_owned();
            let (pair, _) = line.split_once(';').unwrap_or((&line, ""));
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() || line.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_owned(), value.to_owned());
            }
            self.set_cookie_lines.push(line);
        }
        let location = res
            .headers
            .get("location")
            .map(|v| v.to_str().unwrap().to_owned());
        Page {
            status: res.status,
            location,
            html: res.text,
        }
    }

    async fn get(&mut self, path: &str) -> Page {
        self.request(Method::GET, path, None, &[]).await
    }

    async fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Page {
        self.request(Method::POST, path, Some(form), &[]).await
    }

    /// Loads `page`, then posts its form with `fields` and its CSRF token.
    async fn submit(&mut self, page: &str, action: &str, fields: &[(&str, &str)]) -> Page {
        let csrf = self.get(page).await.csrf();
        let mut form: Vec<(&str, &str)> = vec![("csrf_token", &csrf)];
        form.extend_from_slice(fields);
        self.post(action, &form).await
    }

    async fn sign_up(&mut self, subdomain: &str, email: &str) -> Page {
        let fields = [
            ("company_name", "Acme Rentals"),
            ("subdomain", subdomain),
            ("email", email),
            ("password", PASSWORD),
        ];
        self.submit("/signup", "/signup", &fields).await
    }

    async fn log_in(&mut self, subdomain: &str, email: &str, password: &str) -> Page {
        self.submit(
            "/login",
            "/login",
            &[
                ("subdomain", subdomain),
                ("email", email),
                ("password", password),
            ],
        )
        .await
    }

    /// Posts a Settings form with the session's CSRF token.
    async fn settings_action(&mut self, action: &str, fields: &[(&str, &str)]) -> Page {
        self.submit("/settings", action, fields).await
    }
}

fn unique(prefix: &str) -> String {
    format!(
        "{prefix}{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    )
}

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
