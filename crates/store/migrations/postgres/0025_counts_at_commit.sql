-- Counters at commit, in shards. Every check-out of a company's assets moved its
-- records between the same two counters (items:asset:available,
-- items:asset:checked_out), and the trigger's upsert held their rows locked from the
-- UPDATE of the item to the end of its transaction: the company's writers of one kind
-- queued on those rows for the rest of each other's transactions (docs/performance.md,
-- "Writes at 64 connections").
--
-- Now the count triggers are constraint triggers deferred to the commit, so the
-- counters are written last and held only for the commit itself; and each counter is
-- kept in up to 16 rows, one per shard, a connection writing the shard of its server
-- process (`pg_backend_pid() % 16`), so transactions on different connections commit
-- side by side instead of each waiting for the last one's commit to reach the disk. A
-- list's total was already the sum of its partitions' rows (`paging::counter_sum`); a
-- shard alone may be negative. A transaction reads its own counts only after it
-- commits; a bulk transaction (`Tx::bulk`) makes them immediate again, appending to
-- its pending counts (migration 0023) as before.
ALTER TABLE list_counts ADD COLUMN shard BIGINT NOT NULL DEFAULT 0;
ALTER TABLE list_counts DROP CONSTRAINT list_counts_pkey, ADD PRIMARY KEY (company_id, list, shard);

CREATE OR REPLACE FUNCTION list_count_add(company BIGINT, key TEXT, delta BIGINT) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('rentrack.deferred_counts', true) = 'on' THEN
        INSERT INTO pending_list_counts (company_id, list, delta) VALUES (company, key, delta);
    ELSE
        INSERT INTO list_counts (company_id, list, shard, n)
        VALUES (company, key, pg_backend_pid() % 16, delta)
        ON CONFLICT (company_id, list, shard) DO UPDATE SET n = list_counts.n + EXCLUDED.n;
    END IF;
END $$;

DROP TRIGGER asset_groups_count ON asset_groups;
CREATE CONSTRAINT TRIGGER asset_groups_count AFTER INSERT OR DELETE ON asset_groups
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('asset_groups');

DROP TRIGGER sub_groups_count ON sub_groups;
CREATE CONSTRAINT TRIGGER sub_groups_count AFTER INSERT OR DELETE ON sub_groups
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('sub_groups');

DROP TRIGGER vendors_count ON vendors;
CREATE CONSTRAINT TRIGGER vendors_count AFTER INSERT OR DELETE ON vendors
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('vendors');

DROP TRIGGER custom_roles_count ON custom_roles;
CREATE CONSTRAINT TRIGGER custom_roles_count AFTER INSERT OR DELETE ON custom_roles
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('custom_roles');

DROP TRIGGER teams_count ON teams;
CREATE CONSTRAINT TRIGGER teams_count AFTER INSERT OR DELETE ON teams
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('teams');

DROP TRIGGER retire_reasons_count ON retire_reasons;
CREATE CONSTRAINT TRIGGER retire_reasons_count AFTER INSERT OR DELETE ON retire_reasons
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('retire_reasons');

DROP TRIGGER custom_fields_count ON custom_fields;
CREATE CONSTRAINT TRIGGER custom_fields_count AFTER INSERT OR DELETE ON custom_fields
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('custom_fields');

DROP TRIGGER locations_count ON locations;
CREATE CONSTRAINT TRIGGER locations_count AFTER INSERT OR DELETE OR UPDATE OF company_id, active ON locations
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_by_status('locations');

DROP TRIGGER businesses_count ON businesses;
CREATE CONSTRAINT TRIGGER businesses_count AFTER INSERT OR DELETE OR UPDATE OF company_id, active ON businesses
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_by_status('businesses');

DROP TRIGGER members_count ON members;
CREATE CONSTRAINT TRIGGER members_count AFTER INSERT OR DELETE OR UPDATE OF company_id, active, login_enabled ON members
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION members_list_count();

DROP TRIGGER persons_count ON persons;
CREATE CONSTRAINT TRIGGER persons_count AFTER INSERT OR DELETE OR UPDATE OF company_id, kind, active, deleted_at ON persons
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION persons_list_count();

DROP TRIGGER items_count ON items;
CREATE CONSTRAINT TRIGGER items_count AFTER INSERT OR DELETE OR UPDATE OF company_id, asset_type, state ON items
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION items_list_count();

DROP TRIGGER custom_taxes_count ON custom_taxes;
CREATE CONSTRAINT TRIGGER custom_taxes_count AFTER INSERT OR DELETE ON custom_taxes
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('custom_taxes');

DROP TRIGGER orders_count ON orders;
CREATE CONSTRAINT TRIGGER orders_count AFTER INSERT OR DELETE OR UPDATE OF company_id, basket_state ON orders
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION orders_list_count();

DROP TRIGGER coupons_count ON coupons;
CREATE CONSTRAINT TRIGGER coupons_count AFTER INSERT OR DELETE ON coupons
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('coupons');

DROP TRIGGER group_taxes_count ON group_taxes;
CREATE CONSTRAINT TRIGGER group_taxes_count AFTER INSERT OR DELETE ON group_taxes
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('group_taxes');

DROP TRIGGER payment_options_count ON payment_options;
CREATE CONSTRAINT TRIGGER payment_options_count AFTER INSERT OR DELETE ON payment_options
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('payment_options');

DROP TRIGGER bundles_count ON bundles;
CREATE CONSTRAINT TRIGGER bundles_count AFTER INSERT OR DELETE ON bundles
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('bundles');

DROP TRIGGER print_label_templates_count ON print_label_templates;
CREATE CONSTRAINT TRIGGER print_label_templates_count AFTER INSERT OR DELETE ON print_label_templates
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_label_templates();

DROP TRIGGER listings_count ON listings;
CREATE CONSTRAINT TRIGGER listings_count AFTER INSERT OR DELETE OR UPDATE OF company_id, active ON listings
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_by_status('listings');

DROP TRIGGER webhooks_count ON webhooks;
CREATE CONSTRAINT TRIGGER webhooks_count AFTER INSERT OR DELETE ON webhooks
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('webhooks');

DROP TRIGGER imports_count ON imports;
CREATE CONSTRAINT TRIGGER imports_count AFTER INSERT OR DELETE ON imports
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_count_rows('imports');
