//! Rental orders (baskets): `/baskets.api`, `/baskets/<n>.api`, and the items on them.
//! The record and its fields are in `records.rs`, adding and removing items in
//! `items.rs`; this module renders an order with its lines and every figure of its
//! price.

mod booking;
mod charges;
mod closing;
mod items;
mod payments;
mod records;
mod rental;

use domain::Vocabulary;
use domain::money::Money;
use domain::pricing::RentalCharge;
use serde_json::{Value, json};
use store::orders::{OrderView, PricedLine};

use crate::api::Api;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    let api = records::routes(api);
    let api = booking::routes(api);
    let api = rental::routes(api);
    let api = payments::routes(api);
    let api = closing::routes(api);
    let api = charges::routes(api);
    items::routes(api)
}

/// Money as a decimal string with two places; negative amounts keep their sign.
fn signed(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

fn money(m: Money) -> String {
    signed(m.minor())
}

fn optional_money(minor: Option<i64>) -> Option<String> {
    minor.map(signed)
}

fn charge(c: &RentalCharge) -> Value {
    json!({
        "minutes": c.minutes,
        "parts": c.parts.iter().map(|p| json!({
            "unit": p.unit.as_str(),
            "count": p.count,
            "rate": money(p.rate),
            "amount": money(p.amount),
        })).collect::<Vec<_>>(),
        "amount": money(c.amount),
        "best_pricing": c.best_pricing,
    })
}

fn line(p: &PricedLine, total: Option<&domain::pricing::LineTotal>, tz: chrono_tz::Tz) -> Value {
    let l = &p.line;
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    json!({
        "id": l.id,
        "sequence_num": l.sequence_num,
        "asset_name": l.asset_name,
        "item_type": l.asset_type,
        "bundle_id": l.bundle_id,
        "bundle_quantity": l.bundle_id.map(|_| l.quantity / l.set_units()),
        "quantity": l.quantity,
        "quantity_returned": l.quantity_returned,
        "location_id": l.location_id,
        "for_sale": l.for_sale,
        "sale_price": optional_money(l.sale_price),
        "rental_prices": {
            "per_minute": optional_money(l.rate_per_minute),
            "hourly": optional_money(l.rate_hourly),
            "daily": optional_money(l.rate_daily),
            "weekly": optional_money(l.rate_weekly),
            "monthly": optional_money(l.rate_monthly),
        },
        "due_date": at(l.due_at),
        "returned_at": at(l.returned_at),
        "late_fee_kind": l.late_fee_kind,
        "late_fee_rate": optional_money(l.late_fee_amount),
        "rental": p.charge.as_ref().map(charge),
        "amount": total.map(|t| money(t.amount)),
        "discount": total.map(|t| money(t.discount)),
        "late_fee": total.map(|t| money(t.late_fee)),
    })
}

/// Custom field values recorded with a rent-out or return, by field id.
fn values(stored: &str) -> Value {
    serde_json::from_str(stored).unwrap_or_else(|_| json!({}))
}

/// The order as the contract's JSON, in the company's time zone: its fields (as a
/// list shows them), the rest of its fields, its lines and every figure of its price.
fn render(v: &OrderView, tz: chrono_tz::Tz) -> Value {
    let o = &v.order;
    let t = &v.totals;
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    let taxes: Vec<Value> = t
        .taxes
        .iter()
        .map(|x| {
            json!({
                "id": x.id,
                "name": x.name,
                "rate": x.rate.to_string(),
                "base": money(x.base),
                "amount": money(x.amount),
            })
        })
        .collect();
    let lines: Vec<Value> = v
        .lines
        .iter()
        .enumerate()
        .map(|(i, p)| line(p, t.lines.get(i), tz))
        .collect();
    let mut body = summary(o, tz);
    let more = json!({
        "invoice_heading": o.invoice_heading,
        "bill_from": at(o.bill_from),
        "bill_to": at(o.bill_to),
        "location_id": o.location_id,
        "pick_up_location_id": o.pick_up_location_id,
        "shipping_address_id": o.shipping_address_id,
        "pick_up_address_id": o.pick_up_address_id,
        "location_for_delivery": o.location_for_delivery,
        "location_for_pickup": o.location_for_pickup,
        "assigned_to_id": o.assigned_to_id,
        "user_listing_name": o.user_listing_name,
        "checkout_attribute_values": values(&o.checkout_values),
        "checkin_attribute_values": values(&o.checkin_values),
        "order_line_items": lines,
        "baskets_sub_rent_items": v.sub_rentals.iter().enumerate().map(|(j, sub)| json!({
            "id": sub.id,
            "name": sub.name,
            "is_for_rent": sub.is_for_rent,
            "location": sub.location,
            "quantity": sub.quantity,
            "item_no": sub.item_no,
            "price": signed(sub.price),
            "amount": t.lines.get(v.lines.len() + j).map(|l| money(l.amount)),
            "returned_at": at(sub.returned_at),
            "created_at": moment(sub.created_at, tz),
        })).collect::<Vec<_>>(),
        "payment_histories": v.payments.iter().map(|p| json!({
            "id": p.id,
            "purpose": p.purpose,
            "amount": signed(p.amount),
            "payment_method_name": p.payment_method_name,
            "payment_type": p.payment_method_kind,
            "paid_at": moment(p.paid_at, tz),
            "notes": p.notes,
            "voided": p.voided_at.is_some(),
            "voided_at": at(p.voided_at),
            "created_at": moment(p.created_at, tz),
        })).collect::<Vec<_>>(),
    });
    let coupons: Vec<Value> = t
        .coupons
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "name": c.name,
                "effect": c.effect.as_str(),
                "value": money(c.value),
                "amount": signed(c.amount),
            })
        })
        .collect();
    let entries: Vec<Value> = v
        .entries
        .iter()
        .map(|e| {
            json!({
                "id": e.id,
                "name": e.name,
                "amount": signed(e.amount),
                "comments": e.comments,
                "tax_free": e.tax_free,
                "created_at": moment(e.created_at, tz),
            })
        })
        .collect();
    let figures = json!({
        "coupons": coupons,
        "custom_entries": entries,
        "rental_amount": money(t.rental_amount),
        "sale_amount": money(t.sale_amount),
        "gross_amount": money(t.gross_amount),
        "discount_amount": money(t.discount_amount),
        "coupon_amount": signed(t.coupon_amount),
        "damage_amount": money(t.damages),
        "late_fee_amount": money(t.late_fee_amount),
        "custom_entries_amount": signed(t.custom_entries_amount),
        "taxable_amount": signed(t.taxable_amount),
        "tax_amounts": taxes,
        "tax_amount": money(t.tax_amount),
        "net_amount": signed(t.net_amount),
        "amount_paid": money(t.amount_paid),
        "balance_due": signed(t.balance_due),
        "price_capped": v.capped,
    });
    if let (Value::Object(b), Value::Object(m), Value::Object(f)) = (&mut body, more, figures) {
        b.extend(m);
        b.extend(f);
    }
    body
}

/// An order in a list: its own fields and stored totals, without lines.
pub(crate) fn summary(o: &store::orders::Order, tz: chrono_tz::Tz) -> Value {
    let at = |m: Option<chrono::DateTime<chrono::Utc>>| m.map(|m| moment(m, tz));
    let state = o.state();
    json!({
        "id": o.id,
        "sequence_num": o.sequence_num,
        "basket_state": state.as_str(),
        "order_state": state.display_name(),
        "identification_number": o.identification_number,
        "description": o.description,
        "customer_id": o.customer_id,
        "associated_customer": o.customer_id.map(|id| json!({"id": id, "name": o.customer_name})),
        "business_id": o.business_id,
        "business_name": o.business_name,
        "expected_checkout_date": at(o.expected_checkout_at),
        "due_date": at(o.due_at),
        "checked_out_on": at(o.checked_out_on),
        "returned_on": at(o.returned_on),
        "completed_on": at(o.completed_on),
        "order_discount": o.discount().to_fixed_string(),
        "net_amount": signed(o.net_amount),
        "amount_paid": signed(o.amount_paid),
        "balance_due": signed(o.balance_due),
        "created_at": moment(o.created_at, tz),
        "updated_at": moment(o.updated_at, tz),
    })
}

/// `{"basket": {...}}`.
fn answer(v: &OrderView, tz: chrono_tz::Tz) -> views::Reply {
    views::one("basket", render(v, tz))
}

#[cfg(test)]
mod tests {
    #[test]
    fn signed_amounts_keep_their_sign() {
        assert_eq!(super::signed(-50), "-0.50");
        assert_eq!(super::signed(-300), "-3.00");
        assert_eq!(super::signed(12345), "123.45");
        assert_eq!(super::signed(0), "0.00");
    }
}
