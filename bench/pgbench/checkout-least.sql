-- The least a check-out cycle writes on PostgreSQL, a statement a round trip: the
-- asset locked, changed, its check-out row written and closed, a history entry each
-- way. Variables (bench/run-ceiling.sh): company, member, first (the first asset's id;
-- the client's is first + client_id). Each run is two half-cycles; run-ceiling.sh
-- repeats the statements between "-- out" or "-- in" and "-- end" for its grouped run.
\set i :first + :client_id
BEGIN;
-- out
SELECT id, state FROM items WHERE company_id = :company AND id = :i FOR NO KEY UPDATE;
UPDATE items SET updated_at = now(), state = 'checked_out', assigned_to_id = :member, checkout_on = now() WHERE company_id = :company AND id = :i AND state = 'available';
INSERT INTO asset_checkouts (company_id, item_id, member_id, checkout_on, checkout_values, created_at, updated_at) VALUES (:company, :i, :member, now(), '{}', now(), now());
INSERT INTO change_log (company_id, subject_type, subject_id, action, details, created_at) VALUES (:company, 'item', :i, 'checked_out', repeat('x', 250), now());
-- end
COMMIT;
BEGIN;
-- in
SELECT id, state FROM items WHERE company_id = :company AND id = :i FOR NO KEY UPDATE;
UPDATE items SET updated_at = now(), state = 'available', assigned_to_id = NULL, checkout_on = NULL, checkin_due_on = NULL WHERE company_id = :company AND id = :i;
UPDATE asset_checkouts SET checkin_on = now(), updated_at = now() WHERE company_id = :company AND item_id = :i AND checkin_on IS NULL;
INSERT INTO change_log (company_id, subject_type, subject_id, action, details, created_at) VALUES (:company, 'item', :i, 'checked_in', repeat('x', 120), now());
-- end
COMMIT;
