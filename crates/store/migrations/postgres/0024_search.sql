-- Name search through an index (PostgreSQL flavour; keep in step with
-- ../sqlite/0024_search.sql). `search_name` is the item's name as a search compares
-- it, folded to lower case by rentrack (`domain::name::folded`), so both databases
-- compare the same text whatever the database's collation; rows written before this
-- migration are folded when the migrations end (`engine::migrate`, `fold_names`). A
-- GIN index of its trigrams (pg_trgm, a trusted extension: the database's owner may
-- create it) serves `search_name LIKE '%word%'` without reading the other items.
--
-- The extension goes to `public` unless the database has it already: a schema that
-- is dropped with its objects would take it, and every index using it, along. Two
-- databases' schemas migrated at once may both create it: the second finds it made.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
EXCEPTION WHEN unique_violation OR duplicate_object THEN
    NULL;
END
$$;

ALTER TABLE items ADD COLUMN search_name TEXT;

DO $$
DECLARE
    home TEXT;
BEGIN
    SELECT n.nspname INTO home
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
    EXECUTE format(
        'CREATE INDEX items_search ON items USING gin (search_name %I.gin_trgm_ops)',
        home
    );
END
$$;
