-- Outbound webhooks (issue 37): a company's endpoints, the outbox of events written in
-- the transaction of each change, and one delivery per event and subscribed endpoint.
-- SQLite flavour; keep in step with ../postgres/0021_webhooks.sql.

-- An endpoint: where to send, which event types (`*` or a comma list), the signing
-- secret (and the one it replaced, which signs too until `previous_secret_until`).
-- `failing_since` is the first failure of the current run of failures;
-- `disabled_reason` says why delivery stopped (410 Gone, five days of failures).
-- `leased_until`: an instance delivering to this endpoint holds it until then, so
-- instances sharing the database send its events one at a time, in order.
CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT,
    active BOOLEAN NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_until TIMESTAMP,
    failing_since TIMESTAMP,
    disabled_reason TEXT,
    leased_until TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id)
);
CREATE INDEX webhooks_active ON webhooks (company_id, active);

-- An event: what changed (`subject_type`, `subject_id`: the change log's subject; an
-- item's or order's number and an item's kind, to find its view), its type and the
-- details the change log kept; `body`, the JSON sent, is rendered at
-- the first attempt and then sent unchanged on every retry.
CREATE TABLE webhook_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    message_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id BIGINT NOT NULL,
    subject_number BIGINT,
    asset_type TEXT,
    details TEXT NOT NULL,
    body TEXT,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id)
);
CREATE INDEX webhook_events_created ON webhook_events (created_at);

-- An event's delivery to one endpoint. `next_attempt_at` is set while one is due (NULL
-- once delivered or given up); the worker takes due ones from `webhook_deliveries_due`.
CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    webhook_id BIGINT NOT NULL,
    event_id BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    next_attempt_at TIMESTAMP,
    last_status BIGINT,
    last_error TEXT,
    delivered_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, webhook_id) REFERENCES webhooks (company_id, id) ON DELETE CASCADE,
    FOREIGN KEY (company_id, event_id) REFERENCES webhook_events (company_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (company_id, webhook_id, id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (company_id, webhook_id, next_attempt_at);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TRIGGER webhooks_count_insert AFTER INSERT ON webhooks BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (NEW.company_id, 'webhooks', 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER webhooks_count_delete AFTER DELETE ON webhooks BEGIN
    INSERT INTO list_counts (company_id, list, n) VALUES (OLD.company_id, 'webhooks', -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
