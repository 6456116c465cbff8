-- Fixed assets: the whole record, check-outs, reservation requests, verifications, GPS
-- points, custom taxes and custom filters. SQLite flavour; keep in step with
-- ../postgres/0008_fixed_assets.sql.
--
-- An item's `state` is what it is now: available, checked_out or retired. The
-- states the filters derive (reserved, overdue, due today, ...) are computed from it,
-- the due moment and the reservations, in the company's time zone. Money is integer
-- minor units; rates likewise; GPS coordinates are exact decimal text.

-- Items gain their columns. SQLite cannot add a composite foreign key to a table, so
-- the table is rebuilt with its rows (nothing refers to it yet).
CREATE TABLE items_rebuilt (
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
    UNIQUE (company_id, id),
    UNIQUE (company_id, sequence_num),
    FOREIGN KEY (company_id, group_id) REFERENCES asset_groups (company_id, id),
    FOREIGN KEY (company_id, sub_group_id) REFERENCES sub_groups (company_id, id),
    FOREIGN KEY (company_id, location_id) REFERENCES locations (company_id, id),
    FOREIGN KEY (company_id, assigned_to_id) REFERENCES members (company_id, id),
    FOREIGN KEY (company_id, retire_reason_id) REFERENCES retire_reasons (company_id, id),
    -- Checked out exactly when someone holds it; retired with its date.
    CHECK ((state = 'checked_out') = (assigned_to_id IS NOT NULL)),
    CHECK ((state = 'checked_out') OR (checkout_on IS NULL AND checkin_due_on IS NULL)),
    CHECK ((state = 'retired') = (retired_on IS NOT NULL))
);
INSERT INTO items_rebuilt (id, company_id, sequence_num, asset_type, name, group_id, sub_group_id, created_at, updated_at)
SELECT id, company_id, sequence_num, asset_type, name, group_id, sub_group_id, created_at, updated_at FROM items;
DROP TABLE items;
ALTER TABLE items_rebuilt RENAME TO items;

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
INSERT INTO list_counts (company_id, list, n)
SELECT company_id, 'items:' || asset_type || ':available', COUNT(*) FROM items GROUP BY company_id, asset_type;

-- Check-outs of fixed assets: one row per check-out, closed by its check-in. The
-- partial unique index is the rule that an asset is out to one member at a time.
CREATE TABLE asset_checkouts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    member_id BIGINT NOT NULL,
    checkout_on TIMESTAMP NOT NULL,
    due_on TIMESTAMP,
    checkin_on TIMESTAMP,
    checkout_location_id BIGINT,
    checkin_location_id BIGINT,
    checkout_comments TEXT,
    checkin_comments TEXT,
    checkout_values TEXT NOT NULL DEFAULT '{}',
    checkin_values TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id),
    FOREIGN KEY (company_id, checkout_location_id) REFERENCES locations (company_id, id),
    FOREIGN KEY (company_id, checkin_location_id) REFERENCES locations (company_id, id)
);
CREATE UNIQUE INDEX asset_checkouts_one_open ON asset_checkouts (company_id, item_id) WHERE checkin_on IS NULL;
CREATE INDEX asset_checkouts_item ON asset_checkouts (company_id, item_id, id);
CREATE INDEX asset_checkouts_member ON asset_checkouts (company_id, member_id, id);

-- Reservation requests of a member for an asset, for whole days. Approved ones never
-- overlap on one asset: approval locks the asset's row and checks in its transaction.
CREATE TABLE reservation_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    member_id BIGINT NOT NULL,
    from_on DATE NOT NULL,
    to_on DATE NOT NULL,
    note TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'fullfilled', 'removed')),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id),
    CHECK (to_on >= from_on)
);
CREATE INDEX reservation_requests_item ON reservation_requests (company_id, item_id, status, from_on);
CREATE INDEX reservation_requests_member ON reservation_requests (company_id, member_id, id);
CREATE INDEX reservation_requests_start ON reservation_requests (company_id, from_on, id);
CREATE INDEX reservation_requests_status ON reservation_requests (company_id, status, to_on);

-- Verifications (audits) of possession: requested of the asset's custodian, then
-- verified or cancelled. One pending at a time per asset.
CREATE TABLE verifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    member_id BIGINT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'verified', 'cancelled')),
    response TEXT,
    condition TEXT,
    notes TEXT,
    requested_at TIMESTAMP,
    responded_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id)
);
CREATE UNIQUE INDEX verifications_one_pending ON verifications (company_id, item_id) WHERE status = 'pending';
CREATE INDEX verifications_item ON verifications (company_id, item_id, id);
CREATE INDEX verifications_member ON verifications (company_id, member_id, status, item_id);
CREATE INDEX verifications_status ON verifications (company_id, status, item_id);

-- Every GPS reading of an asset; the latest is also on the item.
CREATE TABLE gps_readings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    latitude TEXT NOT NULL,
    longitude TEXT NOT NULL,
    gps_asset_id TEXT,
    recorded_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE
);
CREATE INDEX gps_readings_item ON gps_readings (company_id, item_id, id);

-- Custom taxes (a name and a rate in parts per million of the amount: 8.875 % is
-- 88750), and the ones applied to each item.
CREATE TABLE custom_taxes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    rate_ppm BIGINT NOT NULL CHECK (rate_ppm >= 0 AND rate_ppm <= 1000000),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name)
);
CREATE TABLE item_custom_taxes (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    custom_tax_id BIGINT NOT NULL,
    PRIMARY KEY (company_id, item_id, custom_tax_id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, custom_tax_id) REFERENCES custom_taxes (company_id, id)
);
CREATE INDEX item_custom_taxes_tax ON item_custom_taxes (company_id, custom_tax_id);

-- Custom filters: a named conjunction of the built-in filters (a JSON list of
-- {"status": ..., "value": ..., "sub_group": ...}) for one kind of item.
CREATE TABLE custom_filters (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    assets_type TEXT NOT NULL CHECK (assets_type IN ('fixed_assets', 'volatile_assets', 'stock_assets')),
    conditions TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, assets_type, name)
);

CREATE TRIGGER custom_taxes_count_insert AFTER INSERT ON custom_taxes BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'custom_taxes', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER custom_taxes_count_delete AFTER DELETE ON custom_taxes BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'custom_taxes', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
