//! Items on an order: `update_basket_from_show.api` adds fixed assets, asset stock
//! and inventory; `remove_asset.api` takes them off a draft.

use axum::extract::State;
use domain::Change;
use domain::stock::Quantity;
use store::orders::{self, Addition, Additions};

use super::answer;
use super::input::{ItemRefs, Named, SomeItemRefs};
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::input::{Amount, Input, RecordId, Scalar, SomeIds, Units};
use crate::params::Params;
use crate::state::AppState;
use crate::views;

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/update_basket_from_show",
        put_or_patch(add),
        Doc::new(
            "Orders",
            "Put items (or coupons) on a draft or web order (PATCH or PUT): one 422 names every item refused (unknown, retired, already on it, no rental rate, inventory without a price) and nothing is added",
        )
        .input::<AddQuery>()
        .map::<Units>(
            "stock_assets_values[<n>][quantity]",
            "units of asset stock n, 1 to 1000000000, default 1",
        )
        .map::<RecordId>(
            "stock_assets_values[<n>][location_id]",
            "where its units come from; default the item's location",
        )
        .map::<Units>(
            "volatile_assets_values[<n>][quantity]",
            "units of inventory n, 1 to 1000000000, default 1",
        )
        .map::<RecordId>(
            "volatile_assets_values[<n>][location_id]",
            "where its units come from; default the item's location",
        )
        .map::<Amount>(
            "volatile_assets_values[<n>][price]",
            "the price per unit inventory n is sold at with the order; default the item's price",
        )
        .map::<Units>(
            "bundle_with_quantity[<bundle id>]",
            "sets of bundle <bundle id>-b to put on, 1 to 1000000000 (a bundle left out of this map: 1); a bundle already on the order takes more sets (one holding a fixed asset goes on once)",
        )
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/add_sub_rent_item",
        put_or_patch(add_sub_rental),
        Doc::new(
            "Orders",
            "Add a sub-rental item, rented from someone else for this order (PATCH or PUT), to a Draft, Web Order, Booked or Rented Out order; it costs price × quantity (a sale when not for rent) and, when for rent, comes back with the order's return",
        )
        .input::<SubRentInput>()
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/remove_asset",
        put_or_patch(remove),
        Doc::new(
            "Orders",
            "Take items off a draft or web order (PATCH or PUT); an item not on it is a 422 and nothing changes",
        )
        .input::<RemoveQuery>()
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

/// What `update_basket_from_show` puts on an order (with `ADDITION_MAPS`).
#[derive(Input)]
struct AddQuery {
    /// Required unless coupon_ids: item numbers (fixed assets, asset stock,
    /// inventory) and bundles (<bundle id>-b: its items with their quantities), a
    /// comma list or repeated; fixed assets and asset stock need a rental rate,
    /// inventory a price.
    #[input(format = ItemRefs, or = "coupon_ids")]
    #[expect(
        dead_code,
        reason = "checked here; read with their quantities by `read_additions`, whatever else failed"
    )]
    asset_ids: Option<Named>,
    /// Alone or with asset_ids: coupon ids to put on the order, each active and valid
    /// on the order's check-out day (or today); sent, it must name one.
    #[input(format = SomeIds)]
    coupon_ids: Option<Vec<i64>>,
}

/// What `remove_asset` takes off.
#[derive(Input)]
struct RemoveQuery {
    /// Item numbers, and bundles as <id>-b: a comma list or repeated.
    #[input(format = SomeItemRefs)]
    asset_ids: Named,
    /// true (the default): a bundle's items go with it; false: they stay on the
    /// order, each on its own.
    remove_complete_bundle: Option<bool>,
}

/// A sub-rental item.
#[derive(Input)]
#[input(resource = "baskets_sub_rent_item")]
struct SubRentInput {
    /// What it is; default (also for `null`) its item_no, else "Sub-rental item".
    name: Change<String>,
    /// true (the default), or false: sold with the order.
    is_for_rent: Option<bool>,
    /// Where it is; `null` is none.
    location: Change<String>,
    /// Units, default 1.
    #[input(format = Units)]
    quantity: Option<Quantity>,
    /// The supplier's number; `null` is none.
    item_no: Change<String>,
    /// The price per unit for the order (default, also for `null`, 0.00).
    #[input(format = Amount)]
    price: Change<i64>,
}

/// The items `named` (the good `asset_ids`) with their quantities and locations, read
/// from their maps into `form` (whose problems name each entry as sent).
pub(super) fn read_additions(form: &mut Form<'_>, named: Option<Named>) -> Additions {
    let Some((numbers, bundles)) = named else {
        return Additions::default();
    };
    let params = form.params();
    let values = [
        form.by_id("stock_assets_values", "an item number"),
        form.by_id("volatile_assets_values", "an item number"),
    ];
    let sets = form.by_id("bundle_with_quantity", "a bundle id");
    let additions = numbers
        .into_iter()
        .map(|n| {
            // stock_assets_values[<n>][<field>], else volatile_assets_values[...].
            let value = |field: &str| {
                values.iter().find_map(|map| {
                    let entry = map.get(&n)?;
                    let key = format!("{}[{field}]", entry.name);
                    params.get(&key).map(|v| (key, v))
                })
            };
            // Each as the document types it (`routes`).
            fn read<S: Scalar>(
                form: &mut Form<'_>,
                sent: Option<(String, &str)>,
            ) -> Option<S::Value> {
                let (key, raw) = sent?;
                S::parse(raw).map_err(|p| form.error(&key, p)).ok()
            }
            let quantity = read::<Units>(form, value("quantity"));
            let location = read::<RecordId>(form, value("location_id"));
            let price = read::<Amount>(form, value("price"));
            Addition {
                number: store::Number::new(n),
                quantity,
                location: location.map(store::Id::new),
                price,
            }
        })
        .collect();
    // A bundle goes on in sets: bundle_with_quantity[<id>], the spec's name for a
    // bundle's quantity (default one set).
    let bundles = bundles
        .into_iter()
        .filter_map(|b| {
            match sets.get(&b) {
                None => Quantity::new(1).ok(),
                Some(entry) => Quantity::parse(entry.value().unwrap_or_default())
                    .map_err(|p| form.error(&entry.name, p))
                    .ok(),
            }
            .map(|q| (store::Id::new(b), q))
        })
        .collect();
    Additions {
        items: additions,
        bundles,
    }
}

async fn add(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "");
    // Coupons alone, or with items (the spec does not keep them apart).
    let query = AddQuery::read(&mut form);
    let named = form.peek::<ItemRefs>("asset_ids");
    let additions = read_additions(&mut form, named);
    let query = form.finish_with(query)?;
    let coupons = store::Id::each(query.coupon_ids.unwrap_or_default());
    let clock = crate::resources::assets::clock(&tenant);
    let view =
        orders::add_items(state.db(), tenant.0.id, number, additions, &coupons, &clock).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn remove(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = RemoveQuery::parse(&params)?;
    let (numbers, bundles) = query.asset_ids;
    let complete = query.remove_complete_bundle.unwrap_or(true);
    let view = orders::remove_items(
        state.db(),
        tenant.0.id,
        number,
        store::Number::each(numbers),
        (store::Id::each(bundles), complete),
    )
    .await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn add_sub_rental(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = SubRentInput::parse(&params)?;
    let text = |c: Change<String>| match c {
        Change::Set(t) => Some(t),
        _ => None,
    };
    let item_no = text(input.item_no);
    // The spec requires neither a name nor a price: a nameless item is called by its
    // item number (else "Sub-rental item"), one without a price costs nothing.
    let name = text(input.name)
        .or_else(|| item_no.clone())
        .unwrap_or_else(|| "Sub-rental item".to_owned());
    let item = orders::NewSubRentItem {
        name,
        is_for_rent: input.is_for_rent.unwrap_or(true),
        location: text(input.location),
        quantity: input
            .quantity
            .unwrap_or(Quantity::new(1).expect("1 is a quantity")),
        item_no,
        price: match input.price {
            Change::Set(p) => p,
            _ => 0,
        },
    };
    let view = orders::add_sub_rent_item(state.db(), tenant.0.id, number, item).await?;
    Ok(answer(&view, tenant.0.time_zone))
}
