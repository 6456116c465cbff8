-- Staff pages (keep in step with ../sqlite/0029_staff.sql): a member's own password,
-- set through an invitation link the owner makes in the console, the open invitations
-- (one per member, only the SHA-256 of the link's token stored) and the members'
-- sessions, whose CSRF token guards every change they post.
ALTER TABLE members ADD COLUMN password_hash TEXT;

CREATE TABLE staff_invitations (
    token_hash TEXT NOT NULL PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    member_id BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    UNIQUE (company_id, member_id),
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id)
);
CREATE INDEX staff_invitations_expires ON staff_invitations (expires_at);

CREATE TABLE staff_sessions (
    token_hash TEXT NOT NULL PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    member_id BIGINT NOT NULL,
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    FOREIGN KEY (company_id, member_id) REFERENCES members (company_id, id)
);
CREATE INDEX staff_sessions_member ON staff_sessions (company_id, member_id);
CREATE INDEX staff_sessions_expires ON staff_sessions (expires_at);
