-- The name search's index holds the company (PostgreSQL flavour; keep in step with
-- ../sqlite/0026_search_by_company.sql). rentrack's statements are planned once per
-- connection for every company (`plan_cache_mode = force_generic_plan`), and the plan
-- of a search's candidates, `company_id = $1 AND search_name LIKE $2`, cannot know
-- which company is a large one: with the trigrams alone in the index it ANDed them
-- with every entry of the company's own index (a million for a company of a million
-- items). A GIN index of the company and the trigrams (btree_gin's operator class for
-- the company, a trusted extension like pg_trgm) finds the company's matches alone.
-- The extensions' schemas as in 0024_search.sql.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;
EXCEPTION WHEN unique_violation OR duplicate_object THEN
    NULL;
END
$$;

DROP INDEX items_search;

DO $$
DECLARE
    trgm TEXT;
    gin TEXT;
BEGIN
    SELECT n.nspname INTO trgm
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
    SELECT n.nspname INTO gin
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'btree_gin';
    EXECUTE format(
        'CREATE INDEX items_search ON items USING gin (company_id %I.int8_ops, search_name %I.gin_trgm_ops)',
        gin, trgm
    );
END
$$;
