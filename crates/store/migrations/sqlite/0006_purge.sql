-- Expired sessions and stale log-in throttle rows are purged every few minutes;
-- these indexes keep the purge from scanning the tables.
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX login_attempts_window ON login_attempts (window_start);
