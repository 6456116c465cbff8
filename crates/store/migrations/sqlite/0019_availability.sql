-- One availability (issue 34): every promise of an item reads the item's approved
-- reservations that have not ended before its period, so they are found by item and
-- end day without the item's past ones. SQLite flavour; keep in step with
-- ../postgres/0019_availability.sql.
CREATE INDEX reservation_requests_approved ON reservation_requests (company_id, item_id, to_on) WHERE status = 'approved';
