-- no-transaction
-- Renting orders out and taking them back, and what customers pay. SQLite flavour;
-- keep in step with ../postgres/0011_rent_out.sql.
--
-- A fixed asset rented out on an order is `checked_out` with no member: the order it
-- is out on is `rented_order_id`, so a member's check-in or extension of it is
-- refused and the order's return brings it back. The items table's CHECK that a
-- checked-out item has a member must allow that, and SQLite changes a CHECK only by
-- rebuilding the table. Other tables refer to items, so the rebuild runs with foreign
-- keys off (as SQLite's ALTER TABLE page prescribes), inside its own transaction,
-- and fails unless foreign_key_check finds nothing; hence `no-transaction` above.

PRAGMA foreign_keys = OFF;
BEGIN;

CREATE TABLE items_next (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    sequence_num BIGINT NOT NULL,
    asset_type TEXT NOT NULL CHECK (asset_type IN ('FixedAsset', 'VolatileAsset', 'StockAsset')),
    name TEXT NOT NULL,
    description TEXT,
    identifier TEXT,
    manufacturer TEXT,
    product_model_number TEXT,
    image_url TEXT,
    document_urls TEXT NOT NULL DEFAULT '[]',
    group_id BIGINT NOT NULL,
    sub_group_id BIGINT,
    location_id BIGINT,
    purchased_on DATE,
    price BIGINT,
    state TEXT NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'checked_out', 'retired')),
    assigned_to_id BIGINT,
    checkout_on TIMESTAMP,
    checkin_due_on TIMESTAMP,
    retired_on DATE,
    retire_reason_id BIGINT,
    salvage_value BIGINT,
    rate_per_minute BIGINT,
    rate_hourly BIGINT,
    rate_daily BIGINT,
    rate_weekly BIGINT,
    rate_monthly BIGINT,
    latitude TEXT,
    longitude TEXT,
    gps_updated_at TIMESTAMP,
    custom_attributes TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    quantity BIGINT NOT NULL DEFAULT 0 CHECK (quantity >= 0),
    checked_out_quantity BIGINT NOT NULL DEFAULT 0 CHECK (checked_out_quantity >= 0),
    late_fee_kind TEXT,
    late_fee_amount BIGINT CHECK (late_fee_amount >= 0),
    rented_order_id BIGINT,
    UNIQUE (company_id, id),
    UNIQUE (company_id, sequence_num),
    FOREIGN KEY (company_id, group_id) REFERENCES asset_groups (company_id, id),
    FOREIGN KEY (company_id, sub_group_id) REFERENCES sub_groups (company_id, id),
    FOREIGN KEY (company_id, location_id) REFERENCES locations (company_id, id),
    FOREIGN KEY (company_id, assigned_to_id) REFERENCES members (company_id, id),
    FOREIGN KEY (company_id, retire_reason_id) REFERENCES retire_reasons (company_id, id),
    FOREIGN KEY (company_id, rented_order_id) REFERENCES orders (company_id, id),
    -- Checked out exactly when a member holds it or an order has it, never both;
    -- retired with its date.
    CHECK ((state = 'checked_out') = (assigned_to_id IS NOT NULL OR rented_order_id IS NOT NULL)),
    CHECK (assigned_to_id IS NULL OR rented_order_id IS NULL),
    CHECK ((state = 'checked_out') OR (checkout_on IS NULL AND checkin_due_on IS NULL)),
    CHECK ((state = 'retired') = (retired_on IS NOT NULL))
);
INSERT INTO items_next (id, company_id, sequence_num, asset_type, name, description, identifier, manufacturer, product_model_number, image_url, document_urls, group_id, sub_group_id, location_id, purchased_on, price, state, assigned_to_id, checkout_on, checkin_due_on, retired_on, retire_reason_id, salvage_value, rate_per_minute, rate_hourly, rate_daily, rate_weekly, rate_monthly, latitude, longitude, gps_updated_at, custom_attributes, created_at, updated_at, quantity, checked_out_quantity, late_fee_kind, late_fee_amount)
SELECT id, company_id, sequence_num, asset_type, name, description, identifier, manufacturer, product_model_number, image_url, document_urls, group_id, sub_group_id, location_id, purchased_on, price, state, assigned_to_id, checkout_on, checkin_due_on, retired_on, retire_reason_id, salvage_value, rate_per_minute, rate_hourly, rate_daily, rate_weekly, rate_monthly, latitude, longitude, gps_updated_at, custom_attributes, created_at, updated_at, quantity, checked_out_quantity, late_fee_kind, late_fee_amount FROM items;
DROP TABLE items;
ALTER TABLE items_next RENAME TO items;

-- One index per list ordering and per filter, each leading with the company.
CREATE INDEX items_list ON items (company_id, asset_type, id);
CREATE INDEX items_state ON items (company_id, asset_type, state, id);
CREATE INDEX items_due ON items (company_id, state, checkin_due_on);
CREATE INDEX items_group ON items (company_id, group_id, id);
CREATE INDEX items_sub_group ON items (company_id, sub_group_id, id);
CREATE INDEX items_location ON items (company_id, location_id, id);
CREATE INDEX items_assigned ON items (company_id, assigned_to_id, id);
CREATE INDEX items_retire_reason ON items (company_id, retire_reason_id);
CREATE INDEX items_identifier ON items (company_id, identifier);
CREATE INDEX items_model ON items (company_id, product_model_number);
CREATE INDEX items_updated ON items (company_id, updated_at);
CREATE INDEX items_created ON items (company_id, created_at);

-- The assets list and its state filters (available, checked_out, retired) count from
-- list_counts: items:<asset_type>:<state>.
CREATE TRIGGER items_count_insert AFTER INSERT ON items BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, 'items:' || NEW.asset_type || ':' || NEW.state, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER items_count_delete AFTER DELETE ON items BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, 'items:' || OLD.asset_type || ':' || OLD.state, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER items_count_update AFTER UPDATE OF company_id, asset_type, state ON items
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.asset_type IS NOT NEW.asset_type
  OR OLD.state IS NOT NEW.state BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, 'items:' || OLD.asset_type || ':' || OLD.state, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, 'items:' || NEW.asset_type || ':' || NEW.state, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE INDEX items_quantity ON items (company_id, asset_type, quantity, id);
CREATE INDEX items_rented_order ON items (company_id, rented_order_id) WHERE rented_order_id IS NOT NULL;

-- `item_custom_attribute_values` sent with the rent-out and with the returns, by
-- custom field id (the latest return's replace earlier ones field by field).
ALTER TABLE orders ADD COLUMN checkout_values TEXT NOT NULL DEFAULT '{}';
ALTER TABLE orders ADD COLUMN checkin_values TEXT NOT NULL DEFAULT '{}';

-- Payments taken for an order: a pre-payment, or cash at the sale or the return. The
-- method is named as the payment option was when it was taken. A voided payment
-- stays, with the moment it was voided, and no longer counts in `orders.amount_paid`.
CREATE TABLE payment_histories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    order_id BIGINT NOT NULL,
    purpose TEXT NOT NULL,
    amount BIGINT NOT NULL CHECK (amount > 0),
    payment_method_name TEXT NOT NULL,
    payment_method_kind TEXT NOT NULL,
    paid_at TIMESTAMP NOT NULL,
    notes TEXT,
    voided_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, order_id) REFERENCES orders (company_id, id) ON DELETE CASCADE
);
CREATE INDEX payment_histories_order ON payment_histories (company_id, order_id, id);

-- Every reference to an item still finds it: a violation fails the CHECK, and the
-- migration with it, before anything commits.
CREATE TEMP TABLE rent_out_fk_violations (n INTEGER CHECK (n = 0));
INSERT INTO rent_out_fk_violations SELECT COUNT(*) FROM pragma_foreign_key_check;
DROP TABLE rent_out_fk_violations;
COMMIT;
PRAGMA foreign_keys = ON;
