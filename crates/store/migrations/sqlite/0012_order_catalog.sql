-- What rental orders pick from: pricing coupons, group taxes (a name for several custom
-- taxes charged as one) and payment options. SQLite flavour; keep in step with
-- ../postgres/0012_order_catalog.sql.
--
-- A coupon's `value` is hundredths: minor units when `value_type` is 'flat' (12.50 is
-- 1250), hundredths of a percent when 'percent' (12.5 % is 1250, at most 10000).

CREATE TABLE coupons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    code TEXT,
    value_type TEXT NOT NULL CHECK (value_type IN ('flat', 'percent')),
    value BIGINT NOT NULL CHECK (value > 0 AND value <= 100000000000000),
    effect TEXT NOT NULL DEFAULT 'discount' CHECK (effect IN ('discount', 'surcharge')),
    valid_from DATE,
    valid_until DATE,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name),
    CHECK (value_type = 'flat' OR value <= 10000),
    CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_until >= valid_from)
);

-- A group tax and the custom taxes it sums. A custom tax in a group cannot be deleted
-- (the foreign key refuses it) while the group is there.
CREATE TABLE group_taxes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name)
);
CREATE TABLE group_tax_components (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    group_tax_id BIGINT NOT NULL,
    custom_tax_id BIGINT NOT NULL,
    PRIMARY KEY (company_id, group_tax_id, custom_tax_id),
    FOREIGN KEY (company_id, group_tax_id) REFERENCES group_taxes (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, custom_tax_id) REFERENCES custom_taxes (company_id, id)
);
CREATE INDEX group_tax_components_tax ON group_tax_components (company_id, custom_tax_id);

-- Payment options. `name_key` is the name trimmed and lower-cased
-- (domain::payment::name_key): names differing only in case are one option.
CREATE TABLE payment_options (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'other' CHECK (kind IN ('cash', 'check', 'credit_card', 'other')),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name_key)
);

-- The three lists are shown whole: one list_counts partition each, named by the table
-- (as in 0007_list_counts.sql).
CREATE TRIGGER coupons_count_insert AFTER INSERT ON coupons BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'coupons', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER coupons_count_delete AFTER DELETE ON coupons BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'coupons', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER group_taxes_count_insert AFTER INSERT ON group_taxes BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'group_taxes', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER group_taxes_count_delete AFTER DELETE ON group_taxes BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'group_taxes', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER payment_options_count_insert AFTER INSERT ON payment_options BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'payment_options', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER payment_options_count_delete AFTER DELETE ON payment_options BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'payment_options', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- Every company has Cash, Check and Credit Card from the start (new companies get them
-- in store::companies::create); existing ones get them here, dated as the company is.
-- The triggers above count them.
INSERT INTO payment_options (company_id, name, name_key, kind, created_at, updated_at)
SELECT c.id, d.name, d.name_key, d.kind, c.created_at, c.created_at
FROM companies c CROSS JOIN (
    SELECT 1 AS position, 'Cash' AS name, 'cash' AS name_key, 'cash' AS kind
    UNION ALL SELECT 2, 'Check', 'check', 'check'
    UNION ALL SELECT 3, 'Credit Card', 'credit card', 'credit_card'
) d
ORDER BY c.id, d.position;
