-- no-transaction
-- Services of fixed assets (a rentrack extension behind the spec's
-- assets_being_serviced filter and show_services_details flag): an asset in service
-- is `in_service`, neither available nor out, until its service is completed.
-- SQLite flavour; keep in step with ../postgres/0018_services.sql.
--
-- The items table's CHECK on `state` must allow the new state, and SQLite changes a
-- CHECK only by rebuilding the table, as 0011 did: foreign keys off, in a transaction
-- of its own, failing unless foreign_key_check finds nothing.

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
    state TEXT NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'checked_out', 'retired', 'in_service')),
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
    unit_price BIGINT,
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
INSERT INTO items_next (id, company_id, sequence_num, asset_type, name, description, identifier, manufacturer, product_model_number, image_url, document_urls, group_id, sub_group_id, location_id, purchased_on, price, state, assigned_to_id, checkout_on, checkin_due_on, retired_on, retire_reason_id, salvage_value, rate_per_minute, rate_hourly, rate_daily, rate_weekly, rate_monthly, latitude, longitude, gps_updated_at, custom_attributes, created_at, updated_at, quantity, checked_out_quantity, late_fee_kind, late_fee_amount, rented_order_id, unit_price)
SELECT id, company_id, sequence_num, asset_type, name, description, identifier, manufacturer, product_model_number, image_url, document_urls, group_id, sub_group_id, location_id, purchased_on, price, state, assigned_to_id, checkout_on, checkin_due_on, retired_on, retire_reason_id, salvage_value, rate_per_minute, rate_hourly, rate_daily, rate_weekly, rate_monthly, latitude, longitude, gps_updated_at, custom_attributes, created_at, updated_at, quantity, checked_out_quantity, late_fee_kind, late_fee_amount, rented_order_id, unit_price FROM items;
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

-- The assets list and its state filters (available, checked_out, retired, in_service)
-- count from
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

-- A service: what is done (`service_type`), when it started, when it is expected to
-- end (none: open-ended) and when it was completed. One open service per item.
CREATE TABLE item_services (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    service_type TEXT NOT NULL,
    comments TEXT,
    started_at TIMESTAMP NOT NULL,
    expected_end_at TIMESTAMP,
    completed_at TIMESTAMP,
    completion_comments TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE
);
CREATE INDEX item_services_item ON item_services (company_id, item_id, id);
CREATE UNIQUE INDEX item_services_open ON item_services (company_id, item_id) WHERE completed_at IS NULL;

CREATE TEMP TABLE services_fk_violations (n INTEGER CHECK (n = 0));
INSERT INTO services_fk_violations SELECT COUNT(*) FROM pragma_foreign_key_check;
DROP TABLE services_fk_violations;
COMMIT;
PRAGMA foreign_keys = ON;
