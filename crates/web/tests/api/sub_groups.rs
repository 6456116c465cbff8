use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    answers_are_the_documented_record,
    create_under_a_group_and_read,
    create_validates_name_group_and_parent,
    parent_must_be_in_the_same_group,
    list_with_and_without_group,
    details_need_the_owning_group,
    update_changes_fields_and_refuses_cycles,
    racing_reparentings_never_form_a_cycle,
    delete_refuses_a_subgroup_with_children,
    delete_refuses_a_subgroup_with_items,
    other_companies_cannot_see_or_touch_a_subgroup,
);

/// Creates a subgroup under `group` and returns its id.
async fn sub_group(app: &TestApp, group: i64, name: &str, extra: &[(&str, &str)]) -> i64 {
    let mut form = vec![("sub_group[name]", name)];
    form.extend_from_slice(extra);
    let res = app
        .post(&format!("/groups/{group}/sub_groups.api"), &form)
        .await;
    res.expect(StatusCode::OK)["sub_group"]["id"]
        .as_i64()
        .expect("id")
}

/// Ids listed by `/groups/get_sub_groups.api` with the given query string.
async fn listed(app: &TestApp, query: &str) -> Vec<i64> {
    let res = app.get(&format!("/groups/get_sub_groups.api{query}")).await;
    res.expect(StatusCode::OK)["sub_groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect()
}

async fn create_under_a_group_and_read(kind: Kind) {
    let app = TestApp::new(kind).await;
    let gid = app.group("Furniture").await;
    let res = app
        .post(
            &format!("/groups/{gid}/sub_groups.api"),
            &[
                ("sub_group[name]", "Chairs"),
                ("sub_group[description]", "Things to sit on"),
            ],
        )
        .await;
    let sub = res.expect(StatusCode::OK)["sub_group"].clone();
    assert_eq!(sub["name"], "Chairs");
    assert_eq!(sub["description"], "Things to sit on");
    assert_eq!(sub["group_id"], gid);
    assert_eq!(sub["parent_id"], Value::Null);
    assert_eq!(sub["created_at"].as_str().unwrap().len(), 19);
    let id = sub["id"].as_i64().unwrap();

    let details = app.get(&format!("/groups/{gid}/sub_groups/{id}.api")).await;
    assert_eq!(details.expect(StatusCode::OK)["sub_group"], sub);

    // A child under it, and `null` as parent on create means no parent.
    let res = app
        .post(
            &format!("/groups/{gid}/sub_groups.api"),
            &[
                ("sub_group[name]", "Office Chairs"),
                ("sub_group[parent_id]", &id.to_string()),
            ],
        )
        .await;
    let child = &res.expect(StatusCode::OK)["sub_group"];
    assert_eq!(child["parent_id"], id);
    assert_eq!(child["group_id"], gid);
    let res = app
        .post(
            &format!("/groups/{gid}/sub_groups.api"),
            &[
                ("sub_group[name]", "Tables"),
                ("sub_group[parent_id]", "null"),
            ],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["sub_group"]["parent_id"],
        Value::Null
    );

    app.get(&format!("/groups/{gid}/sub_groups/999999.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    app.get(&format!("/groups/{gid}/sub_groups/abc.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn create_validates_name_group_and_parent(kind: Kind) {
    let app = TestApp::new(kind).await;
    let gid = app.group("Furniture").await;
    let path = format!("/groups/{gid}/sub_groups.api");

    app.post(
        "/groups/999999/sub_groups.api",
        &[("sub_group[name]", "Orphans")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    app.post(
        "/groups/abc/sub_groups.api",
        &[("sub_group[name]", "Orphans")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);

    app.post(&path, &[]).await.expect_invalid("name");
    app.post(&path, &[("sub_group[name]", "ab")])
        .await
        .expect_invalid("name");
    app.post(&path, &[("sub_group[name]", "   ")])
        .await
        .expect_invalid("name");
    app.post(
        &path,
        &[("sub_group[name]", "Desks"), ("sub_group[parent_id]", "x")],
    )
    .await
    .expect_invalid("parent_id");
    app.post(
        &path,
        &[("sub_group[name]", "Desks"), ("sub_group[parent_id]", "-3")],
    )
    .await
    .expect_invalid("parent_id");
    app.post(
        &path,
        &[
            ("sub_group[name]", "Desks"),
            ("sub_group[parent_id]", "987654"),
        ],
    )
    .await
    .expect_invalid("parent_id");
    let res = app
        .post(
            &path,
            &[("sub_group[name]", "ab"), ("sub_group[parent_id]", "x")],
        )
        .await;
    res.expect_invalid("name");
    res.expect_invalid("parent_id");

    // Nothing was written by the refused requests.
    assert!(listed(&app, "").await.is_empty());
}

async fn parent_must_be_in_the_same_group(kind: Kind) {
    let app = TestApp::new(kind).await;
    let furniture = app.group("Furniture").await;
    let vehicles = app.group("Vehicles").await;
    let trucks = sub_group(&app, vehicles, "Trucks", &[]).await;

    app.post(
        &format!("/groups/{furniture}/sub_groups.api"),
        &[
            ("sub_group[name]", "Chairs"),
            ("sub_group[parent_id]", &trucks.to_string()),
        ],
    )
    .await
    .expect_invalid("parent_id");
    assert!(
        listed(&app, &format!("?group_id={furniture}"))
            .await
            .is_empty(),
        "the refused create wrote nothing"
    );

    // The same parent is fine inside its own group.
    let pickups = sub_group(
        &app,
        vehicles,
        "Pickups",
        &[("sub_group[parent_id]", &trucks.to_string())],
    )
    .await;
    let res = app
        .get(&format!("/groups/{vehicles}/sub_groups/{pickups}.api"))
        .await;
    assert_eq!(res.expect(StatusCode::OK)["sub_group"]["parent_id"], trucks);

    // Moving under another group's subgroup is refused too.
    let chairs = sub_group(&app, furniture, "Chairs", &[]).await;
    app.put(
        &format!("/groups/{furniture}/sub_groups/{chairs}.api"),
        &[
            ("sub_group[name]", "Chairs"),
            ("sub_group[parent_id]", &trucks.to_string()),
        ],
    )
    .await
    .expect_invalid("parent_id");
    let res = app
        .get(&format!("/groups/{furniture}/sub_groups/{chairs}.api"))
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["sub_group"]["parent_id"],
        Value::Null
    );
}

async fn list_with_and_without_group(kind: Kind) {
    let app = TestApp::new(kind).await;
    let empty = app.get("/groups/get_sub_groups.api").await;
    let body = empty.expect(StatusCode::OK);
    assert_eq!(body["sub_groups"], json!([]));
    assert_eq!(body["total_pages"], 0);

    let furniture = app.group("Furniture").await;
    let vehicles = app.group("Vehicles").await;
    let chairs = sub_group(&app, furniture, "Chairs", &[]).await;
    let trucks = sub_group(&app, vehicles, "Trucks", &[]).await;
    let tables = sub_group(&app, furniture, "Tables", &[]).await;

    let all = app.get("/groups/get_sub_groups.api").await;
    let body = all.expect(StatusCode::OK);
    let items = body["sub_groups"].as_array().unwrap();
    assert_eq!(
        items
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        vec![chairs, trucks, tables]
    );
    assert_eq!(items[1]["name"], "Trucks");
    assert_eq!(items[1]["group_id"], vehicles);
    assert_eq!(body["total_pages"], 1);
    assert_eq!(body["current_page"], 1);

    assert_eq!(
        listed(&app, &format!("?group_id={furniture}")).await,
        vec![chairs, tables]
    );
    assert_eq!(
        listed(&app, &format!("?group_id={vehicles}")).await,
        vec![trucks]
    );
    assert!(listed(&app, "?group_id=999999").await.is_empty());
    // An empty value means "not given".
    assert_eq!(
        listed(&app, "?group_id=").await,
        vec![chairs, trucks, tables]
    );

    app.get("/groups/get_sub_groups.api?group_id=abc")
        .await
        .expect_invalid("group_id");
    app.get("/groups/get_sub_groups.api?group_id=0")
        .await
        .expect_invalid("group_id");
    app.get("/groups/get_sub_groups.api?group_id=-1")
        .await
        .expect_invalid("group_id");
}

async fn details_need_the_owning_group(kind: Kind) {
    let app = TestApp::new(kind).await;
    let furniture = app.group("Furniture").await;
    let vehicles = app.group("Vehicles").await;
    let chairs = sub_group(&app, furniture, "Chairs", &[]).await;
    let wrong = format!("/groups/{vehicles}/sub_groups/{chairs}.api");

    app.get(&wrong).await.expect(StatusCode::NOT_FOUND);
    app.put(&wrong, &[("sub_group[name]", "Moved Chairs")])
        .await
        .expect(StatusCode::NOT_FOUND);
    app.delete(&wrong).await.expect(StatusCode::NOT_FOUND);
    app.get(&format!("/groups/999999/sub_groups/{chairs}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);

    let res = app
        .get(&format!("/groups/{furniture}/sub_groups/{chairs}.api"))
        .await;
    let sub = &res.expect(StatusCode::OK)["sub_group"];
    assert_eq!(
        sub["name"], "Chairs",
        "the wrong-group update changed nothing"
    );
    assert_eq!(sub["group_id"], furniture);
}

async fn update_changes_fields_and_refuses_cycles(kind: Kind) {
    let app = TestApp::new(kind).await;
    let gid = app.group("Furniture").await;
    let a = sub_group(
        &app,
        gid,
        "Seating",
        &[("sub_group[description]", "All seats")],
    )
    .await;
    let b = sub_group(
        &app,
        gid,
        "Chairs",
        &[("sub_group[parent_id]", &a.to_string())],
    )
    .await;
    let c = sub_group(
        &app,
        gid,
        "Office Chairs",
        &[("sub_group[parent_id]", &b.to_string())],
    )
    .await;
    let d = sub_group(&app, gid, "Benches", &[]).await;
    let path = |id: i64| format!("/groups/{gid}/sub_groups/{id}.api");
    let before = app.get(&path(a)).await.body["sub_group"].clone();

    // Name is required on update.
    app.put(&path(a), &[("sub_group[description]", "Changed")])
        .await
        .expect_invalid("name");
    app.put(&path(a), &[("sub_group[name]", "ab")])
        .await
        .expect_invalid("name");
    app.put(
        &path(a),
        &[("sub_group[name]", "Seats"), ("sub_group[parent_id]", "x")],
    )
    .await
    .expect_invalid("parent_id");

    // A subgroup cannot become its own ancestor, directly or through descendants.
    for parent in [a, b, c] {
        app.put(
            &path(a),
            &[
                ("sub_group[name]", "Seats"),
                ("sub_group[parent_id]", &parent.to_string()),
            ],
        )
        .await
        .expect_invalid("parent_id");
    }
    assert_eq!(
        app.get(&path(a)).await.body["sub_group"],
        before,
        "refused updates changed nothing"
    );

    // Fields left out are kept.
    let res = app.put(&path(a), &[("sub_group[name]", "Seats")]).await;
    let sub = &res.expect(StatusCode::OK)["sub_group"];
    assert_eq!(sub["name"], "Seats");
    assert_eq!(sub["description"], "All seats");
    assert_eq!(sub["parent_id"], Value::Null);
    let res = app
        .put(
            &path(c),
            &[
                ("sub_group[name]", "Desk Chairs"),
                ("sub_group[description]", "Swivel"),
            ],
        )
        .await;
    let sub = &res.expect(StatusCode::OK)["sub_group"];
    assert_eq!(sub["name"], "Desk Chairs");
    assert_eq!(sub["parent_id"], b, "parent kept when left out");

    // Moving a subtree elsewhere is fine, and null detaches.
    let res = app
        .put(
            &path(b),
            &[
                ("sub_group[name]", "Chairs"),
                ("sub_group[parent_id]", &d.to_string()),
            ],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["sub_group"]["parent_id"], d);
    // b's subtree left a, so a may now move under c.
    let res = app
        .put(
            &path(a),
            &[
                ("sub_group[name]", "Seats"),
                ("sub_group[parent_id]", &c.to_string()),
            ],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["sub_group"]["parent_id"], c);
    let res = app
        .put(
            &path(c),
            &[
                ("sub_group[name]", "Desk Chairs"),
                ("sub_group[parent_id]", "null"),
                ("sub_group[description]", "null"),
            ],
        )
        .await;
    let sub = &res.expect(StatusCode::OK)["sub_group"];
    assert_eq!(sub["parent_id"], Value::Null);
    assert_eq!(sub["description"], Value::Null);
    assert_eq!(app.get(&path(c)).await.body["sub_group"], *sub);

    app.put(&path(424242), &[("sub_group[name]", "Nobody")])
        .await
        .expect(StatusCode::NOT_FOUND);
}

/// Fifty pairs A, B: one request moves A under B while another moves B under A. At
/// most one of each pair may win; the loser is a 422 naming `parent_id`.
async fn racing_reparentings_never_form_a_cycle(kind: Kind) {
    let app = std::sync::Arc::new(TestApp::new(kind).await);
    let gid = app.group("Racing").await;
    let mut pairs = Vec::new();
    for i in 0..50 {
        pairs.push((
            sub_group(&app, gid, &format!("Left {i}"), &[]).await,
            sub_group(&app, gid, &format!("Right {i}"), &[]).await,
        ));
    }
    let mut tasks = Vec::new();
    for &(a, b) in &pairs {
        for (child, parent) in [(a, b), (b, a)] {
            let app = app.clone();
            tasks.push(tokio::spawn(async move {
                let path = format!("/groups/{gid}/sub_groups/{child}.api");
                let res = app
                    .put(
                        &path,
                        &[
                            ("sub_group[name]", &format!("Moved {child}")),
                            ("sub_group[parent_id]", &parent.to_string()),
                        ],
                    )
                    .await;
                (res.status, res.text)
            }));
        }
    }
    let mut moved = 0;
    for t in tasks {
        let (status, text) = t.await.unwrap();
        match status {
            StatusCode::OK => moved += 1,
            StatusCode::UNPROCESSABLE_ENTITY => assert!(text.contains("parent_id"), "{text}"),
            other => panic!("unexpected {other}: {text}"),
        }
    }
    assert_eq!(moved, 50, "exactly one move of each pair succeeds");

    let mut parent = std::collections::HashMap::new();
    for id in pairs.iter().flat_map(|&(a, b)| [a, b]) {
        let res = app.get(&format!("/groups/{gid}/sub_groups/{id}.api")).await;
        parent.insert(
            id,
            res.expect(StatusCode::OK)["sub_group"]["parent_id"].as_i64(),
        );
    }
    for &start in parent.keys() {
        let (mut at, mut steps) = (Some(start), 0);
        while let Some(id) = at {
            steps += 1;
            assert!(steps <= parent.len(), "subgroup {start} lies on a cycle");
            at = parent[&id];
        }
    }
}

async fn delete_refuses_a_subgroup_with_items(kind: Kind) {
    let app = TestApp::new(kind).await;
    let gid = app.group("Furniture").await;
    let chairs = sub_group(&app, gid, "Chairs", &[]).await;
    let tables = sub_group(&app, gid, "Tables", &[]).await;
    store::items::record(
        &app.db,
        app.company.id,
        "VolatileAsset",
        "Folding Chair",
        store::Id::new(gid),
        Some(store::Id::new(chairs)),
    )
    .await
    .expect("item recorded");
    let res = app
        .delete(&format!("/groups/{gid}/sub_groups/{chairs}.api"))
        .await;
    assert_eq!(
        res.expect(StatusCode::CONFLICT)["message"],
        "Subgroup \"Chairs\" still has 1 item(s); move them to another subgroup or delete them first."
    );
    app.get(&format!("/groups/{gid}/sub_groups/{chairs}.api"))
        .await
        .expect(StatusCode::OK);
    app.delete(&format!("/groups/{gid}/sub_groups/{tables}.api"))
        .await
        .expect(StatusCode::OK);
}

async fn delete_refuses_a_subgroup_with_children(kind: Kind) {
    let app = TestApp::new(kind).await;
    let gid = app.group("Furniture").await;
    let parent = sub_group(&app, gid, "Seating", &[]).await;
    let child = sub_group(
        &app,
        gid,
        "Chairs",
        &[("sub_group[parent_id]", &parent.to_string())],
    )
    .await;
    let path = |id: i64| format!("/groups/{gid}/sub_groups/{id}.api");

    let res = app.delete(&path(parent)).await;
    assert_eq!(
        res.expect(StatusCode::CONFLICT)["message"],
        "Subgroup \"Seating\" still has 1 child subgroup(s); delete or move them first."
    );
    app.get(&path(parent)).await.expect(StatusCode::OK);

    let res = app.delete(&path(child)).await;
    assert_eq!(res.expect(StatusCode::OK)["sub_group"]["id"], child);
    app.get(&path(child)).await.expect(StatusCode::NOT_FOUND);
    let res = app.delete(&path(parent)).await;
    assert_eq!(res.expect(StatusCode::OK)["sub_group"]["name"], "Seating");
    app.get(&path(parent)).await.expect(StatusCode::NOT_FOUND);
    app.delete(&path(parent))
        .await
        .expect(StatusCode::NOT_FOUND);
    assert!(listed(&app, "").await.is_empty());
    app.get(&format!("/groups/{gid}.api"))
        .await
        .expect(StatusCode::OK);
}

async fn other_companies_cannot_see_or_touch_a_subgroup(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let gid = a.group("Secret Group").await;
    let sid = sub_group(&a, gid, "Secret Sub", &[]).await;
    let path = format!("/groups/{gid}/sub_groups/{sid}.api");
    let before = a.get(&path).await.body["sub_group"].clone();

    b.get(&path).await.expect(StatusCode::NOT_FOUND);
    b.put(&path, &[("sub_group[name]", "Hijacked")])
        .await
        .expect(StatusCode::NOT_FOUND);
    b.delete(&path).await.expect(StatusCode::NOT_FOUND);
    b.post(
        &format!("/groups/{gid}/sub_groups.api"),
        &[("sub_group[name]", "Intruder")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    assert!(
        listed(&b, "").await.is_empty(),
        "another company's subgroup is not listed"
    );
    assert!(listed(&b, &format!("?group_id={gid}")).await.is_empty());

    // Nor can it hang its own subgroup under the other company's subgroup.
    let their_group = b.group("Their Group").await;
    b.post(
        &format!("/groups/{their_group}/sub_groups.api"),
        &[
            ("sub_group[name]", "Theirs"),
            ("sub_group[parent_id]", &sid.to_string()),
        ],
    )
    .await
    .expect_invalid("parent_id");
    let theirs = sub_group(&b, their_group, "Theirs", &[]).await;
    assert_eq!(listed(&b, "").await, vec![theirs]);
    assert_eq!(listed(&a, "").await, vec![sid]);
    assert_eq!(
        a.get(&path).await.expect(StatusCode::OK)["sub_group"],
        before,
        "untouched by the other company"
    );
}

/// Every answer carrying a subgroup matches the document's `SubGroup`.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let top = app
        .post(
            &format!("/groups/{group}/sub_groups.api"),
            &[("sub_group[name]", "Lenses")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/groups/{group_id}/sub_groups.api", "post", &top);
    let parent = top["sub_group"]["id"].to_string();
    let child = app
        .post(
            &format!("/groups/{group}/sub_groups.api"),
            &[
                ("sub_group[name]", "Primes"),
                ("sub_group[parent_id]", &parent),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(child["sub_group"]["parent_id"].to_string(), parent);
    let path = format!(
        "/groups/{group}/sub_groups/{}.api",
        child["sub_group"]["id"]
    );
    let documented = "/groups/{group_id}/sub_groups/{id}.api";
    assert_documented(
        documented,
        "get",
        &app.get(&path).await.into_body(StatusCode::OK),
    );
    let updated = app
        .put(
            &path,
            &[
                ("sub_group[name]", "Prime lenses"),
                ("sub_group[description]", "Fixed focal length"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(documented, "put", &updated);
    let page = app
        .get(&format!("/groups/get_sub_groups.api?group_id={group}"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(page["sub_groups"].as_array().unwrap().len(), 2);
    assert_documented("/groups/get_sub_groups.api", "get", &page);
    let deleted = app.delete(&path).await.into_body(StatusCode::OK);
    assert_documented(documented, "delete", &deleted);
}
