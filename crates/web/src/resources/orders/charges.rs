//! Taxes (`apply_taxes.api`), custom entries (`custom_entries.api`) and damages
//! (`charge_damages.api`) of an order. Coupons go on with `update_basket_from_show.api`
//! (`items.rs`).

use axum::extract::State;
use domain::Change;
use store::orders::{self, NewEntry};

use super::answer;
use super::input::{SignedAmount, both};
use crate::api::{Api, Doc, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::input::{Amount, IdList, Input, ShortText, Word};
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
        .input::<TaxesQuery>()
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
        .input::<EntryInput>()
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
        .input::<DamagesSwitch>()
        .input::<DamagesInput>()
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

/// The taxes an order is to have: send one list or both.
#[derive(Input)]
struct TaxesQuery {
    /// Custom tax ids (GET /custom_taxes.api), a comma list or repeated; empty for
    /// none.
    #[input(format = IdList, or = "group_tax_id")]
    custom_tax_id: Option<Vec<i64>>,
    /// Group tax ids (GET /group_taxes.api), a comma list or repeated; empty for none.
    #[input(format = IdList)]
    group_tax_id: Option<Vec<i64>>,
}

/// A custom entry.
#[derive(Input)]
#[input(resource = "custom_entry")]
struct EntryInput {
    /// What it is.
    #[input(format = ShortText)]
    name: String,
    /// Negative to take off (-15.00).
    #[input(format = SignedAmount)]
    amount: i64,
    /// `null` is none.
    comments: Change<String>,
    /// true: left out of the taxable base (default false).
    tax_free: Option<bool>,
}

/// The switch damages are charged with.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Enabled {
    On,
    True,
}

impl domain::Vocabulary for Enabled {
    const ALL: &'static [Self] = &[Enabled::On, Enabled::True];

    fn as_str(self) -> &'static str {
        match self {
            Enabled::On => "on",
            Enabled::True => "true",
        }
    }
}

/// The switch of a damage charge.
#[derive(Input)]
struct DamagesSwitch {
    /// on.
    #[input(format = Word<Enabled>)]
    #[expect(dead_code, reason = "its one meaning is the confirmation")]
    enable_invoice_damages: Enabled,
}

/// The damages charged.
#[derive(Input)]
#[input(resource = "basket")]
struct DamagesInput {
    /// An amount, 0 or more (0 removes the charge).
    #[input(format = Amount)]
    damage_amount: i64,
}

async fn apply_taxes(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "");
    let query = TaxesQuery::read(&mut form);
    let query = form.finish_with(query)?;
    let custom = store::Id::each(query.custom_tax_id.unwrap_or_default());
    let group = store::Id::each(query.group_tax_id.unwrap_or_default());
    let view = orders::apply_taxes(state.db(), tenant.0.id, number, &custom, &group).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn add_entry(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = EntryInput::parse(&params)?;
    let entry = NewEntry {
        name: input.name,
        amount: input.amount,
        comments: match input.comments {
            Change::Set(c) => Some(c),
            _ => None,
        },
        tax_free: input.tax_free.unwrap_or(false),
    };
    let view = orders::add_custom_entry(state.db(), tenant.0.id, number, entry).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn charge_damages(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (_, damages) = both(DamagesSwitch::parse(&params), DamagesInput::parse(&params))?;
    let view =
        orders::charge_damages(state.db(), tenant.0.id, number, damages.damage_amount).await?;
    Ok(answer(&view, tenant.0.time_zone))
}
