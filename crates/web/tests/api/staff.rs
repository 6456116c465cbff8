//! The staff pages without a browser's script: invitations from the console, log-in,
//! sessions, the `/staff/api/` proxy (the API for the session's company, by role),
//! label links, and the files the pages load. tests/browser/staff.mjs drives the
//! pages themselves in Chromium.

use crate::browser::{Browser, PASSWORD, Page};
use crate::common::{Kind, Res, TestApp};
use axum::http::{Method, StatusCode};

both!(
    an_invitation_sets_the_password_once_and_signs_in,
    invitations_name_an_active_member_and_one_link_lives,
    log_in_checks_the_password_and_is_throttled,
    deactivated_members_cannot_log_in_and_lose_their_session,
    the_proxy_answers_the_api_for_the_session_company,
    roles_decide_what_a_member_may_send,
    racing_members_check_one_item_out_once,
    a_label_link_opens_the_staff_page_for_a_browser,
    members_are_found_by_name,
    the_pages_and_their_files_are_served_from_here,
    expired_sessions_and_invitations_are_purged,
    invitations_go_by_e_mail_when_smtp_is_set,
);

/// The owner's console session, to make invitations with.
async fn owner(app: &TestApp) -> Browser<'_> {
    let email = format!("owner@{}.test", app.company.subdomain);
    store::companies::set_owner_password(&app.db, app.company.id, &email, PASSWORD)
        .await
        .unwrap();
    let mut browser = Browser::new(app);
    let page = browser
        .log_in(&app.company.subdomain, &email, PASSWORD)
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
    browser
}

impl Browser<'_> {
    /// Makes an invitation for `email` in the console's Settings: the page.
    async fn invite(&mut self, email: &str) -> Page {
        self.settings_action("/settings/staff", &[("email", email)])
            .await
    }

    /// The path of a new invitation link for `email`.
    async fn invitation(&mut self, email: &str) -> String {
        let page = self.invite(email).await;
        let link = page
            .value_of("invitation-link")
            .unwrap_or_else(|| panic!("no link in {}", page.html));
        let path = link.split_once("/staff/").expect("a staff link").1;
        format!("/staff/{path}")
    }

    /// Posts a password to the invitation at `path` without loading its page (which
    /// has no form once the link is used).
    async fn accept_blind(&mut self, path: &str) -> Page {
        let csrf = self.get("/staff/login").await.csrf();
        self.post(
            path,
            &[
                ("csrf_token", &csrf),
                ("password", PASSWORD),
                ("password_confirmation", PASSWORD),
            ],
        )
        .await
    }

    /// Sets the password through the invitation at `path`.
    async fn accept(&mut self, path: &str, password: &str, again: &str) -> Page {
        self.submit(
            path,
            path,
            &[("password", password), ("password_confirmation", again)],
        )
        .await
    }

    async fn staff_log_in(&mut self, company: &str, email: &str, password: &str) -> Page {
        self.submit(
            "/staff/login",
            "/staff/login",
            &[
                ("company", company),
                ("email", email),
                ("password", password),
            ],
        )
        .await
    }

    /// A member signed in through an invitation the owner made.
    async fn member_of<'a>(app: &'a TestApp, owner: &mut Browser<'_>, email: &str) -> Browser<'a> {
        let path = owner.invitation(email).await;
        let mut browser = Browser::new(app);
        let page = browser.accept(&path, PASSWORD, PASSWORD).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        browser
    }

    /// The CSRF token the staff pages carry.
    async fn staff_csrf(&mut self) -> String {
        let page = self.get("/staff/find").await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.html);
        let marker = "name=\"csrf-token\" content=\"";
        let start = page.html.find(marker).expect("a csrf meta") + marker.len();
        page.html[start..].split('"').next().unwrap().to_owned()
    }

    /// A call of the API through the staff proxy, as the page's script makes it.
    async fn call(
        &mut self,
        method: Method,
        path: &str,
        form: &[(&str, &str)],
        csrf: Option<&str>,
    ) -> Res {
        let mut req = self.app.anonymous(method, &format!("/staff/api/{path}"));
        req = req.header("cookie", &self.jar());
        if let Some(csrf) = csrf {
            req = req.header("x-csrf-token", csrf);
        }
        if !form.is_empty() {
            req = req.form(form);
        }
        req.send().await
    }
}

async fn an_invitation_sets_the_password_once_and_signs_in(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut owner = owner(&app).await;
    let email = format!("sam@{}.test", app.company.subdomain);
    app.member("Sam", "Okafor", &email, &[]).await;
    let path = owner.invitation(&email.to_uppercase()).await;
    assert_eq!(path.len(), "/staff/invitations/".len() + 64, "{path}");

    let mut sam = Browser::new(&app);
    let page = sam.get(&path).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.html.contains("Welcome, Sam") && page.html.contains(&email));
    let differ = sam.accept(&path, PASSWORD, "another-password").await;
    assert_eq!(differ.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(differ.html.contains("differ"), "{}", differ.html);
    let short = sam.accept(&path, "short", "short").await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(short.html.contains("too short"), "{}", short.html);
    // Refused forms set nothing: the member cannot log in yet.
    let refused = Browser::new(&app)
        .staff_log_in(&app.company.subdomain, &email, PASSWORD)
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);

    let done = sam.accept(&path, &format!("  {PASSWORD} "), PASSWORD).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.html);
    assert_eq!(done.location.as_deref(), Some("/staff/find"));
    let cookie = sam
        .set_cookie_lines
        .iter()
        .find(|l| l.starts_with("rentrack_staff="))
        .expect("a staff session cookie");
    for attribute in ["HttpOnly", "Secure", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attribute), "{attribute} missing: {cookie}");
    }
    assert_eq!(sam.get("/staff/find").await.status, StatusCode::OK);
    let used = Browser::new(&app).get(&path).await;
    assert_eq!(used.status, StatusCode::NOT_FOUND);
    assert!(used.html.contains("expired or was already used"));
    let again = Browser::new(&app).accept_blind(&path).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    // The password works, by any case of the e-mail; a form without the cookie's CSRF
    // token is refused.
    let mut later = Browser::new(&app);
    let page = later
        .staff_log_in(&app.company.subdomain, &email.to_uppercase(), PASSWORD)
        .await;
    assert_eq!(page.location.as_deref(), Some("/staff/find"));
    let forged = Browser::new(&app)
        .post(
            "/staff/login",
            &[
                ("csrf_token", "forged"),
                ("company", &app.company.subdomain),
                ("email", &email),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    // The member's history says so.
    let history = store::change_log::for_subject(&app.db, app.company.id, "member", {
        let res = app
            .get(&format!("/members.api?filter=email&filter_val={email}"))
            .await;
        res.body["members"][0]["id"].as_i64().unwrap()
    })
    .await
    .unwrap();
    let actions: Vec<&str> = history.iter().map(|e| e.action.as_str()).collect();
    for action in ["invited", "password_set", "signed_in"] {
        assert!(actions.contains(&action), "{actions:?}");
    }
}

async fn invitations_name_an_active_member_and_one_link_lives(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut owner = owner(&app).await;
    let email = format!("kim@{}.test", app.company.subdomain);
    let kim = app.member("Kim", "Tanaka", &email, &[]).await;

    let blank = owner.invite("").await;
    assert!(blank.text_of("staff-email").is_empty());
    assert!(
        blank
            .html
            .contains("Type the e-mail of the member to invite.")
    );
    let unknown = owner.invite("nobody@nowhere.test").await;
    assert!(
        unknown
            .html
            .contains("No member of this company has the e-mail")
    );
    let own = owner
        .invite(&format!("owner@{}.test", app.company.subdomain))
        .await;
    assert!(
        own.html
            .contains("you log in to the staff pages with this console")
    );
    assert!(own.value_of("invitation-link").is_none());

    let first = owner.invitation(&email).await;
    let second = owner.invitation(&email).await;
    assert_ne!(first, second);
    assert_eq!(
        Browser::new(&app).get(&first).await.status,
        StatusCode::NOT_FOUND,
        "a new link replaces the old"
    );
    assert_eq!(Browser::new(&app).get(&second).await.status, StatusCode::OK);

    // A member deactivated since: the link no longer works, and no new one is made.
    let res = app
        .put(&format!("/members/{kim}/deactivate.api"), &[])
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let page = Browser::new(&app).accept_blind(&second).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    let inactive = owner.invite(&email).await;
    assert!(
        inactive.html.contains("is deactivated"),
        "{}",
        inactive.html
    );

    // Another company's member cannot be invited here.
    let other = TestApp::builder(kind).beside(&app).build().await;
    let theirs = format!("lee@{}.test", other.company.subdomain);
    other.member("Lee", "Park", &theirs, &[]).await;
    assert!(
        owner
            .invite(&theirs)
            .await
            .html
            .contains("No member of this company")
    );
}

async fn log_in_checks_the_password_and_is_throttled(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut owner = owner(&app).await;
    let email = format!("sam@{}.test", app.company.subdomain);
    app.member("Sam", "Okafor", &email, &[]).await;
    Browser::member_of(&app, &mut owner, &email).await;
    let sub = app.company.subdomain.clone();

    let mut browser = Browser::new(&app);
    let wrong = browser.staff_log_in(&sub, &email, "wrong-password").await;
    let unknown = browser.staff_log_in("no-such-co", &email, PASSWORD).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert!(
        wrong
            .html
            .contains("The company, e-mail or password is not right.")
    );
    assert!(
        unknown
            .html
            .contains("The company, e-mail or password is not right.")
    );
    // The owner logs in with the console's password.
    let boss = Browser::new(&app)
        .staff_log_in(&sub, &format!("owner@{sub}.test"), PASSWORD)
        .await;
    assert_eq!(boss.location.as_deref(), Some("/staff/find"));
    // Five failures per account in the window; the sixth attempt waits.
    for _ in 0..4 {
        let page = browser.staff_log_in(&sub, &email, "wrong-password").await;
        assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    }
    let page = browser.staff_log_in(&sub, &email, PASSWORD).await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        page.html.contains("Too many failed log-ins"),
        "{}",
        page.html
    );
    // `next` goes only to a staff page of this site.
    let mut next = Browser::new(&app);
    let page = next
        .submit(
            "/staff/login",
            "/staff/login",
            &[
                ("company", &sub),
                ("email", &format!("owner@{sub}.test")),
                ("password", PASSWORD),
                ("next", "//evil.example/staff/x"),
            ],
        )
        .await;
    assert_eq!(page.location.as_deref(), Some("/staff/find"));
    // The owner's failures in the console and here count together.
    let owner_email = format!("owner@{sub}.test");
    let mut guesser = Browser::new(&app);
    for _ in 0..5 {
        let page = guesser.log_in(&sub, &owner_email, "wrong-password").await;
        assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    }
    let page = Browser::new(&app)
        .staff_log_in(&sub, &owner_email, "wrong-password")
        .await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
}

async fn deactivated_members_cannot_log_in_and_lose_their_session(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut owner = owner(&app).await;
    let email = format!("sam@{}.test", app.company.subdomain);
    let sam_id = app.member("Sam", "Okafor", &email, &[]).await;
    let mut sam = Browser::member_of(&app, &mut owner, &email).await;
    assert_eq!(sam.get("/staff/find").await.status, StatusCode::OK);

    let res = app
        .put(&format!("/members/{sam_id}/deactivate.api"), &[])
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let page = sam.get("/staff/find").await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert!(page.location.unwrap().starts_with("/staff/login"));
    let call = sam.call(Method::GET, "assets.api", &[], None).await;
    assert_eq!(call.status, StatusCode::UNAUTHORIZED);
    assert!(
        call.body["message"]
            .as_str()
            .unwrap()
            .contains("log in again")
    );
    let again = Browser::new(&app)
        .staff_log_in(&app.company.subdomain, &email, PASSWORD)
        .await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);

    // Active again: the password works again.
    app.put(&format!("/members/{sam_id}/activate.api"), &[])
        .await;
    let back = Browser::new(&app)
        .staff_log_in(&app.company.subdomain, &email, PASSWORD)
        .await;
    assert_eq!(back.location.as_deref(), Some("/staff/find"));
}

async fn the_proxy_answers_the_api_for_the_session_company(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let mut owner = owner(&app).await;
    let email = format!("sam@{}.test", app.company.subdomain);
    let sam_id = app.member("Sam", "Okafor", &email, &[]).await;
    let ada = app
        .member(
            "Ada",
            "Quist",
            &format!("ada@{}.test", app.company.subdomain),
            &[],
        )
        .await;
    let group = app.group("Tools").await;
    let drill = app.asset("Hammer Drill", group, &[]).await;
    let theirs_group = other.group("Theirs").await;
    other.asset("Their A", theirs_group, &[]).await;
    let theirs = other.asset("Their B", theirs_group, &[]).await;
    let mut sam = Browser::member_of(&app, &mut owner, &email).await;
    let csrf = sam.staff_csrf().await;

    let anonymous = app
        .anonymous(Method::GET, "/staff/api/assets.api")
        .send()
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert!(anonymous.body["message"].is_string());
    // A company token is not a session.
    let token = app.req(Method::GET, "/staff/api/assets.api").send().await;
    assert_eq!(token.status, StatusCode::UNAUTHORIZED);

    let read = sam
        .call(Method::GET, &format!("assets/{drill}.api"), &[], None)
        .await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);
    assert_eq!(read.body["asset"]["name"], "Hammer Drill");
    // Another company's record does not exist here.
    let foreign = sam
        .call(Method::GET, &format!("assets/{theirs}.api"), &[], None)
        .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    let unknown = sam.call(Method::GET, "no_such_thing.api", &[], None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(unknown.body["message"].is_string());

    let ada_s = ada.to_string();
    let checkout = [("user_id", ada_s.as_str())];
    let path = format!("assets/{drill}/checkout.api");
    let no_csrf = sam.call(Method::PUT, &path, &checkout, None).await;
    assert_eq!(no_csrf.status, StatusCode::FORBIDDEN);
    assert!(no_csrf.body["message"].as_str().unwrap().contains("CSRF"));
    let stale = sam.call(Method::PUT, &path, &checkout, Some("stale")).await;
    assert_eq!(stale.status, StatusCode::FORBIDDEN);
    let cross = app
        .anonymous(Method::PUT, &format!("/staff/api/{path}"))
        .header("cookie", &sam.jar())
        .header("x-csrf-token", &csrf)
        .header("origin", "https://evil.example")
        .form(&checkout)
        .send()
        .await;
    assert_eq!(cross.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.get(&format!("/assets/{drill}.api")).await.body["asset"]["state"],
        "available",
        "nothing refused was written"
    );

    let done = sam.call(Method::PUT, &path, &checkout, Some(&csrf)).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["asset"]["assigned_to_user_id"], ada);
    // The API's refusal, in its words.
    let twice = sam.call(Method::PUT, &path, &checkout, Some(&csrf)).await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    assert!(
        twice.body["message"]
            .as_str()
            .unwrap()
            .contains("checked out to Ada Quist"),
        "{}",
        twice.body
    );
    let bad = sam
        .call(
            Method::PUT,
            &format!("assets/{drill}/extend_checkout.api"),
            &[("till", "not-a-date")],
            Some(&csrf),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body["errors"]["till"].is_array(), "{}", bad.body);

    // Stock moved through the pages names the member who moved it.
    let shelf = app.location("Shelf", &[]).await;
    let cable = app.stock_item("/stock_assets", "Cable", group, &[]).await;
    app.add_stock("/stock_assets", cable, 5, shelf).await;
    let shelf_s = shelf.to_string();
    let sam_s = sam_id.to_string();
    let out = sam
        .call(
            Method::POST,
            &format!("stock_assets/{cable}/order.api"),
            &[
                ("order_type", "checkout"),
                ("user[id]", &sam_s),
                ("line_item[quantity]", "2"),
                ("line_item[location_id]", &shelf_s),
            ],
            Some(&csrf),
        )
        .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    let history = app.get(&format!("/stock_assets/{cable}/history.api")).await;
    assert_eq!(history.body["history"][0]["user_full_name"], "Sam Okafor");
    assert_eq!(
        history.body["history"][1]["user_full_name"],
        format!("Account Owner"),
        "with the token, the owner acts"
    );
}

async fn roles_decide_what_a_member_may_send(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut owner = owner(&app).await;
    let staff_email = format!("sam@{}.test", app.company.subdomain);
    let admin_email = format!("ada@{}.test", app.company.subdomain);
    app.member("Sam", "Okafor", &staff_email, &[]).await;
    app.member("Ada", "Quist", &admin_email, &[("user[role_id]", "1")])
        .await;
    let group = app.group("Tools").await;
    let drill = app.asset("Hammer Drill", group, &[]).await;
    let saw = app.asset("Saw", group, &[]).await;
    let reason = app.retire_reason("Broken").await;
    let retire_form = [
        ("fixed_asset[retired_on]", "2026-01-20"),
        ("fixed_asset[retire_reason_id]", reason.as_str()),
    ];
    let mut sam = Browser::member_of(&app, &mut owner, &staff_email).await;
    let csrf = sam.staff_csrf().await;
    let page = sam.get(&format!("/staff/items/{drill}")).await;
    assert!(page.html.contains("data-administer=\"false\""));
    for (method, path, form) in [
        (
            Method::PUT,
            format!("assets/{drill}/retire.api"),
            retire_form.to_vec(),
        ),
        (Method::DELETE, format!("assets/{drill}.api"), vec![]),
        (
            Method::PUT,
            format!("assets/{drill}.api"),
            vec![("fixed_asset[name]", "Renamed")],
        ),
        (
            Method::POST,
            "webhooks.api".to_owned(),
            vec![("url", "https://x.test")],
        ),
        (Method::GET, "webhooks.api".to_owned(), vec![]),
        (Method::PUT, "company_settings.api".to_owned(), vec![]),
    ] {
        let res = sam.call(method.clone(), &path, &form, Some(&csrf)).await;
        assert_eq!(
            res.status,
            StatusCode::FORBIDDEN,
            "{method} {path}: {}",
            res.body
        );
        assert!(
            res.body["message"]
                .as_str()
                .unwrap()
                .contains("administrator"),
            "{}",
            res.body
        );
    }
    let asset = app.get(&format!("/assets/{drill}.api")).await.body["asset"].clone();
    assert_eq!(asset["status"], "active");
    assert_eq!(asset["name"], "Hammer Drill");
    // What staff do: read, and handle items.
    let listed = sam.call(Method::GET, "assets.api", &[], None).await;
    assert_eq!(listed.status, StatusCode::OK);

    let mut ada = Browser::member_of(&app, &mut owner, &admin_email).await;
    let csrf = ada.staff_csrf().await;
    let page = ada.get(&format!("/staff/items/{saw}")).await;
    assert!(page.html.contains("data-administer=\"true\""));
    let res = ada
        .call(
            Method::PUT,
            &format!("assets/{saw}/retire.api"),
            &retire_form,
            Some(&csrf),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.body["asset"]["state"], "retired");
}

async fn racing_members_check_one_item_out_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut owner = owner(&app).await;
    let group = app.group("Tools").await;
    let drill = app.asset("Hammer Drill", group, &[]).await;
    let mut members = Vec::new();
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let email = format!("{}@{}.test", name.to_lowercase(), app.company.subdomain);
        let id = app.member(name, "Racer", &email, &[]).await;
        let mut browser = Browser::member_of(&app, &mut owner, &email).await;
        let csrf = browser.staff_csrf().await;
        members.push((browser, csrf, id.to_string()));
    }
    let path = format!("assets/{drill}/checkout.api");
    let answers = futures_util::future::join_all(members.iter_mut().map(|(browser, csrf, id)| {
        let path = path.clone();
        async move {
            browser
                .call(Method::PUT, &path, &[("user_id", id.as_str())], Some(csrf))
                .await
                .status
        }
    }))
    .await;
    let won = answers.iter().filter(|s| **s == StatusCode::OK).count();
    let lost = answers
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((won, lost), (1, 3), "{answers:?}");
}

async fn a_label_link_opens_the_staff_page_for_a_browser(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let mut owner = owner(&app).await;
    let email = format!("sam@{}.test", app.company.subdomain);
    app.member("Sam", "Okafor", &email, &[]).await;
    let company = app.company.id.get();
    let scan = format!("/scan/{company}/assets/7");
    let browser_accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    let program = app.anonymous(Method::GET, &scan).send().await;
    assert_eq!(program.status, StatusCode::OK);
    assert_eq!(program.body["label"]["api_path"], "/assets/7.api");
    let page = app
        .anonymous(Method::GET, &scan)
        .header("accept", browser_accept)
        .send()
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    let to = format!("/staff/items/7?company={company}");
    assert_eq!(page.headers["location"], to.as_str());
    // Member and location labels keep their JSON.
    let member = app
        .anonymous(Method::GET, &format!("/scan/{company}/members/3"))
        .header("accept", browser_accept)
        .send()
        .await;
    assert_eq!(member.status, StatusCode::OK);

    // Through the log-in, and back to the item.
    let mut sam = Browser::new(&app);
    let login = sam.get(&to).await;
    assert_eq!(login.status, StatusCode::SEE_OTHER);
    let next = login.location.unwrap();
    assert_eq!(
        next,
        format!("/staff/login?next=%2Fstaff%2Fitems%2F7%3Fcompany%3D{company}")
    );
    let path = owner.invitation(&email).await;
    sam.accept(&path, PASSWORD, PASSWORD).await;
    let mut fresh = Browser::new(&app);
    let form = fresh.get(&next).await;
    assert!(
        form.html.contains(&format!(
            "name=\"next\" value=\"{}\"",
            to.replace('&', "&amp;")
        )) || form.html.contains("name=\"next\"")
    );
    let page = fresh
        .submit(
            "/staff/login",
            "/staff/login",
            &[
                ("company", &app.company.subdomain),
                ("email", &email),
                ("password", PASSWORD),
                ("next", &to),
            ],
        )
        .await;
    assert_eq!(page.location.as_deref(), Some(to.as_str()));
    let item = fresh.get(&to).await;
    assert_eq!(item.status, StatusCode::OK);
    assert!(item.html.contains("data-item=\"7\""));
    // Another company's label: nothing of it is shown.
    let elsewhere = fresh
        .get(&format!(
            "/staff/items/7?company={}",
            other.company.id.get()
        ))
        .await;
    assert_eq!(elsewhere.status, StatusCode::NOT_FOUND);
    assert!(elsewhere.html.contains("belongs to another company"));
    assert!(!elsewhere.html.contains("data-item=\"7\""));
}

async fn members_are_found_by_name(kind: Kind) {
    let app = TestApp::new(kind).await;
    let sub = app.company.subdomain.clone();
    app.member("Dana", "Lopez", &format!("dana@{sub}.test"), &[])
        .await;
    app.member("Daniel", "Dane", &format!("dd@{sub}.test"), &[])
        .await;
    app.member("Sam", "Okafor", &format!("sam_o@{sub}.test"), &[])
        .await;
    let names = |res: Res| -> Vec<String> {
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["full_name"].as_str().unwrap().to_owned())
            .collect()
    };
    let shared = &app;
    let found = |q: &str| {
        let path = format!("/members.api?filter=name&filter_val={q}");
        async move { shared.get(&path).await }
    };
    assert_eq!(names(found("DAN").await), ["Dana Lopez", "Daniel Dane"]);
    assert_eq!(names(found("dan%20lop").await), ["Dana Lopez"]);
    assert_eq!(names(found("okafor").await), ["Sam Okafor"]);
    assert_eq!(
        names(found("sam_o%40").await),
        ["Sam Okafor"],
        "e-mails too"
    );
    // LIKE's wildcards are letters here.
    assert!(names(found("%25").await).is_empty());
    assert!(names(found("d_n").await).is_empty());
    let res = app.get("/members.api?filter=name").await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body["errors"]["filter_val"].is_array(), "{}", res.body);
}

async fn the_pages_and_their_files_are_served_from_here(kind: Kind) {
    let app = TestApp::new(kind).await;
    for (file, kind) in [
        ("staff.js", "text/javascript; charset=utf-8"),
        ("staff.css", "text/css; charset=utf-8"),
        ("barcode-detector.js", "text/javascript; charset=utf-8"),
        ("zxing-exported.js", "text/javascript; charset=utf-8"),
        ("zxing_reader.wasm", "application/wasm"),
    ] {
        let res = app
            .anonymous(Method::GET, &format!("/staff/assets/{file}"))
            .send()
            .await;
        assert_eq!(res.status, StatusCode::OK, "{file}");
        assert_eq!(res.headers["content-type"], kind);
        assert!(res.bytes.len() > 200, "{file}");
    }
    let wasm = app
        .anonymous(Method::GET, "/staff/assets/zxing_reader.wasm")
        .send()
        .await;
    assert_eq!(&wasm.bytes[..4], b"\0asm");
    let missing = app
        .anonymous(Method::GET, "/staff/assets/../Cargo.toml")
        .send()
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    let login = app.anonymous(Method::GET, "/staff/login").send().await;
    assert_eq!(login.status, StatusCode::OK);
    let csp = login.headers["content-security-policy"].to_str().unwrap();
    for rule in [
        "script-src 'self' 'wasm-unsafe-eval'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(rule), "{csp}");
    }
    for page in [
        "/staff",
        "/staff/find",
        "/staff/scan",
        "/staff/due",
        "/staff/today",
    ] {
        let res = app.anonymous(Method::GET, page).send().await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{page}");
        assert!(
            res.headers["location"]
                .to_str()
                .unwrap()
                .starts_with("/staff/login"),
            "{page}"
        );
    }
}

async fn expired_sessions_and_invitations_are_purged(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut owner = owner(&app).await;
    let sub = app.company.subdomain.clone();
    app.member("Sam", "Okafor", &format!("sam@{sub}.test"), &[])
        .await;
    app.member("Kim", "Tanaka", &format!("kim@{sub}.test"), &[])
        .await;
    let mut sam = Browser::member_of(&app, &mut owner, &format!("sam@{sub}.test")).await;
    let invitation = owner.invitation(&format!("kim@{sub}.test")).await;
    let past: sea_query::Value = (chrono::Utc::now() - chrono::Duration::minutes(1)).into();
    for table in ["staff_sessions", "staff_invitations"] {
        let text: &'static str = if table == "staff_sessions" {
            "UPDATE staff_sessions SET expires_at = $1"
        } else {
            "UPDATE staff_invitations SET expires_at = $1"
        };
        let stmt = store::Sql {
            text,
            values: sea_query::Values(vec![past.clone()]),
        };
        assert!(app.db.read().execute(&stmt).await.unwrap() >= 1, "{table}");
    }
    // Expired is gone at once, purged or not.
    assert_eq!(sam.get("/staff/find").await.status, StatusCode::SEE_OTHER);
    assert_eq!(
        Browser::new(&app).get(&invitation).await.status,
        StatusCode::NOT_FOUND
    );
    let (sessions, invitations) = store::staff::purge_expired(&app.db).await.unwrap();
    assert!(
        sessions >= 1 && invitations >= 1,
        "{sessions} {invitations}"
    );
    assert_eq!(store::staff::purge_expired(&app.db).await.unwrap(), (0, 0));
}

/// A minimal SMTP server on a free port: it accepts every message and hands each
/// message's text to the channel.
async fn fake_smtp() -> (u16, tokio::sync::mpsc::UnboundedReceiver<String>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sent, received) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let sent = sent.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.get(..4).unwrap_or_default().to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250 fake\r\n",
                        "DATA" => {
                            write.write_all(b"354 end with a dot\r\n").await.unwrap();
                            let mut message = String::new();
                            while let Ok(Some(line)) = lines.next_line().await {
                                if line == "." {
                                    break;
                                }
                                message.push_str(&line);
                                message.push('\n');
                            }
                            let _ = sent.send(message);
                            b"250 queued\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            break;
                        }
                        _ => b"250 ok\r\n",
                    };
                    write.write_all(answer).await.unwrap();
                }
            });
        }
    });
    (port, received)
}

async fn invitations_go_by_e_mail_when_smtp_is_set(kind: Kind) {
    let (port, mut received) = fake_smtp().await;
    let mail = web::mail::Mailer::new(
        &format!("smtp://127.0.0.1:{port}"),
        "Shop <rentrack@shop.test>",
    )
    .unwrap();
    let app = TestApp::builder(kind)
        .config(web::Config {
            mail: Some(mail),
            ..Default::default()
        })
        .build()
        .await;
    let mut owner = owner(&app).await;
    let email = format!("sam@{}.test", app.company.subdomain);
    app.member("Sam", "Okafor", &email, &[]).await;
    let page = owner.invite(&email).await;
    assert!(
        page.html
            .contains(&format!("The link was sent to {email} by e-mail.")),
        "{}",
        page.html
    );
    let link = page
        .value_of("invitation-link")
        .expect("the link, shown too");
    let message = tokio::time::timeout(std::time::Duration::from_secs(10), received.recv())
        .await
        .expect("a message in time")
        .unwrap();
    let token = link.rsplit('/').next().unwrap();
    assert!(message.contains(&format!("To: {email}")), "{message}");
    assert!(
        message.contains("From: Shop <rentrack@shop.test>"),
        "{message}"
    );
    assert!(message.contains("staff pages"), "{message}");
    // Quoted-printable may fold the long link: its token is there, unbroken or not.
    let unfolded = message.replace("=\n", "");
    assert!(unfolded.contains(token), "{message}");

    // An SMTP server that does not answer: the link is made and shown all the same.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let offline = TestApp::builder(kind)
        .config(web::Config {
            mail: Some(
                web::mail::Mailer::new(&format!("smtp://127.0.0.1:{closed}"), "rentrack@shop.test")
                    .unwrap(),
            ),
            ..Default::default()
        })
        .build()
        .await;
    let mut owner = self::owner(&offline).await;
    let email = format!("kim@{}.test", offline.company.subdomain);
    offline.member("Kim", "Tanaka", &email, &[]).await;
    let page = owner.invite(&email).await;
    assert!(
        page.html.contains("The e-mail could not be sent"),
        "{}",
        page.html
    );
    let path = page.value_of("invitation-link").expect("the link");
    let path = format!("/staff/{}", path.split_once("/staff/").unwrap().1);
    assert_eq!(
        Browser::new(&offline).get(&path).await.status,
        StatusCode::OK
    );
    assert!(web::mail::Mailer::new("ftp://nowhere", "a@b.test").is_err());
    assert!(web::mail::Mailer::new("smtp://localhost", "not a mailbox").is_err());
}
