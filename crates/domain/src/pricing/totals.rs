//! An order's totals: discount, coupons, damages, late fees, custom entries, taxes and
//! the balance due, each figure shown so a person can check it (the rules are in the
//! [module doc](super)).

use super::{Ceiling, Percent, PricingError, TaxRate};
use crate::Vocabulary;
use crate::money::Money;

/// Whether a line rents or sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// A rental: its rental charge × quantity.
    Rental,
    /// A sale: its sale amount.
    Sale,
}

impl Vocabulary for LineKind {
    const ALL: &'static [Self] = &[LineKind::Rental, LineKind::Sale];

    fn as_str(self) -> &'static str {
        match self {
            LineKind::Rental => "rental",
            LineKind::Sale => "sale",
        }
    }
}

/// A line of an order, priced already: its rental charge × quantity
/// ([`RentalCharge::times`](super::RentalCharge::times)) or its sale amount, and the late
/// fee of its return, if any ([`LateFee::charge`](super::LateFee::charge)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// Rental or sale.
    pub kind: LineKind,
    /// The line's rental charge × quantity, or its sale amount.
    pub amount: Money,
    /// The late fee of its return; `None` when returned on time or not yet.
    pub late_fee: Option<Money>,
}

/// Whether a coupon takes off or adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CouponEffect {
    /// Takes its value off.
    Discount,
    /// Adds its value.
    Surcharge,
}

impl Vocabulary for CouponEffect {
    const ALL: &'static [Self] = &[CouponEffect::Discount, CouponEffect::Surcharge];

    fn as_str(self) -> &'static str {
        match self {
            CouponEffect::Discount => "discount",
            CouponEffect::Surcharge => "surcharge",
        }
    }
}

/// How much a coupon is worth: an amount, or a percentage of gross − discount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CouponValue {
    /// This amount.
    Flat(Money),
    /// This percentage of gross − discount, rounded to the cent.
    Percent(Percent),
}

/// A coupon applied to an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coupon {
    /// The coupon's id, shown back in [`CouponTotal`].
    pub id: i64,
    /// Its name, shown back.
    pub name: String,
    /// What it is worth.
    pub value: CouponValue,
    /// Whether it takes off or adds.
    pub effect: CouponEffect,
}

/// A custom entry: a named amount in minor units, negative to take off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomEntry {
    /// What the entry is for.
    pub name: String,
    /// Signed minor units: negative takes off.
    pub amount: i64,
    /// Left out of the taxable base.
    pub tax_free: bool,
}

/// A tax on the order; a group tax comes as one, its rate the sum of its components'.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tax {
    /// The tax's id, shown back in [`TaxTotal`].
    pub id: i64,
    /// Its name, shown back.
    pub name: String,
    /// The rate, a group's sum for a group tax.
    pub rate: TaxRate,
}

/// Everything an order's totals depend on. [`Basket::default`] is an empty order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Basket {
    /// The order's lines, priced.
    pub lines: Vec<Line>,
    /// Taken off every line, line by line.
    pub order_discount: Percent,
    /// Applied in this order.
    pub coupons: Vec<Coupon>,
    /// What damage to the items costs, 0 if none.
    pub damages: Money,
    /// Named amounts added or taken off.
    pub custom_entries: Vec<CustomEntry>,
    /// The taxes on the order, each on the same base.
    pub taxes: Vec<Tax>,
    /// The customer or business pays no tax: every tax comes to 0.
    pub tax_free: bool,
    /// What the customer has paid so far.
    pub amount_paid: Money,
}

impl Default for Basket {
    fn default() -> Self {
        Basket {
            lines: Vec::new(),
            order_discount: Percent::ZERO,
            coupons: Vec::new(),
            damages: Money::from_minor(0),
            custom_entries: Vec::new(),
            taxes: Vec::new(),
            tax_free: false,
            amount_paid: Money::from_minor(0),
        }
    }
}

/// One line's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineTotal {
    /// Rental or sale.
    pub kind: LineKind,
    /// The line's amount.
    pub amount: Money,
    /// round(amount × order discount / 100).
    pub discount: Money,
    /// 0 when none.
    pub late_fee: Money,
}

/// One coupon's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CouponTotal {
    /// The coupon's id.
    pub id: i64,
    /// The coupon's name.
    pub name: String,
    /// Discount or surcharge.
    pub effect: CouponEffect,
    /// Its value on gross − discount, before the floor at zero.
    pub value: Money,
    /// Signed: negative for a discount, positive for a surcharge. A discount takes less
    /// than its `value` (down to 0) when the discount coupons before it and it together
    /// would take more than gross − discount.
    pub amount: i64,
}

/// One tax's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxTotal {
    /// The tax's id.
    pub id: i64,
    /// The tax's name.
    pub name: String,
    /// The rate in percent.
    pub rate: TaxRate,
    /// The taxable base, 0 if it was negative; the same for every tax, and shown even
    /// when the order is tax-free.
    pub base: Money,
    /// round(base × rate / 100), or 0 when the order is tax-free.
    pub amount: Money,
}

/// An order's totals, in minor units; figures that can be negative are `i64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    /// Per line, in the basket's order.
    pub lines: Vec<LineTotal>,
    /// The rental lines' amounts.
    pub rental_amount: Money,
    /// The sale lines' amounts.
    pub sale_amount: Money,
    /// Rental + sale.
    pub gross_amount: Money,
    /// The lines' discounts.
    pub discount_amount: Money,
    /// Per coupon, in the basket's order.
    pub coupons: Vec<CouponTotal>,
    /// The coupons' signed amounts.
    pub coupon_amount: i64,
    /// The basket's damages.
    pub damages: Money,
    /// The lines' late fees.
    pub late_fee_amount: Money,
    /// The custom entries' signed amounts, tax-free ones included.
    pub custom_entries_amount: i64,
    /// gross − discount + coupons + damages + late fees + the custom entries that are not
    /// tax-free, before a negative one is taxed as 0.
    pub taxable_amount: i64,
    /// Per tax, in the basket's order.
    pub taxes: Vec<TaxTotal>,
    /// The taxes' amounts.
    pub tax_amount: Money,
    /// gross − discount + coupons + damages + late fees + custom entries + taxes.
    pub net_amount: i64,
    /// The basket's amount paid.
    pub amount_paid: Money,
    /// net − paid: negative when the customer paid more than the order comes to.
    pub balance_due: i64,
}

impl Basket {
    /// The order's totals. Every figure stays within ±[`MAX_AMOUNT`](super::MAX_AMOUNT),
    /// or the answer is [`PricingError::TooLarge`].
    pub fn totals(&self) -> Result<Totals, PricingError> {
        self.totals_within(&Ceiling::refuse())
    }

    /// The order's totals, a figure beyond ±[`MAX_AMOUNT`](super::MAX_AMOUNT) refused
    /// or clamped as `ceiling` says ([`Ceiling::clamped`] tells which happened). The
    /// sums are exact: only the figures shown are clamped.
    pub fn totals_within(&self, ceiling: &Ceiling) -> Result<Totals, PricingError> {
        let units = |m: Money| ceiling.units(m);
        let money = |u: i128| ceiling.money(u);
        let signed = |u: i128| ceiling.signed(u);
        let percent_of = |u: i128, p| ceiling.percent_of(u, p);
        let pct = self.order_discount.get();
        let mut lines = Vec::with_capacity(self.lines.len());
        let (mut rental, mut sale, mut discount, mut late) = (0, 0, 0, 0);
        for line in &self.lines {
            let amount = units(line.amount)?;
            let line_discount = percent_of(amount, pct)?;
            let late_fee = line.late_fee.map_or(Ok(0), units)?;
            match line.kind {
                LineKind::Rental => rental += amount,
                LineKind::Sale => sale += amount,
            }
            discount += line_discount;
            late += late_fee;
            lines.push(LineTotal {
                kind: line.kind,
                amount: money(amount)?,
                discount: money(line_discount)?,
                late_fee: money(late_fee)?,
            });
        }
        let gross = rental + sale;
        // Gross − discount: what the coupons apply to, never below zero as no percent
        // passes 100.
        let discounted = gross - discount;

        let mut coupons = Vec::with_capacity(self.coupons.len());
        let mut coupon_amount = 0;
        let mut room = discounted;
        for coupon in &self.coupons {
            let value = match coupon.value {
                CouponValue::Flat(amount) => units(amount)?,
                CouponValue::Percent(p) => percent_of(discounted, p.get())?,
            };
            let amount = match coupon.effect {
                CouponEffect::Discount => {
                    let taken = value.min(room);
                    room -= taken;
                    -taken
                }
                CouponEffect::Surcharge => value,
            };
            coupon_amount += amount;
            coupons.push(CouponTotal {
                id: coupon.id,
                name: coupon.name.clone(),
                effect: coupon.effect,
                value: money(value)?,
                amount: signed(amount)?,
            });
        }

        let damages = units(self.damages)?;
        let (mut custom, mut custom_taxed) = (0, 0);
        for entry in &self.custom_entries {
            let amount = i128::from(signed(i128::from(entry.amount))?);
            custom += amount;
            if !entry.tax_free {
                custom_taxed += amount;
            }
        }

        let before_tax = discounted + coupon_amount + damages + late;
        let taxable = before_tax + custom_taxed;
        let base = taxable.max(0);
        let mut taxes = Vec::with_capacity(self.taxes.len());
        let mut tax_amount = 0;
        for tax in &self.taxes {
            let amount = if self.tax_free {
                0
            } else {
                percent_of(base, tax.rate.get())?
            };
            tax_amount += amount;
            taxes.push(TaxTotal {
                id: tax.id,
                name: tax.name.clone(),
                rate: tax.rate,
                base: money(base)?,
                amount: money(amount)?,
            });
        }

        let net = before_tax + custom + tax_amount;
        let paid = units(self.amount_paid)?;
        Ok(Totals {
            lines,
            rental_amount: money(rental)?,
            sale_amount: money(sale)?,
            gross_amount: money(gross)?,
            discount_amount: money(discount)?,
            coupons,
            coupon_amount: signed(coupon_amount)?,
            damages: money(damages)?,
            late_fee_amount: money(late)?,
            custom_entries_amount: signed(custom)?,
            taxable_amount: signed(taxable)?,
            taxes,
            tax_amount: money(tax_amount)?,
            net_amount: signed(net)?,
            amount_paid: money(paid)?,
            balance_due: signed(net - paid)?,
        })
    }
}

#[cfg(test)]
#[allow(
    clippy::inconsistent_digit_grouping,
    reason = "amounts in minor units are written units_cents: 80_00 is 80.00"
)]
mod tests {
    use super::*;
    use crate::pricing::MAX_AMOUNT;
    use rust_decimal::Decimal;

    fn m(minor: i64) -> Money {
        Money::from_minor(minor)
    }

    fn rental(minor: i64) -> Line {
        Line {
            kind: LineKind::Rental,
            amount: m(minor),
            late_fee: None,
        }
    }

    fn sale(minor: i64) -> Line {
        Line {
            kind: LineKind::Sale,
            ..rental(minor)
        }
    }

    fn late(line: Line, fee: i64) -> Line {
        Line {
            late_fee: Some(m(fee)),
            ..line
        }
    }

    fn pct(raw: &str) -> Percent {
        Percent::parse(raw).unwrap()
    }

    fn coupon(id: i64, value: CouponValue, effect: CouponEffect) -> Coupon {
        Coupon {
            id,
            name: format!("coupon {id}"),
            value,
            effect,
        }
    }

    fn flat(minor: i64) -> CouponValue {
        CouponValue::Flat(m(minor))
    }

    fn percent(raw: &str) -> CouponValue {
        CouponValue::Percent(pct(raw))
    }

    use CouponEffect::{Discount, Surcharge};

    fn tax(id: i64, rate: &str) -> Tax {
        Tax {
            id,
            name: format!("tax {id}"),
            rate: TaxRate::parse(rate).unwrap(),
        }
    }

    fn custom(name: &str, amount: i64, tax_free: bool) -> CustomEntry {
        CustomEntry {
            name: name.into(),
            amount,
            tax_free,
        }
    }

    /// Expected figures, in minor units.
    struct Expect {
        gross: i64,
        line_discounts: &'static [i64],
        discount: i64,
        coupons: &'static [i64],
        late: i64,
        custom: i64,
        taxable: i64,
        taxes: &'static [i64],
        net: i64,
        balance: i64,
    }

    fn cases() -> Vec<(&'static str, Basket, Expect)> {
        vec![
            // gross 80.00 + 25.00 = 105.00 = net = balance
            (
                "rental and sale lines only",
                Basket {
                    lines: vec![rental(80_00), sale(25_00)],
                    ..Basket::default()
                },
                Expect {
                    gross: 105_00,
                    line_discounts: &[0, 0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 105_00,
                    taxes: &[],
                    net: 105_00,
                    balance: 105_00,
                },
            ),
            // 10.00 × 33.33 % = 3.333 → 3.33; net 10.00 − 3.33 = 6.67
            (
                "33.33 % of 10.00",
                Basket {
                    lines: vec![rental(10_00)],
                    order_discount: pct("33.33"),
                    ..Basket::default()
                },
                Expect {
                    gross: 10_00,
                    line_discounts: &[3_33],
                    discount: 3_33,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 6_67,
                    taxes: &[],
                    net: 6_67,
                    balance: 6_67,
                },
            ),
            // each 0.20 × 12.5 % = 0.025 → 0.03 (half away from zero), line by line:
            // 0.06, not round(0.40 × 12.5 %) = 0.05; net 0.40 − 0.06 = 0.34
            (
                "12.5 % rounds line by line",
                Basket {
                    lines: vec![rental(20), sale(20)],
                    order_discount: pct("12.5"),
                    ..Basket::default()
                },
                Expect {
                    gross: 40,
                    line_discounts: &[3, 3],
                    discount: 6,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 34,
                    taxes: &[],
                    net: 34,
                    balance: 34,
                },
            ),
            // 100 % of 50.00 = 50.00; gross − discount = 0, so the 10.00 coupon takes 0
            (
                "100 % discount floors a flat discount coupon",
                Basket {
                    lines: vec![rental(50_00)],
                    order_discount: pct("100"),
                    coupons: vec![coupon(1, flat(10_00), Discount)],
                    ..Basket::default()
                },
                Expect {
                    gross: 50_00,
                    line_discounts: &[50_00],
                    discount: 50_00,
                    coupons: &[0],
                    late: 0,
                    custom: 0,
                    taxable: 0,
                    taxes: &[],
                    net: 0,
                    balance: 0,
                },
            ),
            // discount 20 % of 100.00 = 20.00; each 10 % coupon on 80.00 = 8.00 (not
            // 7.20 for the second); net 80.00 − 16.00 = 64.00
            (
                "percentage coupons on gross − discount, not compounded",
                Basket {
                    lines: vec![sale(100_00)],
                    order_discount: pct("20"),
                    coupons: vec![
                        coupon(1, percent("10"), Discount),
                        coupon(2, percent("10"), Discount),
                    ],
                    ..Basket::default()
                },
                Expect {
                    gross: 100_00,
                    line_discounts: &[20_00],
                    discount: 20_00,
                    coupons: &[-8_00, -8_00],
                    late: 0,
                    custom: 0,
                    taxable: 64_00,
                    taxes: &[],
                    net: 64_00,
                    balance: 64_00,
                },
            ),
            // 30.00: −20.00, then −20.00 floored to the −10.00 left, then +5.00;
            // coupons −25.00; net 5.00
            (
                "flat discount coupons floored at zero, a surcharge still adds",
                Basket {
                    lines: vec![rental(30_00)],
                    coupons: vec![
                        coupon(1, flat(20_00), Discount),
                        coupon(2, flat(20_00), Discount),
                        coupon(3, flat(5_00), Surcharge),
                    ],
                    ..Basket::default()
                },
                Expect {
                    gross: 30_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[-20_00, -10_00, 5_00],
                    late: 0,
                    custom: 0,
                    taxable: 5_00,
                    taxes: &[],
                    net: 5_00,
                    balance: 5_00,
                },
            ),
            // a surcharge before a discount does not raise the floor: 10.00 + 5.00, then
            // −12.00 floored to −10.00; net 10.00 − 5.00 = 5.00
            (
                "the floor counts discount coupons only",
                Basket {
                    lines: vec![rental(10_00)],
                    coupons: vec![
                        coupon(1, flat(5_00), Surcharge),
                        coupon(2, flat(12_00), Discount),
                    ],
                    ..Basket::default()
                },
                Expect {
                    gross: 10_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[5_00, -10_00],
                    late: 0,
                    custom: 0,
                    taxable: 5_00,
                    taxes: &[],
                    net: 5_00,
                    balance: 5_00,
                },
            ),
            // 9.99 × 15 % = 1.4985 → 1.50; net 11.49
            (
                "a percentage surcharge rounds",
                Basket {
                    lines: vec![sale(9_99)],
                    coupons: vec![coupon(1, percent("15"), Surcharge)],
                    ..Basket::default()
                },
                Expect {
                    gross: 9_99,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[1_50],
                    late: 0,
                    custom: 0,
                    taxable: 11_49,
                    taxes: &[],
                    net: 11_49,
                    balance: 11_49,
                },
            ),
            // 60 % of 100.00 = 60.00, then 60.00 floored to the 40.00 left; net 0
            (
                "two 60 % discount coupons",
                Basket {
                    lines: vec![rental(100_00)],
                    coupons: vec![
                        coupon(1, percent("60"), Discount),
                        coupon(2, percent("60"), Discount),
                    ],
                    ..Basket::default()
                },
                Expect {
                    gross: 100_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[-60_00, -40_00],
                    late: 0,
                    custom: 0,
                    taxable: 0,
                    taxes: &[],
                    net: 0,
                    balance: 0,
                },
            ),
            // 100.00 × 8.25 % = 8.25; net 108.25
            (
                "one tax",
                Basket {
                    lines: vec![rental(100_00)],
                    taxes: vec![tax(1, "8.25")],
                    ..Basket::default()
                },
                Expect {
                    gross: 100_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 100_00,
                    taxes: &[8_25],
                    net: 108_25,
                    balance: 108_25,
                },
            ),
            // group 4 + 4.5 + 0.375 = 8.875 %: 19.99 × 8.875 % = 1.7741125 → 1.77;
            // net 21.76
            (
                "a group tax is one rate",
                Basket {
                    lines: vec![sale(19_99)],
                    taxes: vec![tax(1, "8.875")],
                    ..Basket::default()
                },
                Expect {
                    gross: 19_99,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 19_99,
                    taxes: &[1_77],
                    net: 21_76,
                    balance: 21_76,
                },
            ),
            // 10.10 × 2.5 % = 0.2525 → 0.25, twice: 0.50 (one 5 % tax would be 0.51);
            // net 10.60
            (
                "two taxes round one by one",
                Basket {
                    lines: vec![rental(10_10)],
                    taxes: vec![tax(1, "2.5"), tax(2, "2.5")],
                    ..Basket::default()
                },
                Expect {
                    gross: 10_10,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 10_10,
                    taxes: &[25, 25],
                    net: 10_60,
                    balance: 10_60,
                },
            ),
            // tax-free: both taxes listed at 0.00; net 100.00
            (
                "tax-free",
                Basket {
                    lines: vec![rental(100_00)],
                    taxes: vec![tax(1, "8.25"), tax(2, "2")],
                    tax_free: true,
                    ..Basket::default()
                },
                Expect {
                    gross: 100_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 100_00,
                    taxes: &[0, 0],
                    net: 100_00,
                    balance: 100_00,
                },
            ),
            // base 50.00 + 15.00 damages = 65.00; tax 10 % = 6.50; net 71.50
            (
                "damages are taxed",
                Basket {
                    lines: vec![rental(50_00)],
                    damages: m(15_00),
                    taxes: vec![tax(1, "10")],
                    ..Basket::default()
                },
                Expect {
                    gross: 50_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 65_00,
                    taxes: &[6_50],
                    net: 71_50,
                    balance: 71_50,
                },
            ),
            // custom +15.00 − 3.00 (tax-free) − 2.00 = 10.00; base 100.00 + 15.00 − 2.00
            // = 113.00; tax 10 % = 11.30; net 100.00 + 10.00 + 11.30 = 121.30
            (
                "custom entries, negative and tax-free",
                Basket {
                    lines: vec![sale(100_00)],
                    custom_entries: vec![
                        custom("Delivery", 15_00, false),
                        custom("Goodwill", -3_00, true),
                        custom("Loyalty", -2_00, false),
                    ],
                    taxes: vec![tax(1, "10")],
                    ..Basket::default()
                },
                Expect {
                    gross: 100_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 10_00,
                    taxable: 113_00,
                    taxes: &[11_30],
                    net: 121_30,
                    balance: 121_30,
                },
            ),
            // base 10.00 − 20.00 = −10.00 → taxed as 0; net −10.00
            (
                "a negative base is taxed as 0",
                Basket {
                    lines: vec![rental(10_00)],
                    custom_entries: vec![custom("Refund", -20_00, false)],
                    taxes: vec![tax(1, "10")],
                    ..Basket::default()
                },
                Expect {
                    gross: 10_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: -20_00,
                    taxable: -10_00,
                    taxes: &[0],
                    net: -10_00,
                    balance: -10_00,
                },
            ),
            // discount 10 % of 50.00 and 30.00 = 5.00 + 3.00 (not of the late fees);
            // late 15.00 + 5.00 = 20.00; base 80.00 − 8.00 + 20.00 = 92.00; tax 5 % =
            // 4.60; net 96.60
            (
                "late fees: not discounted, taxed",
                Basket {
                    lines: vec![late(rental(50_00), 15_00), late(rental(30_00), 5_00)],
                    order_discount: pct("10"),
                    taxes: vec![tax(1, "5")],
                    ..Basket::default()
                },
                Expect {
                    gross: 80_00,
                    line_discounts: &[5_00, 3_00],
                    discount: 8_00,
                    coupons: &[],
                    late: 20_00,
                    custom: 0,
                    taxable: 92_00,
                    taxes: &[4_60],
                    net: 96_60,
                    balance: 96_60,
                },
            ),
            // 105.00 − 50.00 paid = 55.00
            (
                "partly paid",
                Basket {
                    lines: vec![rental(80_00), sale(25_00)],
                    amount_paid: m(50_00),
                    ..Basket::default()
                },
                Expect {
                    gross: 105_00,
                    line_discounts: &[0, 0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 105_00,
                    taxes: &[],
                    net: 105_00,
                    balance: 55_00,
                },
            ),
            // 100.00 + 8.25 % = 108.25, all paid: 0
            (
                "paid in full",
                Basket {
                    lines: vec![rental(100_00)],
                    taxes: vec![tax(1, "8.25")],
                    amount_paid: m(108_25),
                    ..Basket::default()
                },
                Expect {
                    gross: 100_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 100_00,
                    taxes: &[8_25],
                    net: 108_25,
                    balance: 0,
                },
            ),
            // 100.00 − 120.00 paid = −20.00 (owed to the customer)
            (
                "overpaid",
                Basket {
                    lines: vec![sale(100_00)],
                    amount_paid: m(120_00),
                    ..Basket::default()
                },
                Expect {
                    gross: 100_00,
                    line_discounts: &[0],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 100_00,
                    taxes: &[],
                    net: 100_00,
                    balance: -20_00,
                },
            ),
            // The module doc's example: gross 105.00; discount 8.00 + 2.50 = 10.50;
            // coupons −5.00 + round(94.50 × 10 %) = −5.00 + 9.45 = 4.45; damages 20.00;
            // late 6.00; custom 15.00 − 3.00 = 12.00; base 94.50 + 4.45 + 20.00 + 6.00 +
            // 15.00 = 139.95; taxes 8.746875 → 8.75 and 3.148875 → 3.15; net 94.50 +
            // 4.45 + 20.00 + 6.00 + 12.00 + 11.90 = 148.85; balance 148.85 − 100.00
            (
                "the module doc's example",
                doc_example(),
                Expect {
                    gross: 105_00,
                    line_discounts: &[8_00, 2_50],
                    discount: 10_50,
                    coupons: &[-5_00, 9_45],
                    late: 6_00,
                    custom: 12_00,
                    taxable: 139_95,
                    taxes: &[8_75, 3_15],
                    net: 148_85,
                    balance: 48_85,
                },
            ),
            // nothing: every figure 0
            (
                "an empty order",
                Basket::default(),
                Expect {
                    gross: 0,
                    line_discounts: &[],
                    discount: 0,
                    coupons: &[],
                    late: 0,
                    custom: 0,
                    taxable: 0,
                    taxes: &[],
                    net: 0,
                    balance: 0,
                },
            ),
        ]
    }

    fn doc_example() -> Basket {
        Basket {
            lines: vec![late(rental(80_00), 6_00), sale(25_00)],
            order_discount: pct("10"),
            coupons: vec![
                coupon(1, flat(5_00), Discount),
                coupon(2, percent("10"), Surcharge),
            ],
            damages: m(20_00),
            custom_entries: vec![
                custom("Delivery", 15_00, false),
                custom("Goodwill", -3_00, true),
            ],
            taxes: vec![tax(1, "6.25"), tax(2, "2.25")],
            tax_free: false,
            amount_paid: m(100_00),
        }
    }

    #[test]
    fn totals_follow_the_table() {
        for (what, basket, want) in cases() {
            let t = basket.totals().unwrap_or_else(|e| panic!("{what}: {e}"));
            let line_discounts: Vec<i64> = t.lines.iter().map(|l| l.discount.minor()).collect();
            let coupons: Vec<i64> = t.coupons.iter().map(|c| c.amount).collect();
            let taxes: Vec<i64> = t.taxes.iter().map(|x| x.amount.minor()).collect();
            assert_eq!(t.gross_amount.minor(), want.gross, "{what}");
            assert_eq!(line_discounts, want.line_discounts, "{what}");
            assert_eq!(t.discount_amount.minor(), want.discount, "{what}");
            assert_eq!(coupons, want.coupons, "{what}");
            assert_eq!(t.coupon_amount, want.coupons.iter().sum::<i64>(), "{what}");
            assert_eq!(t.late_fee_amount.minor(), want.late, "{what}");
            assert_eq!(t.custom_entries_amount, want.custom, "{what}");
            assert_eq!(t.taxable_amount, want.taxable, "{what}");
            assert_eq!(taxes, want.taxes, "{what}");
            assert_eq!(
                t.tax_amount.minor(),
                want.taxes.iter().sum::<i64>(),
                "{what}"
            );
            assert_eq!(t.net_amount, want.net, "{what}");
            assert_eq!(t.balance_due, want.balance, "{what}");
            assert_eq!(t.damages, basket.damages, "{what}");
            assert_eq!(t.amount_paid, basket.amount_paid, "{what}");
            for x in &t.taxes {
                assert_eq!(x.base.minor(), want.taxable.max(0), "{what}");
            }
        }
    }

    #[test]
    fn totals_show_who_is_who() {
        let t = doc_example().totals().unwrap();
        assert_eq!(t.rental_amount, m(80_00));
        assert_eq!(t.sale_amount, m(25_00));
        assert_eq!(t.lines[0].late_fee, m(6_00));
        assert_eq!(t.lines[1].late_fee, m(0));
        assert_eq!(t.coupons[1].name, "coupon 2");
        assert_eq!(t.coupons[1].effect, Surcharge);
        assert_eq!(t.coupons[1].value, m(9_45));
        assert_eq!(t.taxes[0].rate.to_string(), "6.25");
        assert_eq!(t.taxes[1].id, 2);
        // A floored coupon keeps its value beside what it took.
        let floored = Basket {
            lines: vec![rental(30_00)],
            coupons: vec![coupon(7, flat(40_00), Discount)],
            ..Basket::default()
        };
        let c = &floored.totals().unwrap().coupons[0];
        assert_eq!((c.value, c.amount), (m(40_00), -30_00));
    }

    #[test]
    fn words_read_back() {
        crate::vocabulary::assert_words_read_back::<LineKind>();
        crate::vocabulary::assert_words_read_back::<CouponEffect>();
    }

    #[test]
    fn totals_beyond_the_limit_are_errors() {
        let too_much = Basket {
            lines: vec![rental(MAX_AMOUNT), sale(1)],
            ..Basket::default()
        };
        assert_eq!(too_much.totals(), Err(PricingError::TooLarge));
        let just_enough = Basket {
            lines: vec![rental(MAX_AMOUNT - 1), sale(1)],
            ..Basket::default()
        };
        assert_eq!(just_enough.totals().map(|t| t.net_amount), Ok(MAX_AMOUNT));
        let huge_entry = Basket {
            custom_entries: vec![custom("Oops", i64::MIN, false)],
            ..Basket::default()
        };
        assert_eq!(huge_entry.totals(), Err(PricingError::TooLarge));
        // −1 trillion owed back, and another trillion paid.
        let owed = Basket {
            custom_entries: vec![custom("Refund", -MAX_AMOUNT, true)],
            amount_paid: m(MAX_AMOUNT),
            ..Basket::default()
        };
        assert_eq!(owed.totals(), Err(PricingError::TooLarge));
        let taxed = Basket {
            lines: vec![rental(MAX_AMOUNT)],
            taxes: vec![tax(1, "0.01")],
            ..Basket::default()
        };
        assert_eq!(taxed.totals(), Err(PricingError::TooLarge));
        let negative = Basket {
            lines: vec![rental(-1)],
            ..Basket::default()
        };
        assert_eq!(negative.totals(), Err(PricingError::NegativeAmount));
    }

    #[test]
    fn totals_beyond_the_limit_clamp_when_asked() {
        let clamped = |basket: &Basket| {
            let ceiling = Ceiling::clamp();
            let totals = basket.totals_within(&ceiling);
            (totals, ceiling.clamped())
        };
        // Within the limit, clamping changes nothing and says so.
        let just_enough = Basket {
            lines: vec![rental(MAX_AMOUNT - 1), sale(1)],
            ..Basket::default()
        };
        assert_eq!(clamped(&just_enough), (just_enough.totals(), false));
        // Each figure beyond it is the limit; the others stay exact.
        let too_much = Basket {
            lines: vec![rental(MAX_AMOUNT), sale(1)],
            order_discount: pct("10"),
            amount_paid: m(50_00),
            ..Basket::default()
        };
        let (t, was) = clamped(&too_much);
        let t = t.unwrap();
        assert!(was);
        assert_eq!(t.rental_amount, m(MAX_AMOUNT));
        assert_eq!(t.sale_amount, m(1));
        assert_eq!(t.gross_amount, m(MAX_AMOUNT));
        assert_eq!(t.discount_amount, m(MAX_AMOUNT / 10));
        assert_eq!(t.net_amount, MAX_AMOUNT - MAX_AMOUNT / 10 + 1);
        assert_eq!(t.balance_due, t.net_amount - 50_00);
        let many = Basket {
            lines: vec![rental(MAX_AMOUNT); 3],
            amount_paid: m(50_00),
            ..Basket::default()
        };
        let (t, was) = clamped(&many);
        let t = t.unwrap();
        assert!(was);
        assert_eq!(t.lines[2].amount, m(MAX_AMOUNT));
        assert_eq!((t.gross_amount, t.net_amount), (m(MAX_AMOUNT), MAX_AMOUNT));
        // The balance is worked out from the exact net, then clamped.
        assert_eq!(t.balance_due, MAX_AMOUNT);
        // Below the limit too: −1 trillion owed back, and another trillion paid.
        let owed = Basket {
            custom_entries: vec![custom("Refund", -MAX_AMOUNT, true)],
            amount_paid: m(MAX_AMOUNT),
            ..Basket::default()
        };
        let (t, was) = clamped(&owed);
        let t = t.unwrap();
        assert!(was);
        assert_eq!((t.net_amount, t.balance_due), (-MAX_AMOUNT, -MAX_AMOUNT));
        // Inputs beyond the limit, and a tax no decimal holds, clamp as well.
        let wild = Basket {
            lines: vec![rental(i64::MAX)],
            custom_entries: vec![custom("Oops", i64::MIN, false)],
            taxes: vec![Tax {
                id: 1,
                name: "wild".into(),
                rate: TaxRate::new(Decimal::MAX).unwrap(),
            }],
            ..Basket::default()
        };
        let (t, was) = clamped(&wild);
        let t = t.unwrap();
        assert!(was);
        assert_eq!(t.gross_amount, m(MAX_AMOUNT));
        assert_eq!(t.custom_entries_amount, -MAX_AMOUNT);
        assert_eq!(t.taxable_amount, 0);
        let taxed = Basket {
            lines: vec![rental(MAX_AMOUNT)],
            taxes: vec![tax(1, "0.01"), tax(2, &Decimal::MAX.to_string())],
            ..Basket::default()
        };
        let (t, was) = clamped(&taxed);
        let t = t.unwrap();
        assert!(was);
        assert_eq!(t.taxes[0].amount, m(MAX_AMOUNT / 10_000));
        assert_eq!(t.taxes[1].amount, m(MAX_AMOUNT));
        assert_eq!((t.tax_amount, t.net_amount), (m(MAX_AMOUNT), MAX_AMOUNT));
        // A negative amount is no figure to clamp: it is still an error.
        let negative = Basket {
            lines: vec![rental(-1)],
            ..Basket::default()
        };
        assert_eq!(clamped(&negative).0, Err(PricingError::NegativeAmount));
    }

    /// A small, fixed pseudo-random sequence (xorshift), so the checks below repeat.
    fn sequence(mut state: u64) -> impl FnMut(i64) -> i64 {
        move |below| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            i64::try_from(state % u64::try_from(below).unwrap()).unwrap()
        }
    }

    #[test]
    fn every_figure_adds_up() {
        let mut next = sequence(0xC0FFEE);
        for round in 0..2000 {
            let mut basket = Basket::default();
            for _ in 0..next(5) {
                let amount = next(1_000_000);
                let line = if next(2) == 0 {
                    rental(amount)
                } else {
                    sale(amount)
                };
                basket.lines.push(if next(3) == 0 {
                    late(line, next(50_000))
                } else {
                    line
                });
            }
            basket.order_discount = Percent::new(Decimal::new(next(10_001), 2)).unwrap();
            for id in 0..next(4) {
                let value = if next(2) == 0 {
                    flat(next(500_000))
                } else {
                    CouponValue::Percent(Percent::new(Decimal::new(next(10_001), 2)).unwrap())
                };
                let effect = if next(3) == 0 { Surcharge } else { Discount };
                basket.coupons.push(coupon(id, value, effect));
            }
            basket.damages = m(next(3) * next(20_000));
            for _ in 0..next(4) {
                let entry = custom("entry", next(200_000) - 100_000, next(2) == 0);
                basket.custom_entries.push(entry);
            }
            for id in 0..next(4) {
                let rate = Decimal::new(next(20_000), 3);
                basket.taxes.push(Tax {
                    id,
                    name: "tax".into(),
                    rate: TaxRate::new(rate).unwrap(),
                });
            }
            basket.tax_free = next(4) == 0;
            basket.amount_paid = m(next(2_000_000));

            let t = basket.totals().unwrap();
            let what = format!("round {round}: {basket:?}");
            let ceiling = Ceiling::clamp();
            assert_eq!(basket.totals_within(&ceiling).as_ref(), Ok(&t), "{what}");
            assert!(!ceiling.clamped(), "{what}");
            let gross = t.gross_amount.minor();
            let discount = t.discount_amount.minor();
            let sum = |xs: &mut dyn Iterator<Item = i64>| xs.sum::<i64>();
            assert_eq!(
                gross,
                sum(&mut basket.lines.iter().map(|l| l.amount.minor())),
                "{what}"
            );
            assert_eq!(
                gross,
                t.rental_amount.minor() + t.sale_amount.minor(),
                "{what}"
            );
            assert_eq!(
                discount,
                sum(&mut t.lines.iter().map(|l| l.discount.minor())),
                "{what}"
            );
            assert!(discount <= gross, "{what}");
            assert_eq!(
                t.coupon_amount,
                sum(&mut t.coupons.iter().map(|c| c.amount)),
                "{what}"
            );
            let discounts = sum(&mut t.coupons.iter().map(|c| c.amount.min(0)));
            assert!(gross - discount + discounts >= 0, "{what}");
            for c in &t.coupons {
                assert!(c.amount.abs() <= c.value.minor(), "{what}");
            }
            assert_eq!(
                t.tax_amount.minor(),
                sum(&mut t.taxes.iter().map(|x| x.amount.minor())),
                "{what}"
            );
            for x in &t.taxes {
                assert_eq!(x.base.minor(), t.taxable_amount.max(0), "{what}");
                assert!(!basket.tax_free || x.amount.minor() == 0, "{what}");
            }
            assert_eq!(
                t.net_amount,
                gross - discount
                    + t.coupon_amount
                    + t.damages.minor()
                    + t.late_fee_amount.minor()
                    + t.custom_entries_amount
                    + t.tax_amount.minor(),
                "{what}"
            );
            assert_eq!(
                t.balance_due,
                t.net_amount - basket.amount_paid.minor(),
                "{what}"
            );
        }
    }
}
