-- Lists at scale: the number of records of each list, kept per company so that a page's
-- `total_pages` costs one indexed read instead of a count of every record, and the
-- indexes the list filters need. SQLite flavour; keep in step with
-- ../postgres/0007_list_counts.sql.

-- One row per company and partition of a list. A record is in at most one partition
-- of its table; a list's total is the sum of the partitions it shows (the key of each,
-- and which list sums which, are in crates/store/src/lists.rs):
--   locations:active, locations:inactive
--   asset_groups, sub_groups, vendors, custom_roles, teams, retire_reasons, custom_fields
--   members:<active|inactive>:<login|non_login>
--   businesses:active, businesses:inactive
--   persons:<customer|contact>:<active|inactive>   (deleted persons are in none)
-- The triggers below keep them exact in the transaction of every insert, delete and
-- change that moves a record between partitions, whoever writes it.
CREATE TABLE list_counts (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    list TEXT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (company_id, list)
);

-- Tables listed whole: one partition each.
CREATE TRIGGER asset_groups_count_insert AFTER INSERT ON asset_groups BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'asset_groups', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER asset_groups_count_delete AFTER DELETE ON asset_groups BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'asset_groups', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER sub_groups_count_insert AFTER INSERT ON sub_groups BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'sub_groups', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER sub_groups_count_delete AFTER DELETE ON sub_groups BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'sub_groups', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER vendors_count_insert AFTER INSERT ON vendors BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'vendors', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER vendors_count_delete AFTER DELETE ON vendors BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'vendors', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER custom_roles_count_insert AFTER INSERT ON custom_roles BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'custom_roles', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER custom_roles_count_delete AFTER DELETE ON custom_roles BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'custom_roles', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER teams_count_insert AFTER INSERT ON teams BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'teams', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER teams_count_delete AFTER DELETE ON teams BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'teams', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER retire_reasons_count_insert AFTER INSERT ON retire_reasons BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'retire_reasons', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER retire_reasons_count_delete AFTER DELETE ON retire_reasons BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'retire_reasons', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER custom_fields_count_insert AFTER INSERT ON custom_fields BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'custom_fields', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER custom_fields_count_delete AFTER DELETE ON custom_fields BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'custom_fields', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- Locations, by status.
CREATE TRIGGER locations_count_insert AFTER INSERT ON locations BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, CASE WHEN NEW.active THEN 'locations:active' ELSE 'locations:inactive' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER locations_count_delete AFTER DELETE ON locations BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, CASE WHEN OLD.active THEN 'locations:active' ELSE 'locations:inactive' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER locations_count_update AFTER UPDATE OF company_id, active ON locations
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.active IS NOT NEW.active BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, CASE WHEN OLD.active THEN 'locations:active' ELSE 'locations:inactive' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, CASE WHEN NEW.active THEN 'locations:active' ELSE 'locations:inactive' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- Businesses, by status.
CREATE TRIGGER businesses_count_insert AFTER INSERT ON businesses BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, CASE WHEN NEW.active THEN 'businesses:active' ELSE 'businesses:inactive' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER businesses_count_delete AFTER DELETE ON businesses BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, CASE WHEN OLD.active THEN 'businesses:active' ELSE 'businesses:inactive' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER businesses_count_update AFTER UPDATE OF company_id, active ON businesses
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.active IS NOT NEW.active BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, CASE WHEN OLD.active THEN 'businesses:active' ELSE 'businesses:inactive' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, CASE WHEN NEW.active THEN 'businesses:active' ELSE 'businesses:inactive' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- Members, by status and by whether they can log in.
CREATE TRIGGER members_count_insert AFTER INSERT ON members BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id,
            'members:' || CASE WHEN NEW.active THEN 'active' ELSE 'inactive' END
                       || CASE WHEN NEW.login_enabled THEN ':login' ELSE ':non_login' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER members_count_delete AFTER DELETE ON members BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id,
            'members:' || CASE WHEN OLD.active THEN 'active' ELSE 'inactive' END
                       || CASE WHEN OLD.login_enabled THEN ':login' ELSE ':non_login' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER members_count_update AFTER UPDATE OF company_id, active, login_enabled ON members
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.active IS NOT NEW.active
     OR OLD.login_enabled IS NOT NEW.login_enabled BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id,
            'members:' || CASE WHEN OLD.active THEN 'active' ELSE 'inactive' END
                       || CASE WHEN OLD.login_enabled THEN ':login' ELSE ':non_login' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id,
            'members:' || CASE WHEN NEW.active THEN 'active' ELSE 'inactive' END
                       || CASE WHEN NEW.login_enabled THEN ':login' ELSE ':non_login' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- Persons (customers and contacts), by kind and status; a deleted person (deleted_at
-- set) leaves its partition.
CREATE TRIGGER persons_count_insert AFTER INSERT ON persons WHEN NEW.deleted_at IS NULL BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id,
            'persons:' || NEW.kind || CASE WHEN NEW.active THEN ':active' ELSE ':inactive' END, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER persons_count_delete AFTER DELETE ON persons WHEN OLD.deleted_at IS NULL BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id,
            'persons:' || OLD.kind || CASE WHEN OLD.active THEN ':active' ELSE ':inactive' END, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER persons_count_update AFTER UPDATE OF company_id, kind, active, deleted_at ON persons
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.kind IS NOT NEW.kind OR OLD.active IS NOT NEW.active
     OR (OLD.deleted_at IS NULL) IS NOT (NEW.deleted_at IS NULL) BEGIN
    INSERT INTO list_counts (company_id, list, n)
    SELECT OLD.company_id,
           'persons:' || OLD.kind || CASE WHEN OLD.active THEN ':active' ELSE ':inactive' END, -1
    WHERE OLD.deleted_at IS NULL
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
    INSERT INTO list_counts (company_id, list, n)
    SELECT NEW.company_id,
           'persons:' || NEW.kind || CASE WHEN NEW.active THEN ':active' ELSE ':inactive' END, 1
    WHERE NEW.deleted_at IS NULL
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- The counts of the records that exist already.
INSERT INTO list_counts (company_id, list, n)
SELECT company_id, 'asset_groups', COUNT(*) FROM asset_groups GROUP BY company_id
UNION ALL
SELECT company_id, 'sub_groups', COUNT(*) FROM sub_groups GROUP BY company_id
UNION ALL
SELECT company_id, 'vendors', COUNT(*) FROM vendors GROUP BY company_id
UNION ALL
SELECT company_id, 'custom_roles', COUNT(*) FROM custom_roles GROUP BY company_id
UNION ALL
SELECT company_id, 'teams', COUNT(*) FROM teams GROUP BY company_id
UNION ALL
SELECT company_id, 'retire_reasons', COUNT(*) FROM retire_reasons GROUP BY company_id
UNION ALL
SELECT company_id, 'custom_fields', COUNT(*) FROM custom_fields GROUP BY company_id
UNION ALL
SELECT company_id, CASE WHEN active THEN 'locations:active' ELSE 'locations:inactive' END, COUNT(*)
FROM locations GROUP BY 1, 2
UNION ALL
SELECT company_id, CASE WHEN active THEN 'businesses:active' ELSE 'businesses:inactive' END, COUNT(*)
FROM businesses GROUP BY 1, 2
UNION ALL
SELECT company_id,
       'members:' || CASE WHEN active THEN 'active' ELSE 'inactive' END
                  || CASE WHEN login_enabled THEN ':login' ELSE ':non_login' END, COUNT(*)
FROM members GROUP BY 1, 2
UNION ALL
SELECT company_id, 'persons:' || kind || CASE WHEN active THEN ':active' ELSE ':inactive' END, COUNT(*)
FROM persons WHERE deleted_at IS NULL GROUP BY 1, 2;

-- Indexes for the person filters, so that a filtered count reads only the index
-- entries of the records it counts, and a filtered page of one kind walks them in id
-- order. The kind comes last but one so that the persons list (/individuals.api,
-- both kinds) can count on the same index.
DROP INDEX persons_tax;
CREATE INDEX persons_tax ON persons (company_id, active, collect_tax, kind, id) WHERE deleted_at IS NULL;
CREATE INDEX persons_category ON persons (company_id, active, category, kind, id) WHERE deleted_at IS NULL;
CREATE INDEX persons_subscribed ON persons (company_id, active, subscribed_to_emails, kind, id) WHERE deleted_at IS NULL;
CREATE INDEX persons_login ON persons (company_id, active, login_enabled, kind, id) WHERE deleted_at IS NULL;
-- Active and inactive together (contacts' and persons' `filter=all`) in id order.
CREATE INDEX persons_kind_live ON persons (company_id, kind, id) WHERE deleted_at IS NULL;
CREATE INDEX persons_live ON persons (company_id, id) WHERE deleted_at IS NULL;
