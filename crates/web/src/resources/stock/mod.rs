//! Inventory (`/inventory`, volatile assets: used up or sold) and asset stock
//! (`/stock_assets`: lent out and back): the record routes they share with fixed
//! assets (`assets::records`, generic over the kind), stock movements and thresholds
//! (`movements.rs`), and check-out and check-in of asset stock (`checkouts.rs`).

mod checkouts;
mod movements;

use crate::api::{Api, Doc, get, post};
use crate::input::PageQuery;
use crate::resources::assets::records::{
    CUSTOM_VALUES, DetailsQuery, FilterQuery, ItemChanges, NewStockItem, TaxChanges, create,
    delete, details, filter, history, list, update,
};
use crate::resources::assets::{
    AssetJson, AssetsQuery, HistoryEntryJson, Inventory, Scoped, Stock,
};

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
            .input::<Scoped<Inventory, NewStockItem>>()
            .input::<TaxChanges>()
            .custom_values("", &[CUSTOM_VALUES])
            .params::<AssetsQuery>()
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
        .input::<Scoped<Inventory, ItemChanges>>()
        .input::<TaxChanges>()
        .custom_values("", &[CUSTOM_VALUES])
        .params::<DetailsQuery>()
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
        .params::<PageQuery>()
        .returns_page("history")
        .record::<HistoryEntryJson>(),
    )
    .route(
        "/inventory/filter",
        get(filter::<Inventory>),
        Doc::new("Inventory", "Inventory by status (group, items_in_order, location, low_stock, quantity_range, update_time or custom_filter_<id>; assets_type volatile_assets), 25 a page")
            .params::<FilterQuery<Inventory>>()
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
}

fn stock(api: Api) -> Api {
    api.route(
        "/stock_assets",
        get(list::<Stock>).post(create::<Stock>),
        Doc::new("Asset stock", "List asset stock, 25 a page (GET), or create an asset stock item (POST)")
            .input::<Scoped<Stock, NewStockItem>>()
            .input::<TaxChanges>()
            .custom_values("", &[CUSTOM_VALUES])
            .params::<AssetsQuery>()
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
        .input::<Scoped<Stock, ItemChanges>>()
        .input::<TaxChanges>()
        .custom_values("", &[CUSTOM_VALUES])
        .params::<DetailsQuery>()
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
        .params::<PageQuery>()
        .returns_page("history")
        .record::<HistoryEntryJson>(),
    )
    .route(
        "/stock_assets/filter",
        get(filter::<Stock>),
        Doc::new("Asset stock", "Asset stock by status (location, possessions_of, low_stock, quantity_range, reserved, retired, update_time, group, items_in_order or custom_filter_<id>; assets_type stock_assets), 25 a page")
            .params::<FilterQuery<Stock>>()
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
