-- MicroMail state tables (docs/environments.md#micromail). The session adds `personas` and `session_meta`.
-- Address lists are stored as text, addresses joined by ", " (grading SQL can use LIKE).

CREATE TABLE emails (
    id             TEXT PRIMARY KEY,          -- catalog id (em0001…) or u-<n> for the agent's own mail
    folder         TEXT NOT NULL CHECK (folder IN ('inbox', 'drafts', 'sent', 'archive', 'junk', 'trash')),
    sender_id      TEXT,                      -- persona id; NULL for outsiders
    sender_name    TEXT NOT NULL,
    sender_email   TEXT NOT NULL,
    to_list        TEXT NOT NULL DEFAULT '',
    cc_list        TEXT NOT NULL DEFAULT '',
    bcc_list       TEXT NOT NULL DEFAULT '',
    cc_me          INTEGER NOT NULL DEFAULT 0, -- the self user's address is on Cc
    subject        TEXT NOT NULL DEFAULT '',
    body           TEXT NOT NULL DEFAULT '',
    importance     TEXT NOT NULL DEFAULT 'normal' CHECK (importance IN ('high', 'normal', 'low')),
    is_external    INTEGER NOT NULL DEFAULT 0, -- outsider, or a sender outside the organisation's domain
    mentions_me    INTEGER NOT NULL DEFAULT 0, -- the body @mentions the self user
    has_attachment INTEGER NOT NULL DEFAULT 0,
    is_read        INTEGER NOT NULL DEFAULT 0,
    is_flagged     INTEGER NOT NULL DEFAULT 0,
    is_pinned      INTEGER NOT NULL DEFAULT 0,
    ref_mode       TEXT,                      -- reply | reply_all | forward (agent-written mail)
    ref_id         TEXT,                      -- the message replied to or forwarded
    created_at     TEXT NOT NULL,
    arrived_at     REAL NOT NULL DEFAULT 0,
    origin         TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX emails_folder ON emails (folder, is_pinned, created_at);
-- Every page's folder counters (queries.mailbox_counts) read this index alone, not the table.
CREATE INDEX emails_counts ON emails (folder, is_read, is_flagged, mentions_me);

CREATE TABLE attachments (
    id          TEXT PRIMARY KEY,             -- catalog id (f001…) or u-<n> for forwarded copies
    email_id    TEXT NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
    file_name   TEXT NOT NULL,
    size_bytes  INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX attachments_email ON attachments (email_id);
