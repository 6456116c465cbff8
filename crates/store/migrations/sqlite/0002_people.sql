-- People and company settings: custom roles, teams, retire reasons, custom fields,
-- members with their teams and addresses. SQLite flavour; keep in step with
-- ../postgres/0002_people.sql (the schema agreement test compares the two).

ALTER TABLE companies ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD';
ALTER TABLE companies ADD COLUMN retired_activation_location TEXT NOT NULL DEFAULT 'optional';

-- Role ids 1 and 2 are the built-in administrator and staff, so custom role ids start at 3.
CREATE TABLE custom_roles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name)
);

INSERT INTO sqlite_sequence (name, seq) VALUES ('custom_roles', 2);

CREATE TABLE teams (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name)
);

CREATE TABLE retire_reasons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, name)
);

-- lookup_key: the name lower-cased with underscores as spaces, as the wire names fields.
-- applies_to: comma-separated kinds of record (fixed_assets, members, vendors, ...).
CREATE TABLE custom_fields (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    lookup_key TEXT NOT NULL,
    field_type TEXT NOT NULL,
    applies_to TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, lookup_key)
);

CREATE TABLE custom_field_options (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    custom_field_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    position BIGINT NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, custom_field_id) REFERENCES custom_fields (company_id, id) ON DELETE CASCADE
);
CREATE INDEX custom_field_options_field ON custom_field_options (company_id, custom_field_id, position);

-- role_id is 1 (administrator), 2 (staff) or the custom role's id, which custom_role_id
-- then repeats so the foreign key keeps it real. custom_attributes: JSON object keyed
-- by custom field id.
CREATE TABLE members (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    email TEXT,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    employee_id TEXT,
    user_listing_id TEXT,
    role_id BIGINT NOT NULL,
    custom_role_id BIGINT,
    address_name TEXT,
    address TEXT,
    address_line_2 TEXT,
    city TEXT,
    state TEXT,
    zipcode TEXT,
    country TEXT,
    phone_number TEXT,
    fax TEXT,
    login_enabled BOOLEAN NOT NULL,
    subscribed_to_emails BOOLEAN NOT NULL,
    active BOOLEAN NOT NULL,
    is_owner BOOLEAN NOT NULL,
    custom_attributes TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, email),
    FOREIGN KEY (company_id, custom_role_id) REFERENCES custom_roles (company_id, id),
    CHECK ((role_id IN (1, 2) AND custom_role_id IS NULL) OR role_id = custom_role_id),
    CHECK (login_enabled = FALSE OR email IS NOT NULL)
);
CREATE INDEX members_employee ON members (company_id, employee_id);
CREATE INDEX members_active ON members (company_id, active, id);
CREATE INDEX members_login ON members (company_id, login_enabled, id);
CREATE INDEX members_custom_role ON members (company_id, custom_role_id);

CREATE TABLE member_teams (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    member_id BIGINT NOT NULL,
    team_id BIGINT NOT NULL,
    PRIMARY KEY (company_id, member_id, team_id),
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id),
    FOREIGN KEY (company_id, team_id) REFERENCES teams (company_id, id) ON DELETE CASCADE
);
CREATE INDEX member_teams_team ON member_teams (company_id, team_id);

-- At most one default address per member, kept by the partial unique index.
CREATE TABLE member_addresses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    member_id BIGINT NOT NULL,
    name TEXT,
    street1 TEXT NOT NULL,
    street2 TEXT,
    city TEXT,
    state TEXT,
    zipcode TEXT,
    country TEXT,
    longi TEXT,
    lati TEXT,
    email TEXT,
    phone_number TEXT,
    active BOOLEAN NOT NULL,
    is_default BOOLEAN NOT NULL,
    created_by_id BIGINT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id),
    FOREIGN KEY (company_id, created_by_id) REFERENCES members (company_id, id)
);
CREATE INDEX member_addresses_member ON member_addresses (company_id, member_id, id);
CREATE UNIQUE INDEX member_addresses_default ON member_addresses (company_id, member_id) WHERE is_default;

-- Every existing owner is listed as a member with the administrator role.
INSERT INTO members (company_id, email, first_name, last_name, role_id, login_enabled, subscribed_to_emails,
                     active, is_owner, custom_attributes, created_at, updated_at)
SELECT company_id, email, 'Account', 'Owner', 1, TRUE, TRUE, TRUE, TRUE, '{}', created_at, created_at FROM owners;
