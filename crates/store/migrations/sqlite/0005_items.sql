-- Items (fixed assets, inventory, asset stock), as far as the catalog rules need them:
-- a group or subgroup that items belong to cannot be deleted. The assets issue builds
-- the rest on this table. SQLite flavour; keep in step with ../postgres/0005_items.sql.
CREATE TABLE items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    sequence_num BIGINT NOT NULL,
    asset_type TEXT NOT NULL CHECK (asset_type IN ('FixedAsset', 'VolatileAsset', 'StockAsset')),
    name TEXT NOT NULL,
    group_id BIGINT NOT NULL,
    sub_group_id BIGINT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (company_id, id),
    UNIQUE (company_id, sequence_num),
    FOREIGN KEY (company_id, group_id) REFERENCES asset_groups (company_id, id),
    FOREIGN KEY (company_id, sub_group_id) REFERENCES sub_groups (company_id, id)
);
CREATE INDEX items_group ON items (company_id, group_id);
CREATE INDEX items_sub_group ON items (company_id, sub_group_id);
