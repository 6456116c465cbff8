//! Labels: templates (`/print_label_templates`) and label PDFs (`/qrcodes`,
//! `/qrcode/members`, `/qrcode/locations`). The PDFs are read as a person would: each
//! page rendered to an image (poppler's `pdftoppm`) and its QR codes decoded (`zbarimg`,
//! Debian's zbar-tools), the text extracted (`pdftotext`). `.ci/run` installs both.

use crate::common::{Kind, TestApp, assert_documented};
use axum::http::{Method, StatusCode};
use serde_json::Value;
use std::process::Command;

both!(
    every_company_has_standard_templates_and_can_add_its_own,
    bad_templates_are_refused_and_nothing_is_added,
    item_labels_show_names_in_any_script_and_link_to_their_items,
    member_and_location_labels_print_on_sheets,
    bad_label_requests_are_422_naming_what_is_wrong,
    label_links_work_without_a_token_until_they_expire,
    a_label_pdf_is_rendered_once_and_kept_for_every_instance,
    label_renders_are_bounded_and_a_busy_server_answers_503,
    label_links_are_rate_limited_per_client_address,
    label_links_end_when_the_api_is_disabled_or_the_token_regenerated,
    first_prints_and_template_lists_of_a_new_company_race_safely,
    new_default_templates_race_safely,
    answers_are_the_documented_record,
);

fn templates_of(res: &crate::common::Res) -> Vec<Value> {
    res.expect(StatusCode::OK)["print_label_templates"]
        .as_array()
        .expect("a page of templates")
        .clone()
}

async fn every_company_has_standard_templates_and_can_add_its_own(kind: Kind) {
    let app = TestApp::new(kind).await;
    let all = templates_of(&app.get("/print_label_templates.api").await);
    assert_eq!(all.len(), 12, "four sizes for each of three types");
    let assets = templates_of(
        &app.get("/print_label_templates.api?template_type=asset")
            .await,
    );
    let sizes: Vec<&str> = assets.iter().map(|t| t["size"].as_str().unwrap()).collect();
    assert_eq!(
        sizes,
        [
            "62 x 29 mm",
            "101.6 x 152.4 mm",
            "66.7 x 25.4 mm, 30 a page (215.9 x 279.4 mm page)",
            "70 x 37 mm, 24 a page (210 x 297 mm page)"
        ]
    );
    let defaults: Vec<bool> = assets
        .iter()
        .map(|t| t["default"].as_bool().unwrap())
        .collect();
    assert_eq!(defaults, [true, false, false, false]);
    assert!(assets.iter().all(|t| t["template_type"] == "asset"));
    app.get("/print_label_templates.api?template_type=box")
        .await
        .expect_invalid("template_type");
    // A new default member template takes over from the roll.
    let made = app
        .post(
            "/print_label_templates.api",
            &[
                ("print_label_template[description]", "Badge"),
                ("print_label_template[template_type]", "member"),
                ("print_label_template[page_width]", "85.6"),
                ("print_label_template[page_height]", "54"),
                ("print_label_template[label_width]", "85.6"),
                ("print_label_template[label_height]", "54"),
                ("print_label_template[default]", "true"),
            ],
        )
        .await;
    let badge = made.expect(StatusCode::OK)["print_label_template"].clone();
    assert_eq!(badge["size"], "85.6 x 54 mm");
    assert_eq!(badge["label_width"], 85.6);
    let members = templates_of(
        &app.get("/print_label_templates.api?template_type=member")
            .await,
    );
    let defaults: Vec<i64> = members
        .iter()
        .filter(|t| t["default"] == true)
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(defaults, [badge["id"].as_i64().unwrap()]);
    let assets_after = templates_of(
        &app.get("/print_label_templates.api?template_type=asset")
            .await,
    );
    assert_eq!(assets_after, assets, "other types keep their default");
}

async fn bad_templates_are_refused_and_nothing_is_added(kind: Kind) {
    let app = TestApp::new(kind).await;
    let good = [
        ("print_label_template[description]", "Sheet"),
        ("print_label_template[template_type]", "asset"),
        ("print_label_template[page_width]", "210"),
        ("print_label_template[page_height]", "297"),
        ("print_label_template[label_width]", "70"),
        ("print_label_template[label_height]", "37"),
        ("print_label_template[columns]", "3"),
        ("print_label_template[rows]", "8"),
    ];
    let cases: [(&str, &str, &str); 9] = [
        ("print_label_template[description]", "", "description"),
        (
            "print_label_template[template_type]",
            "box",
            "template_type",
        ),
        ("print_label_template[page_width]", "209.9", "page_width"),
        ("print_label_template[page_height]", "29.75", "page_height"),
        ("print_label_template[label_width]", "19.9", "label_width"),
        ("print_label_template[label_height]", "-3", "label_height"),
        ("print_label_template[columns]", "51", "columns"),
        ("print_label_template[rows]", "0", "rows"),
        ("print_label_template[page_width]", "1000.1", "page_width"),
    ];
    for (key, value, field) in cases {
        let form: Vec<(&str, &str)> = good
            .iter()
            .map(|(k, v)| (*k, if *k == key { value } else { *v }))
            .collect();
        app.post("/print_label_templates.api", &form)
            .await
            .expect_invalid(field);
    }
    let missing: Vec<(&str, &str)> = good[..4].to_vec();
    app.post("/print_label_templates.api", &missing)
        .await
        .expect_invalid("label_width");
    assert_eq!(
        templates_of(&app.get("/print_label_templates.api").await).len(),
        12
    );
    app.post("/print_label_templates.api", &good)
        .await
        .expect(StatusCode::OK);
}

/// A temporary directory for one PDF and its images.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new() -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "rentrack-labels-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{program} could not run ({e}): install poppler-utils and zbar-tools (.ci/run does)"
            )
        });
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a PDF says: its pages' QR codes, page by page, and its text.
struct Read {
    codes: Vec<Vec<String>>,
    text: String,
    pages: usize,
}

fn read_pdf(pdf: &[u8]) -> Read {
    assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
    let dir = Scratch::new();
    let file = dir.0.join("labels.pdf");
    std::fs::write(&file, pdf).unwrap();
    let file = file.to_str().unwrap();
    let text = run("pdftotext", &["-raw", file, "-"]);
    let prefix = dir.0.join("page");
    run(
        "pdftoppm",
        &["-r", "300", "-png", file, prefix.to_str().unwrap()],
    );
    let mut images: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .collect();
    images.sort();
    let codes: Vec<Vec<String>> = images
        .iter()
        .map(|image| {
            let mut found: Vec<String> = run("zbarimg", &["-q", "--raw", image.to_str().unwrap()])
                .lines()
                .map(str::to_owned)
                .collect();
            found.sort();
            found
        })
        .collect();
    Read {
        pages: images.len(),
        codes,
        text,
    }
}

/// The PDF behind a label request's answer, fetched without a token.
async fn fetch(app: &TestApp, answer: &Value) -> Vec<u8> {
    let url = answer["url"].as_str().expect("a url");
    let path = url.strip_prefix("http://localhost").unwrap_or(url);
    let res = app.anonymous(Method::GET, path).send().await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_eq!(res.header("content-type"), Some("application/pdf"));
    res.bytes
}

async fn item_labels_show_names_in_any_script_and_link_to_their_items(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let camera = app
        .asset(
            "Łódź 東京 Kamera",
            group,
            &[("fixed_asset[identifier]", "SN-4411")],
        )
        .await;
    let tripod = app.asset("Tripod", group, &[]).await;
    let n = format!("{camera},{tripod}");
    let answer = app
        .post("/qrcodes.api", &[("asset_seq", n.as_str())])
        .await
        .expect(StatusCode::OK)
        .clone();
    assert_eq!(answer["labels"], 2);
    assert_eq!(answer["pages"], 2, "the default roll: one label a page");
    assert!(answer["expires_at"].as_str().is_some_and(|e| e.len() == 19));
    let read = read_pdf(&fetch(&app, &answer).await);
    assert_eq!(read.pages, 2);
    let company = app.company.id.get();
    assert_eq!(
        read.codes,
        [
            vec![format!("http://localhost/scan/{company}/assets/{camera}")],
            vec![format!("http://localhost/scan/{company}/assets/{tripod}")],
        ]
    );
    for wanted in [
        "Łódź 東京",
        &format!("#{camera}"),
        "SN-4411",
        "Tripod",
        &app.company.name,
    ] {
        assert!(
            read.text.contains(wanted),
            "{wanted:?} not in {:?}",
            read.text
        );
    }
    // The code's link says where the record is; the API with the token has it.
    let scan = &read.codes[0][0];
    let path = scan.strip_prefix("http://localhost").unwrap();
    let label = app.anonymous(Method::GET, path).send().await;
    let api_path = label.expect(StatusCode::OK)["label"]["api_path"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        app.get(&api_path).await.expect(StatusCode::OK)["asset"]["name"],
        "Łódź 東京 Kamera"
    );
    // A scan link that is none: a JSON 404, as every failure.
    for bad in ["/scan/x/assets/1", "/scan/1/boxes/1", "/scan/1/assets/-4"] {
        let res = app.anonymous(Method::GET, bad).send().await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{bad}");
        assert!(res.body.is_object(), "a JSON error: {}", res.text);
    }
}

async fn member_and_location_labels_print_on_sheets(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app
        .member(
            "Ann",
            "Ödegaard",
            "ann@example.com",
            &[("user[employee_id]", "E-7")],
        )
        .await;
    let bob = app.member("Bob", "Brown", "bob@example.com", &[]).await;
    let a4 = templates_of(
        &app.get("/print_label_templates.api?template_type=member")
            .await,
    )
    .into_iter()
    .find(|t| t["labels_per_page"] == 24)
    .unwrap()["id"]
        .to_string();
    let ids = format!("{ann},{bob}");
    let answer = app
        .post(
            "/qrcode/members.api",
            &[("member_id", ids.as_str()), ("template_id", a4.as_str())],
        )
        .await
        .expect(StatusCode::OK)
        .clone();
    assert_eq!(answer["pages"], 1);
    let read = read_pdf(&fetch(&app, &answer).await);
    let company = app.company.id.get();
    let mut wanted = vec![
        format!("http://localhost/scan/{company}/members/{ann}"),
        format!("http://localhost/scan/{company}/members/{bob}"),
    ];
    wanted.sort();
    assert_eq!(read.codes, [wanted]);
    for name in ["Ann Ödegaard", "E-7", "Bob Brown", "bob@example.com"] {
        assert!(read.text.contains(name), "{name:?} not in {:?}", read.text);
    }
    let store = app.location("Główny magazyn", &[]).await;
    let answer = app
        .post(
            "/qrcode/locations.api",
            &[("location_id", &store.to_string())],
        )
        .await
        .expect(StatusCode::OK)
        .clone();
    let read = read_pdf(&fetch(&app, &answer).await);
    assert_eq!(
        read.codes,
        [vec![format!(
            "http://localhost/scan/{company}/locations/{store}"
        )]]
    );
    assert!(read.text.contains("Główny magazyn"), "{:?}", read.text);
}

async fn bad_label_requests_are_422_naming_what_is_wrong(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let group = app.group("Cameras").await;
    let mine = app.asset("Camera", group, &[]).await;
    let other_group = other.group("Lights").await;
    let theirs = other.asset("Light", other_group, &[]).await;
    let theirs = theirs + 1000;
    let unknown = format!("{mine},{theirs}");
    let res = app
        .post("/qrcodes.api", &[("asset_seq", unknown.as_str())])
        .await;
    res.expect_invalid("asset_seq");
    assert!(res.text.contains(&format!("#{theirs}")), "{}", res.text);
    let foreign = other.location("Their store", &[]).await.to_string();
    app.post(
        "/qrcode/locations.api",
        &[("location_id", foreign.as_str())],
    )
    .await
    .expect_invalid("location_id");
    app.post("/qrcodes.api", &[])
        .await
        .expect_invalid("asset_seq");
    app.post("/qrcodes.api", &[("asset_seq", "1,abc")])
        .await
        .expect_invalid("asset_seq");
    let many: Vec<String> = (1..=1001).map(|n| n.to_string()).collect();
    app.post("/qrcodes.api", &[("asset_seq", &many.join(","))])
        .await
        .expect_invalid("asset_seq");
    let member_template = templates_of(
        &app.get("/print_label_templates.api?template_type=member")
            .await,
    )[0]["id"]
        .to_string();
    let n = mine.to_string();
    app.post(
        "/qrcodes.api",
        &[
            ("asset_seq", n.as_str()),
            ("template_id", member_template.as_str()),
        ],
    )
    .await
    .expect_invalid("template_id");
    let their_template =
        templates_of(&other.get("/print_label_templates.api").await)[0]["id"].to_string();
    app.post(
        "/qrcodes.api",
        &[
            ("asset_seq", n.as_str()),
            ("template_id", their_template.as_str()),
        ],
    )
    .await
    .expect_invalid("template_id");
    app.post(
        "/qrcodes.api",
        &[("asset_seq", n.as_str()), ("template_id", "x")],
    )
    .await
    .expect_invalid("template_id");
    // Without a token, no labels.
    let res = app
        .anonymous(Method::POST, "/qrcodes.api")
        .form(&[("asset_seq", n.as_str())])
        .send()
        .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
}

async fn label_links_work_without_a_token_until_they_expire(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await.to_string();
    let answer = app
        .post("/qrcodes.api", &[("asset_seq", n.as_str())])
        .await
        .expect(StatusCode::OK)
        .clone();
    let url = answer["url"].as_str().unwrap();
    let token = url.rsplit('/').next().unwrap().trim_end_matches(".pdf");
    assert_eq!(token.len(), 64);
    assert!(!fetch(&app, &answer).await.is_empty());
    // Another token, a malformed one: 404 in JSON.
    for path in [
        format!("/labels/{}.pdf", "0".repeat(64)),
        "/labels/abc.pdf".to_owned(),
        format!("/labels/{token}.png"),
    ] {
        let res = app.anonymous(Method::GET, &path).send().await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
        assert!(res.body.is_object(), "a JSON error: {}", res.text);
    }
    // An hour on, the link is dead.
    store::label_prints::expire_all(&app.db, app.company.id)
        .await
        .unwrap();
    let res = app
        .anonymous(Method::GET, &format!("/labels/{token}.pdf"))
        .send()
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

/// A location's label print; answers the link's path.
async fn location_print(app: &TestApp) -> String {
    let store = app.location("Main store", &[]).await.to_string();
    let answer = app
        .post("/qrcode/locations.api", &[("location_id", store.as_str())])
        .await
        .expect(StatusCode::OK)
        .clone();
    let url = answer["url"].as_str().unwrap();
    url.strip_prefix("http://localhost").unwrap().to_owned()
}

/// How many label PDFs this instance has rendered, from `/metrics`.
async fn renders(app: &TestApp) -> u64 {
    let text = app.metrics().await;
    text.lines()
        .find_map(|l| l.strip_prefix("rentrack_label_renders_total "))
        .unwrap_or_else(|| panic!("no label render count in {text}"))
        .parse()
        .unwrap()
}

async fn a_label_pdf_is_rendered_once_and_kept_for_every_instance(kind: Kind) {
    let app = TestApp::new(kind).await;
    let link = location_print(&app).await;
    assert_eq!(renders(&app).await, 0, "nothing is rendered before the GET");
    let first = app.anonymous(Method::GET, &link).send().await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert!(first.bytes.starts_with(b"%PDF"));
    assert_eq!(renders(&app).await, 1);
    for _ in 0..3 {
        let again = app.anonymous(Method::GET, &link).send().await;
        assert_eq!(again.status, StatusCode::OK);
        assert_eq!(again.bytes, first.bytes, "the same bytes");
    }
    assert_eq!(renders(&app).await, 1, "rendered once, then kept");
    // Kept in the database: another instance answers them without rendering.
    let other = app.another_instance(web::Config::default());
    let there = other.anonymous(Method::GET, &link).send().await;
    assert_eq!(there.status, StatusCode::OK);
    assert_eq!(there.bytes, first.bytes);
    assert_eq!(renders(&other).await, 0);
}

async fn label_renders_are_bounded_and_a_busy_server_answers_503(kind: Kind) {
    // An instance with no render to spare: a link whose PDF is not yet rendered waits
    // at most the wait given, then is a 503 with Retry-After.
    let busy_config = || web::Config {
        label_renders: 0,
        label_render_wait: std::time::Duration::from_millis(50),
        ..web::Config::default()
    };
    let app = TestApp::builder(kind).config(busy_config()).build().await;
    let link = location_print(&app).await;
    let res = app.anonymous(Method::GET, &link).send().await;
    assert_eq!(res.status, StatusCode::SERVICE_UNAVAILABLE, "{}", res.text);
    assert!(res.header("retry-after").is_some());
    assert!(
        res.body["message"]
            .as_str()
            .is_some_and(|m| m.contains("Retry-After")),
        "a JSON error: {}",
        res.text
    );
    assert_eq!(renders(&app).await, 0);
    // Rendered by an instance that has a render free, the PDF is kept, and the busy
    // instance serves it without needing one.
    let free = app.another_instance(web::Config::default());
    let rendered = free.anonymous(Method::GET, &link).send().await;
    assert_eq!(rendered.status, StatusCode::OK);
    let res = app.anonymous(Method::GET, &link).send().await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_eq!(res.bytes, rendered.bytes);
}

async fn label_links_are_rate_limited_per_client_address(kind: Kind) {
    let config = web::Config {
        label_link_limit: domain::RateLimitPolicy::Limited {
            requests: 3,
            window_secs: 3600,
        },
        ..web::Config::default()
    };
    let app = TestApp::builder(kind).config(config).build().await;
    let link = location_print(&app).await;
    let get = |path: String, peer: &'static str| {
        let app = &app;
        async move { app.anonymous(Method::GET, &path).peer(peer).send().await }
    };
    for _ in 0..2 {
        assert_eq!(
            get(link.clone(), "203.0.113.7:4000").await.status,
            StatusCode::OK
        );
    }
    // Unknown tokens count too: guessing is limited like fetching.
    let unknown = format!("/labels/{}.pdf", "0".repeat(64));
    assert_eq!(
        get(unknown.clone(), "203.0.113.7:4001").await.status,
        StatusCode::NOT_FOUND
    );
    for path in [link.clone(), unknown] {
        let res = get(path, "203.0.113.7:4002").await;
        assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "{}", res.text);
        let wait: u64 = res.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=3600 + 60).contains(&wait), "{wait}");
        assert!(
            res.body["message"]
                .as_str()
                .is_some_and(|m| m.contains("Too many label link requests")),
            "a JSON error: {}",
            res.text
        );
    }
    // Another address has its own count.
    assert_eq!(get(link, "198.51.100.2:4000").await.status, StatusCode::OK);
}

async fn label_links_end_when_the_api_is_disabled_or_the_token_regenerated(kind: Kind) {
    let app = TestApp::new(kind).await;
    let link = location_print(&app).await;
    assert_eq!(
        app.anonymous(Method::GET, &link).send().await.status,
        StatusCode::OK
    );
    let dead = |res: crate::common::Res| {
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text);
        assert!(
            res.body["message"]
                .as_str()
                .is_some_and(|m| m.contains("API is disabled")),
            "a JSON error: {}",
            res.text
        );
    };
    store::companies::set_api_enabled(&app.db, &app.company.subdomain, false)
        .await
        .unwrap();
    dead(app.anonymous(Method::GET, &link).send().await);
    // Enabled again, the API does not bring the old links back.
    store::companies::set_api_enabled(&app.db, &app.company.subdomain, true)
        .await
        .unwrap();
    dead(app.anonymous(Method::GET, &link).send().await);

    // A regenerated token ends the links handed out under the old one.
    let link = location_print(&app).await;
    assert_eq!(
        app.anonymous(Method::GET, &link).send().await.status,
        StatusCode::OK
    );
    store::companies::regenerate_token(&app.db, app.company.id)
        .await
        .unwrap();
    dead(app.anonymous(Method::GET, &link).send().await);
}

/// A company's first label requests and template lists, all at once: every one
/// succeeds (its templates exist from its creation, so nothing is seeded under a race).
async fn first_prints_and_template_lists_of_a_new_company_race_safely(kind: Kind) {
    let first = TestApp::new(kind).await;
    let app = TestApp::builder(kind).beside(&first).build().await;
    let store = app.location("Main store", &[]).await.to_string();
    let requests = (0..20).map(|i| {
        let (app, store) = (&app, store.clone());
        async move {
            if i % 2 == 0 {
                app.post("/qrcode/locations.api", &[("location_id", store.as_str())])
                    .await
            } else {
                app.get("/print_label_templates.api?template_type=location")
                    .await
            }
        }
    });
    for res in futures_util::future::join_all(requests).await {
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    }
    let all = templates_of(&app.get("/print_label_templates.api").await);
    assert_eq!(all.len(), 12, "four sizes for each of three types, once");
}

/// Twenty new default templates of one type at once: each takes over in turn, none is
/// refused, and the type ends with one default.
async fn new_default_templates_race_safely(kind: Kind) {
    let app = TestApp::new(kind).await;
    let requests = (0..20).map(|i| {
        let app = &app;
        async move {
            let description = format!("Roll {i}");
            app.post(
                "/print_label_templates.api",
                &[
                    ("print_label_template[description]", description.as_str()),
                    ("print_label_template[template_type]", "asset"),
                    ("print_label_template[page_width]", "62"),
                    ("print_label_template[page_height]", "29"),
                    ("print_label_template[label_width]", "62"),
                    ("print_label_template[label_height]", "29"),
                    ("print_label_template[default]", "true"),
                ],
            )
            .await
        }
    });
    for res in futures_util::future::join_all(requests).await {
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    }
    let all = templates_of(
        &app.get("/print_label_templates.api?template_type=asset")
            .await,
    );
    assert_eq!(all.len(), 24, "the four standard ones and the twenty");
    let defaults: Vec<&Value> = all.iter().filter(|t| t["default"] == true).collect();
    assert_eq!(defaults.len(), 1, "one default: {defaults:?}");
}

/// Template pages and a new template are the documented `LabelTemplate`; each print's
/// answer is the documented `LabelPrint`.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let page = app
        .get("/print_label_templates.api?template_type=location")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/print_label_templates.api", "get", &page);
    let created = app
        .post(
            "/print_label_templates.api",
            &[
                ("print_label_template[description]", "Bins"),
                ("print_label_template[template_type]", "asset"),
                ("print_label_template[page_width]", "210"),
                ("print_label_template[page_height]", "297"),
                ("print_label_template[label_width]", "66.7"),
                ("print_label_template[label_height]", "25.4"),
                ("print_label_template[columns]", "3"),
                ("print_label_template[rows]", "10"),
                ("print_label_template[margin_left]", "4.5"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(created["print_label_template"]["label_width"], 66.7);
    assert_documented("/print_label_templates.api", "post", &created);
    let group = app.group("Cameras").await;
    let camera = app.asset("Camera", group, &[]).await.to_string();
    let member = app
        .member("Ann", "Lee", "ann@example.com", &[])
        .await
        .to_string();
    let store = app.location("Store", &[]).await.to_string();
    for (path, field, key) in [
        ("/qrcodes.api", "asset_seq", camera),
        ("/qrcode/members.api", "member_id", member),
        ("/qrcode/locations.api", "location_id", store),
    ] {
        let answer = app
            .post(path, &[(field, key.as_str())])
            .await
            .into_body(StatusCode::OK);
        assert_documented(path, "post", &answer);
    }
}
