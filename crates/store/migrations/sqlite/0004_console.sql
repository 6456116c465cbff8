-- The owner console: sessions, log-in throttling and daily API usage.
-- SQLite flavour; keep in step with ../postgres/0004_console.sql.

-- A signed-in owner. The cookie holds the token; only its SHA-256 is stored. The
-- CSRF token guards every form posted in the session.
CREATE TABLE sessions (
    token_hash TEXT NOT NULL PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    owner_id BIGINT NOT NULL,
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    FOREIGN KEY (owner_id) REFERENCES owners (id)
);
CREATE INDEX sessions_owner ON sessions (company_id, owner_id);

-- Failed log-ins per key (an account, or an address) in the current window.
CREATE TABLE login_attempts (
    throttle_key TEXT NOT NULL PRIMARY KEY,
    window_start BIGINT NOT NULL,
    failures BIGINT NOT NULL
);

-- API requests served per company and UTC day, added to in batches by every instance.
CREATE TABLE api_usage (
    company_id BIGINT NOT NULL REFERENCES companies (id),
    day TEXT NOT NULL,
    requests BIGINT NOT NULL,
    PRIMARY KEY (company_id, day)
);
