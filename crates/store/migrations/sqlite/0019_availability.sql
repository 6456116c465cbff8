-- One availability (issue 34): every promise of an item reads the item's approved
-- reservations that have not ended before its period, so they are found by item,
-- status and last day without the item's past ones. Not a partial index on the
-- status: SQLite compiles a statement again on every run when a bound value decides
-- whether a partial index applies. SQLite flavour; keep in step with
-- ../postgres/0019_availability.sql.
CREATE INDEX reservation_requests_item_end ON reservation_requests (company_id, item_id, status, to_on);
