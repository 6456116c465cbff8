-- A label print's PDF, rendered once (at the link's first GET) and kept for the
-- link's life, so every later GET, on any instance, answers these bytes without
-- rendering again. PostgreSQL flavour; keep in step with ../sqlite/0020_label_pdfs.sql.
ALTER TABLE label_prints ADD COLUMN pdf BYTEA;
