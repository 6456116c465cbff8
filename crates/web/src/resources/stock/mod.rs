//! Inventory (`/inventory`, volatile assets: used up or sold) and asset stock
//! (`/stock_assets`: lent out and back): the record routes they share with fixed
//! assets (`assets::records`, generic over the kind), stock movements and thresholds
//! (`movements.rs`), and check-out and check-in of asset stock (`checkouts.rs`).

mod checkouts;
mod movements;

use crate::api::{Api, Doc, get, post};
use crate::resources::assets::records::{
    ITEM_FIELDS, TAXES, create, delete, details, filter, history, list, update,
};
use crate::resources::assets::{AssetJson, HistoryEntryJson, Inventory, SHOW_FLAGS, Stock};

const NAME_AND_GROUP: &[(&str, &str)] = &[
    ("name", "required, at least 3 characters"),
    (
        "group_id",
        "required: the id of one of the company's groups",
    ),
    ("sub_group_id", "a subgroup of the group; null clears"),
    (
        "location_id",
        "a location of the company; null clears (where stock goes when a movement names none)",
    ),
    ("purchased_on", "date (mm/dd/yyyy or yyyy-mm-dd), optional"),
];

const PAGE: &[(&str, &str)] = &[("page", "page number, default 1")];

const FILTER: &[(&str, &str)] = &[
    (
        "filter_param_val",
        "the status's value: a group, location or member id; start,end for quantity_range; a day or start~end for update_time",
    ),
    ("sub_group_param_val", "with status=group: a subgroup id"),
    ("page", "page number, default 1"),
];

pub fn routes(api: Api) -> Api {
    let api = inventory(api);
    let api = stock(api);
    let api = movements::routes(api);
    checkouts::routes(api)
}

fn inventory(api: Api) -> Api {
    api.route(
        "/inventory",
        get(list::<Inventory>).post(create::<Inventory>),
        Doc::new("Inventory", "List inventory, 25 a page (GET), or create an inventory item (POST)")
            .form("volatile_asset", NAME_AND_GROUP)
            .form("volatile_asset", ITEM_FIELDS)
            .query(TAXES)
            .query(SHOW_FLAGS)
            .query(PAGE)
            .returns("asset")
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/inventory/{sequence_num}",
        get(details::<Inventory>)
            .put_or_patch(update::<Inventory>)
            .delete(delete::<Inventory>),
        Doc::new(
            "Inventory",
            "Inventory details (GET), update (PUT or PATCH; fields left out are kept), delete (the stock on hand goes with it)",
        )
        .form("volatile_asset", NAME_AND_GROUP)
        .form("volatile_asset", ITEM_FIELDS)
        .query(TAXES)
        .query(SHOW_FLAGS)
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/inventory/{sequence_num}/history",
        get(history),
        Doc::new(
            "Inventory",
            "The item's history, newest first, 5 a page: every stock movement with order_type, quantity, quantity_after_transaction, price, user_full_name, location and comments",
        )
        .query(PAGE)
        .returns_page("history")
        .record::<HistoryEntryJson>(),
    )
    .route(
        "/inventory/filter",
        get(filter::<Inventory>),
        Doc::new("Inventory", "Inventory by status, 25 a page")
            .query(&[
                (
                    "status",
                    "required: group, items_in_order, location, low_stock, quantity_range, update_time or custom_filter_<id>",
                ),
                ("assets_type", "volatile_assets (required with a custom filter)"),
            ])
            .query(FILTER)
            .query(SHOW_FLAGS)
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
}

fn stock(api: Api) -> Api {
    api.route(
        "/stock_assets",
        get(list::<Stock>).post(create::<Stock>),
        Doc::new("Asset stock", "List asset stock, 25 a page (GET), or create an asset stock item (POST)")
            .form("stock_asset", NAME_AND_GROUP)
            .form("stock_asset", ITEM_FIELDS)
            .query(TAXES)
            .query(SHOW_FLAGS)
            .query(PAGE)
            .returns("asset")
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}",
        get(details::<Stock>)
            .put_or_patch(update::<Stock>)
            .delete(delete::<Stock>),
        Doc::new(
            "Asset stock",
            "Asset stock details (GET), update (PUT or PATCH; fields left out are kept), delete (refused while units are checked out)",
        )
        .form("stock_asset", NAME_AND_GROUP)
        .form("stock_asset", ITEM_FIELDS)
        .query(TAXES)
        .query(SHOW_FLAGS)
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/stock_assets/{sequence_num}/history",
        get(history),
        Doc::new(
            "Asset stock",
            "The item's history, newest first, 5 a page: every movement, check-out and check-in with order_type, quantity, quantity_after_transaction, price, user_full_name",
        )
        .query(PAGE)
        .returns_page("history")
        .record::<HistoryEntryJson>(),
    )
    .route(
        "/stock_assets/filter",
        get(filter::<Stock>),
        Doc::new("Asset stock", "Asset stock by status, 25 a page")
            .query(&[
                (
                    "status",
                    "required: location, possessions_of, low_stock, quantity_range, reserved, retired, update_time, group, items_in_order or custom_filter_<id>",
                ),
                ("assets_type", "stock_assets (required with a custom filter)"),
            ])
            .query(FILTER)
            .query(SHOW_FLAGS)
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
}

/// An action route: POST as the spec shows it, and PUT or PATCH like every action.
fn action<H, T>(handler: H) -> crate::api::Methods
where
    H: axum::handler::Handler<T, crate::state::AppState>,
    T: 'static,
{
    post(handler.clone()).put_or_patch(handler)
}
