//! Every list pages: `page` from 1, the list's page size, a true `total_pages`, and an
//! empty list past the end with the same `total_pages`. Bulk-sync clients ask for page
//! 1, 2, 3... until a page holds fewer records than the page size.

use crate::common::{Kind, TestApp};
use axum::http::StatusCode;
use serde_json::Value;

both!(
    every_list_pages,
    pages_follow_the_index_with_statistics,
    totals_stay_exact_through_writes_and_races,
    deep_pages_hold_what_a_forward_walk_finds
);

/// How a list's records are made.
#[derive(Clone, Copy, Debug)]
enum Seed {
    Locations,
    Groups,
    SubGroups,
    SubGroupsOfOneGroup,
    Vendors,
    Members,
    CustomRoles,
    Teams,
    RetireReasons,
    CustomFields,
    Customers,
    Businesses,
    Contacts,
    Individuals,
    MemberAddresses,
    CustomerAddresses,
    BusinessAddresses,
    Assets,
    AvailableAssets,
    AssetSearch,
    AssetHistory,
    AssetReservations,
    CheckoutRequests,
    MemberReservations,
    /// Reservations of asset stock by one member, beside another's and their own of
    /// a fixed asset.
    MemberStockReservations,
    CheckedOutItems,
    MemberCheckouts,
    CustomTaxes,
    /// Group taxes, each of two custom taxes (the components of a page are read at once).
    GroupTaxes,
    Bundles,
    Coupons,
    /// Payment options: every company has three from the start.
    PaymentOptions,
    /// Asset label templates: every company has four from the start.
    LabelTemplates,
    CustomFilters,
    ReservedDates,
    BookedDates,
    /// Inventory (`/inventory`) or asset stock (`/stock_assets`) items.
    StockItems(&'static str),
    /// Items of one kind with stock, the filter selecting all but one.
    StockFilter(&'static str),
    StockHistory(&'static str),
    StockCheckouts,
    MemberStockHistory,
    /// Draft orders, and one in another state the state filter leaves out.
    Orders,
    OrderHistory,
    Listings,
    /// Services of one asset (each completed before the next), beside another's.
    AssetServices,
    Webhooks,
    Imports,
    /// Deliveries of one webhook endpoint, beside another's.
    WebhookDeliveries,
}

struct List {
    /// The path as `/openapi.json` names it.
    documented: &'static str,
    key: &'static str,
    size: usize,
    seed: Seed,
}

const fn list(documented: &'static str, key: &'static str, size: usize, seed: Seed) -> List {
    List {
        documented,
        key,
        size,
        seed,
    }
}

const LISTS: &[List] = &[
    list("/baskets.api", "baskets", 25, Seed::Orders),
    list(
        "/baskets/{sequence_num}/history.api",
        "history",
        25,
        Seed::OrderHistory,
    ),
    list(
        "/locations/get_line_item_locations.api",
        "locations",
        25,
        Seed::Locations,
    ),
    list(
        "/assets/classification_view.api",
        "groups",
        25,
        Seed::Groups,
    ),
    list(
        "/groups/get_sub_groups.api",
        "sub_groups",
        25,
        Seed::SubGroups,
    ),
    list(
        "/groups/get_sub_groups.api",
        "sub_groups",
        25,
        Seed::SubGroupsOfOneGroup,
    ),
    list("/assets/vendors.api", "vendors", 25, Seed::Vendors),
    list("/members.api", "members", 25, Seed::Members),
    list("/custom_roles.api", "custom_roles", 25, Seed::CustomRoles),
    list("/teams.api", "teams", 25, Seed::Teams),
    list(
        "/retire_reasons.api",
        "retire_reasons",
        25,
        Seed::RetireReasons,
    ),
    list(
        "/custom_fields.api",
        "custom_fields",
        25,
        Seed::CustomFields,
    ),
    list("/customers.api", "customers", 25, Seed::Customers),
    list("/businesses.api", "businesses", 20, Seed::Businesses),
    list("/contacts.api", "contacts", 25, Seed::Contacts),
    list("/individuals.api", "individuals", 25, Seed::Individuals),
    list(
        "/users/{owner_id}/shipping_addresses.api",
        "shipping_addresses",
        25,
        Seed::MemberAddresses,
    ),
    list(
        "/customers/{owner_id}/shipping_addresses.api",
        "shipping_addresses",
        25,
        Seed::CustomerAddresses,
    ),
    list(
        "/businesses/{owner_id}/shipping_addresses.api",
        "shipping_addresses",
        25,
        Seed::BusinessAddresses,
    ),
    list("/assets.api", "assets", 25, Seed::Assets),
    list("/assets/filter.api", "assets", 25, Seed::AvailableAssets),
    list("/search.api", "assets", 25, Seed::AssetSearch),
    list(
        "/assets/{sequence_num}/history_paginate.api",
        "history",
        5,
        Seed::AssetHistory,
    ),
    list(
        "/assets/{sequence_num}/reservation_requests.api",
        "reservation_requests",
        25,
        Seed::AssetReservations,
    ),
    list(
        "/checkout_requests/filter.api",
        "reservation_requests",
        25,
        Seed::CheckoutRequests,
    ),
    list(
        "/members/{id}/reservation_requests.api",
        "reservation_requests",
        25,
        Seed::MemberReservations,
    ),
    list(
        "/members/{id}/inventory_reservations.api",
        "reservation_requests",
        25,
        Seed::MemberStockReservations,
    ),
    list(
        "/members/{id}/checked_out_items.api",
        "assets",
        25,
        Seed::CheckedOutItems,
    ),
    list(
        "/members/{id}/checkin_checkout_history.api",
        "history",
        25,
        Seed::MemberCheckouts,
    ),
    list("/custom_taxes.api", "custom_taxes", 25, Seed::CustomTaxes),
    list("/group_taxes.api", "group_taxes", 25, Seed::GroupTaxes),
    list("/bundles.api", "bundles", 25, Seed::Bundles),
    list("/listings.api", "listings", 25, Seed::Listings),
    list("/webhooks.api", "webhooks", 25, Seed::Webhooks),
    list("/imports.api", "imports", 25, Seed::Imports),
    list(
        "/webhooks/{id}/deliveries.api",
        "deliveries",
        25,
        Seed::WebhookDeliveries,
    ),
    list(
        "/assets/{sequence_num}/services.api",
        "services",
        25,
        Seed::AssetServices,
    ),
    list(
        "/print_label_templates.api",
        "print_label_templates",
        25,
        Seed::LabelTemplates,
    ),
    list("/pricing_coupons.api", "coupons", 25, Seed::Coupons),
    list(
        "/payment_options.api",
        "payment_options",
        25,
        Seed::PaymentOptions,
    ),
    list(
        "/inventory.api",
        "assets",
        25,
        Seed::StockItems("/inventory"),
    ),
    list(
        "/inventory/filter.api",
        "assets",
        25,
        Seed::StockFilter("/inventory"),
    ),
    list(
        "/inventory/{sequence_num}/history.api",
        "history",
        5,
        Seed::StockHistory("/inventory"),
    ),
    list(
        "/stock_assets.api",
        "assets",
        25,
        Seed::StockItems("/stock_assets"),
    ),
    list(
        "/stock_assets/filter.api",
        "assets",
        25,
        Seed::StockFilter("/stock_assets"),
    ),
    list(
        "/stock_assets/{sequence_num}/history.api",
        "history",
        5,
        Seed::StockHistory("/stock_assets"),
    ),
    list(
        "/stock_assets/{sequence_num}/get_current_checkouts.api",
        "line_items",
        25,
        Seed::StockCheckouts,
    ),
    list(
        "/members/{id}/checkin_checkout_history_for_stock.api",
        "history",
        25,
        Seed::MemberStockHistory,
    ),
    list(
        "/custom_filters.api",
        "custom_filters",
        25,
        Seed::CustomFilters,
    ),
    list(
        "/assets/{sequence_num}/reserved_dates.api",
        "reserved_dates",
        25,
        Seed::ReservedDates,
    ),
    list(
        "/assets/{sequence_num}/booked_dates.api",
        "booked_dates",
        25,
        Seed::BookedDates,
    ),
];

/// `n` fixed assets named `<prefix> <i>`, and their numbers.
async fn assets(app: &TestApp, group: i64, prefix: &str, n: usize) -> Vec<i64> {
    let mut numbers = Vec::with_capacity(n);
    for i in 0..n {
        numbers.push(app.asset(&format!("{prefix} {i}"), group, &[]).await);
    }
    numbers
}

/// `n` pending reservation requests of asset `asset` by `member`, starting today.
async fn requests(app: &TestApp, asset: i64, member: i64, n: usize) {
    let today = chrono::Utc::now()
        .date_naive()
        .format("%m/%d/%Y")
        .to_string();
    let m = member.to_string();
    for _ in 0..n {
        ok(
            app,
            &format!("/assets/{asset}/reservation_requests.api"),
            &[
                ("reservation_request[from]", &today),
                ("reservation_request[to]", &today),
                ("user[id]", &m),
            ],
            "reservation_request",
        )
        .await;
    }
}

async fn check_out(app: &TestApp, asset: i64, member: i64) {
    app.put(
        &format!("/assets/{asset}/checkout.api?user_id={member}"),
        &[],
    )
    .await
    .expect(StatusCode::OK);
}

async fn ok(app: &TestApp, path: &str, form: &[(&str, &str)], key: &str) -> i64 {
    let res = app.post(path, form).await;
    res.expect(StatusCode::OK)[key]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no {key} id: {}", res.text))
}

async fn subgroups(app: &TestApp, group: i64, n: usize) {
    for i in 0..n {
        ok(
            app,
            &format!("/groups/{group}/sub_groups.api"),
            &[("sub_group[name]", &format!("Subgroup {i}"))],
            "sub_group",
        )
        .await;
    }
}

async fn addresses(app: &TestApp, owner_path: &str, n: usize) -> String {
    let path = format!("{owner_path}/shipping_addresses.api");
    for i in 0..n {
        ok(
            app,
            &path,
            &[("shipping_address[street1]", &format!("{i} Main Street"))],
            "shipping_address",
        )
        .await;
    }
    path
}

/// Makes the list hold exactly `n` records and answers its path.
async fn seed(app: &TestApp, seed: Seed, n: usize) -> String {
    let name = |i: usize| format!("Record {i}");
    match seed {
        Seed::Locations => {
            for i in 0..n {
                app.location(&name(i), &[]).await;
            }
            "/locations/get_line_item_locations.api".into()
        }
        Seed::Groups => {
            for i in 0..n {
                app.group(&name(i)).await;
            }
            "/assets/classification_view.api".into()
        }
        Seed::SubGroups => {
            let (a, b) = (app.group("Tools").await, app.group("Vehicles").await);
            subgroups(app, a, n - 3).await;
            subgroups(app, b, 3).await;
            "/groups/get_sub_groups.api".into()
        }
        Seed::SubGroupsOfOneGroup => {
            let (a, b) = (app.group("Tools").await, app.group("Vehicles").await);
            subgroups(app, b, 3).await;
            subgroups(app, a, n).await;
            format!("/groups/get_sub_groups.api?group_id={a}")
        }
        Seed::Vendors => {
            for i in 0..n {
                ok(app, "/vendors.api", &[("vendor[name]", &name(i))], "vendor").await;
            }
            "/assets/vendors.api".into()
        }
        Seed::Members => {
            // The company owner is listed too.
            for i in 1..n {
                app.member("Staff", &name(i), &format!("staff{i}@example.com"), &[])
                    .await;
            }
            "/members.api".into()
        }
        Seed::CustomRoles | Seed::Teams | Seed::RetireReasons => {
            let (plural, singular) = match seed {
                Seed::CustomRoles => ("custom_roles", "custom_role"),
                Seed::Teams => ("teams", "team"),
                _ => ("retire_reasons", "retire_reason"),
            };
            for i in 0..n {
                ok(
                    app,
                    &format!("/{plural}.api"),
                    &[(&format!("{singular}[name]"), &name(i))],
                    singular,
                )
                .await;
            }
            format!("/{plural}.api")
        }
        Seed::CustomFields => {
            for i in 0..n {
                app.custom_field(&name(i), "text", &["members"], &[]).await;
            }
            "/custom_fields.api".into()
        }
        Seed::Customers => {
            for i in 0..n {
                app.customer("Pat", &name(i), &[]).await;
            }
            "/customers.api".into()
        }
        Seed::Businesses => {
            for i in 0..n {
                app.business(&name(i), &[]).await;
            }
            "/businesses.api".into()
        }
        Seed::Contacts => {
            let business = app.business("Acme", &[]).await.to_string();
            for i in 0..n {
                app.contact(&name(i), &business, &[]).await;
            }
            "/contacts.api".into()
        }
        Seed::Individuals => {
            // Customers and contacts, interleaved, in one list.
            let business = app.business("Acme", &[]).await.to_string();
            for i in 0..n {
                if i % 2 == 0 {
                    app.customer("Pat", &name(i), &[]).await;
                } else {
                    app.contact(&name(i), &business, &[]).await;
                }
            }
            "/individuals.api".into()
        }
        Seed::MemberAddresses => {
            let member = app.member("Ada", "Lovelace", "ada@example.com", &[]).await;
            addresses(app, &format!("/users/{member}"), n).await
        }
        Seed::CustomerAddresses => {
            let customer = app.customer("Pat", "Smith", &[]).await;
            addresses(app, &format!("/customers/{customer}"), n).await
        }
        Seed::BusinessAddresses => {
            let business = app.business("Acme", &[]).await;
            addresses(app, &format!("/businesses/{business}"), n).await
        }
        Seed::Assets => {
            let group = app.group("Cameras").await;
            assets(app, group, "Camera", n).await;
            "/assets.api".into()
        }
        Seed::AvailableAssets => {
            let group = app.group("Cameras").await;
            let numbers = assets(app, group, "Camera", n + 1).await;
            let member = app.member("Ann", "Tester", "ann@example.com", &[]).await;
            check_out(app, numbers[n / 2], member).await;
            "/assets/filter.api?status=available".into()
        }
        Seed::AssetSearch => {
            let group = app.group("Cameras").await;
            assets(app, group, "Tripod", 2).await;
            assets(app, group, "Camera", n).await;
            "/search.api?search=camera".into()
        }
        Seed::AssetHistory => {
            let group = app.group("Cameras").await;
            let asset = app.asset("Camera", group, &[]).await;
            for i in 1..n {
                app.put(
                    &format!("/assets/{asset}.api"),
                    &[("fixed_asset[description]", &name(i))],
                )
                .await
                .expect(StatusCode::OK);
            }
            format!("/assets/{asset}/history_paginate.api")
        }
        Seed::AssetReservations | Seed::CheckoutRequests | Seed::MemberReservations => {
            let group = app.group("Cameras").await;
            let [asset, other] = assets(app, group, "Camera", 2).await[..] else {
                unreachable!()
            };
            let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
            let bob = app.member("Bob", "Tester", "bob@example.com", &[]).await;
            requests(app, asset, ann, n).await;
            match seed {
                Seed::AssetReservations => {
                    requests(app, other, ann, 2).await;
                    format!("/assets/{asset}/reservation_requests.api")
                }
                Seed::MemberReservations => {
                    requests(app, asset, bob, 2).await;
                    format!("/members/{ann}/reservation_requests.api")
                }
                _ => "/checkout_requests/filter.api".into(),
            }
        }
        Seed::MemberStockReservations => {
            let group = app.group("Cables").await;
            let stock = app.stock_item("/stock_assets", "Cable", group, &[]).await;
            let camera = app.asset("Camera", group, &[]).await;
            let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
            let bob = app.member("Bob", "Tester", "bob@example.com", &[]).await;
            requests(app, stock, ann, n).await;
            requests(app, stock, bob, 2).await;
            requests(app, camera, ann, 2).await;
            format!("/members/{ann}/inventory_reservations.api")
        }
        Seed::CheckedOutItems | Seed::MemberCheckouts => {
            let group = app.group("Cameras").await;
            let numbers = assets(app, group, "Camera", n + 1).await;
            let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
            let bob = app.member("Bob", "Tester", "bob@example.com", &[]).await;
            for asset in &numbers[..n] {
                check_out(app, *asset, ann).await;
            }
            check_out(app, numbers[n], bob).await;
            match seed {
                Seed::CheckedOutItems => format!("/members/{ann}/checked_out_items.api"),
                _ => format!("/members/{ann}/checkin_checkout_history.api"),
            }
        }
        Seed::StockItems(path) => {
            let group = app.group("Supplies").await;
            for i in 0..n {
                app.stock_item(path, &name(i), group, &[]).await;
            }
            format!("{path}.api")
        }
        Seed::StockFilter(path) => {
            // n items with 1 to n units, one with more: quantity_range 1,n.
            let group = app.group("Supplies").await;
            let store = app.location("Store", &[]).await;
            for i in 0..=n {
                let item = app.stock_item(path, &name(i), group, &[]).await;
                let units = if i == n { 1000 } else { i as i64 + 1 };
                app.add_stock(path, item, units, store).await;
            }
            format!("{path}/filter.api?status=quantity_range&filter_param_val=1,{n}")
        }
        Seed::StockHistory(path) => {
            // The creation is the first entry.
            let group = app.group("Supplies").await;
            let store = app.location("Store", &[]).await;
            let item = app.stock_item(path, "Batteries", group, &[]).await;
            for _ in 1..n {
                app.add_stock(path, item, 3, store).await;
            }
            format!("{path}/{item}/history.api")
        }
        Seed::StockCheckouts | Seed::MemberStockHistory => {
            let group = app.group("Cables").await;
            let store = app.location("Store", &[]).await;
            let at = store.to_string();
            let at = [("stock_asset[location_id]", at.as_str())];
            let item = app
                .stock_item("/stock_assets", "XLR Cable", group, &at)
                .await;
            let other = app
                .stock_item("/stock_assets", "DMX Cable", group, &at)
                .await;
            app.add_stock("/stock_assets", item, 1000, store).await;
            app.add_stock("/stock_assets", other, 10, store).await;
            let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
            for _ in 0..n {
                stock_check_out(app, item, ann, 1).await;
            }
            // Another item's check-out (the list leaves it out), or another
            // member's (the member's history leaves it out).
            match seed {
                Seed::StockCheckouts => {
                    stock_check_out(app, other, ann, 1).await;
                    format!("/stock_assets/{item}/get_current_checkouts.api")
                }
                _ => {
                    let bob = app.member("Bob", "Tester", "bob@example.com", &[]).await;
                    stock_check_out(app, other, bob, 1).await;
                    format!("/members/{ann}/checkin_checkout_history_for_stock.api")
                }
            }
        }
        Seed::Orders | Seed::OrderHistory => {
            let ann = app.customer("Ann", "Renter", &[]).await;
            let a = ann.to_string();
            let first = app
                .post("/baskets.api", &[("basket[customer_id]", &a)])
                .await;
            let number = first.expect(StatusCode::OK)["basket"]["sequence_num"]
                .as_i64()
                .unwrap();
            if matches!(seed, Seed::OrderHistory) {
                for i in 1..n {
                    app.patch(
                        &format!("/baskets/{number}.api"),
                        &[("basket[description]", &name(i))],
                    )
                    .await
                    .expect(StatusCode::OK);
                }
                return format!("/baskets/{number}/history.api");
            }
            for _ in 1..n {
                ok(
                    app,
                    "/baskets.api",
                    &[("basket[customer_id]", &a)],
                    "basket",
                )
                .await;
            }
            app.order(Some(ann), None, "completed").await;
            "/baskets.api?filters[state]=drafted".into()
        }
        Seed::CustomTaxes => {
            for i in 0..n {
                ok(
                    app,
                    "/custom_taxes.api",
                    &[("custom_tax[name]", &name(i)), ("custom_tax[rate]", "5")],
                    "custom_tax",
                )
                .await;
            }
            "/custom_taxes.api".into()
        }
        Seed::GroupTaxes => {
            let mut taxes = Vec::new();
            for tax in ["State", "County"] {
                let id = ok(
                    app,
                    "/custom_taxes.api",
                    &[("custom_tax[name]", tax), ("custom_tax[rate]", "2.5")],
                    "custom_tax",
                )
                .await;
                taxes.push(id.to_string());
            }
            let taxes = taxes.join(",");
            for i in 0..n {
                ok(
                    app,
                    "/group_taxes.api",
                    &[
                        ("group_tax[name]", &name(i)),
                        ("group_tax[custom_tax_ids]", &taxes),
                    ],
                    "group_tax",
                )
                .await;
            }
            "/group_taxes.api".into()
        }
        Seed::Listings => {
            for i in 0..n {
                ok(
                    app,
                    "/listings.api",
                    &[("listing[name]", &name(i))],
                    "listing",
                )
                .await;
            }
            "/listings.api".into()
        }
        Seed::Webhooks => {
            for _ in 0..n {
                webhook(app).await;
            }
            "/webhooks.api".into()
        }
        Seed::Imports => {
            let form = [
                ("import[kind]", "vendors"),
                ("import[file]", "name\nAcme\n"),
            ];
            for _ in 0..n {
                ok(app, "/imports.api", &form, "import").await;
            }
            "/imports.api".into()
        }
        Seed::WebhookDeliveries => {
            let (one, other) = (webhook(app).await, webhook(app).await);
            for _ in 0..3 {
                ok(app, &format!("/webhooks/{other}/test.api"), &[], "delivery").await;
            }
            for _ in 0..n {
                ok(app, &format!("/webhooks/{one}/test.api"), &[], "delivery").await;
            }
            format!("/webhooks/{one}/deliveries.api")
        }
        Seed::AssetServices => {
            let group = app.group("Cameras").await;
            let [asset, other] = assets(app, group, "Camera", 2).await[..] else {
                unreachable!()
            };
            for i in 0..n {
                let path = format!("/assets/{asset}/services.api");
                let id = app
                    .post(&path, &[("service[service_type]", &name(i))])
                    .await
                    .expect(StatusCode::OK)["service"]["id"]
                    .as_i64()
                    .unwrap();
                app.put(&format!("/assets/{asset}/services/{id}/complete.api"), &[])
                    .await
                    .expect(StatusCode::OK);
            }
            let path = format!("/assets/{other}/services.api");
            app.post(&path, &[("service[service_type]", "Other")])
                .await
                .expect(StatusCode::OK);
            format!("/assets/{asset}/services.api")
        }
        Seed::Bundles => {
            let group = app.group("Kits").await;
            let tent = app.asset("Kit Tent", group, &[]).await;
            let key = format!("bundle[items][{tent}]");
            for i in 0..n {
                ok(
                    app,
                    "/bundles.api",
                    &[("bundle[name]", &name(i)), (key.as_str(), "1")],
                    "bundle",
                )
                .await;
            }
            "/bundles.api".into()
        }
        Seed::Coupons => {
            for i in 0..n {
                ok(
                    app,
                    "/pricing_coupons.api",
                    &[
                        ("coupon[name]", &name(i)),
                        ("coupon[value_type]", "percent"),
                        ("coupon[value]", "10"),
                    ],
                    "coupon",
                )
                .await;
            }
            "/pricing_coupons.api".into()
        }
        Seed::PaymentOptions => {
            // Cash, Check and Credit Card are there already.
            for i in 3..n {
                ok(
                    app,
                    "/payment_options.api",
                    &[("payment_option[name]", &name(i))],
                    "payment_option",
                )
                .await;
            }
            "/payment_options.api".into()
        }
        Seed::LabelTemplates => {
            // Four asset templates are there already (and four of each other type).
            for i in 4..n {
                ok(
                    app,
                    "/print_label_templates.api",
                    &[
                        ("print_label_template[description]", &name(i)),
                        ("print_label_template[template_type]", "asset"),
                        ("print_label_template[page_width]", "50"),
                        ("print_label_template[page_height]", "30"),
                        ("print_label_template[label_width]", "50"),
                        ("print_label_template[label_height]", "30"),
                    ],
                    "print_label_template",
                )
                .await;
            }
            "/print_label_templates.api?template_type=asset".into()
        }
        Seed::ReservedDates | Seed::BookedDates => {
            // Approved reservations of one asset, one day each (they may not overlap).
            let group = app.group("Cameras").await;
            let asset = app.asset("Camera", group, &[]).await;
            let m = app
                .member("Ann", "Tester", "ann@example.com", &[])
                .await
                .to_string();
            for i in 0..n {
                let day = (chrono::Utc::now().date_naive() + chrono::Duration::days(i as i64 + 1))
                    .format("%m/%d/%Y")
                    .to_string();
                let id = ok(
                    app,
                    &format!("/assets/{asset}/reservation_requests.api"),
                    &[
                        ("reservation_request[from]", &day),
                        ("reservation_request[to]", &day),
                        ("user[id]", &m),
                    ],
                    "reservation_request",
                )
                .await;
                app.put(
                    &format!("/assets/{asset}/reservation_requests/{id}/update_status.api"),
                    &[("request_action", "approve_request")],
                )
                .await
                .expect(StatusCode::OK);
            }
            match seed {
                Seed::ReservedDates => format!("/assets/{asset}/reserved_dates.api"),
                _ => format!("/assets/{asset}/booked_dates.api"),
            }
        }
        Seed::CustomFilters => {
            for i in 0..n {
                ok(
                    app,
                    "/custom_filters.api",
                    &[
                        ("custom_filter[name]", &name(i)),
                        ("custom_filter[assets_type]", "fixed_assets"),
                        ("custom_filter[conditions][]", "available"),
                    ],
                    "custom_filter",
                )
                .await;
            }
            "/custom_filters.api?assets_type=fixed_assets".into()
        }
    }
}

/// The id of a listed record, also when the list wraps each one (`{"group": {...}}`).
fn id_of(record: &Value) -> i64 {
    record["id"]
        .as_i64()
        .or_else(|| {
            record
                .as_object()
                .and_then(|o| o.values().next())
                .and_then(|v| v["id"].as_i64())
        })
        .expect("an id")
}

/// A webhook endpoint at a public address (nothing delivers here: no worker runs).
async fn webhook(app: &TestApp) -> i64 {
    let form = [
        ("webhook[url]", "https://93.184.216.34/hook"),
        ("webhook[events]", "*"),
    ];
    ok(app, "/webhooks.api", &form, "webhook").await
}

async fn pages_through(app: &TestApp, list: &List) {
    let n = list.size + 1;
    let path = seed(app, list.seed, n).await;
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut seen = Vec::new();
    for (page, expected) in [(1, list.size), (2, 1), (3, 0)] {
        let res = app.get(&format!("{path}{sep}page={page}")).await;
        let body = res.expect(StatusCode::OK);
        let records = body[list.key]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no {} in {}", list.key, res.text));
        assert_eq!(
            records.len(),
            expected,
            "{:?}: page {page} of {path} holds {} records",
            list.seed,
            records.len()
        );
        assert_eq!(
            body["total_pages"], 2,
            "{:?}: {path} page {page}",
            list.seed
        );
        assert_eq!(body["current_page"], page, "{path}");
        seen.extend(records.iter().map(id_of));
    }
    let mut distinct = seen.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        n,
        "{:?}: pages 1 and 2 of {path} repeat or miss records: {seen:?}",
        list.seed
    );
    let first = app.get(&path).await;
    assert_eq!(
        first.expect(StatusCode::OK)[list.key]
            .as_array()
            .map(Vec::len),
        Some(list.size),
        "{path} without page is page 1"
    );
    for bad in ["0", "-1", "x"] {
        app.get(&format!("{path}{sep}page={bad}"))
            .await
            .expect_invalid("page");
    }
}

async fn stock_check_out(app: &TestApp, item: i64, member: i64, quantity: i64) {
    let (m, q) = (member.to_string(), quantity.to_string());
    let res = app
        .post(
            &format!("/stock_assets/{item}/order.api"),
            &[
                ("order_type", "checkout"),
                ("user[id]", &m),
                ("line_item[quantity]", &q),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

async fn every_list_pages(kind: Kind) {
    let first = TestApp::new(kind).await;
    for list in LISTS {
        // A company of its own for each list, on one database.
        let app = TestApp::builder(kind).beside(&first).build().await;
        pages_through(&app, list).await;
    }
}

/// The table holds every list the API documents: each GET that takes `page`.
#[test]
fn the_table_holds_every_documented_list() {
    let doc = crate::common::openapi_document();
    let mut documented: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, ops)| {
            let params = ops["get"]["parameters"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            params.iter().any(|p| p["name"] == "page")
        })
        .map(|(path, _)| path.as_str())
        .collect();
    let mut tested: Vec<&str> = LISTS.iter().map(|l| l.documented).collect();
    documented.sort_unstable();
    tested.sort_unstable();
    tested.dedup();
    assert_eq!(
        documented, tested,
        "every documented list needs a row in LISTS, and every row a documented page parameter"
    );
    // A response documented as a page takes `page`.
    for (path, ops) in doc["paths"].as_object().unwrap() {
        let returns_page = ops["get"]["responses"]["200"]["description"]
            .as_str()
            .is_some_and(|d| d.contains("total_pages"));
        if returns_page {
            assert!(
                documented.contains(&path.as_str()),
                "{path} answers a page but documents no page parameter"
            );
        }
    }
}

/// A list read page by page: its ids, checked against what the pages claim. Every
/// page but the last is full and the last is not empty, so `total_pages` holds only
/// when the total behind it is exact; the pages must also be in id order without a
/// record twice (a page past the middle is read backwards from the end of the list).
async fn walk(app: &TestApp, path: &str, key: &str) -> Vec<i64> {
    let sep = if path.contains('?') { '&' } else { '?' };
    let first = app.get(path).await;
    let total_pages = first.expect(StatusCode::OK)["total_pages"]
        .as_u64()
        .expect("total_pages");
    let mut ids = Vec::new();
    for page in 1..=total_pages {
        let res = app.get(&format!("{path}{sep}page={page}")).await;
        let body = res.expect(StatusCode::OK);
        assert_eq!(body["total_pages"], total_pages, "{path} page {page}");
        let records = body[key].as_array().expect("records");
        if page < total_pages {
            assert_eq!(records.len(), 25, "{path}: page {page} is not full");
        } else {
            assert!(!records.is_empty(), "{path}: the last page {page} is empty");
        }
        ids.extend(records.iter().map(id_of));
    }
    let past = app
        .get(&format!("{path}{sep}page={}", total_pages + 1))
        .await;
    assert_eq!(past.expect(StatusCode::OK)[key], serde_json::json!([]));
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted, ids, "{path}: pages out of id order or repeating");
    ids
}

fn sorted(mut ids: Vec<i64>) -> Vec<i64> {
    ids.sort_unstable();
    ids
}

/// `total_pages` comes from per-company counts kept by every create, delete and status
/// change: it stays exact through deletes (customers are soft-deleted), status changes
/// back and forth (twice in a row changes nothing), and creates, deletes and status
/// changes racing each other.
async fn totals_stay_exact_through_writes_and_races(kind: Kind) {
    let app = std::sync::Arc::new(TestApp::new(kind).await);
    // Another company's records never count.
    let other = TestApp::builder(kind).beside(&app).build().await;
    other.customer("Not", "Ours", &[]).await;

    let mut customers = Vec::new();
    for i in 0..30 {
        customers.push(app.customer("Pat", &format!("Number {i}"), &[]).await);
    }
    assert_eq!(walk(&app, "/customers.api", "customers").await, customers);

    for gone in [customers[0], customers[10], customers[29]] {
        app.delete(&format!("/customers/{gone}.api"))
            .await
            .expect(StatusCode::OK);
    }
    for (id, action) in [
        (customers[5], "mark_inactive"),
        (customers[6], "mark_inactive"),
        (customers[6], "mark_active"),
        (customers[5], "mark_inactive"),
        (customers[7], "mark_active"),
    ] {
        app.patch(&format!("/customers/{id}/{action}.api"), &[])
            .await
            .expect(StatusCode::OK);
    }
    let mut active: Vec<i64> = customers
        .iter()
        .copied()
        .filter(|id| ![customers[0], customers[10], customers[29], customers[5]].contains(id))
        .collect();
    let mut inactive = vec![customers[5]];
    assert_eq!(walk(&app, "/customers.api", "customers").await, active);
    assert_eq!(
        walk(
            &app,
            "/customers.api?filter=inactive_customers",
            "customers"
        )
        .await,
        inactive
    );

    // Creates, deletes and status changes at once.
    let mut tasks = Vec::new();
    for i in 0..40 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let id = app.customer("Racer", &format!("{i}"), &[]).await;
            (Some(id), None)
        }));
    }
    for (n, &id) in active.iter().take(8).enumerate() {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            if n < 5 {
                app.delete(&format!("/customers/{id}.api"))
                    .await
                    .expect(StatusCode::OK);
            } else {
                app.patch(&format!("/customers/{id}/mark_inactive.api"), &[])
                    .await
                    .expect(StatusCode::OK);
            }
            (None, Some((id, n < 5)))
        }));
    }
    for task in tasks {
        match task.await.unwrap() {
            (Some(created), _) => active.push(created),
            (_, Some((id, deleted))) => {
                active.retain(|a| *a != id);
                if !deleted {
                    inactive.push(id);
                }
            }
            _ => unreachable!(),
        }
    }
    let active = sorted(active);
    assert_eq!(active.len(), 26 + 40 - 8);
    assert_eq!(walk(&app, "/customers.api", "customers").await, active);
    assert_eq!(
        walk(
            &app,
            "/customers.api?filter=inactive_customers",
            "customers"
        )
        .await,
        sorted(inactive.clone())
    );

    // Contacts count apart from customers, and the persons list counts both.
    let business = app.business("Acme", &[]).await.to_string();
    let contact = app.contact("Builder", &business, &[]).await;
    assert_eq!(walk(&app, "/contacts.api", "contacts").await, vec![contact]);
    let mut everyone = active.clone();
    everyone.push(contact);
    assert_eq!(
        walk(&app, "/individuals.api", "individuals").await,
        everyone
    );
    let mut all = everyone.clone();
    all.extend(&inactive);
    assert_eq!(
        walk(&app, "/individuals.api?filter=all", "individuals").await,
        sorted(all)
    );
    assert_eq!(walk(&other, "/customers.api", "customers").await.len(), 1);
}

/// Past the first ten pages a page is read from whichever end of the list is nearer,
/// counted lists and filtered ones alike: walking every page must still give every
/// record once, in id order.
async fn deep_pages_hold_what_a_forward_walk_finds(kind: Kind) {
    let app = std::sync::Arc::new(TestApp::new(kind).await);
    // 560 customers (23 pages), every other one not taxed (12 pages), made by eight
    // writers at once.
    let mut tasks = Vec::new();
    for worker in 0..8 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let mut made = Vec::new();
            for i in 0..70 {
                let taxed = if i % 2 == 0 { "true" } else { "false" };
                let id = app
                    .customer(
                        "Deep",
                        &format!("{worker}-{i}"),
                        &[("customer[collect_tax]", taxed)],
                    )
                    .await;
                made.push((id, taxed == "false"));
            }
            made
        }));
    }
    let mut all = Vec::new();
    let mut non_taxed = Vec::new();
    for task in tasks {
        for (id, untaxed) in task.await.unwrap() {
            all.push(id);
            if untaxed {
                non_taxed.push(id);
            }
        }
    }
    let mut all = sorted(all);
    assert_eq!(walk(&app, "/customers.api", "customers").await, all);
    assert_eq!(
        walk(&app, "/customers.api?filter=non_taxed", "customers").await,
        sorted(non_taxed)
    );

    // Writes after the last read: a page counted from the end is still the right one.
    let page = |n: u32| {
        let app = app.clone();
        async move {
            let res = app.get(&format!("/customers.api?page={n}")).await;
            let body = res.expect(StatusCode::OK).clone();
            let ids: Vec<i64> = body["customers"]
                .as_array()
                .unwrap()
                .iter()
                .map(id_of)
                .collect();
            (ids, body["total_pages"].as_u64().unwrap())
        }
    };
    for i in 0..3 {
        all.push(app.customer("Late", &format!("{i}"), &[]).await);
    }
    assert_eq!(page(23).await, (all[550..].to_vec(), 23), "563 customers");
    for gone in all.drain(..30) {
        app.delete(&format!("/customers/{gone}.api"))
            .await
            .expect(StatusCode::OK);
    }
    assert_eq!(page(23).await, (vec![], 22), "533 customers");
    assert_eq!(page(22).await, (all[525..].to_vec(), 22));
    assert_eq!(walk(&app, "/customers.api", "customers").await, all);
}

/// With table statistics (which `serve` refreshes every minute) showing one group and
/// many items, SQLite once took the group as the outer loop, read every item of the
/// company for it and sorted them all to answer one asset page; in debug builds the
/// tests' plan check refuses a page that sorts its matches (`paging::plan`), so these
/// pages must be read in the order of the items' index.
async fn pages_follow_the_index_with_statistics(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Statistics").await;
    for i in 0..300 {
        app.asset(&format!("Asset {i:03}"), group, &[]).await;
    }
    app.db.optimize().await.unwrap();
    for path in [
        "/assets.api?page=1",
        "/assets.api?page=3",
        "/assets/filter.api?status=available&page=2",
    ] {
        let res = app.get(path).await;
        let body = res.expect(StatusCode::OK);
        assert_eq!(body["total_pages"], 12, "{path}");
    }
    let res = app.get("/assets/7.api").await;
    assert_eq!(res.expect(StatusCode::OK)["asset"]["name"], "Asset 006");
}
