-- Sub-rental items: what a company rents from someone else for one order, described
-- by name (no item of the company stands for it), at a price for the order's period.
-- SQLite flavour; keep in step with ../postgres/0014_sub_rentals.sql.
CREATE TABLE order_sub_rent_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    order_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    is_for_rent BOOLEAN NOT NULL DEFAULT TRUE,
    location TEXT,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    item_no TEXT,
    price BIGINT NOT NULL CHECK (price >= 0),
    returned_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, order_id) REFERENCES orders (company_id, id) ON DELETE CASCADE
);
CREATE INDEX order_sub_rent_items_order ON order_sub_rent_items (company_id, order_id, id);
