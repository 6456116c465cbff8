-- Lists at scale: the number of records of each list, kept per company so that a page's
-- `total_pages` costs one indexed read instead of a count of every record, and the
-- indexes the list filters need. PostgreSQL flavour; keep in step with
-- ../sqlite/0007_list_counts.sql.

-- One row per company and partition of a list. A record is in at most one partition
-- of its table; a list's total is the sum of the partitions it shows (the key of each,
-- and which list sums which, are in crates/store/src/lists.rs):
--   locations:active, locations:inactive
--   asset_groups, sub_groups, vendors, custom_roles, teams, retire_reasons, custom_fields
--   members:<active|inactive>:<login|non_login>
--   businesses:active, businesses:inactive
--   persons:<customer|contact>:<active|inactive>   (deleted persons are in none)
-- The triggers below keep them exact in the transaction of every insert, delete and
-- change that moves a record between partitions, whoever writes it. Concurrent writers
-- of one company queue on the counter's row lock (the upsert below) until they commit,
-- so no change is lost.
CREATE TABLE list_counts (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    list TEXT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (company_id, list)
);

-- Adds delta to one counter, creating it at need.
CREATE FUNCTION list_count_add(company BIGINT, key TEXT, delta BIGINT) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO list_counts (company_id, list, n) VALUES (company, key, delta)
    ON CONFLICT (company_id, list) DO UPDATE SET n = list_counts.n + EXCLUDED.n
$$;

-- Moves one record from partition (old_company, old_key) to (new_company, new_key);
-- a NULL key is "counted nowhere" (not yet inserted, deleted). The two counters are
-- locked in key order, so two records moving in opposite directions at the same time
-- cannot deadlock.
CREATE FUNCTION list_count_move(old_company BIGINT, old_key TEXT, new_company BIGINT, new_key TEXT)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF old_company IS NOT DISTINCT FROM new_company AND old_key IS NOT DISTINCT FROM new_key THEN
        RETURN;
    END IF;
    IF new_key IS NOT NULL AND (old_key IS NULL OR (new_company, new_key) < (old_company, old_key)) THEN
        PERFORM list_count_add(new_company, new_key, 1);
        new_key := NULL;
    END IF;
    IF old_key IS NOT NULL THEN
        PERFORM list_count_add(old_company, old_key, -1);
    END IF;
    IF new_key IS NOT NULL THEN
        PERFORM list_count_add(new_company, new_key, 1);
    END IF;
END $$;

-- Tables listed whole: one partition each, named by the trigger's argument.
CREATE FUNCTION list_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM list_count_add(NEW.company_id, TG_ARGV[0], 1);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM list_count_add(OLD.company_id, TG_ARGV[0], -1);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER asset_groups_count AFTER INSERT OR DELETE ON asset_groups
FOR EACH ROW EXECUTE FUNCTION list_count_rows('asset_groups');
CREATE TRIGGER sub_groups_count AFTER INSERT OR DELETE ON sub_groups
FOR EACH ROW EXECUTE FUNCTION list_count_rows('sub_groups');
CREATE TRIGGER vendors_count AFTER INSERT OR DELETE ON vendors
FOR EACH ROW EXECUTE FUNCTION list_count_rows('vendors');
CREATE TRIGGER custom_roles_count AFTER INSERT OR DELETE ON custom_roles
FOR EACH ROW EXECUTE FUNCTION list_count_rows('custom_roles');
CREATE TRIGGER teams_count AFTER INSERT OR DELETE ON teams
FOR EACH ROW EXECUTE FUNCTION list_count_rows('teams');
CREATE TRIGGER retire_reasons_count AFTER INSERT OR DELETE ON retire_reasons
FOR EACH ROW EXECUTE FUNCTION list_count_rows('retire_reasons');
CREATE TRIGGER custom_fields_count AFTER INSERT OR DELETE ON custom_fields
FOR EACH ROW EXECUTE FUNCTION list_count_rows('custom_fields');

-- Locations and businesses, by status: '<argument>:active' or '<argument>:inactive'.
CREATE FUNCTION list_count_by_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_company BIGINT;
    old_key TEXT;
    new_company BIGINT;
    new_key TEXT;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        old_company := OLD.company_id;
        old_key := TG_ARGV[0] || CASE WHEN OLD.active THEN ':active' ELSE ':inactive' END;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        new_company := NEW.company_id;
        new_key := TG_ARGV[0] || CASE WHEN NEW.active THEN ':active' ELSE ':inactive' END;
    END IF;
    PERFORM list_count_move(old_company, old_key, new_company, new_key);
    RETURN NULL;
END $$;

CREATE TRIGGER locations_count AFTER INSERT OR DELETE OR UPDATE OF company_id, active ON locations
FOR EACH ROW EXECUTE FUNCTION list_count_by_status('locations');
CREATE TRIGGER businesses_count AFTER INSERT OR DELETE OR UPDATE OF company_id, active ON businesses
FOR EACH ROW EXECUTE FUNCTION list_count_by_status('businesses');

-- Members, by status and by whether they can log in.
CREATE FUNCTION members_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_company BIGINT;
    old_key TEXT;
    new_company BIGINT;
    new_key TEXT;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        old_company := OLD.company_id;
        old_key := 'members:' || CASE WHEN OLD.active THEN 'active' ELSE 'inactive' END
                              || CASE WHEN OLD.login_enabled THEN ':login' ELSE ':non_login' END;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        new_company := NEW.company_id;
        new_key := 'members:' || CASE WHEN NEW.active THEN 'active' ELSE 'inactive' END
                              || CASE WHEN NEW.login_enabled THEN ':login' ELSE ':non_login' END;
    END IF;
    PERFORM list_count_move(old_company, old_key, new_company, new_key);
    RETURN NULL;
END $$;

CREATE TRIGGER members_count AFTER INSERT OR DELETE OR UPDATE OF company_id, active, login_enabled ON members
FOR EACH ROW EXECUTE FUNCTION members_list_count();

-- Persons (customers and contacts), by kind and status; a deleted person (deleted_at
-- set) leaves its partition.
CREATE FUNCTION persons_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_company BIGINT;
    old_key TEXT;
    new_company BIGINT;
    new_key TEXT;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        old_company := OLD.company_id;
        IF OLD.deleted_at IS NULL THEN
            old_key := 'persons:' || OLD.kind || CASE WHEN OLD.active THEN ':active' ELSE ':inactive' END;
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        new_company := NEW.company_id;
        IF NEW.deleted_at IS NULL THEN
            new_key := 'persons:' || NEW.kind || CASE WHEN NEW.active THEN ':active' ELSE ':inactive' END;
        END IF;
    END IF;
    PERFORM list_count_move(old_company, old_key, new_company, new_key);
    RETURN NULL;
END $$;

CREATE TRIGGER persons_count AFTER INSERT OR DELETE OR UPDATE OF company_id, kind, active, deleted_at ON persons
FOR EACH ROW EXECUTE FUNCTION persons_list_count();

-- The counts of the records that exist already. The triggers above were created
-- first: CREATE TRIGGER locks each table against writes until this migration commits,
-- so no record is written between the count and the trigger.
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
