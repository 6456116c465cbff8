//! Taxes (`apply_taxes.api`), custom entries (`custom_entries.api`) and damages
//! (`charge_damages.api`) of an order. Coupons go on with `update_basket_from_show.api`
//! (`items.rs`).

use axum::extract::State;
use domain::Change;
use domain::money::Money;
use store::orders::{self, NewEntry};

use super::answer;
use crate::api::{Api, Doc, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views;

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/apply_taxes",
        put_or_patch(apply_taxes),
        Doc::new(
            "Orders",
            "Set the order's taxes to exactly these custom and group taxes (PATCH or PUT); both empty removes them. 409 for a Completed, Void, Sold or Cancelled order",
        )
        .query(&[
            ("custom_tax_id", "comma list of custom tax ids (GET /custom_taxes.api)"),
            ("group_tax_id", "comma list of group tax ids (GET /group_taxes.api)"),
        ])
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/custom_entries",
        post(add_entry),
        Doc::new(
            "Orders",
            "Add a custom entry to the order (POST); 409 for a Sold, Void, Completed or Cancelled order",
        )
        .form(
            "custom_entry",
            &[
                ("name", "required"),
                ("amount", "required: an amount, negative to take off (-15.00)"),
                ("comments", "text"),
                ("tax_free", "true: left out of the taxable base"),
            ],
        )
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/charge_damages",
        put_or_patch(charge_damages),
        Doc::new(
            "Orders",
            "Charge damages on the order (PATCH or PUT): the amount replaces what was charged (0 removes it). 409 for a Completed, Void, Sold or Cancelled order",
        )
        .query(&[
            ("enable_invoice_damages", "required: on"),
            ("basket[damage_amount]", "required: an amount, 0 or more"),
        ])
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

async fn apply_taxes(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    if !params.contains("custom_tax_id") && !params.contains("group_tax_id") {
        form.error(
            "custom_tax_id",
            "can't be blank: send custom_tax_id and/or group_tax_id (empty to remove the taxes)",
        );
    }
    let custom = form.ids_at("custom_tax_id", "custom_tax_id", "custom tax ids");
    let group = form.ids_at("group_tax_id", "group_tax_id", "group tax ids");
    form.finish()?;
    let view = orders::apply_taxes(state.db(), tenant.0.id, number, &custom, &group)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

/// A signed amount (`-15.00` takes off).
fn signed_amount(form: &mut Form<'_>, field: &str) -> Option<i64> {
    let raw = form.required_text(field)?;
    let (negative, digits) = match raw.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, raw.as_str()),
    };
    match Money::parse(digits) {
        Ok(m) => Some(if negative { -m.minor() } else { m.minor() }),
        Err(p) => {
            form.error(field, p);
            None
        }
    }
}

async fn add_entry(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "custom_entry");
    let name = form.required_text("name");
    let amount = signed_amount(&mut form, "amount");
    let comments = match form.text("comments") {
        Change::Set(c) => Some(c),
        _ => None,
    };
    let tax_free = form.boolean("tax_free").unwrap_or(false);
    form.finish()?;
    let (Some(name), Some(amount)) = (name, amount) else {
        unreachable!("reported by finish");
    };
    let entry = NewEntry {
        name,
        amount,
        comments,
        tax_free,
    };
    let view = orders::add_custom_entry(state.db(), tenant.0.id, number, entry)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn charge_damages(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    match params.get("enable_invoice_damages").map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("on") || v.eq_ignore_ascii_case("true") => {}
        Some(_) => form.error("enable_invoice_damages", "must be on"),
        None => form.error(
            "enable_invoice_damages",
            "can't be blank: send enable_invoice_damages=on",
        ),
    }
    let amount = match form.required_text("damage_amount") {
        Some(raw) => Money::parse(&raw)
            .map(|m| m.minor())
            .map_err(|p| form.error("damage_amount", p))
            .ok(),
        None => None,
    };
    form.finish()?;
    let amount = amount.expect("reported by finish");
    let view = orders::charge_damages(state.db(), tenant.0.id, number, amount)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}
