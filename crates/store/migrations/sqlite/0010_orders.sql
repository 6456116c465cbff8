-- Rental orders: the order's own fields, its line items (fixed assets, asset stock,
-- inventory), and the company settings its pricing follows. SQLite flavour; keep in
-- step with ../postgres/0010_orders.sql.
--
-- Money is minor units; `order_discount` is hundredths of a percent (0 to 10000).
-- `net_amount` and `balance_due` are written by every change of the order, in its
-- transaction, from `domain::pricing`, so lists and filters read them without pricing.

ALTER TABLE orders ADD COLUMN description TEXT;
ALTER TABLE orders ADD COLUMN identification_number TEXT;
ALTER TABLE orders ADD COLUMN invoice_heading TEXT;
ALTER TABLE orders ADD COLUMN expected_checkout_at TIMESTAMP;
ALTER TABLE orders ADD COLUMN due_at TIMESTAMP;
ALTER TABLE orders ADD COLUMN bill_from TIMESTAMP;
ALTER TABLE orders ADD COLUMN bill_to TIMESTAMP;
ALTER TABLE orders ADD COLUMN location_id BIGINT;
ALTER TABLE orders ADD COLUMN pick_up_location_id BIGINT;
ALTER TABLE orders ADD COLUMN shipping_address_id BIGINT;
ALTER TABLE orders ADD COLUMN pick_up_address_id BIGINT;
ALTER TABLE orders ADD COLUMN location_for_delivery BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE orders ADD COLUMN location_for_pickup BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE orders ADD COLUMN order_discount BIGINT NOT NULL DEFAULT 0 CHECK (order_discount BETWEEN 0 AND 10000);
ALTER TABLE orders ADD COLUMN assigned_to_id BIGINT;
ALTER TABLE orders ADD COLUMN user_listing_name TEXT;
ALTER TABLE orders ADD COLUMN custom_attributes TEXT NOT NULL DEFAULT '{}';
ALTER TABLE orders ADD COLUMN checked_out_on TIMESTAMP;
ALTER TABLE orders ADD COLUMN returned_on TIMESTAMP;
ALTER TABLE orders ADD COLUMN completed_on TIMESTAMP;
ALTER TABLE orders ADD COLUMN damage_amount BIGINT NOT NULL DEFAULT 0 CHECK (damage_amount >= 0);
ALTER TABLE orders ADD COLUMN amount_paid BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN net_amount BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN balance_due BIGINT NOT NULL DEFAULT 0;
-- baskets.api: every order, or one state's, newest number last.
CREATE INDEX orders_state ON orders (company_id, basket_state, id);

-- baskets.api counts: one partition per state (`orders:<basket_state>`), kept by
-- triggers as list_counts are (0007_list_counts.sql), so a page's total_pages is one
-- indexed read however many orders there are.
CREATE TRIGGER orders_count_insert AFTER INSERT ON orders BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'orders:' || NEW.basket_state, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER orders_count_delete AFTER DELETE ON orders BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'orders:' || OLD.basket_state, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER orders_count_update AFTER UPDATE OF company_id, basket_state ON orders
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.basket_state IS NOT NEW.basket_state BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'orders:' || OLD.basket_state, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'orders:' || NEW.basket_state, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
INSERT INTO list_counts (company_id, list, n)
SELECT company_id, 'orders:' || basket_state, COUNT(*) FROM orders GROUP BY 1, 2;

-- How orders are priced (domain::pricing): the return minute counts (on by default);
-- the cheapest of the split and each single unit (off by default).
ALTER TABLE companies ADD COLUMN inclusive_return BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE companies ADD COLUMN best_pricing BOOLEAN NOT NULL DEFAULT FALSE;

-- An item's fee for a late return: per minute, hour, day, week or month, or flat.
ALTER TABLE items ADD COLUMN late_fee_kind TEXT;
ALTER TABLE items ADD COLUMN late_fee_amount BIGINT CHECK (late_fee_amount >= 0);

-- What an order holds. The rates (and late fee) are the item's when it was added, so
-- a later change of the item does not reprice the order. `quantity_returned` grows with
-- partial returns; a fixed asset's quantity is 1. `held_from`..`held_until` is the
-- period the line holds its item (set by booking and renting out, cleared when the
-- booking is cancelled): what else is promised of an item in a period is one range
-- read on `order_line_items_held`, however many orders the item has been on.
CREATE TABLE order_line_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    order_id BIGINT NOT NULL,
    item_id BIGINT NOT NULL,
    asset_type TEXT NOT NULL,
    bundle_id BIGINT,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    quantity_returned BIGINT NOT NULL DEFAULT 0 CHECK (quantity_returned >= 0 AND quantity_returned <= quantity),
    location_id BIGINT,
    for_sale BOOLEAN NOT NULL DEFAULT FALSE,
    sale_price BIGINT CHECK (sale_price >= 0),
    rate_per_minute BIGINT,
    rate_hourly BIGINT,
    rate_daily BIGINT,
    rate_weekly BIGINT,
    rate_monthly BIGINT,
    late_fee_kind TEXT,
    late_fee_amount BIGINT,
    due_at TIMESTAMP,
    held_from TIMESTAMP,
    held_until TIMESTAMP,
    returned_at TIMESTAMP,
    late_fee BIGINT NOT NULL DEFAULT 0 CHECK (late_fee >= 0),
    custom_attributes TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, order_id) REFERENCES orders (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id),
    FOREIGN KEY (company_id, location_id) REFERENCES locations (company_id, id),
    CHECK (for_sale = (sale_price IS NOT NULL))
);
CREATE INDEX order_line_items_order ON order_line_items (company_id, order_id, id);
CREATE INDEX order_line_items_item ON order_line_items (company_id, item_id, order_id);
CREATE INDEX order_line_items_held ON order_line_items (company_id, item_id, held_until) WHERE held_from IS NOT NULL;
