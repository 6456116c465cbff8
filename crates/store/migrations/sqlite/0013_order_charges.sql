-- What an order adds to or takes off its items' prices: coupons, taxes, custom
-- entries. (SQLite flavour; keep in step with ../postgres/0013_order_charges.sql.)
-- Damages are orders.damage_amount (0010).

-- An order's price is a function of the order alone: what it takes from elsewhere is
-- copied onto it when it takes it. A coupon's name, value (minor units, or hundredths
-- of a percent) and effect when it was applied; a tax's name and rate when applied;
-- the company's pricing settings when the order goes out or is sold (NULL before:
-- the company's current ones apply).
ALTER TABLE orders ADD COLUMN inclusive_return BOOLEAN;
ALTER TABLE orders ADD COLUMN best_pricing BOOLEAN;

-- Coupons on an order, each once.
CREATE TABLE order_coupons (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    order_id BIGINT NOT NULL,
    coupon_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    value_type TEXT NOT NULL,
    value BIGINT NOT NULL CHECK (value > 0),
    effect TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (company_id, order_id, coupon_id),
    FOREIGN KEY (company_id, order_id) REFERENCES orders (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, coupon_id) REFERENCES coupons (company_id, id)
);
CREATE INDEX order_coupons_coupon ON order_coupons (company_id, coupon_id);

-- The taxes applied to an order (apply_taxes.api): custom taxes and group taxes, in
-- the order given.
CREATE TABLE order_taxes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    order_id BIGINT NOT NULL,
    custom_tax_id BIGINT,
    group_tax_id BIGINT,
    name TEXT NOT NULL,
    rate_ppm BIGINT NOT NULL CHECK (rate_ppm >= 0),
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, order_id) REFERENCES orders (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, custom_tax_id) REFERENCES custom_taxes (company_id, id),
    FOREIGN KEY (company_id, group_tax_id) REFERENCES group_taxes (company_id, id),
    CHECK ((custom_tax_id IS NULL) <> (group_tax_id IS NULL))
);
CREATE INDEX order_taxes_order ON order_taxes (company_id, order_id, id);

-- Custom entries: a named amount in minor units (negative takes off), optionally left
-- out of the taxable base.
CREATE TABLE order_custom_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    order_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    amount BIGINT NOT NULL,
    comments TEXT,
    tax_free BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, order_id) REFERENCES orders (company_id, id) ON DELETE CASCADE
);
CREATE INDEX order_custom_entries_order ON order_custom_entries (company_id, order_id, id);
