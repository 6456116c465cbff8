//! CSV imports: files as spreadsheets write them, all or nothing, dry runs, updates by
//! key, and every bad row reported; exports, which import back unchanged.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Kind, TestApp, assert_documented};

both!(
    a_messy_but_good_file_imports_and_reads_back,
    bad_rows_are_all_reported_and_nothing_is_written,
    a_dry_run_checks_everything_and_writes_nothing,
    rows_naming_their_key_update_and_a_second_import_creates_nothing,
    locations_name_parents_in_earlier_rows,
    columns_are_mapped_and_bad_options_are_refused,
    another_companys_imports_do_not_exist,
    an_import_whose_server_stopped_is_failed,
    counts_and_numbers_stay_exact_beside_other_writes,
    fixed_assets_import_with_names_prices_and_custom_fields,
    fixed_assets_bad_rows_are_all_reported,
    customers_are_matched_by_email,
    every_kind_exports_and_imports_back_unchanged,
    members_import_with_roles_and_teams_and_export_without_the_owner,
    groups_and_their_subgroups_import_by_name_and_export,
    businesses_and_their_contacts_import_and_export,
    stock_kinds_import_their_opening_stock_and_export_it,
    stock_at_several_locations_imports_in_further_rows_and_exports_so,
    exports_stream_every_record_in_batches_as_csv_or_json_lines,
);

/// A multipart body holding `file` as `import[file]` and the other fields as text.
fn multipart(file: &str, fields: &[(&str, &str)]) -> (String, String) {
    let boundary = "rentrack-test-boundary-7d1f";
    let mut body = String::new();
    for (name, value) in fields {
        body.push_str(&format!(
            "--{boundary}\r\ncontent-disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        ));
    }
    body.push_str(&format!(
        "--{boundary}\r\ncontent-disposition: form-data; name=\"import[file]\"; filename=\"data.csv\"\r\ncontent-type: text/csv\r\n\r\n{file}\r\n--{boundary}--\r\n"
    ));
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Starts an import of `file` and waits for its end; answers the import.
pub(crate) async fn import(app: &TestApp, kind: &str, file: &str, more: &[(&str, &str)]) -> Value {
    let mut fields = vec![("import[kind]", kind)];
    fields.extend_from_slice(more);
    let (content_type, body) = multipart(file, &fields);
    let res = app
        .req(Method::POST, "/imports.api")
        .raw_body(&content_type, &body)
        .send()
        .await;
    let started = res.into_body(StatusCode::OK);
    assert_documented("/imports.api", "post", &started);
    finished(app, started["import"]["id"].as_i64().unwrap()).await
}

async fn finished(app: &TestApp, id: i64) -> Value {
    for _ in 0..500 {
        let got = app
            .get(&format!("/imports/{id}.api"))
            .await
            .into_body(StatusCode::OK);
        if matches!(got["import"]["state"].as_str(), Some("done" | "failed")) {
            assert_documented("/imports/{id}.api", "get", &got);
            return got["import"].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the import did not end");
}

/// Each problem of an import as its row and column (empty for none).
fn rows_and_columns(import: &Value) -> Vec<(i64, &str)> {
    import["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["column"].as_str().unwrap_or(""),
            )
        })
        .collect()
}

/// The records of the list at `path`: the array under `key` in its body.
async fn list(app: &TestApp, path: &str, key: &str) -> Vec<Value> {
    let body = app.get(path).await.into_body(StatusCode::OK);
    match body[key].as_array() {
        Some(records) => records.clone(),
        None => panic!("{path} has no list {key}: {body}"),
    }
}

async fn vendors(app: &TestApp) -> Vec<Value> {
    let path = "/assets/vendors.api?include_custom_fields=true";
    let wrapped = list(app, path, "vendors").await;
    wrapped.iter().map(|v| v["vendor"].clone()).collect()
}

async fn locations(app: &TestApp) -> Vec<Value> {
    list(app, "/locations/get_line_item_locations.api", "locations").await
}

async fn a_messy_but_good_file_imports_and_reads_back(kind: Kind) {
    let app = TestApp::new(kind).await;
    // A BOM, `;` between fields, CRLF, a quoted field holding the separator, a quote
    // and a line break, and an empty line.
    let file = "\u{feff}name;email;address;website\r\n\
                Acme;sales@acme.example;\"1 Main St\r\nSpringfield; \"\"North\"\"\";acme.example\r\n\
                \r\n\
                Bolt & Co;;;\r\n";
    let done = import(&app, "vendors", file, &[]).await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["rows_total"], 2);
    assert_eq!(done["rows_done"], 2);
    assert_eq!(done["created"], 2);
    assert_eq!(done["updated"], 0);
    assert_eq!(done["errors"], json!([]));
    assert_eq!(done["file_name"], "data.csv");
    let got = vendors(&app).await;
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["name"], "Acme");
    assert_eq!(got[0]["email"], "sales@acme.example");
    assert_eq!(got[0]["address"], "1 Main St\r\nSpringfield; \"North\"");
    assert_eq!(got[1]["name"], "Bolt & Co");
    assert_eq!(got[1]["email"], Value::Null);
    // The list shows it.
    let list = app.get("/imports.api").await.into_body(StatusCode::OK);
    assert_documented("/imports.api", "get", &list);
    assert_eq!(list["imports"][0]["id"], done["id"]);
    assert_eq!(list["total_pages"], 1);
}

async fn bad_rows_are_all_reported_and_nothing_is_written(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.post(
        "/custom_fields.api",
        &[
            ("custom_field[name]", "Tier"),
            ("custom_field[field_type]", "dropdown"),
            ("custom_field[applies_to][]", "vendors"),
            ("custom_field[options][]", "Gold"),
            ("custom_field[options][]", "Silver"),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    let file = "id,name,email,Tier\n\
                ,Good one,good@example.com,Gold\n\
                ,,nobody@example.com,\n\
                ,Bad mail,not-an-email,Bronze\n\
                999,Nobody,,\n\
                x,Bad key,,\n\
                ,Fine,,Silver\n\
                ,Bell\u{7},,\n";
    let done = import(&app, "vendors", file, &[]).await;
    assert_eq!(done["state"], "failed");
    assert_eq!(done["rows_total"], 7);
    assert_eq!(done["created"], 0);
    assert_eq!(done["errors_total"], 5);
    let errors = done["errors"].as_array().unwrap();
    let brief: Vec<(i64, &str, &str)> = errors
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["column"].as_str().unwrap_or(""),
                e["value"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        brief,
        [
            (3, "name", ""),
            (4, "email", "not-an-email"),
            (4, "Tier", "Bronze"),
            (5, "id", "999"),
            (6, "id", "x"),
            (8, "name", "Bell\u{7}"),
        ],
        "{errors:#?}"
    );
    // Cells are held to what any parameter is: no control characters.
    assert_eq!(
        errors[5]["message"],
        "contains a control character (U+0007); only tab, line feed and carriage return are allowed in text"
    );
    assert_eq!(errors[0]["message"], "can't be blank");
    assert_eq!(
        errors[3]["message"],
        "No such vendor in this company. Check the id."
    );
    // Not even the good rows.
    assert!(vendors(&app).await.is_empty());
}

async fn a_dry_run_checks_everything_and_writes_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let file = "name,city\nDepot,Lyon\nStore,Paris\n";
    let done = import(&app, "locations", file, &[("import[dry_run]", "true")]).await;
    assert_eq!(done["state"], "done");
    assert_eq!(done["dry_run"], true);
    assert_eq!(done["created"], 2);
    assert!(locations(&app).await.is_empty());
    // The same rules as the import itself.
    let bad = "name,country\nDepot,France\n";
    let done = import(&app, "locations", bad, &[("import[dry_run]", "true")]).await;
    assert_eq!(done["state"], "failed");
    assert_eq!(done["errors"][0]["row"], 2);
    assert_eq!(done["errors"][0]["column"], "country");
    assert_eq!(done["errors"][0]["value"], "France");
}

async fn rows_naming_their_key_update_and_a_second_import_creates_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let done = import(&app, "locations", "name\nDepot\nStore\n", &[]).await;
    assert_eq!(done["created"], 2);
    let before = locations(&app).await;
    let (depot, store) = (&before[0]["sequence_num"], &before[1]["sequence_num"]);
    let file = format!("sequence_num,name,city\n{depot},Depot,Lyon\n{store},Shop,Paris\n");
    for _ in 0..2 {
        let done = import(&app, "locations", &file, &[]).await;
        assert_eq!(done["state"], "done", "{done}");
        assert_eq!(
            (done["created"].as_i64(), done["updated"].as_i64()),
            (Some(0), Some(2))
        );
    }
    let after = locations(&app).await;
    assert_eq!(after.len(), 2);
    assert_eq!(after[0]["city"], "Lyon");
    assert_eq!(after[1]["name"], "Shop");
    // A number no location has is a bad row.
    let done = import(&app, "locations", "sequence_num,name\n9999,Ghost\n", &[]).await;
    assert_eq!(done["errors"][0]["column"], "sequence_num");
    assert_eq!(
        done["errors"][0]["message"],
        "No such location in this company. Check the id."
    );
}

async fn locations_name_parents_in_earlier_rows(kind: Kind) {
    let app = TestApp::new(kind).await;
    let file = "name,parent\nWarehouse,\nShelf A,Warehouse\nShelf B,Nowhere\n";
    let done = import(&app, "locations", file, &[]).await;
    assert_eq!(done["state"], "failed");
    assert_eq!(done["errors_total"], 1);
    assert_eq!(done["errors"][0]["row"], 4);
    assert_eq!(done["errors"][0]["column"], "parent");
    assert_eq!(done["errors"][0]["value"], "Nowhere");
    assert!(locations(&app).await.is_empty());
    let file = "name,parent\nWarehouse,\nShelf A,Warehouse\n";
    let done = import(&app, "locations", file, &[]).await;
    assert_eq!(done["state"], "done", "{done}");
    let got = locations(&app).await;
    assert_eq!(got[1]["name"], "Shelf A");
    assert_eq!(got[1]["parent_id"], got[0]["id"]);
}

async fn columns_are_mapped_and_bad_options_are_refused(kind: Kind) {
    let app = TestApp::new(kind).await;
    // The hosted service's export header, mapped.
    let file = "Vendor Name,E-mail\nAcme,a@acme.example\n";
    let done = import(
        &app,
        "vendors",
        file,
        &[
            ("import[columns][Vendor Name]", "name"),
            ("import[columns][E-mail]", "email"),
        ],
    )
    .await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(vendors(&app).await[0]["email"], "a@acme.example");
    // A mapped column's problem names the file's header.
    let done = import(
        &app,
        "vendors",
        "Vendor Name,E-mail\nBolt,not-mail\n",
        &[
            ("import[columns][Vendor Name]", "name"),
            ("import[columns][E-mail]", "email"),
        ],
    )
    .await;
    assert_eq!(done["errors"][0]["column"], "E-mail", "{done}");
    // A column no field of the kind: a bad row, naming the column.
    let done = import(&app, "locations", "name,colour\nDepot,red\n", &[]).await;
    assert_eq!(done["errors"][0]["column"], "colour");
    // For vendors, other columns are custom fields: one the company lacks is no less bad.
    let done = import(&app, "vendors", "name,Colour\nBolt,\n", &[]).await;
    assert_eq!(done["state"], "failed");
    assert_eq!(done["errors"][0]["column"], "Colour");
    assert_eq!(
        done["errors"][0]["message"],
        "is not a custom field for vendors; create it at /custom_fields.api first"
    );
    // Refused at once: no kind, an unknown kind, no file.
    let res = app.post("/imports.api", &[]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    assert!(res.body["errors"]["kind"].is_array(), "{}", res.text);
    assert!(res.body["errors"]["file"].is_array(), "{}", res.text);
    let res = app
        .post(
            "/imports.api",
            &[
                ("import[kind]", "spaceships"),
                ("import[file]", "name\nx\n"),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    // A mapping to a field locations lack: every row is bad, under the file's header.
    let done = import(
        &app,
        "locations",
        "a\nx\n",
        &[("import[columns][a]", "colour")],
    )
    .await;
    assert_eq!(done["state"], "failed");
    assert_eq!(done["errors"][0]["column"], "a", "{done}");
    // A multipart part without a file name is a form field: text, with no control
    // character, as any other.
    let boundary = "b7a25dc6";
    let body = format!(
        "--{boundary}\r\ncontent-disposition: form-data; name=\"import[kind]\"\r\n\r\nvendors\r\n\
         --{boundary}\r\ncontent-disposition: form-data; name=\"import[file]\"\r\n\r\nname\n\u{d7}\u{9b}\r\n--{boundary}--\r\n"
    );
    let res = app
        .req(Method::POST, "/imports.api")
        .raw_body(&format!("multipart/form-data; boundary={boundary}"), &body)
        .send()
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    assert_eq!(
        res.body["errors"]["import[file]"][0],
        "contains a control character (U+009B); only tab, line feed and carriage return are allowed in text"
    );
    // Empty or spaces only, such a part is no file either.
    for blank in ["", "  \n "] {
        let body = format!(
            "--{boundary}\r\ncontent-disposition: form-data; name=\"import[kind]\"\r\n\r\nvendors\r\n\
             --{boundary}\r\ncontent-disposition: form-data; name=\"import[file]\"\r\n\r\n{blank}\r\n--{boundary}--\r\n"
        );
        let res = app
            .req(Method::POST, "/imports.api")
            .raw_body(&format!("multipart/form-data; boundary={boundary}"), &body)
            .send()
            .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
        assert!(res.body["errors"]["file"].is_array(), "{}", res.text);
    }
    // The mapping is a map.
    let res = app
        .req(Method::POST, "/imports.api")
        .json(json!({"import": {"kind": "vendors", "file": "a\nx\n", "columns": [null, null]}}))
        .send()
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    assert!(res.body["errors"]["columns"].is_array(), "{}", res.text);
    // Its keys are headers: not empty, without brackets or quotes.
    for key in ["", "a\"b", "a]"] {
        let res = app
            .req(Method::POST, "/imports.api")
            .json(
                json!({"import": {"kind": "vendors", "file": "a\nx\n", "columns": {key: "name"}}}),
            )
            .send()
            .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{key}: {}",
            res.text
        );
    }
    // A mapping's field is text of the usual length.
    let long = "x".repeat(2001);
    let res = app
        .post(
            "/imports.api",
            &[
                ("import[kind]", "vendors"),
                ("import[file]", "a\nx\n"),
                ("import[columns][a]", long.as_str()),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    // None of them made an import.
    let list = app.get("/imports.api").await.into_body(StatusCode::OK);
    assert_eq!(list["imports"].as_array().unwrap().len(), 5);
    // The file as a form field imports too.
    let res = app
        .post(
            "/imports.api",
            &[
                ("import[kind]", "locations"),
                ("import[file]", "name\nDepot\n"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    let done = finished(&app, res["import"]["id"].as_i64().unwrap()).await;
    assert_eq!(done["created"], 1);
}

async fn another_companys_imports_do_not_exist(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let done = import(&app, "locations", "name\nDepot\n", &[]).await;
    let id = done["id"].as_i64().unwrap();
    let res = other.get(&format!("/imports/{id}.api")).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(
        res.body["message"],
        "No such import in this company. Check the id."
    );
    let list = other.get("/imports.api").await.into_body(StatusCode::OK);
    assert_eq!(list["imports"], json!([]));
}

/// Sets import `id` back to running, its last heartbeat `minutes` ago, as a server that
/// stopped mid-import would leave it.
async fn stopped(app: &TestApp, id: i64, minutes: i64) {
    use sea_query::{Expr, ExprTrait, Query};
    let at = chrono::Utc::now() - chrono::Duration::minutes(minutes);
    let stmt = Query::update()
        .table("imports")
        .value("state", "running")
        .value("heartbeat_at", at)
        .value("finished_at", Option::<chrono::DateTime<chrono::Utc>>::None)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    app.db.read().execute(&stmt).await.unwrap();
}

async fn an_import_whose_server_stopped_is_failed(kind: Kind) {
    let app = TestApp::new(kind).await;
    let old = import(&app, "locations", "name\nDepot\n", &[]).await["id"]
        .as_i64()
        .unwrap();
    let recent = import(&app, "locations", "name\nStore\n", &[]).await["id"]
        .as_i64()
        .unwrap();
    stopped(&app, old, 6).await;
    stopped(&app, recent, 1).await;
    // Another instance's sweep, as every server runs each minute.
    let state = web::AppState::new(app.db.clone(), web::Config::default());
    web::resources::imports::sweep(&state).await;
    let got = |id: i64| {
        let app = &app;
        async move {
            app.get(&format!("/imports/{id}.api"))
                .await
                .into_body(StatusCode::OK)["import"]
                .clone()
        }
    };
    let failed = got(old).await;
    assert_eq!(failed["state"], "failed");
    assert_eq!(
        failed["message"],
        "the server stopped during the import; nothing was written: send the file again"
    );
    // Five minutes without a heartbeat; a minute is a live import.
    assert_eq!(got(recent).await["state"], "running");
}

/// An import counts its records and takes its numbers in bulk (`Tx::bulk`): the lists'
/// totals and the next numbers are exact afterwards, also with records created through
/// the API while it runs, and a failed import leaves both as they were.
async fn counts_and_numbers_stay_exact_beside_other_writes(kind: Kind) {
    let app = TestApp::new(kind).await;
    let total_pages = |list: Value| list["total_pages"].as_i64().unwrap();
    let file: String = std::iter::once("name\n".to_owned())
        .chain((0..40).map(|i| format!("Bay {i}\n")))
        .collect();
    let mut bad = file.clone();
    bad.push_str(&format!("{}\n", "x".repeat(300)));
    let done = import(&app, "locations", &bad, &[]).await;
    assert_eq!(done["state"], "failed");
    let first = app
        .post("/locations.api", &[("location[name]", "Counter")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(first["location"]["sequence_num"], 1, "{first}");
    let list = app
        .get("/locations/get_line_item_locations.api")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(total_pages(list), 1);
    // Five more through the API while the import runs.
    let (content_type, body) = multipart(&file, &[("import[kind]", "locations")]);
    let started = app
        .req(Method::POST, "/imports.api")
        .raw_body(&content_type, &body)
        .send()
        .await
        .into_body(StatusCode::OK);
    let beside = futures_util::future::join_all((0..5).map(|i| {
        let app = &app;
        async move {
            app.post(
                "/locations.api",
                &[("location[name]", &format!("Desk {i}"))],
            )
            .await
            .into_body(StatusCode::OK)["location"]["sequence_num"]
                .as_i64()
                .unwrap()
        }
    }))
    .await;
    let done = finished(&app, started["import"]["id"].as_i64().unwrap()).await;
    assert_eq!(done["created"], 40, "{done}");
    let mut numbers = Vec::new();
    for page in 1..=2 {
        let list = app
            .get(&format!(
                "/locations/get_line_item_locations.api?page={page}"
            ))
            .await
            .into_body(StatusCode::OK);
        let got = list["locations"].as_array().unwrap();
        numbers.extend(got.iter().map(|l| l["sequence_num"].as_i64().unwrap()));
    }
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=46).collect::<Vec<_>>(), "beside: {beside:?}");
    let next = app
        .post("/locations.api", &[("location[name]", "Last")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(next["location"]["sequence_num"], 47);
    // 47 locations: two pages of 25.
    let list = app
        .get("/locations/get_line_item_locations.api?page=2")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(total_pages(list.clone()), 2);
    assert_eq!(list["locations"].as_array().unwrap().len(), 22);
}

/// The company's fixed assets as the list shows them, with custom fields.
async fn assets(app: &TestApp) -> Vec<Value> {
    list(app, "/assets.api?include_custom_fields=true", "assets").await
}

async fn condition_field(app: &TestApp) {
    app.post(
        "/custom_fields.api",
        &[
            ("custom_field[name]", "Condition"),
            ("custom_field[field_type]", "dropdown"),
            ("custom_field[applies_to][]", "fixed_assets"),
            ("custom_field[options][]", "New"),
            ("custom_field[options][]", "Used"),
        ],
    )
    .await
    .into_body(StatusCode::OK);
}

async fn fixed_assets_import_with_names_prices_and_custom_fields(kind: Kind) {
    let app = TestApp::new(kind).await;
    condition_field(&app).await;
    app.group("Cameras").await;
    // `;` between fields, CRLF, amounts with thousands separators, both date forms.
    let file = "name;group;sub_group;location;purchased_on;identifier;daily;price;Condition\r\n\
                Canon R5;Cameras;Bodies;Shelf 1;03/15/2024;CAM-1;1,250.00;3,500;New\r\n\
                Tripod;Stands;;Shelf 1;2024-03-16;;12.5;;\r\n";
    // The subgroup, the location and the second group do not exist yet.
    let done = import(&app, "fixed_assets", file, &[]).await;
    assert_eq!(done["state"], "failed");
    let brief = rows_and_columns(&done);
    assert_eq!(
        brief,
        [
            (2, "sub_group"),
            (2, "location"),
            (3, "group"),
            (3, "location")
        ],
        "{done}"
    );
    assert!(
        done["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("import[create_missing]"),
        "{done}"
    );
    assert!(assets(&app).await.is_empty());
    // With create_missing, they are made once each.
    let done = import(
        &app,
        "fixed_assets",
        file,
        &[("import[create_missing]", "true")],
    )
    .await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["created"], 2);
    let got = assets(&app).await;
    let canon = got.iter().find(|a| a["name"] == "Canon R5").unwrap();
    assert_eq!(canon["group_name"], "Cameras");
    assert_eq!(canon["sub_group_name"], "Bodies");
    assert_eq!(canon["location_name"], "Shelf 1");
    assert_eq!(canon["purchased_on"], "2024-03-15");
    assert_eq!(canon["identifier"], "CAM-1");
    assert_eq!(canon["rental_prices"]["daily"], "1250.00");
    assert_eq!(canon["price"], "3500.00");
    assert_eq!(canon["Condition"], "New");
    let tripod = got.iter().find(|a| a["name"] == "Tripod").unwrap();
    assert_eq!(tripod["group_name"], "Stands");
    assert_eq!(tripod["location_id"], canon["location_id"]);
    let locations = locations(&app).await;
    assert_eq!(locations.len(), 1, "one location made for both rows");
    // Imported names are searched as any others (written at the import's commit).
    let found = app
        .get("/search.api?search=TRIPOD")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(found["assets"][0]["name"], "Tripod", "{found}");
    // Again: the identifier names the Canon, which is updated; the Tripod has none, so
    // it is made again. A file that should change nothing names its keys.
    let again = "sequence_num,identifier,name,daily\n,CAM-1,Canon EOS R5,1300\n";
    let done = import(&app, "fixed_assets", again, &[]).await;
    assert_eq!(
        (done["created"].as_i64(), done["updated"].as_i64()),
        (Some(0), Some(1)),
        "{done}"
    );
    let got = assets(&app).await;
    assert_eq!(got.len(), 2);
    let canon = got.iter().find(|a| a["identifier"] == "CAM-1").unwrap();
    assert_eq!(canon["name"], "Canon EOS R5");
    assert_eq!(canon["rental_prices"]["daily"], "1300.00");
    assert_eq!(canon["Condition"], "New", "a column left out is kept");
    // The renamed asset is found by the word its new name added.
    for (text, n) in [("eos", 1), ("tripod", 1), ("eos tripod", 0)] {
        let found = app
            .get(&format!("/search.api?search={}", text.replace(' ', "+")))
            .await
            .into_body(StatusCode::OK);
        assert_eq!(
            found["assets"].as_array().unwrap().len(),
            n,
            "{text}: {found}"
        );
    }
    // Numbers were taken in a block and the rest given back.
    let n = canon["sequence_num"].as_i64().unwrap();
    assert!(n <= 2, "{canon}");
}

async fn fixed_assets_bad_rows_are_all_reported(kind: Kind) {
    let app = TestApp::new(kind).await;
    condition_field(&app).await;
    app.group("Cameras").await;
    let file = "\u{feff}name,group,purchased_on,identifier,Condition,daily\n\
                Good one,Cameras,01/02/2024,A-1,Used,10\n\
                Bad date,Cameras,13/45/2024,A-2,,\n\
                Twin,Cameras,01/02/2024,A-1,,\n\
                Broken,Cameras,01/02/2024,A-3,Broken,\n\
                No group,Nowhere,01/02/2024,A-4,,\n\
                Cheap,Cameras,01/02/2024,A-5,,-3\n\
                ab,Cameras,01/02/2024,A-6,,\n";
    let done = import(&app, "fixed_assets", file, &[]).await;
    assert_eq!(done["state"], "failed");
    let brief: Vec<(i64, &str, &str)> = done["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["column"].as_str().unwrap_or(""),
                e["value"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        brief,
        [
            (3, "purchased_on", "13/45/2024"),
            (4, "identifier", "A-1"),
            (5, "Condition", "Broken"),
            (6, "group", "Nowhere"),
            (7, "daily", "-3"),
            (8, "name", "ab"),
        ],
        "{done}"
    );
    assert_eq!(
        done["errors"][1]["message"],
        "is also row 2's: one identification number names one item"
    );
    assert_eq!(done["errors_total"], 6);
    assert!(assets(&app).await.is_empty());
    // A subgroup needs its group.
    let done = import(&app, "fixed_assets", "name,sub_group\nLens,Primes\n", &[]).await;
    assert_eq!(done["errors"][0]["column"], "sub_group", "{done}");
    // An identifier two assets share names neither.
    let group = app.group("Lenses").await;
    let shared = [("fixed_asset[identifier]", "SHARED")];
    app.asset("First lens", group, &shared).await;
    app.asset("Second lens", group, &shared).await;
    let one = app
        .asset("Third lens", group, &[("fixed_asset[identifier]", "ONE")])
        .await;
    let file = "identifier,name\nSHARED,Renamed\nONE,Renamed one\n";
    let done = import(&app, "fixed_assets", file, &[]).await;
    assert_eq!(done["errors_total"], 1, "{done}");
    assert_eq!(
        done["errors"][0]["message"],
        "names several items: give the row their sequence_num"
    );
    let done = import(
        &app,
        "fixed_assets",
        "identifier,name\nONE,Renamed one\n",
        &[],
    )
    .await;
    assert_eq!(done["updated"], 1, "{done}");
    let got = app
        .get(&format!("/assets/{one}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(got["asset"]["name"], "Renamed one");
}

async fn customers(app: &TestApp) -> Vec<Value> {
    list(
        app,
        "/customers.api?include_custom_fields=true",
        "customers",
    )
    .await
}

async fn customers_are_matched_by_email(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.customer("Ada", "Lovelace", &[("customer[email]", "ada@example.com")])
        .await;
    app.custom_field("Tier", "dropdown", &["customers"], &["Gold"])
        .await;
    // An e-mail names its customer whatever its case; a new one creates one.
    let file = "first_name,last_name,email,category,Tier\n\
                Ada,King,ADA@example.com,vip,Gold\n\
                Grace,Hopper,grace@example.com,,\n";
    let done = import(&app, "customers", file, &[]).await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(
        (done["created"].clone(), done["updated"].clone()),
        (json!(1), json!(1))
    );
    let got = customers(&app).await;
    assert_eq!(got.len(), 2, "{got:?}");
    let ada = got.iter().find(|c| c["first_name"] == "Ada").unwrap();
    assert_eq!(ada["last_name"], "King");
    assert_eq!(ada["category"], "vip");
    assert_eq!(ada["custom_attributes"]["Tier"], "Gold");
    let grace = got.iter().find(|c| c["first_name"] == "Grace").unwrap();
    assert_eq!(grace["email"], "grace@example.com");
    // The same file again creates nothing.
    let again = import(&app, "customers", file, &[]).await;
    assert_eq!(
        (again["created"].clone(), again["updated"].clone()),
        (json!(0), json!(2))
    );
    assert_eq!(customers(&app).await.len(), 2);

    // One e-mail twice in a file, a bad e-mail, a value outside the field's options
    // and a missing last name: every row reported, nothing written.
    let file = "first_name,last_name,email,Tier\n\
                Alan,Turing,alan@example.com,\n\
                Alan,Turing,Alan@Example.com,\n\
                Bad,Mail,not-an-email,\n\
                Odd,Tier,odd@example.com,Bronze\n\
                Nameless,,nameless@example.com,\n";
    let failed = import(&app, "customers", file, &[]).await;
    assert_eq!(failed["state"], "failed", "{failed}");
    let rows = rows_and_columns(&failed);
    assert_eq!(
        rows,
        [(3, "email"), (4, "email"), (5, "Tier"), (6, "last_name"),],
        "{failed}"
    );
    assert_eq!(
        failed["errors"][0]["message"],
        "is also row 2's: one e-mail names one customer"
    );
    assert_eq!(customers(&app).await.len(), 2);
}

/// `value` without its `updated_at` (at any depth): what an update that changes
/// nothing still moves.
fn unchanged(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("updated_at");
            for v in map.values_mut() {
                *v = unchanged(v.take());
            }
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                *v = unchanged(v.take());
            }
        }
        _ => {}
    }
    value
}

async fn every_kind_exports_and_imports_back_unchanged(kind: Kind) {
    let app = TestApp::new(kind).await;
    condition_field(&app).await;
    app.custom_field("Tier", "dropdown", &["vendors", "customers"], &["Gold"])
        .await;
    let seeds = [
        (
            "locations",
            "name,parent,city\nWarehouse,,Lyon\nShelf 1,Warehouse,\n",
        ),
        (
            "vendors",
            "name,email,address,Tier\nAcme,sales@acme.example,\"1 Main St\nSpringfield\",Gold\n\"Bolt, Co\",,,\n",
        ),
        (
            "fixed_assets",
            "name,group,location,purchased_on,identifier,daily,price,late_fee_kind,late_fee_amount,Condition\n\
             Canon R5,Cameras,Shelf 1,03/15/2024,CAM-1,\"1,250.00\",3500,day,\"1,000\",New\n\
             Tripod,Stands,,2024-03-16,,12.5,,,,\n",
        ),
        (
            "customers",
            "first_name,last_name,email,country,Tier\nAda,Lovelace,ada@example.com,fr,Gold\nGrace,Hopper,,,\n",
        ),
    ];
    for (what, file) in seeds {
        let done = import(&app, what, file, &[("import[create_missing]", "true")]).await;
        assert_eq!(done["state"], "done", "{what}: {done}");
    }
    for (what, _) in seeds {
        let list = || async {
            unchanged(Value::Array(match what {
                "locations" => locations(&app).await,
                "vendors" => vendors(&app).await,
                "fixed_assets" => assets(&app).await,
                _ => customers(&app).await,
            }))
        };
        let before = list().await;
        let res = app.get(&format!("/exports/{what}.api")).await;
        assert_eq!(res.status, StatusCode::OK, "{what}: {}", res.text);
        assert_eq!(res.headers["content-type"], "text/csv", "{what}");
        assert_eq!(
            res.headers["content-disposition"],
            format!("attachment; filename=\"{what}.csv\"")
        );
        let again = import(&app, what, &res.text, &[]).await;
        assert_eq!(again["state"], "done", "{what}: {again}\n{}", res.text);
        assert_eq!(again["created"], 0, "{what}: {again}");
        assert_eq!(again["updated"], 2, "{what}: {again}");
        assert_eq!(list().await, before, "{what}: {}", res.text);
    }
    // The columns are the import's, custom fields last, values as the API shows them.
    let csv = app.get("/exports/vendors.api").await.text;
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("id,name,"), "{header}");
    assert!(header.ends_with(",Tier"), "{header}");
    assert!(csv.contains("\"1 Main St\nSpringfield\""), "{csv}");
    assert!(csv.contains("\"Bolt, Co\""), "{csv}");
    let assets_csv = app.get("/exports/fixed_assets.api").await.text;
    let header: Vec<&str> = assets_csv.lines().next().unwrap().split(',').collect();
    let canon: Vec<&str> = assets_csv.lines().nth(1).unwrap().split(',').collect();
    let cell = |name: &str| canon[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(
        (
            cell("sequence_num"),
            cell("daily"),
            cell("price"),
            cell("late_fee_kind"),
            cell("late_fee_amount"),
            cell("Condition")
        ),
        ("1", "1250.00", "3500.00", "day", "1000.00", "New"),
        "{assets_csv}"
    );
}

async fn exports_stream_every_record_in_batches_as_csv_or_json_lines(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    // More than two batches of 500.
    let mut file = String::from("name\n");
    for n in 1..=1201 {
        file.push_str(&format!("Vendor {n:04}\n"));
    }
    let done = import(&app, "vendors", &file, &[]).await;
    assert_eq!(done["created"], 1201, "{done}");
    let csv = app.get("/exports/vendors.api?format=csv").await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines.len(), 1202);
    assert!(lines[1].contains(",Vendor 0001,"), "{}", lines[1]);
    assert!(lines[1201].contains(",Vendor 1201,"), "{}", lines[1201]);
    let jsonl = app.get("/exports/vendors.api?format=jsonl").await;
    assert_eq!(jsonl.status, StatusCode::OK);
    assert_eq!(jsonl.headers["content-type"], "application/x-ndjson");
    let records: Vec<Value> = jsonl
        .text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    assert_eq!(records.len(), 1201);
    assert!(
        jsonl
            .text
            .starts_with("{\"id\":1,\"name\":\"Vendor 0001\","),
        "in the columns' order: {}",
        &jsonl.text[..80]
    );
    let ids: Vec<i64> = records.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "every record once, by id"
    );
    assert_eq!(records[0]["name"], "Vendor 0001");
    assert_eq!(records[0]["email"], Value::Null);
    // A bad format is a 422 naming it; another company's records do not exist.
    let bad = app.get("/exports/vendors.api?format=xml").await;
    bad.expect_invalid("format");
    let theirs = other.get("/exports/vendors.api").await;
    assert_eq!(theirs.status, StatusCode::OK);
    assert_eq!(theirs.text.lines().count(), 1, "{}", theirs.text);
    assert_eq!(
        other.get("/exports/vendors.api?format=jsonl").await.text,
        ""
    );
}

async fn members(app: &TestApp) -> Vec<Value> {
    let path = "/members.api?filter=status&filter_val=all&include_custom_fields=true";
    list(app, path, "members").await
}

async fn members_import_with_roles_and_teams_and_export_without_the_owner(kind: Kind) {
    let app = TestApp::new(kind).await;
    let (crew, office) = (app.team("Crew").await, app.team("Office").await);
    let owner = members(&app).await[0]["email"].as_str().unwrap().to_owned();
    // Bad rows: an e-mail twice, an unknown team, a role that is none, no last name, the
    // owner (whose details the API does not change), a login without an e-mail.
    let file = format!(
        "first_name,last_name,email,role_id,team_ids,login_enabled\n\
         Ada,Lovelace,ada@example.com,2,,true\n\
         Ada,Again,ADA@example.com,2,,true\n\
         Bob,Stone,bob@example.com,2,999999,true\n\
         Cy,Role,cy@example.com,999999,,true\n\
         Di,,di@example.com,2,,true\n\
         Ed,Owner,{owner},1,,true\n\
         Flo,Nomail,,2,,true\n"
    );
    let failed = import(&app, "members", &file, &[]).await;
    assert_eq!(failed["state"], "failed", "{failed}");
    let rows = rows_and_columns(&failed);
    assert_eq!(
        rows,
        [
            (3, "email"),
            (4, "team_ids"),
            (5, "role_id"),
            (6, "last_name"),
            (7, ""),
            (8, "email")
        ],
        "{failed}"
    );
    assert_eq!(members(&app).await.len(), 1, "nothing was written");

    let file = format!(
        "first_name,last_name,email,role_id,team_ids,login_enabled\n\
         Ada,Lovelace,ADA@example.com,1,\"{crew},{office}\",true\n\
         Bob,Stone,,2,{crew},false\n"
    );
    let done = import(&app, "members", &file, &[]).await;
    assert_eq!(done["state"], "done", "{done}");
    let got = members(&app).await;
    assert_eq!(got.len(), 3);
    let ada = got.iter().find(|m| m["first_name"] == "Ada").unwrap();
    assert_eq!(ada["email"], "ada@example.com");
    assert_eq!(ada["role_id"], 1);
    assert_eq!(ada["team_ids"], json!([crew, office]));
    let bob = got.iter().find(|m| m["first_name"] == "Bob").unwrap();
    assert_eq!(bob["login_enabled"], false);

    // The export leaves the owner out and imports back unchanged.
    let before = unchanged(Value::Array(members(&app).await));
    let csv = app.get("/exports/members.api").await.text;
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(!csv.contains(&owner), "{csv}");
    assert!(csv.contains(&format!("\"{crew},{office}\"")), "{csv}");
    let again = import(&app, "members", &csv, &[]).await;
    assert_eq!(
        (again["created"].clone(), again["updated"].clone()),
        (json!(0), json!(2)),
        "{again}"
    );
    assert_eq!(unchanged(Value::Array(members(&app).await)), before);

    // A row giving Bob Ada's e-mail breaks a unique key in the database. PostgreSQL
    // then ends the transaction: the import says the later rows were not checked.
    let bob = bob["id"].as_i64().unwrap();
    let file = format!(
        "id,email,first_name,last_name,role_id\n\
         {bob},ada@example.com,Bob,Stone,2\n\
         ,cy@example.com,Cy,,2\n"
    );
    let failed = import(&app, "members", &file, &[]).await;
    assert_eq!(failed["state"], "failed", "{failed}");
    let rows = rows_and_columns(&failed);
    match kind {
        Kind::Sqlite => {
            assert_eq!(rows, [(2, "email"), (3, "last_name")], "{failed}");
            assert_eq!(failed["message"], Value::Null);
        }
        Kind::Postgres => {
            assert_eq!(rows, [(2, "email")], "{failed}");
            assert!(
                failed["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("row 2 failed in the database"),
                "{failed}"
            );
        }
    }
    assert_eq!(unchanged(Value::Array(members(&app).await)), before);
}

async fn groups_and_their_subgroups_import_by_name_and_export(kind: Kind) {
    let app = TestApp::new(kind).await;
    let groups = || async {
        let all = list(&app, "/assets/classification_view.api", "groups").await;
        unchanged(Value::Array(all))
    };
    let sub_groups = || async {
        let all = list(&app, "/groups/get_sub_groups.api", "sub_groups").await;
        unchanged(Value::Array(all))
    };
    let file = "name,description,asset_depreciation_mode\n\
                Cameras,Bodies and lenses,Percentage\n\
                Lights,,\n";
    let done = import(&app, "groups", file, &[]).await;
    assert_eq!(
        (done["state"].clone(), done["created"].clone()),
        (json!("done"), json!(2)),
        "{done}"
    );
    let got = groups().await;
    assert_eq!(got[0]["group"]["name"], "Cameras");
    assert_eq!(got[0]["group"]["asset_depreciation_mode"], "Percentage");
    assert_eq!(got[1]["group"]["asset_depreciation_mode"], "Useful Life");

    // Bad rows: an unknown group, an unknown parent, no name, no group.
    let file = "group,name,parent\n\
                Nope,Xray,\n\
                Cameras,Yank,Missing\n\
                Cameras,,\n\
                ,Zulu,\n";
    let failed = import(&app, "sub_groups", file, &[]).await;
    let rows = rows_and_columns(&failed);
    assert_eq!(
        rows,
        [(2, "group"), (3, "parent"), (4, "name"), (5, "group")],
        "{failed}"
    );
    assert_eq!(sub_groups().await, json!([]), "nothing was written");

    // A subgroup names its parent, an earlier row's, by name within its group.
    let file = "group,name,parent,description\n\
                Cameras,Bodies,,Camera bodies\n\
                Cameras,Mirrorless,Bodies,\n\
                Lights,LED,,\n";
    let done = import(&app, "sub_groups", file, &[]).await;
    assert_eq!(
        (done["state"].clone(), done["created"].clone()),
        (json!("done"), json!(3)),
        "{done}"
    );
    let got = sub_groups().await;
    let named = |name: &str| {
        got.as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(named("Mirrorless")["parent_id"], named("Bodies")["id"]);
    assert_eq!(named("Mirrorless")["group_id"], named("Bodies")["group_id"]);
    assert_ne!(named("LED")["group_id"], named("Bodies")["group_id"]);

    // Both export and import back unchanged.
    let (groups_before, subs_before) = (groups().await, sub_groups().await);
    for what in ["groups", "sub_groups"] {
        let csv = app.get(&format!("/exports/{what}.api")).await.text;
        let again = import(&app, what, &csv, &[]).await;
        assert_eq!(again["state"], "done", "{what}: {again}\n{csv}");
        assert_eq!(again["created"], 0, "{what}: {again}");
    }
    assert_eq!(groups().await, groups_before);
    assert_eq!(sub_groups().await, subs_before);
}

async fn businesses_and_their_contacts_import_and_export(kind: Kind) {
    let app = TestApp::new(kind).await;
    let list = |path: &'static str, key: &'static str| {
        let app = &app;
        async move { unchanged(Value::Array(list(app, path, key).await)) }
    };
    let file = "name,email,industry\nAcme Rentals,info@acme.example,Film\nBolt Co,,\n";
    let done = import(&app, "businesses", file, &[]).await;
    assert_eq!(
        (done["state"].clone(), done["created"].clone()),
        (json!("done"), json!(2)),
        "{done}"
    );
    let businesses = list("/businesses.api", "businesses").await;
    let id = |n: usize| businesses[n]["id"].as_i64().unwrap();
    assert_eq!(businesses[0]["industry"], "Film");

    // A contact names its businesses by id, a comma list in one cell, and is matched by
    // e-mail; a business that is none is a bad row.
    let file = format!(
        "first_name,last_name,email,business_ids\n\
         Ada,Lovelace,ada@acme.example,\"{},{}\"\n\
         Bob,Stone,bob@acme.example,999999\n",
        id(0),
        id(1)
    );
    let failed = import(&app, "contacts", &file, &[]).await;
    let brief = rows_and_columns(&failed);
    assert_eq!(brief, [(3, "business_ids")], "{failed}");
    let file = file.replace("999999", &id(1).to_string());
    let done = import(&app, "contacts", &file, &[]).await;
    assert_eq!(
        (done["state"].clone(), done["created"].clone()),
        (json!("done"), json!(2)),
        "{done}"
    );
    let contacts = list("/contacts.api", "contacts").await;
    assert_eq!(
        contacts[0]["business_ids"],
        json!([id(0), id(1)]),
        "{contacts}"
    );
    let again = import(&app, "contacts", &file, &[]).await;
    assert_eq!(
        (again["created"].clone(), again["updated"].clone()),
        (json!(0), json!(2)),
        "{again}"
    );

    for (what, path) in [
        ("businesses", "/businesses.api"),
        ("contacts", "/contacts.api"),
    ] {
        let before = list(path, what).await;
        let csv = app.get(&format!("/exports/{what}.api")).await.text;
        let again = import(&app, what, &csv, &[]).await;
        assert_eq!(again["state"], "done", "{what}: {again}\n{csv}");
        assert_eq!(again["created"], 0, "{what}: {again}");
        assert_eq!(list(path, what).await, before, "{what}: {csv}");
    }
}

async fn stock_kinds_import_their_opening_stock_and_export_it(kind: Kind) {
    let app = TestApp::new(kind).await;
    let create = &[("import[create_missing]", "true")];
    let file = "name,group,location,identifier,quantity,daily\n\
                Batteries,Power,Shelf 1,BAT-1,40,1.00\n\
                Cables,Power,Shelf 2,CAB-1,0,\n";
    let done = import(&app, "inventory", file, create).await;
    assert_eq!(
        (done["state"].clone(), done["created"].clone()),
        (json!("done"), json!(2)),
        "{done}"
    );
    let list = || async { unchanged(Value::Array(list(&app, "/inventory.api", "assets").await)) };
    let got = list().await;
    let named = |name: &str| {
        got.as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(named("Batteries")["total_quantity"], 40, "{got}");
    assert_eq!(named("Cables")["total_quantity"], 0, "{got}");

    // The same file again changes nothing; another quantity is a bad row (an import
    // moves no stock), as is one that is no number of units.
    let again = import(&app, "inventory", file, &[]).await;
    assert_eq!(
        (again["state"].clone(), again["updated"].clone()),
        (json!("done"), json!(2)),
        "{again}"
    );
    let file = "name,group,location,identifier,quantity\n\
                Batteries,Power,Shelf 1,BAT-1,41\n\
                Fuses,Power,Shelf 1,FUS-1,-1\n";
    let failed = import(&app, "inventory", file, &[]).await;
    assert_eq!(
        rows_and_columns(&failed),
        [(2, "quantity"), (3, "quantity")],
        "{failed}"
    );
    assert!(
        failed["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("differs from the 40 units at Shelf 1 now"),
        "{failed}"
    );
    assert_eq!(list().await, got, "nothing was written");

    // The export writes each item's units at its own location and imports back.
    let csv = app.get("/exports/inventory.api").await.text;
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let batteries: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "quantity").unwrap();
    assert_eq!(batteries[at], "40", "{csv}");
    let again = import(&app, "inventory", &csv, &[]).await;
    assert_eq!(
        (again["state"].clone(), again["created"].clone()),
        (json!("done"), json!(0)),
        "{again}\n{csv}"
    );
    assert_eq!(list().await, got);

    // Stock assets alike.
    let file = "name,group,location,identifier,quantity\nChairs,Furniture,Hall,CHR-1,120\n";
    let done = import(&app, "stock_assets", file, create).await;
    assert_eq!(done["state"], "done", "{done}");
    let stock = app.get("/stock_assets.api").await.into_body(StatusCode::OK);
    assert_eq!(stock["assets"][0]["total_quantity"], 120, "{stock}");
    let csv = app.get("/exports/stock_assets.api").await.text;
    let again = import(&app, "stock_assets", &csv, &[]).await;
    assert_eq!(
        (again["state"].clone(), again["updated"].clone()),
        (json!("done"), json!(1)),
        "{again}\n{csv}"
    );
}

async fn stock_at_several_locations_imports_in_further_rows_and_exports_so(kind: Kind) {
    let app = TestApp::new(kind).await;
    let create = &[("import[create_missing]", "true")];
    // An item's first row creates it with its stock at its location; each further row
    // naming it (by identifier, or by number) gives its stock at another location.
    let file = "name,group,location,identifier,quantity\n\
                Batteries,Power,Shelf 1,BAT-1,40\n\
                ,,Shelf 2,BAT-1,15\n\
                Cables,Power,Shelf 1,CAB-1,5\n\
                ,,Van,BAT-1,0\n";
    let done = import(&app, "inventory", file, create).await;
    assert_eq!(
        (
            done["state"].clone(),
            done["created"].clone(),
            done["updated"].clone()
        ),
        (json!("done"), json!(2), json!(0)),
        "{done}"
    );
    assert_eq!(done["rows_total"], 4);
    let list = || async { unchanged(Value::Array(list(&app, "/inventory.api", "assets").await)) };
    let got = list().await;
    let batteries = got
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "Batteries")
        .unwrap()
        .clone();
    assert_eq!(batteries["total_quantity"], 55, "{got}");
    let number = batteries["sequence_num"].as_i64().unwrap();
    let shelf2 = locations(&app)
        .await
        .into_iter()
        .find(|l| l["name"] == "Shelf 2")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let at = app
        .get(&format!(
            "/locations/get_quantity_by_location.api?asset_id={number}&location_id={shelf2}"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(at["quantity"], 15, "{at}");
    let history = app
        .get(&format!("/inventory/{number}/history.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        history.to_string().matches("\"imported\"").count(),
        2,
        "{history}"
    );

    // A further row gives nothing but its stock; needs a location (another than the
    // rows before gave) and units. Nothing of the file is written.
    let file = "name,group,location,identifier,quantity\n\
                Fuses,Power,Shelf 1,FUS-1,10\n\
                Fuses again,,Shelf 2,FUS-1,3\n\
                ,,,FUS-1,3\n\
                ,,Shelf 1,FUS-1,3\n\
                ,,Van,FUS-1,\n";
    let failed = import(&app, "inventory", file, &[]).await;
    assert_eq!(
        rows_and_columns(&failed),
        [
            (3, "name"),
            (4, "location"),
            (5, "location"),
            (6, "quantity")
        ],
        "{failed}"
    );
    assert!(
        failed["errors"][2]["message"]
            .as_str()
            .unwrap()
            .starts_with("is where row 2 gave item #"),
        "{failed}"
    );
    assert_eq!(list().await, got, "nothing was written");

    // The export writes a row for each other location with stock, after the item's
    // own; it imports back unchanged, and another count there is a bad row.
    let csv = app.get("/exports/inventory.api").await.text;
    assert_eq!(csv.lines().count(), 1 + 2 + 1, "{csv}");
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let further: Vec<&str> = csv.lines().nth(2).unwrap().split(',').collect();
    let cell =
        |row: &[&str], name: &str| row[header.iter().position(|h| *h == name).unwrap()].to_owned();
    assert_eq!(
        (
            cell(&further, "sequence_num"),
            cell(&further, "identifier"),
            cell(&further, "location_id"),
            cell(&further, "quantity"),
            cell(&further, "name"),
        ),
        (
            number.to_string(),
            "BAT-1".into(),
            shelf2.to_string(),
            "15".into(),
            String::new()
        ),
        "{csv}"
    );
    let again = import(&app, "inventory", &csv, &[]).await;
    assert_eq!(
        (
            again["state"].clone(),
            again["created"].clone(),
            again["updated"].clone()
        ),
        (json!("done"), json!(0), json!(2)),
        "{again}\n{csv}"
    );
    assert_eq!(list().await, got);
    let mut more = further.clone();
    more[header.iter().position(|h| *h == "quantity").unwrap()] = "16";
    let changed = csv.replacen(csv.lines().nth(2).unwrap(), &more.join(","), 1);
    let failed = import(&app, "inventory", &changed, &[]).await;
    assert_eq!(rows_and_columns(&failed), [(3, "quantity")], "{failed}");
    assert!(
        failed["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("differs from the 15 units at Shelf 2 now"),
        "{failed}"
    );
}
