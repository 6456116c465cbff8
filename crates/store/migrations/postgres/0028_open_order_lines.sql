-- The order lines still out or promised, by item (keep in step with
-- ../sqlite/0028_open_order_lines.sql). What holds an item (`availability::holds`)
-- reads its lines not all back, and for an item with units out also the lines of
-- rented-out orders whatever their end, which `order_line_items_held` could only find
-- by reading every line the item was ever booked on: a stock item rented on every
-- order read thousands of returned lines under its lock (6 ms at 44,000 lines, growing
-- with each order). Lines leave this index once all their units are back.
CREATE INDEX order_line_items_open ON order_line_items (company_id, item_id, held_until)
    WHERE held_from IS NOT NULL AND quantity_returned < quantity;
