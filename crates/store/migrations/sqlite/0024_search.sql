-- Name search through an index (SQLite flavour; keep in step with
-- ../postgres/0024_search.sql). `search_name` is the item's name as a search compares
-- it, folded to lower case by rentrack (`domain::name::folded`), so both databases
-- compare the same text; rows written before this migration are folded when the
-- migrations end (`engine::migrate`, `fold_names`). An FTS5 index of its trigrams,
-- kept by triggers in the writing transaction, finds the items holding a word of three
-- or more characters without reading the others; the search checks each candidate on
-- `search_name` itself (docs/api.md, "Search").
ALTER TABLE items ADD COLUMN search_name TEXT;

CREATE VIRTUAL TABLE items_search USING fts5(
    search_name,
    content = 'items',
    content_rowid = 'id',
    tokenize = 'trigram case_sensitive 1',
    columnsize = 0
);

CREATE TRIGGER items_search_insert AFTER INSERT ON items
WHEN new.search_name IS NOT NULL BEGIN
    INSERT INTO items_search (rowid, search_name) VALUES (new.id, new.search_name);
END;

CREATE TRIGGER items_search_delete AFTER DELETE ON items
WHEN old.search_name IS NOT NULL BEGIN
    INSERT INTO items_search (items_search, rowid, search_name)
    VALUES ('delete', old.id, old.search_name);
END;

CREATE TRIGGER items_search_update AFTER UPDATE OF search_name ON items
WHEN old.search_name IS NOT new.search_name BEGIN
    INSERT INTO items_search (items_search, rowid, search_name)
    SELECT 'delete', old.id, old.search_name WHERE old.search_name IS NOT NULL;
    INSERT INTO items_search (rowid, search_name)
    SELECT new.id, new.search_name WHERE new.search_name IS NOT NULL;
END;
