-- Bulk writes (an import: thousands of rows in one transaction) count their records
-- once, at the end. Each upsert of a counter row in one transaction leaves a row
-- version that the next must step over until commit, so counting row by row costs
-- the square of the rows (100,000 vendors: minutes). With `rentrack.deferred_counts`
-- set for the transaction (`Tx::bulk`), the counters' changes are appended to the
-- session's `pending_list_counts` instead, and `Tx::commit` adds their sums to
-- `list_counts` in one statement. There is no SQLite flavour: SQLite updates a row in
-- place.
CREATE OR REPLACE FUNCTION list_count_add(company BIGINT, key TEXT, delta BIGINT) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('rentrack.deferred_counts', true) = 'on' THEN
        INSERT INTO pending_list_counts (company_id, list, delta) VALUES (company, key, delta);
    ELSE
        INSERT INTO list_counts (company_id, list, n) VALUES (company, key, delta)
        ON CONFLICT (company_id, list) DO UPDATE SET n = list_counts.n + EXCLUDED.n;
    END IF;
END $$;
