-- The name search's keys hold the company and a trigram together (PostgreSQL
-- flavour; keep in step with ../sqlite/0027_search_keys.sql). The index of 0026 keeps
-- the company as a key of its own, whose entry in a company of a million items lists
-- a million ids: every candidate of a search advanced through it (0.24 of a search
-- page's 0.45 ms). Here each key is the company and three characters of the folded
-- name, `2002:giz`, so no key holds more than one company's items and a search reads
-- only its words' keys in its own company.
--
-- `rentrack_search_keys(company, text)`: the keys of every three-character window of
-- `text` (none for a text shorter than three); the index is an expression index over
-- it, so the keys are not stored in the table, and GIN's `@>` on arrays is exact, so
-- reading the index does not evaluate it. Each insert, and each update that is not
-- HOT, does: it is one expression without a subquery, which PostgreSQL inlines into
-- the index's expression (about 5 us a name; a function with a subquery is planned
-- at every statement: 50 to 80 us). Three regular-expression passes, one for each
-- offset of the windows (the window at i belongs to the pass at i mod 3), write each
-- three characters with the company before them and chr(31) after (a name holds no
-- control character but tab, line feed and carriage return: the API refuses them).
CREATE FUNCTION rentrack_search_keys(company BIGINT, name TEXT) RETURNS TEXT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT array_remove(string_to_array(
        regexp_replace(left(name, length(name) / 3 * 3),
            '(...)', company::text || ':\1' || chr(31), 'g')
        || regexp_replace(left(substr(name, 2), (length(name) - 1) / 3 * 3),
            '(...)', company::text || ':\1' || chr(31), 'g')
        || regexp_replace(left(substr(name, 3), (length(name) - 2) / 3 * 3),
            '(...)', company::text || ':\1' || chr(31), 'g'),
        chr(31)), '')
$$;

-- The ids of the items whose keys hold every key of `keys` (separated by spaces, made
-- by rentrack as `rentrack_search_keys` makes them: `items::search_keys`), at most
-- `cap` of them (NULL: all): a name search's candidates, which the caller tests and
-- scopes. A PL/pgSQL function declared to return one row: the plan kept for every
-- company (`plan_cache_mode = force_generic_plan`) cannot know how many match, and
-- guessing 0.5% of the table, as it does for `@>`, it walked a company of a million
-- (150 ms) rather than look up 25 candidates (0.1 ms). A search matching many is not
-- read this way (`items::name_search`).
CREATE FUNCTION rentrack_item_candidates(keys TEXT, cap BIGINT) RETURNS SETOF BIGINT
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 1 AS $$
BEGIN
    RETURN QUERY
    SELECT items.id FROM items
    WHERE rentrack_search_keys(items.company_id, items.search_name) @> string_to_array(keys, ' ')
    LIMIT cap;
END
$$;

DROP INDEX items_search;
CREATE INDEX items_search ON items USING gin (rentrack_search_keys(company_id, search_name));
