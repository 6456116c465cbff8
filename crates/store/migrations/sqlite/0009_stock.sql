-- Inventory and asset stock: quantities per location, thresholds, stock check-outs
-- (line items) and their check-ins, reservations of a quantity. SQLite flavour; keep in
-- step with ../postgres/0009_stock.sql.
--
-- What is on hand is `stock_levels` (one row per item and location). `items.quantity`
-- is their sum and `items.checked_out_quantity` the sum of what open line items still
-- hold; both are written in the transaction that moves the stock, after the item's row
-- is locked, so they are exact at every commit. Units checked out are at no location.

ALTER TABLE items ADD COLUMN quantity BIGINT NOT NULL DEFAULT 0 CHECK (quantity >= 0);
ALTER TABLE items ADD COLUMN checked_out_quantity BIGINT NOT NULL DEFAULT 0 CHECK (checked_out_quantity >= 0);
-- quantity_range, and the lists' order within it.
CREATE INDEX items_quantity ON items (company_id, asset_type, quantity, id);

-- One item's stock at every location (the primary key serves one location's stock).
CREATE INDEX stock_levels_item ON stock_levels (company_id, item_sequence_num, location_id);

-- The minimum wanted at a location: below it, the item is low on stock there.
CREATE TABLE stock_thresholds (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    location_id BIGINT NOT NULL,
    minimum BIGINT NOT NULL CHECK (minimum >= 0),
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (company_id, item_id, location_id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, location_id) REFERENCES locations (company_id, id)
);

-- A quantity of asset stock checked out to a member: `quantity` went out, `quantity_out`
-- is still out (partial check-ins lower it; 0 is returned).
CREATE TABLE stock_line_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    item_id BIGINT NOT NULL,
    member_id BIGINT NOT NULL,
    location_id BIGINT NOT NULL,
    checked_out_to_location_id BIGINT,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    quantity_out BIGINT NOT NULL CHECK (quantity_out >= 0 AND quantity_out <= quantity),
    price BIGINT,
    comments TEXT,
    custom_attributes TEXT NOT NULL DEFAULT '{}',
    checkout_on TIMESTAMP NOT NULL,
    checkin_due_on TIMESTAMP,
    returned_on TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id),
    FOREIGN KEY (company_id, location_id) REFERENCES locations (company_id, id),
    FOREIGN KEY (company_id, checked_out_to_location_id) REFERENCES locations (company_id, id),
    CHECK ((quantity_out = 0) = (returned_on IS NOT NULL))
);
CREATE INDEX stock_line_items_item ON stock_line_items (company_id, item_id, id);
CREATE INDEX stock_line_items_open ON stock_line_items (company_id, item_id, checkin_due_on) WHERE quantity_out > 0;
CREATE INDEX stock_line_items_member ON stock_line_items (company_id, member_id, id);
CREATE INDEX stock_line_items_holder ON stock_line_items (company_id, member_id, item_id) WHERE quantity_out > 0;

-- Each check-in of (part of) a line item.
CREATE TABLE stock_checkins (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    line_item_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    location_id BIGINT NOT NULL,
    checked_in_on TIMESTAMP NOT NULL,
    comments TEXT,
    custom_attributes TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, line_item_id) REFERENCES stock_line_items (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, location_id) REFERENCES locations (company_id, id)
);
CREATE INDEX stock_checkins_line_item ON stock_checkins (company_id, line_item_id, id);

-- A reservation holds a quantity (1 for a fixed asset).
ALTER TABLE reservation_requests ADD COLUMN quantity BIGINT NOT NULL DEFAULT 1 CHECK (quantity > 0);

-- Who acts with the company's token: the owner, named in stock histories.
CREATE INDEX members_owner ON members (company_id, is_owner);
