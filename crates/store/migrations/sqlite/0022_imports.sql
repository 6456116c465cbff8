-- CSV imports (issue 38): one row per import, its state and outcome. The file itself
-- is not kept: the instance that received it reads it once, and the rows it names are
-- written in one transaction (or none at all). SQLite flavour; keep in step with
-- ../postgres/0022_imports.sql.
--
-- `state`: queued, running, done, failed. `errors`: a JSON list of the first bad rows
-- ({row, column, value, message}); `errors_total` counts them all. `heartbeat_at`: the
-- running instance's last sign of life; an import whose instance stopped is failed by
-- the next one to start.
CREATE TABLE imports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    kind TEXT NOT NULL,
    dry_run BOOLEAN NOT NULL,
    state TEXT NOT NULL,
    file_name TEXT,
    rows_total BIGINT NOT NULL,
    rows_done BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    errors TEXT NOT NULL,
    errors_total BIGINT NOT NULL,
    message TEXT,
    heartbeat_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id)
);
CREATE INDEX imports_unfinished ON imports (state, heartbeat_at);

CREATE TRIGGER imports_count_insert AFTER INSERT ON imports BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'imports', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER imports_count_delete AFTER DELETE ON imports BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'imports', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- An import names a parent location by its name.
CREATE INDEX locations_name ON locations (company_id, name);
