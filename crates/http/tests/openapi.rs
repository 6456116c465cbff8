//! `/openapi.json` is checked against a snapshot. After an intended change, run
//! `UPDATE_SNAPSHOTS=1 cargo test -p rentrack-http --test openapi` and review the diff.

#[test]
fn openapi_matches_snapshot() {
    let actual = rentrack_http::openapi_json();
    // The directory cargo runs the test in, not the one it was compiled in: with a shared
    // target directory a test binary built in another checkout can be reused here.
    let dir = std::env::var("CARGO_MANIFEST_DIR")
        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    let path = std::path::Path::new(&dir).join("tests/snapshots/openapi.json");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "openapi.json changed; rerun with UPDATE_SNAPSHOTS=1 and review the diff"
    );
}

#[test]
fn every_route_is_documented_with_its_methods() {
    let doc: serde_json::Value = serde_json::from_str(&rentrack_http::openapi_json()).unwrap();
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
