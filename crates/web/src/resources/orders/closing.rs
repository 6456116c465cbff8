//! Selling an order (`sale_order.api`), marking its items for sale first
//! (`sale_items_for_drafted_basket.api`), cancelling and voiding (rentrack extensions:
//! the spec names the moves but no endpoint).

use axum::extract::State;
use chrono::{NaiveDate, NaiveTime};
use store::orders::{self, Sale};

use super::answer;
use super::input::{both, set_at};
use super::payments::{CashPaid, PaymentBasket, optional_payment};
use super::rental::{VALUES, item_values};
use crate::api::{Api, Doc, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::input::{Amount, IdList, Input, Scalar, TimeOfDay};
use crate::params::Params;
use crate::resources::assets::clock;
use crate::state::AppState;
use crate::views;

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/sale_order",
        put_or_patch(sell),
        Doc::new(
            "Orders",
            "Sell a draft, web or booked order (PATCH or PUT): every item on it must be for sale (inventory is; others are marked with sale_items_for_drafted_basket.api) and is handed over for good (fixed assets retired, stock used up); the order is Sold. 422 naming items not for sale",
        )
        .input::<SaleQuery>()
        .custom_values("", &[VALUES])
        .input::<PaymentBasket>()
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
        .input::<MarkQuery>()
        .optional_map::<Amount>(
            "sale_prices[<asset number>]",
            "the price each item marked for sale is sold at (required for each)",
        )
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

/// The moment and payment of a sale (beside `PaymentBasket`).
#[derive(Input)]
struct SaleQuery {
    /// The day of the sale; default now.
    sell_on_date: Option<NaiveDate>,
    /// hh:mm; default 00:00 (only with sell_on_date).
    #[input(format = TimeOfDay, needs = "sell_on_date")]
    sell_on_time: Option<NaiveTime>,
    /// true: sold now (sell_on_date aside).
    use_current_datetime: Option<bool>,
    #[input(flatten)]
    payment: CashPaid,
}

/// The items marked (beside their `sale_prices`).
#[derive(Input)]
struct MarkQuery {
    /// Asset numbers on the order to sell, a comma list or repeated (this list or the
    /// other must be sent; both empty change nothing).
    #[input(format = IdList, or = "asset_ids_marked_for_non_sale")]
    #[expect(
        dead_code,
        reason = "checked here; read with their prices by `mark`, whatever else failed"
    )]
    asset_ids_marked_as_sale: Option<Vec<i64>>,
    /// Asset numbers on the order to rent again (not inventory).
    #[input(format = IdList)]
    asset_ids_marked_for_non_sale: Option<Vec<i64>>,
}

async fn sell(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let clock = clock(&tenant);
    let mut form = Form::new(&params, "");
    let query = SaleQuery::read(&mut form);
    let values = item_values(&state, &tenant, &mut form).await?;
    let (q, basket) = both(form.finish_with(query), PaymentBasket::parse(&params))?;
    let at = match q.use_current_datetime {
        Some(true) => clock.now,
        _ => set_at(q.sell_on_date, q.sell_on_time, NaiveTime::MIN, clock.tz).unwrap_or(clock.now),
    };
    let sale = Sale {
        at,
        payment: optional_payment(q.payment, basket, &clock),
        values,
    };
    let view = orders::sell(state.db(), tenant.0.id, number, sale, &clock).await?;
    Ok(answer(&view, clock.tz))
}

async fn mark(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "");
    let query = MarkQuery::read(&mut form);
    let sale = form
        .peek::<IdList>("asset_ids_marked_as_sale")
        .unwrap_or_default();
    let rent = form
        .peek::<IdList>("asset_ids_marked_for_non_sale")
        .unwrap_or_default();
    let for_rent: std::collections::HashSet<&i64> = rent.iter().collect();
    if let Some(both) = sale.iter().find(|n| for_rent.contains(n)) {
        form.error(
            "asset_ids_marked_for_non_sale",
            format!("#{both} can't be marked for sale and for rent at once"),
        );
    }
    // sale_prices[<asset number>], however the number is written (`4`, `04`, `+4`):
    // each an amount as documented (`routes`), whether or not its item is marked.
    let prices: std::collections::HashMap<i64, (String, Option<i64>)> = form
        .by_id("sale_prices", "an asset number")
        .into_iter()
        .map(|(n, entry)| {
            let amount = match entry.value() {
                None => {
                    form.error(&entry.name, "must be an amount, not nested further");
                    None
                }
                Some("") => None,
                Some(raw) => Amount::parse(raw)
                    .map_err(|p| form.error(&entry.name, p))
                    .ok(),
            };
            (n, (entry.name, amount))
        })
        .collect();
    let mut priced = Vec::with_capacity(sale.len());
    for n in &sale {
        match prices.get(n) {
            Some((_, Some(amount))) => priced.push((store::Number::new(*n), *amount)),
            Some((name, None)) if form.has_errors_for(name) => {}
            Some((name, None)) => form.error(name, "can't be blank: the price it is sold at"),
            None => form.error(
                &format!("sale_prices[{n}]"),
                "can't be blank: the price it is sold at",
            ),
        }
    }
    let rent = store::Number::each(
        form.finish_with(query)?
            .asset_ids_marked_for_non_sale
            .unwrap_or_default(),
    );
    let view = orders::mark_for_sale(state.db(), tenant.0.id, number, &priced, &rent).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn cancel(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
) -> Result<views::Reply, ApiError> {
    let view = orders::cancel(state.db(), tenant.0.id, number).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn void(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
) -> Result<views::Reply, ApiError> {
    let view = orders::void(state.db(), tenant.0.id, number).await?;
    Ok(answer(&view, tenant.0.time_zone))
}
