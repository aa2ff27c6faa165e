-- MicroChat state tables (docs/environments.md#microchat). The session adds `personas` and `session_meta`.
-- Unread counts are never stored: pages and grading count `messages.is_read = 0` rows.

CREATE TABLE teams (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE team_members (
    team_id    TEXT NOT NULL REFERENCES teams (id),
    persona_id TEXT NOT NULL,
    PRIMARY KEY (team_id, persona_id)
);

CREATE TABLE conversations (
    id             TEXT PRIMARY KEY,          -- catalog id (cv001…) or u-<n> for a chat the agent started
    kind           TEXT NOT NULL CHECK (kind IN ('direct', 'group', 'meeting', 'channel')),
    title          TEXT NOT NULL DEFAULT '',  -- empty for a direct chat: it shows the other person's name
    team_id        TEXT REFERENCES teams (id),
    counterpart_id TEXT,                      -- the other person of a direct chat
    topic          TEXT NOT NULL DEFAULT '',
    is_pinned      INTEGER NOT NULL DEFAULT 0, -- favourite
    is_muted       INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT NOT NULL,
    arrived_at     REAL NOT NULL DEFAULT 0,
    origin         TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE conversation_members (
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    persona_id      TEXT NOT NULL,
    PRIMARY KEY (conversation_id, persona_id)
);

CREATE TABLE messages (
    id              TEXT PRIMARY KEY,          -- catalog id (ms0001…) or u-<n> for the agent's own
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    sender_id       TEXT NOT NULL,
    body            TEXT NOT NULL DEFAULT '',
    is_urgent       INTEGER NOT NULL DEFAULT 0,
    mentions_me     INTEGER NOT NULL DEFAULT 0, -- the body @mentions the self user
    has_attachment  INTEGER NOT NULL DEFAULT 0,
    attachment_name TEXT,
    attachment_size INTEGER,
    reply_to_id     TEXT,
    is_read         INTEGER NOT NULL DEFAULT 0,
    is_deleted      INTEGER NOT NULL DEFAULT 0, -- the sender deleted it: a tombstone stays in the thread
    created_at      TEXT NOT NULL,
    arrived_at      REAL NOT NULL DEFAULT 0,
    origin          TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX messages_conversation ON messages (conversation_id, created_at);
CREATE INDEX messages_unread ON messages (is_read, conversation_id);

CREATE TABLE reactions (
    message_id TEXT NOT NULL REFERENCES messages (id),
    emoji      TEXT NOT NULL,
    persona_id TEXT NOT NULL,
    PRIMARY KEY (message_id, emoji, persona_id)
);

CREATE TABLE calls (
    id          TEXT PRIMARY KEY,
    persona_id  TEXT NOT NULL,                -- the other person (the organiser of a group call)
    direction   TEXT NOT NULL CHECK (direction IN ('incoming', 'outgoing', 'group')),
    missed      INTEGER NOT NULL DEFAULT 0,
    duration_s  INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
