//! What an order costs: its lines priced under the company's settings
//! (`domain::pricing`), read fresh, and stored after every change.
//!
//! A figure past the ceiling (`domain::pricing::MAX_AMOUNT`) is refused by a write that
//! changes what the order costs ([`Ceiling::refuse`]: a 422, nothing changes), so no
//! such figure is ever made; but a draft follows the company's settings of now, and a
//! change of them (the return minute counted) can take a stored draft past it. Reading
//! an order, and a write that leaves its price alone (cancelling, voiding a payment,
//! its words), price it with [`Ceiling::clamp`]: the figure shows as the ceiling and
//! `OrderView::capped` says so; the order stays readable and can be left.

use crate::CompanyId;
use crate::ids::{Kind, Number, kind};
use domain::pricing::{self, Basket, Ceiling, Line, LineKind, RentalSettings, Totals};
use domain::stock::Quantity;
use sea_query::{Expr, ExprTrait, Query, SelectStatement};

use super::charges::{Charges, EntryRecord};
use super::lines::{LineItem, lines_read};
use super::payments::PaymentRecord;
use super::sub_rentals::SubRentItem;
use super::{Order, select};
use crate::{Db, StoreError, Tx};

/// How the company prices orders.
#[derive(Debug, Clone, Copy, crate::Row)]
struct Settings {
    inclusive_return: bool,
    best_pricing: bool,
}

impl From<Settings> for RentalSettings {
    fn from(s: Settings) -> Self {
        RentalSettings {
            inclusive_return: s.inclusive_return,
            best_pricing: s.best_pricing,
        }
    }
}

/// An order with its line items and its totals as priced now.
#[derive(Debug, Clone)]
pub struct OrderView {
    pub order: Order,
    pub lines: Vec<PricedLine>,
    pub totals: Totals,
    /// Its payments, voided ones too, oldest first.
    pub payments: Vec<PaymentRecord>,
    /// Its custom entries, oldest first.
    pub entries: Vec<EntryRecord>,
    /// Its sub-rental items, oldest first; their totals follow the lines' in
    /// `totals.lines`.
    pub sub_rentals: Vec<SubRentItem>,
    /// A figure (a line's rental or a total) came to more than the ceiling and shows
    /// as the ceiling, ±`MAX_AMOUNT` (only when priced with [`Ceiling::clamp`]).
    pub capped: bool,
}

/// A line item and what its rental costs (`None`: a sale line, or no period yet).
#[derive(Debug, Clone)]
pub struct PricedLine {
    pub line: LineItem,
    pub charge: Option<pricing::RentalCharge>,
}

/// Prices `order` with `lines` under the company's settings, a figure past the ceiling
/// refused or clamped as `ceiling` says.
fn price(
    order: Order,
    lines: Vec<LineItem>,
    (charges, sub_rentals): (Charges, Vec<SubRentItem>),
    settings: RentalSettings,
    ceiling: Ceiling,
) -> Result<OrderView, StoreError> {
    let mut priced = Vec::with_capacity(lines.len());
    let mut basket_lines = Vec::with_capacity(lines.len());
    for line in lines {
        let quantity =
            Quantity::new(line.quantity).map_err(|p| StoreError::invalid("quantity", p))?;
        let period = order.line_billing(line.due_at);
        let (kind, amount, charge) = match (line.sale_price, period) {
            (Some(price), _) => (
                LineKind::Sale,
                domain::money::Money::from_minor(price.saturating_mul(line.quantity)),
                None,
            ),
            (None, Some((from, to))) if to > from => {
                let charge =
                    pricing::rental_charge_within(&line.rates(), from, to, settings, &ceiling)
                        .map_err(|e| {
                            StoreError::invalid(
                                "asset_ids",
                                format!("asset #{} {e}", line.sequence_num),
                            )
                        })?;
                let amount = charge
                    .times_within(quantity, &ceiling)
                    .map_err(|e| StoreError::invalid("quantity", e.to_string()))?;
                (LineKind::Rental, amount, Some(charge))
            }
            (None, _) => (LineKind::Rental, domain::money::Money::from_minor(0), None),
        };
        basket_lines.push(Line {
            kind,
            amount,
            late_fee: (line.late_fee > 0).then(|| domain::money::Money::from_minor(line.late_fee)),
        });
        priced.push(PricedLine { line, charge });
    }
    for sub in &sub_rentals {
        basket_lines.push(Line {
            kind: if sub.is_for_rent {
                LineKind::Rental
            } else {
                LineKind::Sale
            },
            amount: domain::money::Money::from_minor(sub.price.saturating_mul(sub.quantity)),
            late_fee: None,
        });
    }
    let basket = Basket {
        lines: basket_lines,
        order_discount: order.discount(),
        damages: domain::money::Money::from_minor(order.damage_amount),
        tax_free: order.customer_tax_free.unwrap_or(false)
            || order.business_tax_free.unwrap_or(false),
        amount_paid: domain::money::Money::from_minor(order.amount_paid),
        custom_entries: charges.custom_entries(),
        coupons: charges.coupons,
        taxes: charges.taxes,
    };
    let totals = basket
        .totals_within(&ceiling)
        .map_err(|e| StoreError::invalid("basket", e.to_string()))?;
    Ok(OrderView {
        order,
        lines: priced,
        totals,
        payments: Vec::new(),
        entries: charges.entries,
        sub_rentals,
        capped: ceiling.clamped(),
    })
}

/// The company's pricing settings now.
fn settings_read(company: CompanyId) -> SelectStatement {
    Query::select()
        .from("companies")
        .columns(["inclusive_return", "best_pricing"])
        .and_where(Expr::col("id").eq(company.0))
        .to_owned()
}

/// Which order a view reads: one numbered so (a read, which knows no more), or the
/// one of this id (a write, which locked it first).
#[derive(Clone, Copy)]
enum Which {
    Number(Number<kind::Order>),
    Id(i64),
}

/// The order, its lines and totals, read in `tx`: in one round trip on PostgreSQL when
/// its id is known, else two.
async fn view(
    tx: &mut Tx,
    company: CompanyId,
    which: Which,
    ceiling: Ceiling,
) -> Result<OrderView, StoreError> {
    let (known, id) = match which {
        Which::Id(id) => (None, id),
        Which::Number(number) => {
            let stmt = select(company)
                .and_where(Expr::col(("orders", "sequence_num")).eq(number))
                .to_owned();
            let order: Order = tx
                .optional(&stmt)
                .await?
                .ok_or(StoreError::NotFound(Kind::Order))?;
            let id = order.id;
            (Some(order), id)
        }
    };
    let order_read = by_id(company, id);
    let [coupons, taxes, entries] = super::charges::charges_reads(company, id);
    let (lines, payments, subs, settings) = (
        lines_read(company, id),
        super::payments::payments_read(company, id),
        super::sub_rentals::sub_rentals_read(company, id),
        settings_read(company),
    );
    let mut together: Vec<&(dyn crate::Statement + Sync)> = vec![
        &lines, &payments, &coupons, &taxes, &entries, &subs, &settings,
    ];
    if known.is_none() {
        together.push(&order_read);
    }
    let mut reads = tx.read_together(&together).await?;
    let lines = reads.next(tx)?;
    let payments = reads.next(tx)?;
    let charges = super::charges::charges_read(tx, &mut reads)?;
    let subs = reads.next(tx)?;
    let now: RentalSettings = reads
        .next::<Settings>(tx)?
        .into_iter()
        .next()
        .ok_or_else(crate::engine::no_row)?
        .into();
    let order: Order = match known {
        Some(order) => order,
        None => reads
            .next(tx)?
            .into_iter()
            .next()
            .ok_or(StoreError::NotFound(Kind::Order))?,
    };
    let frozen = RentalSettings {
        inclusive_return: order.inclusive_return.unwrap_or(now.inclusive_return),
        best_pricing: order.best_pricing.unwrap_or(now.best_pricing),
    };
    let mut view = price(order, lines, (charges, subs), frozen, ceiling)?;
    view.payments = payments;
    Ok(view)
}

/// The order numbered `number` with its lines and totals; a figure past the ceiling
/// shows as the ceiling (`capped`), never as an error: a stored order is always
/// readable.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin_read().await?;
    let found = view(&mut tx, company, Which::Number(number), Ceiling::clamp()).await;
    tx.commit().await?;
    found
}

/// Prices the order again and stores its net amount and balance; answers it. A write
/// that changes what the order costs passes [`Ceiling::refuse`] (a figure past the
/// ceiling is a 422 and the write is dropped with the transaction); one that leaves it
/// alone passes [`Ceiling::clamp`], so an order a settings change took past the ceiling
/// can still be cancelled, paid or described.
pub(super) async fn reprice(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    ceiling: Ceiling,
) -> Result<OrderView, StoreError> {
    let view = view(tx, company, Which::Id(order), ceiling).await?;
    let stmt = Query::update()
        .table("orders")
        .values([
            ("net_amount", view.totals.net_amount.into()),
            ("balance_due", view.totals.balance_due.into()),
        ])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(view.order.id))
        .to_owned();
    tx.send(&stmt)?;
    let mut view = view;
    view.order.net_amount = view.totals.net_amount;
    view.order.balance_due = view.totals.balance_due;
    Ok(view)
}

/// The order `id` of `company`, with its customer's and business's names.
fn by_id(company: CompanyId, id: i64) -> SelectStatement {
    select(company)
        .and_where(Expr::col(("orders", "id")).eq(id))
        .to_owned()
}

/// `view` after a move of its order's state alone (a return's outcome, decided by the
/// balance it priced), and the commit: the order's row is read again as the
/// transaction's last statement, in the commit's round trip; what the order costs does
/// not follow its state, so it is not priced again.
pub(super) async fn restated_at_commit(
    tx: Tx,
    company: CompanyId,
    view: OrderView,
) -> Result<OrderView, StoreError> {
    let order = tx.commit_reading(&by_id(company, view.order.id)).await?;
    Ok(OrderView { order, ..view })
}
