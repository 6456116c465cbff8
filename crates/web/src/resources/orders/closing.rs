//! Selling an order (`sale_order.api`), marking its items for sale first
//! (`sale_items_for_drafted_basket.api`), cancelling and voiding (rentrack extensions:
//! the spec names the moves but no endpoint).

use axum::extract::State;
use chrono::NaiveTime;
use domain::money::Money;
use store::orders::{self, Sale};

use super::answer;
use super::payments::{PAYMENT_FIELDS, optional_payment};
use super::rental::{VALUES, item_values, now_flag, set_moment};
use crate::api::{Api, Doc, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::resources::assets::clock;
use crate::state::AppState;
use crate::views;

pub(super) fn routes(api: Api) -> Api {
    let mut sale_params = vec![
        (
            "sell_on_date",
            "the day of the sale (mm/dd/yyyy); default now",
        ),
        ("sell_on_time", "hh:mm; default 00:00"),
        ("use_current_datetime", "true: sold now"),
        VALUES,
    ];
    sale_params.extend(PAYMENT_FIELDS);
    api.route(
        "/baskets/{sequence_num}/sale_order",
        put_or_patch(sell),
        Doc::new(
            "Orders",
            "Sell a draft, web or booked order (PATCH or PUT): every item on it must be for sale (inventory is; others are marked with sale_items_for_drafted_basket.api) and is handed over for good (fixed assets retired, stock used up); the order is Sold. 422 naming items not for sale",
        )
        .query(&sale_params)
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/sale_items_for_drafted_basket",
        post(mark).put_or_patch(mark),
        Doc::new(
            "Orders",
            "Mark items of a draft or web order for sale, each at its price, or back for rent (POST, PUT or PATCH)",
        )
        .query(&[
            ("asset_ids_marked_as_sale", "comma list of asset numbers on the order"),
            ("sale_prices[<asset number>]", "required for each marked: an amount"),
            ("asset_ids_marked_for_non_sale", "comma list of asset numbers on the order to rent again (not inventory)"),
        ])
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/cancel",
        put_or_patch(cancel),
        Doc::new(
            "Orders",
            "rentrack extension: cancel a draft, web or booked order (PATCH or PUT); its items are free again",
        )
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/void",
        put_or_patch(void),
        Doc::new(
            "Orders",
            "rentrack extension: void a completed order (PATCH or PUT)",
        )
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

async fn sell(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    let clock = clock(&tenant);
    let at = set_moment(
        &mut form,
        "sell_on_date",
        "sell_on_time",
        NaiveTime::MIN,
        clock.tz,
    );
    let now = now_flag(&mut form, "use_current_datetime");
    let payment = optional_payment(&mut form, &clock);
    let values = item_values(&state, &tenant, &mut form).await?;
    form.finish()?;
    let sale = Sale {
        at: if now {
            clock.now
        } else {
            at.unwrap_or(clock.now)
        },
        payment,
        values,
    };
    let view = orders::sell(state.db(), tenant.0.id, number, sale, &clock)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, clock.tz))
}

async fn mark(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    let sale = form.ids_at(
        "asset_ids_marked_as_sale",
        "asset_ids_marked_as_sale",
        "asset numbers",
    );
    let rent = form.ids_at(
        "asset_ids_marked_for_non_sale",
        "asset_ids_marked_for_non_sale",
        "asset numbers",
    );
    if sale.is_empty() && rent.is_empty() && !form.has_errors_for("asset_ids_marked_as_sale") {
        form.error(
            "asset_ids_marked_as_sale",
            "can't be blank: name items to mark for sale (or asset_ids_marked_for_non_sale)",
        );
    }
    let for_rent: std::collections::HashSet<&i64> = rent.iter().collect();
    if let Some(both) = sale.iter().find(|n| for_rent.contains(n)) {
        form.error(
            "asset_ids_marked_for_non_sale",
            format!("#{both} can't be marked for sale and for rent at once"),
        );
    }
    // sale_prices[<asset number>], however the number is written (`4`, `04`, `+4`).
    let prices = form.by_id("sale_prices", "an asset number");
    let mut priced = Vec::with_capacity(sale.len());
    for n in &sale {
        let entry = prices.get(n);
        let field = entry.map_or_else(|| format!("sale_prices[{n}]"), |e| e.name.clone());
        match entry.and_then(|e| e.value()) {
            None | Some("") => form.error(&field, "can't be blank: the price it is sold at"),
            Some(raw) => match Money::parse(raw) {
                Ok(m) => priced.push((*n, m.minor())),
                Err(p) => form.error(&field, p),
            },
        }
    }
    form.finish()?;
    let view = orders::mark_for_sale(state.db(), tenant.0.id, number, &priced, &rent)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn cancel(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
) -> Result<views::Reply, ApiError> {
    let view = orders::cancel(state.db(), tenant.0.id, number)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn void(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
) -> Result<views::Reply, ApiError> {
    let view = orders::void(state.db(), tenant.0.id, number)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}
