-- rentrack foundation schema, SQLite flavour. Keep in step with ../postgres/0001_foundation.sql;
-- the schema agreement test compares the two.
-- Ids are rowids (AUTOINCREMENT, never reused); every tenant table also carries a
-- UNIQUE (company_id, id) so composite foreign keys never cross companies.

CREATE TABLE companies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    subdomain TEXT NOT NULL UNIQUE,
    plan TEXT NOT NULL,
    rate_limit_requests BIGINT,
    rate_limit_window_secs BIGINT,
    api_enabled BOOLEAN NOT NULL DEFAULT FALSE,
    time_zone TEXT NOT NULL DEFAULT 'UTC',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE owners (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    email TEXT NOT NULL,
    password_hash TEXT,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, email)
);

CREATE TABLE api_tokens (
    company_id BIGINT NOT NULL PRIMARY KEY REFERENCES companies (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE company_counters (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    kind TEXT NOT NULL,
    last_value BIGINT NOT NULL,
    PRIMARY KEY (company_id, kind)
);

CREATE TABLE rate_limit_windows (
    company_id BIGINT NOT NULL PRIMARY KEY REFERENCES companies (id),
    window_start BIGINT NOT NULL,
    used BIGINT NOT NULL,
    blocked_until BIGINT NOT NULL,
    block_secs BIGINT NOT NULL
);

CREATE TABLE change_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    subject_type TEXT NOT NULL,
    subject_id BIGINT NOT NULL,
    action TEXT NOT NULL,
    details TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX change_log_subject ON change_log (company_id, subject_type, subject_id, id);

CREATE TABLE locations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    sequence_num BIGINT NOT NULL,
    parent_id BIGINT,
    name TEXT NOT NULL,
    description TEXT,
    street1 TEXT,
    street2 TEXT,
    city TEXT,
    state TEXT,
    zipcode TEXT,
    country TEXT,
    active BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, sequence_num),
    FOREIGN KEY (company_id, parent_id) REFERENCES locations (company_id, id)
);
CREATE INDEX locations_parent ON locations (company_id, parent_id);
CREATE INDEX locations_active ON locations (company_id, active, id);

CREATE TABLE asset_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    depreciation_mode TEXT NOT NULL,
    depreciation_rates TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id)
);

CREATE TABLE sub_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    group_id BIGINT NOT NULL,
    parent_id BIGINT,
    name TEXT NOT NULL,
    description TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, group_id) REFERENCES asset_groups (company_id, id),
    FOREIGN KEY (company_id, parent_id) REFERENCES sub_groups (company_id, id)
);
CREATE INDEX sub_groups_group ON sub_groups (company_id, group_id, id);
CREATE INDEX sub_groups_parent ON sub_groups (company_id, parent_id);

CREATE TABLE vendors (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    website TEXT,
    address TEXT,
    contact_person_name TEXT,
    email TEXT,
    phone_number TEXT,
    fax TEXT,
    custom_attributes TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id)
);

-- Quantity of an item (by its per-company sequence number) held at a location.
-- Filled by the inventory and asset stock operations.
CREATE TABLE stock_levels (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    location_id BIGINT NOT NULL,
    item_sequence_num BIGINT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity >= 0),
    PRIMARY KEY (company_id, location_id, item_sequence_num),
    FOREIGN KEY (company_id, location_id) REFERENCES locations (company_id, id)
);
