-- The shard column of ../postgres/0025_counts_at_commit.sql, always 0 here: one
-- transaction writes at a time, so a counter's row is never waited for, and the
-- triggers of SQLite are left as they are.
ALTER TABLE list_counts ADD COLUMN shard BIGINT NOT NULL DEFAULT 0;
