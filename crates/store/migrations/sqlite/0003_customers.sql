-- Rental customers: persons (customers and business contacts), businesses, the
-- contacts of each business, their addresses, and the orders the customer filters
-- count. SQLite flavour; keep in step with ../postgres/0003_customers.sql.

-- Customers and business contacts share one table (kind 'customer' or 'contact') so the
-- persons list (/individuals.api) is one paged query. A deleted person keeps its row
-- (deleted_at set) so the orders that name it keep their history.
CREATE TABLE persons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    kind TEXT NOT NULL CHECK (kind IN ('customer', 'contact')),
    first_name TEXT,
    last_name TEXT NOT NULL,
    description TEXT,
    employee_identification_number TEXT,
    category TEXT,
    collect_tax BOOLEAN NOT NULL,
    email TEXT,
    login_enabled BOOLEAN NOT NULL,
    subscribed_to_emails BOOLEAN NOT NULL,
    address_name TEXT,
    address TEXT,
    address_line_2 TEXT,
    city TEXT,
    state TEXT,
    zip_code TEXT,
    country TEXT,
    phone_number TEXT,
    fax TEXT,
    active BOOLEAN NOT NULL,
    custom_attributes TEXT NOT NULL,
    deleted_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    CHECK (kind = 'contact' OR first_name IS NOT NULL)
);
-- Lists and lookups only read live persons: partial indexes let counts and pages run on
-- the index alone.
CREATE INDEX persons_kind ON persons (company_id, kind, active, id) WHERE deleted_at IS NULL;
CREATE INDEX persons_active ON persons (company_id, active, id) WHERE deleted_at IS NULL;
CREATE INDEX persons_email ON persons (company_id, email) WHERE deleted_at IS NULL;
CREATE INDEX persons_tax ON persons (company_id, kind, active, collect_tax, id) WHERE deleted_at IS NULL;

-- status 1 is active, 0 inactive (stored as the boolean `active`).
CREATE TABLE businesses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    name TEXT NOT NULL,
    description TEXT,
    industry TEXT,
    email TEXT,
    address_name TEXT,
    address TEXT,
    address_line_2 TEXT,
    city TEXT,
    state TEXT,
    zip_code TEXT,
    country TEXT,
    phone_number TEXT,
    fax TEXT,
    display_picture TEXT,
    tax_free BOOLEAN NOT NULL,
    company_default_payment_terms BOOLEAN NOT NULL,
    active BOOLEAN NOT NULL,
    custom_attributes TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id)
);
CREATE INDEX businesses_active ON businesses (company_id, active, id);

CREATE TABLE business_contacts (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    business_id BIGINT NOT NULL,
    contact_id BIGINT NOT NULL,
    PRIMARY KEY (company_id, business_id, contact_id),
    FOREIGN KEY (company_id, business_id) REFERENCES businesses (company_id, id),
    FOREIGN KEY (company_id, contact_id) REFERENCES persons (company_id, id)
);
CREATE INDEX business_contacts_contact ON business_contacts (company_id, contact_id);

-- Orders, as far as the customer filters need them; the orders issue extends this table.
-- customer_id is the person (customer or business contact) the order is for.
CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    sequence_num BIGINT NOT NULL,
    customer_id BIGINT,
    business_id BIGINT,
    basket_state TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, sequence_num),
    FOREIGN KEY (company_id, customer_id) REFERENCES persons (company_id, id),
    FOREIGN KEY (company_id, business_id) REFERENCES businesses (company_id, id)
);
CREATE INDEX orders_customer ON orders (company_id, customer_id, basket_state);
CREATE INDEX orders_business ON orders (company_id, business_id, basket_state);

CREATE TABLE customer_addresses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    customer_id BIGINT NOT NULL,
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
    billing_address BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, customer_id) REFERENCES persons (company_id, id),
    FOREIGN KEY (company_id, created_by_id) REFERENCES members (company_id, id)
);
CREATE INDEX customer_addresses_owner ON customer_addresses (company_id, customer_id, id);
CREATE UNIQUE INDEX customer_addresses_default ON customer_addresses (company_id, customer_id) WHERE is_default;

-- A business has one default address per type: the default shipping address and the
-- default billing address are separate.
CREATE TABLE business_addresses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    business_id BIGINT NOT NULL,
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
    address_type TEXT NOT NULL CHECK (address_type IN ('shipping', 'billing', 'other')),
    contact_id BIGINT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, business_id) REFERENCES businesses (company_id, id),
    FOREIGN KEY (company_id, contact_id) REFERENCES persons (company_id, id),
    FOREIGN KEY (company_id, created_by_id) REFERENCES members (company_id, id)
);
CREATE INDEX business_addresses_owner ON business_addresses (company_id, business_id, id);
CREATE INDEX business_addresses_contact ON business_addresses (company_id, contact_id, address_type);
CREATE UNIQUE INDEX business_addresses_default ON business_addresses (company_id, business_id, address_type) WHERE is_default;
