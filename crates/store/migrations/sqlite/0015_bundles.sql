-- Bundles (a rentrack extension the orders' `<id>-b` refers to): a named set of items
-- and quantities put on an order at once. SQLite flavour; keep in step with
-- ../postgres/0015_bundles.sql.
CREATE TABLE bundles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name)
);
CREATE TABLE bundle_items (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    bundle_id BIGINT NOT NULL,
    item_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (company_id, bundle_id, item_id),
    FOREIGN KEY (company_id, bundle_id) REFERENCES bundles (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id) ON DELETE CASCADE
);
CREATE INDEX bundle_items_item ON bundle_items (company_id, item_id);

-- bundles.api counts (list_counts, as 0007).
CREATE TRIGGER bundles_count_insert AFTER INSERT ON bundles BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'bundles', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER bundles_count_delete AFTER DELETE ON bundles BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'bundles', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
