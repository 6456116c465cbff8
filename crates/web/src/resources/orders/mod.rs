//! Rental orders (baskets): `/baskets.api`, `/baskets/<n>.api`, and the items on them.
//! The record and its fields are in `records.rs`, adding and removing items in
//! `items.rs`; this module renders an order with its lines and every figure of its
//! price.

mod booking;
mod charges;
mod closing;
mod input;
mod items;
mod payments;
mod records;
mod rental;

use std::collections::BTreeMap;

use domain::Vocabulary;
use domain::pricing::RentalCharge;
use serde::Serialize;
use store::orders::{Order, OrderView, PricedLine};

use crate::api::Api;
use crate::views::{self, Amount, Moment, SignedAmount, moment};

pub fn routes(api: Api) -> Api {
    let api = records::routes(api);
    let api = booking::routes(api);
    let api = rental::routes(api);
    let api = payments::routes(api);
    let api = closing::routes(api);
    let api = charges::routes(api);
    items::routes(api)
}

fn optional_amount(minor: Option<i64>) -> Option<Amount> {
    minor.map(Amount)
}

/// What renting one unit of a line's item for the billed period costs.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderLineRental)]
struct RentalJson {
    /// The billed minutes.
    minutes: i64,
    /// The units charged, largest first.
    parts: Vec<RentalPartJson>,
    /// The sum of the parts' amounts, for one unit of the item.
    amount: Amount,
    /// Whether best pricing found one unit alone cheaper than the standard split (and
    /// `parts` is that unit).
    best_pricing: bool,
}

/// One unit of time a rental is charged by.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderLineRentalPart)]
struct RentalPartJson {
    #[schema(value_type = String, pattern = "^(minute|hour|day|week|month)$")]
    unit: &'static str,
    /// How many of the unit: at least 1.
    count: i64,
    /// The item's rate for the unit.
    rate: Amount,
    /// `count × rate`.
    amount: Amount,
}

fn charge(c: &RentalCharge) -> RentalJson {
    RentalJson {
        minutes: c.minutes,
        parts: c
            .parts
            .iter()
            .map(|p| RentalPartJson {
                unit: p.unit.as_str(),
                count: p.count,
                rate: Amount::of(p.rate),
                amount: Amount::of(p.amount),
            })
            .collect(),
        amount: Amount::of(c.amount),
        best_pricing: c.best_pricing,
    }
}

/// A line item's rental rates, as the item had them when it went on the order; `null`
/// for a unit it is not rented by.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderLineRentalPrices)]
struct RentalPricesJson {
    per_minute: Option<Amount>,
    hourly: Option<Amount>,
    daily: Option<Amount>,
    weekly: Option<Amount>,
    monthly: Option<Amount>,
}

/// One item on an order (`order_line_items`).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderLineItem)]
struct LineJson<'a> {
    id: i64,
    /// The item's number.
    sequence_num: i64,
    asset_name: &'a str,
    #[schema(pattern = "^(FixedAsset|VolatileAsset|StockAsset)$")]
    item_type: &'a str,
    /// The bundle it went on with (`<id>-b`), if any.
    bundle_id: Option<i64>,
    /// The sets of its bundle on the order; `null` when not from a bundle.
    bundle_quantity: Option<i64>,
    /// Units on the order.
    quantity: i64,
    /// Units back from a return.
    quantity_returned: i64,
    /// Where its units come from.
    location_id: Option<i64>,
    /// Sold with the order rather than rented.
    for_sale: bool,
    /// The price per unit it is sold at, when for sale.
    sale_price: Option<Amount>,
    rental_prices: RentalPricesJson,
    due_date: Option<Moment>,
    returned_at: Option<Moment>,
    /// How its late fee counts: per started unit of lateness, or flat.
    #[schema(pattern = "^(minute|hour|day|week|month|flat)$")]
    late_fee_kind: Option<&'a str>,
    /// The late fee per started unit (or flat), for one unit of the item.
    late_fee_rate: Option<Amount>,
    /// What renting one unit costs for the billed period; `null` for a sale line or
    /// an order without a period yet.
    rental: Option<RentalJson>,
    /// The line's amount (`null` when the order cannot be priced yet).
    amount: Option<Amount>,
    /// The line's share of the order discount.
    discount: Option<Amount>,
    /// The late fee charged on the line.
    late_fee: Option<Amount>,
}

fn line<'a>(
    p: &'a PricedLine,
    total: Option<&domain::pricing::LineTotal>,
    tz: chrono_tz::Tz,
) -> LineJson<'a> {
    let l = &p.line;
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    LineJson {
        id: l.id,
        sequence_num: l.sequence_num,
        asset_name: &l.asset_name,
        item_type: &l.asset_type,
        bundle_id: l.bundle_id,
        bundle_quantity: l.bundle_id.map(|_| l.quantity / l.set_units()),
        quantity: l.quantity,
        quantity_returned: l.quantity_returned,
        location_id: l.location_id,
        for_sale: l.for_sale,
        sale_price: optional_amount(l.sale_price),
        rental_prices: RentalPricesJson {
            per_minute: optional_amount(l.rate_per_minute),
            hourly: optional_amount(l.rate_hourly),
            daily: optional_amount(l.rate_daily),
            weekly: optional_amount(l.rate_weekly),
            monthly: optional_amount(l.rate_monthly),
        },
        due_date: at(l.due_at),
        returned_at: at(l.returned_at),
        late_fee_kind: l.late_fee_kind.as_deref(),
        late_fee_rate: optional_amount(l.late_fee_amount),
        rental: p.charge.as_ref().map(charge),
        amount: total.map(|t| Amount::of(t.amount)),
        discount: total.map(|t| Amount::of(t.discount)),
        late_fee: total.map(|t| Amount::of(t.late_fee)),
    }
}

/// A sub-rental item of an order (`baskets_sub_rent_items`): rented from someone else
/// for it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderSubRentItem)]
struct SubRentJson<'a> {
    id: i64,
    name: &'a str,
    /// Rented (comes back with the order's return) rather than sold with it.
    is_for_rent: bool,
    /// Where it is.
    location: Option<&'a str>,
    quantity: i64,
    /// The supplier's number.
    item_no: Option<&'a str>,
    /// The price per unit.
    price: Amount,
    /// price × quantity (`null` when the order cannot be priced yet).
    amount: Option<Amount>,
    returned_at: Option<Moment>,
    created_at: Moment,
}

/// A payment of an order (`payment_histories`), voided ones too.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderPayment)]
struct PaymentJson<'a> {
    id: i64,
    /// What it paid with: a pre-payment, or the payment taken at a sale or a return.
    #[schema(value_type = String, pattern = "^(pre_payment|sale|return)$")]
    purpose: &'a str,
    amount: Amount,
    /// The payment option's name.
    payment_method_name: &'a str,
    /// The payment option's kind.
    #[schema(value_type = String, pattern = "^(cash|check|credit_card|other)$")]
    payment_type: &'a str,
    paid_at: Moment,
    notes: Option<&'a str>,
    /// Voided: it no longer counts in amount_paid.
    voided: bool,
    voided_at: Option<Moment>,
    created_at: Moment,
}

/// A coupon on an order, with what it comes to.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderCoupon)]
struct CouponJson<'a> {
    /// The coupon's id.
    id: i64,
    name: &'a str,
    #[schema(value_type = String, pattern = "^(discount|surcharge)$")]
    effect: &'static str,
    /// Its value on the order's gross amount less the discount.
    value: Amount,
    /// Negative for a discount, positive for a surcharge; a discount takes less than
    /// its value (down to 0) when the discounts before it already take the whole amount.
    amount: SignedAmount,
}

/// A custom entry of an order: an amount added (or taken off) by hand.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderCustomEntry)]
struct EntryJson<'a> {
    id: i64,
    name: &'a str,
    amount: SignedAmount,
    comments: Option<&'a str>,
    /// Left out of the taxable base.
    tax_free: bool,
    created_at: Moment,
}

/// A tax on an order, with what it comes to.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderTax)]
struct TaxJson<'a> {
    /// The custom or group tax's id.
    id: i64,
    name: &'a str,
    /// The rate in percent, as a decimal string (8.25).
    #[schema(pattern = r"^[0-9]+(\.[0-9]+)?$")]
    rate: String,
    /// The taxable base (0 when it is below 0); the same for every tax.
    base: Amount,
    /// base × rate / 100, rounded; 0 when the order is tax-free.
    amount: Amount,
}

/// The customer of an order.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderCustomer)]
struct CustomerJson<'a> {
    id: i64,
    name: Option<&'a str>,
}

/// An order in a list: its own fields and stored totals, without lines.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = OrderSummary)]
pub(crate) struct SummaryJson<'a> {
    id: i64,
    /// The order's number (`<ORDER#>` in paths).
    sequence_num: i64,
    #[schema(
        value_type = String,
        pattern = "^(drafted|web_order|booked|checked_out|returned|completed|void|sold|cancelled)$"
    )]
    basket_state: &'static str,
    /// The state's display name.
    #[schema(
        value_type = String,
        pattern = "^(Draft|Web Order|Booked|Rented Out|Returned|Completed|Void|Sold|Cancelled)$"
    )]
    order_state: &'static str,
    identification_number: Option<&'a str>,
    description: Option<&'a str>,
    customer_id: Option<i64>,
    associated_customer: Option<CustomerJson<'a>>,
    /// The business the order is for, when its customer is a business contact.
    business_id: Option<i64>,
    business_name: Option<&'a str>,
    expected_checkout_date: Option<Moment>,
    due_date: Option<Moment>,
    checked_out_on: Option<Moment>,
    returned_on: Option<Moment>,
    completed_on: Option<Moment>,
    /// The order discount in percent, two decimal places (10.00).
    #[schema(pattern = r"^[0-9]{1,3}\.[0-9]{2}$")]
    order_discount: String,
    /// The order's amount as last priced.
    net_amount: SignedAmount,
    /// Payments that count (not voided).
    amount_paid: SignedAmount,
    /// net_amount − amount_paid: below 0 when paid beyond it.
    balance_due: SignedAmount,
    created_at: Moment,
    updated_at: Moment,
}

/// An order in a list: its own fields and stored totals, without lines.
pub(crate) fn summary(o: &Order, tz: chrono_tz::Tz) -> SummaryJson<'_> {
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    let state = o.state();
    SummaryJson {
        id: o.id,
        sequence_num: o.sequence_num,
        basket_state: state.as_str(),
        order_state: state.display_name(),
        identification_number: o.identification_number.as_deref(),
        description: o.description.as_deref(),
        customer_id: o.customer_id,
        associated_customer: o.customer_id.map(|id| CustomerJson {
            id,
            name: o.customer_name.as_deref(),
        }),
        business_id: o.business_id,
        business_name: o.business_name.as_deref(),
        expected_checkout_date: at(o.expected_checkout_at),
        due_date: at(o.due_at),
        checked_out_on: at(o.checked_out_on),
        returned_on: at(o.returned_on),
        completed_on: at(o.completed_on),
        order_discount: o.discount().to_fixed_string(),
        net_amount: SignedAmount(o.net_amount),
        amount_paid: SignedAmount(o.amount_paid),
        balance_due: SignedAmount(o.balance_due),
        created_at: moment(o.created_at, tz),
        updated_at: moment(o.updated_at, tz),
    }
}

/// An order with its lines, payments, charges and every figure of its price, as
/// details and every write answer it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Order)]
struct OrderJson<'a> {
    id: i64,
    /// The order's number (`<ORDER#>` in paths).
    sequence_num: i64,
    #[schema(
        value_type = String,
        pattern = "^(drafted|web_order|booked|checked_out|returned|completed|void|sold|cancelled)$"
    )]
    basket_state: &'static str,
    /// The state's display name.
    #[schema(
        value_type = String,
        pattern = "^(Draft|Web Order|Booked|Rented Out|Returned|Completed|Void|Sold|Cancelled)$"
    )]
    order_state: &'static str,
    identification_number: Option<&'a str>,
    description: Option<&'a str>,
    customer_id: Option<i64>,
    associated_customer: Option<CustomerJson<'a>>,
    /// The business the order is for, when its customer is a business contact.
    business_id: Option<i64>,
    business_name: Option<&'a str>,
    expected_checkout_date: Option<Moment>,
    due_date: Option<Moment>,
    checked_out_on: Option<Moment>,
    returned_on: Option<Moment>,
    completed_on: Option<Moment>,
    /// The order discount in percent, two decimal places (10.00).
    #[schema(pattern = r"^[0-9]{1,3}\.[0-9]{2}$")]
    order_discount: String,
    created_at: Moment,
    updated_at: Moment,
    invoice_heading: Option<&'a str>,
    /// The first moment billed (`null`: the check-out).
    bill_from: Option<Moment>,
    /// The last moment billed (`null`: the due date).
    bill_to: Option<Moment>,
    location_id: Option<i64>,
    pick_up_location_id: Option<i64>,
    shipping_address_id: Option<i64>,
    pick_up_address_id: Option<i64>,
    location_for_delivery: bool,
    location_for_pickup: bool,
    /// The member it is assigned to.
    assigned_to_id: Option<i64>,
    /// The store listing it belongs to.
    user_listing_name: Option<&'a str>,
    /// Custom field values recorded with the rent-out or sale, by custom field id.
    checkout_attribute_values: BTreeMap<String, String>,
    /// Custom field values recorded with the return, by custom field id.
    checkin_attribute_values: BTreeMap<String, String>,
    order_line_items: Vec<LineJson<'a>>,
    baskets_sub_rent_items: Vec<SubRentJson<'a>>,
    payment_histories: Vec<PaymentJson<'a>>,
    coupons: Vec<CouponJson<'a>>,
    custom_entries: Vec<EntryJson<'a>>,
    /// The rental lines' amounts.
    rental_amount: Amount,
    /// The sale lines' amounts.
    sale_amount: Amount,
    /// rental_amount + sale_amount.
    gross_amount: Amount,
    /// The lines' discounts.
    discount_amount: Amount,
    /// The coupons' amounts: below 0 when they take off.
    coupon_amount: SignedAmount,
    /// The damages charged.
    damage_amount: Amount,
    /// The lines' late fees.
    late_fee_amount: Amount,
    /// The custom entries' amounts, tax-free ones included.
    custom_entries_amount: SignedAmount,
    /// gross − discount + coupons + damages + late fees + the custom entries that are
    /// not tax-free (taxed as 0 when below 0).
    taxable_amount: SignedAmount,
    tax_amounts: Vec<TaxJson<'a>>,
    /// The taxes' amounts.
    tax_amount: Amount,
    /// gross − discount + coupons + damages + late fees + custom entries + taxes.
    net_amount: SignedAmount,
    /// Payments that count (not voided).
    amount_paid: Amount,
    /// net_amount − amount_paid: below 0 when paid beyond it.
    balance_due: SignedAmount,
    /// A figure came to more than the largest amount and shows as that amount.
    price_capped: bool,
}

/// Custom field values recorded with a rent-out or return, by field id.
fn values(stored: &str) -> BTreeMap<String, String> {
    serde_json::from_str(stored).unwrap_or_default()
}

/// The order as the contract's JSON, in the company's time zone: its fields (as a
/// list shows them), the rest of its fields, its lines and every figure of its price.
fn render(v: &OrderView, tz: chrono_tz::Tz) -> OrderJson<'_> {
    let o = &v.order;
    let t = &v.totals;
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    let SummaryJson {
        id,
        sequence_num,
        basket_state,
        order_state,
        identification_number,
        description,
        customer_id,
        associated_customer,
        business_id,
        business_name,
        expected_checkout_date,
        due_date,
        checked_out_on,
        returned_on,
        completed_on,
        order_discount,
        // The figures below are priced now.
        net_amount: _,
        amount_paid: _,
        balance_due: _,
        created_at,
        updated_at,
    } = summary(o, tz);
    OrderJson {
        id,
        sequence_num,
        basket_state,
        order_state,
        identification_number,
        description,
        customer_id,
        associated_customer,
        business_id,
        business_name,
        expected_checkout_date,
        due_date,
        checked_out_on,
        returned_on,
        completed_on,
        order_discount,
        created_at,
        updated_at,
        invoice_heading: o.invoice_heading.as_deref(),
        bill_from: at(o.bill_from),
        bill_to: at(o.bill_to),
        location_id: o.location_id,
        pick_up_location_id: o.pick_up_location_id,
        shipping_address_id: o.shipping_address_id,
        pick_up_address_id: o.pick_up_address_id,
        location_for_delivery: o.location_for_delivery,
        location_for_pickup: o.location_for_pickup,
        assigned_to_id: o.assigned_to_id,
        user_listing_name: o.user_listing_name.as_deref(),
        checkout_attribute_values: values(&o.checkout_values),
        checkin_attribute_values: values(&o.checkin_values),
        order_line_items: v
            .lines
            .iter()
            .enumerate()
            .map(|(i, p)| line(p, t.lines.get(i), tz))
            .collect(),
        baskets_sub_rent_items: v
            .sub_rentals
            .iter()
            .enumerate()
            .map(|(j, sub)| SubRentJson {
                id: sub.id,
                name: &sub.name,
                is_for_rent: sub.is_for_rent,
                location: sub.location.as_deref(),
                quantity: sub.quantity,
                item_no: sub.item_no.as_deref(),
                price: Amount(sub.price),
                amount: t.lines.get(v.lines.len() + j).map(|l| Amount::of(l.amount)),
                returned_at: at(sub.returned_at),
                created_at: moment(sub.created_at, tz),
            })
            .collect(),
        payment_histories: v
            .payments
            .iter()
            .map(|p| PaymentJson {
                id: p.id,
                purpose: &p.purpose,
                amount: Amount(p.amount),
                payment_method_name: &p.payment_method_name,
                payment_type: &p.payment_method_kind,
                paid_at: moment(p.paid_at, tz),
                notes: p.notes.as_deref(),
                voided: p.voided_at.is_some(),
                voided_at: at(p.voided_at),
                created_at: moment(p.created_at, tz),
            })
            .collect(),
        coupons: t
            .coupons
            .iter()
            .map(|c| CouponJson {
                id: c.id,
                name: &c.name,
                effect: c.effect.as_str(),
                value: Amount::of(c.value),
                amount: SignedAmount(c.amount),
            })
            .collect(),
        custom_entries: v
            .entries
            .iter()
            .map(|e| EntryJson {
                id: e.id,
                name: &e.name,
                amount: SignedAmount(e.amount),
                comments: e.comments.as_deref(),
                tax_free: e.tax_free,
                created_at: moment(e.created_at, tz),
            })
            .collect(),
        rental_amount: Amount::of(t.rental_amount),
        sale_amount: Amount::of(t.sale_amount),
        gross_amount: Amount::of(t.gross_amount),
        discount_amount: Amount::of(t.discount_amount),
        coupon_amount: SignedAmount(t.coupon_amount),
        damage_amount: Amount::of(t.damages),
        late_fee_amount: Amount::of(t.late_fee_amount),
        custom_entries_amount: SignedAmount(t.custom_entries_amount),
        taxable_amount: SignedAmount(t.taxable_amount),
        tax_amounts: t
            .taxes
            .iter()
            .map(|x| TaxJson {
                id: x.id,
                name: &x.name,
                rate: x.rate.to_string(),
                base: Amount::of(x.base),
                amount: Amount::of(x.amount),
            })
            .collect(),
        tax_amount: Amount::of(t.tax_amount),
        net_amount: SignedAmount(t.net_amount),
        amount_paid: Amount::of(t.amount_paid),
        balance_due: SignedAmount(t.balance_due),
        price_capped: v.capped,
    }
}

/// `{"basket": {...}}`.
fn answer(v: &OrderView, tz: chrono_tz::Tz) -> views::Reply {
    views::one("basket", render(v, tz))
}

#[cfg(test)]
mod tests {
    use super::{Amount, SignedAmount};

    #[test]
    fn signed_amounts_keep_their_sign() {
        let text = |minor| serde_json::to_string(&SignedAmount(minor)).unwrap();
        assert_eq!(text(-50), r#""-0.50""#);
        assert_eq!(text(-300), r#""-3.00""#);
        assert_eq!(text(12345), r#""123.45""#);
        assert_eq!(text(0), r#""0.00""#);
        assert_eq!(text(i64::MIN), r#""-92233720368547758.08""#);
        assert_eq!(
            serde_json::to_string(&Amount(i64::MAX)).unwrap(),
            r#""92233720368547758.07""#
        );
    }
}
