//! A browser without JavaScript in front of the app: a cookie jar, forms posted with
//! their CSRF token. The console's and the staff pages' tests drive it.

use crate::common::TestApp;
use axum::http::{Method, StatusCode};
use std::collections::BTreeMap;

pub(crate) const PASSWORD: &str = "correct-horse-battery";

/// A cookie jar in front of the app.
pub(crate) struct Browser<'a> {
    pub(crate) app: &'a TestApp,
    pub(crate) cookies: BTreeMap<String, String>,
    pub(crate) set_cookie_lines: Vec<String>,
}

pub(crate) struct Page {
    pub(crate) status: StatusCode,
    pub(crate) location: Option<String>,
    pub(crate) html: String,
}

impl Page {
    /// The value of the first hidden `csrf_token` field.
    pub(crate) fn csrf(&self) -> String {
        let marker = "name=\"csrf_token\" value=\"";
        let start = self
            .html
            .find(marker)
            .map(|i| i + marker.len())
            .unwrap_or_else(|| panic!("no csrf field in {}", self.html));
        self.html[start..].split('"').next().unwrap().to_owned()
    }

    /// The text of the element with this id.
    pub(crate) fn text_of(&self, id: &str) -> String {
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
    pub(crate) fn value_of(&self, id: &str) -> Option<String> {
        let marker = format!("id=\"{id}\"");
        let at = self.html.find(&marker)?;
        let after = &self.html[at..];
        let start = after.find("value=\"")? + 7;
        Some(after[start..].split('"').next()?.to_owned())
    }
}

impl<'a> Browser<'a> {
    pub(crate) fn new(app: &'a TestApp) -> Self {
        Browser {
            app,
            cookies: BTreeMap::new(),
            set_cookie_lines: Vec::new(),
        }
    }

    pub(crate) async fn request(
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

    /// The cookies, as a `Cookie` header.
    pub(crate) fn jar(&self) -> String {
        let pairs: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        pairs.join("; ")
    }

    pub(crate) async fn get(&mut self, path: &str) -> Page {
        self.request(Method::GET, path, None, &[]).await
    }

    pub(crate) async fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Page {
        self.request(Method::POST, path, Some(form), &[]).await
    }

    /// Loads `page`, then posts its form with `fields` and its CSRF token.
    pub(crate) async fn submit(
        &mut self,
        page: &str,
        action: &str,
        fields: &[(&str, &str)],
    ) -> Page {
        let csrf = self.get(page).await.csrf();
        let mut form: Vec<(&str, &str)> = vec![("csrf_token", &csrf)];
        form.extend_from_slice(fields);
        self.post(action, &form).await
    }

    pub(crate) async fn sign_up(&mut self, subdomain: &str, email: &str) -> Page {
        let fields = [
            ("company_name", "Acme Rentals"),
            ("subdomain", subdomain),
            ("email", email),
            ("password", PASSWORD),
        ];
        self.submit("/signup", "/signup", &fields).await
    }

    pub(crate) async fn log_in(&mut self, subdomain: &str, email: &str, password: &str) -> Page {
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
    pub(crate) async fn settings_action(&mut self, action: &str, fields: &[(&str, &str)]) -> Page {
        self.submit("/settings", action, fields).await
    }
}

pub(crate) fn unique(prefix: &str) -> String {
    format!(
        "{prefix}{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    )
}
