-- Labels: print templates (a page grid of equal labels, lengths in tenths of a
-- millimetre) and label prints (the labels a request asked for, served as a PDF at a
-- link that works without a token until it expires). SQLite flavour; keep in step
-- with ../postgres/0016_labels.sql.
CREATE TABLE print_label_templates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    description TEXT NOT NULL,
    template_type TEXT NOT NULL CHECK (template_type IN ('asset', 'member', 'location')),
    page_width INTEGER NOT NULL CHECK (page_width > 0),
    page_height INTEGER NOT NULL CHECK (page_height > 0),
    label_width INTEGER NOT NULL CHECK (label_width > 0),
    label_height INTEGER NOT NULL CHECK (label_height > 0),
    columns INTEGER NOT NULL CHECK (columns > 0),
    rows INTEGER NOT NULL CHECK (rows > 0),
    margin_left INTEGER NOT NULL CHECK (margin_left >= 0),
    margin_top INTEGER NOT NULL CHECK (margin_top >= 0),
    gap_x INTEGER NOT NULL CHECK (gap_x >= 0),
    gap_y INTEGER NOT NULL CHECK (gap_y >= 0),
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id)
);
CREATE INDEX print_label_templates_type ON print_label_templates (company_id, template_type, id);
-- One default a type.
CREATE UNIQUE INDEX print_label_templates_default ON print_label_templates (company_id, template_type)
    WHERE is_default;

-- The list counts by type: 'print_label_templates:<type>'.
CREATE TRIGGER print_label_templates_count_insert AFTER INSERT ON print_label_templates BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (NEW.company_id, 'print_label_templates:' || NEW.template_type, 1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER print_label_templates_count_delete AFTER DELETE ON print_label_templates BEGIN
    INSERT INTO list_counts (company_id, list, n)
    VALUES (OLD.company_id, 'print_label_templates:' || OLD.template_type, -1)
    ON CONFLICT (company_id, list) DO UPDATE SET n = n + excluded.n;
END;

-- A print's link carries a random token; only its SHA-256 is kept. `labels` is the
-- JSON of what each label shows, fixed when the print was asked for.
CREATE TABLE label_prints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    token_hash TEXT NOT NULL UNIQUE,
    template_id BIGINT NOT NULL,
    label_count INTEGER NOT NULL CHECK (label_count > 0),
    labels TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    FOREIGN KEY (company_id, template_id) REFERENCES print_label_templates (company_id, id)
);
CREATE INDEX label_prints_expiry ON label_prints (company_id, expires_at);

-- Every company has the standard templates (new companies get them in
-- store::companies::create): for each type a 62 x 29 mm roll label (the default), a
-- 4 x 6 inch shipping label, a US Letter sheet of 30 and an A4 sheet of 24.
INSERT INTO print_label_templates (company_id, description, template_type, page_width,
    page_height, label_width, label_height, columns, rows, margin_left, margin_top, gap_x,
    gap_y, is_default, created_at, updated_at)
SELECT c.id, s.description, t.template_type, s.page_width, s.page_height, s.label_width,
    s.label_height, s.columns, s.rows, s.margin_left, s.margin_top, s.gap_x, s.gap_y,
    s.is_default, c.created_at, c.created_at
FROM companies c
CROSS JOIN (SELECT 1 AS p, 'asset' AS template_type UNION ALL SELECT 2, 'member'
    UNION ALL SELECT 3, 'location') t
CROSS JOIN (
    SELECT 1 AS position, '62 x 29 mm roll label' AS description, 620 AS page_width,
        290 AS page_height, 620 AS label_width, 290 AS label_height, 1 AS columns,
        1 AS rows, 0 AS margin_left, 0 AS margin_top, 0 AS gap_x, 0 AS gap_y,
        TRUE AS is_default
    UNION ALL SELECT 2, '4 x 6 in shipping label', 1016, 1524, 1016, 1524, 1, 1, 0, 0, 0, 0, FALSE
    UNION ALL SELECT 3, 'US Letter sheet of 30 (1 x 2 5/8 in)', 2159, 2794, 667, 254, 3, 10, 48, 127, 31, 0, FALSE
    UNION ALL SELECT 4, 'A4 sheet of 24 (70 x 37 mm)', 2100, 2970, 700, 370, 3, 8, 0, 5, 0, 0, FALSE
) s
ORDER BY c.id, t.p, s.position;
