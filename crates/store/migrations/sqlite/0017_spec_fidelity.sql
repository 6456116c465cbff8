-- What the spec names and rentrack did not yet keep: the unit price of inventory (its
-- latest stock addition's price, the price an order sells it at), businesses found by
-- name (an order's business_name), orders by the day they go out. SQLite flavour;
-- keep in step with ../postgres/0017_spec_fidelity.sql.
ALTER TABLE items ADD COLUMN unit_price BIGINT;
CREATE INDEX businesses_name ON businesses (company_id, name);
-- Bundles go on an order in sets: a bundle line keeps the units of one set, so a
-- return by bundle_with_quantity brings sets back (NULL on lines from before: one set
-- is the whole line).
ALTER TABLE order_line_items ADD COLUMN bundle_units BIGINT CHECK (bundle_units > 0);
-- Orders by the day they are expected to go out (checkout_requests/filter.api).
CREATE INDEX orders_expected_checkout ON orders (company_id, expected_checkout_at);

-- Store listings (a rentrack extension): the shops an order is placed through
-- (user_listing_name) and members belong to (user[user_listing_id]). Deactivated,
-- never deleted: orders keep naming them.
CREATE TABLE listings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    active BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name)
);
CREATE INDEX listings_active ON listings (company_id, active, id);
CREATE INDEX orders_listing ON orders (company_id, user_listing_name);
CREATE TRIGGER listings_count_insert AFTER INSERT ON listings BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, CASE WHEN NEW.active THEN 'listings:active' ELSE 'listings:inactive' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER listings_count_delete AFTER DELETE ON listings BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, CASE WHEN OLD.active THEN 'listings:active' ELSE 'listings:inactive' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER listings_count_update AFTER UPDATE OF company_id, active ON listings
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.active IS NOT NEW.active BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, CASE WHEN OLD.active THEN 'listings:active' ELSE 'listings:inactive' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, CASE WHEN NEW.active THEN 'listings:active' ELSE 'listings:inactive' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
