//! `/openapi.json` is checked against a snapshot, one file per path
//! (`tests/snapshots/openapi/`) and one for the rest of the document, so a change
//! shows as the paths it touches. After an intended change, run
//! `UPDATE_SNAPSHOTS=1 cargo test -p web --test api openapi::` and review the diff.

use crate::common::openapi_document;
use std::collections::{BTreeMap, BTreeSet};

/// The snapshot's files: `_document.json` (everything but the paths) and one per path,
/// named after it (`/locations/{id}.api` → `locations~{id}.api.json`).
fn snapshot_files(doc: &serde_json::Value) -> BTreeMap<String, String> {
    let mut rest = doc.clone();
    let paths = rest
        .as_object_mut()
        .and_then(|d| d.remove("paths"))
        .unwrap_or_default();
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap() + "\n";
    let mut files = BTreeMap::from([("_document.json".to_owned(), pretty(&rest))]);
    for (path, item) in paths.as_object().into_iter().flatten() {
        let name = path.trim_start_matches('/').replace('/', "~");
        files.insert(format!("{name}.json"), pretty(item));
    }
    files
}

#[test]
fn openapi_matches_snapshot() {
    let files = snapshot_files(openapi_document());
    // The directory cargo runs the test in, not the one it was compiled in: with a shared
    // target directory a test binary built in another checkout can be reused here.
    let dir = std::env::var("CARGO_MANIFEST_DIR")
        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    let dir = std::path::Path::new(&dir).join("tests/snapshots/openapi");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut stored = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        stored.insert(
            name,
            std::fs::read_to_string(entry.path()).unwrap_or_default(),
        );
    }
    let changed: BTreeSet<&String> = files
        .keys()
        .chain(stored.keys())
        .filter(|name| files.get(*name) != stored.get(*name))
        .collect();
    assert!(
        changed.is_empty(),
        "openapi.json changed in {changed:?}; rerun with UPDATE_SNAPSHOTS=1 and review the diff"
    );
}

#[test]
fn every_route_is_documented_with_its_methods() {
    let doc = openapi_document();
    let paths = doc["paths"].as_object().unwrap();
    for (path, methods) in [
        ("/locations.api", &["post"][..]),
        ("/locations/get_line_item_locations.api", &["get"]),
        ("/locations/{id}.api", &["get", "put", "patch"]),
        ("/locations/{id}/activate.api", &["put", "patch"]),
        ("/locations/{id}/deactivate.api", &["put", "patch"]),
        ("/locations/{id}/quantities_by_asset_ids.api", &["get"]),
        ("/groups.api", &["post"]),
        ("/assets/classification_view.api", &["get"]),
        ("/groups/{id}.api", &["get", "put", "patch", "delete"]),
        ("/groups/{group_id}/sub_groups.api", &["post"]),
        ("/groups/get_sub_groups.api", &["get"]),
        (
            "/groups/{group_id}/sub_groups/{id}.api",
            &["get", "put", "patch", "delete"],
        ),
        ("/vendors.api", &["post"]),
        ("/assets/vendors.api", &["get"]),
        ("/vendors/{id}.api", &["get", "put", "patch"]),
        ("/healthz", &["get"]),
    ] {
        for m in methods {
            assert!(
                paths.get(path).and_then(|p| p.get(*m)).is_some(),
                "{m} {path} missing from openapi.json"
            );
        }
    }
}

/// Every API operation with its path and method.
fn api_operations(doc: &serde_json::Value) -> Vec<(String, String, serde_json::Value)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.ends_with(".api") {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            ops.push((path.clone(), method.clone(), op.clone()));
        }
    }
    ops
}

#[test]
fn every_operation_documents_the_statuses_the_server_answers() {
    let doc = openapi_document();
    let ops = api_operations(doc);
    assert!(ops.len() > 50, "{} operations", ops.len());
    for (path, method, op) in ops {
        let responses = op["responses"].as_object().unwrap();
        let mut expected = vec![
            "200", "400", "401", "403", "404", "413", "414", "422", "429", "503",
        ];
        if method != "get" {
            expected.push("409");
        }
        for status in &expected {
            assert!(
                responses.contains_key(*status),
                "{method} {path} does not document {status}"
            );
        }
        assert_eq!(
            responses.len(),
            expected.len(),
            "{method} {path}: {:?}",
            responses.keys()
        );
        // 414 comes from hyper, before any handler, with no body.
        assert!(
            doc["components"]["responses"]["414"]
                .get("content")
                .is_none()
        );
        for status in expected.iter().filter(|s| !["200", "414"].contains(*s)) {
            let response = &doc["components"]["responses"][*status];
            assert_eq!(
                response["content"]["application/json"]["schema"]["$ref"],
                "#/components/schemas/Error",
                "{status}"
            );
        }
        let content = responses["200"]["content"].as_object().unwrap();
        if !content.contains_key("application/json") {
            // A file streamed (an export): CSV and JSON lines, each a text.
            assert_eq!(
                content.keys().collect::<Vec<_>>(),
                ["application/x-ndjson", "text/csv"],
                "{method} {path}"
            );
            assert!(content.values().all(|c| c["schema"]["type"] == "string"));
            continue;
        }
        let success = resolved(
            doc,
            &responses["200"]["content"]["application/json"]["schema"],
        );
        let names = success["required"].as_array();
        assert!(
            names.is_some_and(|n| !n.is_empty()),
            "{method} {path}: the 200 body names no key: {success}"
        );
    }
    for status in ["429", "503"] {
        assert!(
            doc["components"]["responses"][status]["headers"]["Retry-After"].is_object(),
            "{status} documents Retry-After"
        );
    }
}

#[test]
fn errors_are_a_message_and_field_problems() {
    let error = &openapi_document()["components"]["schemas"]["Error"];
    assert_eq!(error["required"], serde_json::json!(["message"]));
    assert_eq!(error["properties"]["message"]["type"], "string");
    let errors = &error["properties"]["errors"];
    assert_eq!(errors["type"], "object");
    assert_eq!(errors["additionalProperties"]["type"], "array");
    assert_eq!(errors["additionalProperties"]["items"]["type"], "string");
}

#[test]
fn lists_answer_pages_and_writes_answer_the_record() {
    let doc = openapi_document();
    let members = &doc["paths"]["/members.api"];
    let page = &members["get"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(
        page["required"],
        serde_json::json!(["members", "total_pages", "current_page"])
    );
    assert_eq!(page["properties"]["members"]["type"], "array");
    let created = &members["post"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(created["required"], serde_json::json!(["member"]));
    let added = resolved(
        doc,
        &doc["paths"]["/contacts/add_existing_contacts_to_business.api"]["post"]["responses"]["200"]
            ["content"]["application/json"]["schema"],
    );
    assert_eq!(
        added["required"],
        serde_json::json!(["business_id", "contacts"])
    );
}

/// `schema`, or the component it refers to (the typed body of `Doc::answers`).
fn resolved<'a>(
    doc: &'a serde_json::Value,
    schema: &'a serde_json::Value,
) -> &'a serde_json::Value {
    match schema["$ref"].as_str() {
        Some(reference) => doc
            .pointer(reference.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("{reference} is in the document")),
        None => schema,
    }
}

#[test]
fn parameters_have_their_real_types() {
    let doc = openapi_document();
    let param = |path: &str, method: &str, name: &str| -> serde_json::Value {
        doc["paths"][path][method]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{method} {path} has no parameter {name}"))
            .clone()
    };
    let id = param("/groups/{group_id}/sub_groups/{id}.api", "get", "id");
    assert_eq!(id["in"], "path");
    assert_eq!(id["schema"]["type"], "integer");
    assert_eq!(id["schema"]["minimum"], 1);
    // A value that may be left out may be sent empty (or spaces only) too: `anyOf` the
    // value and a blank text.
    let value = |schema: &serde_json::Value| match schema.get("anyOf") {
        Some(any) => {
            assert_eq!(any[1]["type"], "string");
            assert!(
                any[1]["pattern"]
                    .as_str()
                    .unwrap()
                    .starts_with("^[\\t\\n\\r "),
                "{any}"
            );
            any[0].clone()
        }
        None => schema.clone(),
    };
    let page = value(&param("/members.api", "get", "page")["schema"]);
    assert_eq!(page["type"], "integer");
    assert_eq!(page["minimum"], 1);
    // A flag is a boolean, or one of its spellings as text (a form sends text).
    let flag = param("/locations/{id}.api", "get", "include_custom_fields");
    assert_eq!(flag["schema"]["anyOf"][0]["type"], "boolean");
    assert_eq!(flag["schema"]["anyOf"][1]["type"], "string");
    let group = param("/groups/get_sub_groups.api", "get", "group_id");
    assert_eq!(value(&group["schema"])["type"], "integer");
    // A list's parameters are its GET's, not its create's.
    assert!(
        doc["paths"]["/custom_taxes.api"]["post"]["parameters"]
            .as_array()
            .is_none_or(|ps| ps.iter().all(|p| p["name"] != "page"))
    );

    // Writes take the record's fields as a body: flat in a form, nested in JSON.
    let body = &doc["paths"]["/members.api"]["post"]["requestBody"]["content"];
    let form = &body["application/x-www-form-urlencoded"]["schema"];
    assert_eq!(
        value(&form["properties"]["user[role_id]"])["type"],
        "integer"
    );
    assert_eq!(form["properties"]["user[team_ids][]"]["type"], "array");
    // A map's entries are typed by the pattern of their names, in a write's body only.
    let group = &doc["paths"]["/groups/{id}.api"];
    let rates = group["put"]["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]
        ["patternProperties"]
        .as_object()
        .unwrap();
    assert!(
        rates
            .iter()
            .any(|(name, value)| name.starts_with("^depreciation_rates\\[")
                && value.to_string().contains("exclusiveMinimum")),
        "{rates:?}"
    );
    assert!(
        !group["get"]["parameters"]
            .to_string()
            .contains("depreciation_rates")
    );
    // One of two fields of different objects: at the object that holds both.
    let reservation = &doc["paths"]["/assets/{sequence_num}/reservation_requests.api"]["post"]["requestBody"]
        ["content"]["application/json"]["schema"];
    assert_eq!(
        reservation["anyOf"][0]["required"],
        serde_json::json!(["user"])
    );
    assert_eq!(
        reservation["anyOf"][0]["properties"]["user"]["required"],
        serde_json::json!(["id"])
    );
    assert_eq!(
        reservation["anyOf"][1]["required"],
        serde_json::json!(["user_id"])
    );
    // A blank entry is skipped: `user[team_ids][]=` sends an empty list.
    assert_eq!(
        form["properties"]["user[team_ids][]"]["items"]["anyOf"][0]["type"],
        "integer"
    );
    assert_eq!(
        form["properties"]["user[team_ids][]"]["items"]["anyOf"][1]["type"],
        "string"
    );
    assert_eq!(
        value(&form["properties"]["user[employee_id]"])["type"],
        "string"
    );
    assert_eq!(
        form["properties"]["user[login_enabled]"]["anyOf"][0]["type"],
        "boolean"
    );
    // Only the fields listed (and the custom fields' map, by a pattern), as text or,
    // sent twice, a list of texts whose last is taken; JSON's null is a field left out.
    assert_eq!(
        form["additionalProperties"]["anyOf"][0]["type"][0],
        "string"
    );
    assert_eq!(
        form["additionalProperties"]["anyOf"][1]["items"]["type"][0],
        "string"
    );
    assert_eq!(
        body["application/json"]["schema"]["properties"]["user"]["properties"]["employee_id"]["anyOf"]
            [1],
        serde_json::json!({"type": "null"})
    );
    assert_eq!(
        form["required"],
        serde_json::json!(["user[first_name]", "user[last_name]", "user[role_id]"])
    );
    // A multipart part's name holds no quote either; the fields are the same.
    let mut multipart = body["multipart/form-data"]["schema"].clone();
    let mut urlencoded = form.clone();
    for schema in [&mut multipart, &mut urlencoded] {
        schema.as_object_mut().unwrap().remove("propertyNames");
    }
    assert_eq!(multipart, urlencoded);
    let json = &body["application/json"]["schema"];
    assert_eq!(json["required"], serde_json::json!(["user"]));
    let user = &json["properties"]["user"];
    // In JSON an id list is also one id or a comma list, a free text also a number or
    // a boolean (read as their text), and a record that need not be sent may be null.
    let team_ids = &user["properties"]["team_ids"]["anyOf"][0]["anyOf"];
    assert_eq!(team_ids[0]["type"], "array");
    assert_eq!(
        team_ids[0]["items"]["anyOf"].as_array().unwrap().last(),
        Some(&serde_json::json!({"type": "null"})),
        "a null entry is dropped"
    );
    assert_eq!(team_ids[1]["type"], "integer");
    assert_eq!(team_ids[2]["type"], "string");
    assert_eq!(
        user["properties"]["employee_id"]["anyOf"][0]["type"],
        serde_json::json!(["string", "number", "boolean"])
    );
    assert_eq!(
        user["properties"]["login_enabled"]["anyOf"][0]["anyOf"][2],
        serde_json::json!({"type": "integer", "enum": [0, 1]})
    );
    // A map's keys hold no bracket (which would nest them) or control character.
    let custom = &user["properties"]["custom_attributes"];
    assert_eq!(custom["type"], serde_json::json!(["object", "null"]));
    assert_eq!(user["type"], "object", "required on create");
    let update = &doc["paths"]["/members/{id}.api"]["put"]["requestBody"]["content"]["application/json"]
        ["schema"];
    assert_eq!(
        update["properties"]["user"]["type"],
        serde_json::json!(["object", "null"])
    );
    assert!(
        custom["propertyNames"]["pattern"]
            .as_str()
            .unwrap()
            .starts_with("^[^\\[\\]")
    );
    assert!(
        form["propertyNames"]["pattern"]
            .as_str()
            .unwrap()
            .contains("|user\\[custom_attributes\\]\\[")
    );
    // A text's own rules, and no control character (`Params`).
    // One pattern holds both (client generators take an `allOf` for a new type).
    let first_name = &user["properties"]["first_name"];
    assert_eq!(first_name["minLength"], 1);
    let pattern = first_name["pattern"].as_str().unwrap();
    assert!(pattern.starts_with("^(?=[^\\u0000"), "{pattern}");
    assert!(!doc.to_string().contains("\"allOf\""));

    // Updates require nothing the spec calls "to be specified" (docs/api.md,
    // "Updates"); reads take no body.
    let update = &doc["paths"]["/customers/{id}.api"]["put"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
        ["schema"];
    assert!(update.get("required").is_none(), "{update}");
    let vendor = &doc["paths"]["/vendors/{id}.api"]["put"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
        ["schema"];
    assert!(vendor.get("required").is_none(), "{vendor}");
    assert!(
        doc["paths"]["/vendors/{id}.api"]["get"]
            .get("requestBody")
            .is_none()
    );
    let parent = &doc["paths"]["/locations.api"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
        ["schema"]["properties"]["location[parent_id]"];
    assert_eq!(value(&parent["anyOf"][0])["type"], "integer");
    assert_eq!(parent["anyOf"][1]["enum"], serde_json::json!(["null", "0"]));
}

#[test]
fn the_token_is_the_security_scheme_and_healthz_needs_none() {
    let doc = openapi_document();
    let scheme = &doc["components"]["securitySchemes"]["token"];
    assert_eq!(scheme["type"], "apiKey");
    assert_eq!(scheme["in"], "header");
    assert_eq!(scheme["name"], "token");
    assert_eq!(doc["security"], serde_json::json!([{"token": []}]));
    assert_eq!(
        doc["paths"]["/healthz"]["get"]["security"],
        serde_json::json!([])
    );
}
