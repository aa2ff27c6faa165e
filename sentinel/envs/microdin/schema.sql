-- MicroDin state tables (docs/environments.md#microdin). The session adds `personas` and `session_meta`.
-- Every item table carries id, created_at, arrived_at and origin (docs/environments.md#grading-tables).

CREATE TABLE companies (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    industry   TEXT NOT NULL DEFAULT '',
    size       TEXT NOT NULL DEFAULT '',
    location   TEXT NOT NULL DEFAULT '',
    about      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

-- One profile per persona: the professional details the shared personas table lacks.
CREATE TABLE members (
    id         TEXT PRIMARY KEY,               -- persona id
    headline   TEXT NOT NULL,
    company_id TEXT,
    connected  INTEGER NOT NULL DEFAULT 0,     -- a connection of the self user
    about      TEXT NOT NULL DEFAULT '',
    experience TEXT NOT NULL DEFAULT '',       -- newline-separated "title · company · years"
    education  TEXT NOT NULL DEFAULT '',
    skills     TEXT NOT NULL DEFAULT '',       -- newline-separated
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE posts (
    id            TEXT PRIMARY KEY,            -- catalog id, or u-<n> for the self user's posts
    author_id     TEXT NOT NULL,
    body          TEXT NOT NULL,
    image         TEXT,                        -- file under /static/microdin/
    image_alt     TEXT,
    like_count    INTEGER NOT NULL DEFAULT 0,
    comment_count INTEGER NOT NULL DEFAULT 0,
    share_count   INTEGER NOT NULL DEFAULT 0,
    liked         INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    arrived_at    REAL NOT NULL DEFAULT 0,
    origin        TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX posts_order ON posts (created_at);

CREATE TABLE post_comments (
    id         TEXT PRIMARY KEY,
    post_id    TEXT NOT NULL REFERENCES posts (id),
    author_id  TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX comments_post ON post_comments (post_id, created_at);

CREATE TABLE invitations (
    id           TEXT PRIMARY KEY,
    persona_id   TEXT NOT NULL,
    mutual_count INTEGER NOT NULL DEFAULT 0,
    note         TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'ignored')),
    created_at   TEXT NOT NULL,
    arrived_at   REAL NOT NULL DEFAULT 0,
    origin       TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE conversations (
    id             TEXT PRIMARY KEY,
    counterpart_id TEXT NOT NULL UNIQUE,
    created_at     TEXT NOT NULL,
    arrived_at     REAL NOT NULL DEFAULT 0,
    origin         TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    sender_id       TEXT NOT NULL,
    body            TEXT NOT NULL,
    is_read         INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    arrived_at      REAL NOT NULL DEFAULT 0,
    origin          TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX messages_conversation ON messages (conversation_id, created_at);

CREATE TABLE notifications (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('like', 'comment', 'connection', 'mention', 'job',
                                             'profile_view', 'message')),
    actor_id   TEXT NOT NULL,
    text       TEXT NOT NULL,
    post_id    TEXT,
    job_id     TEXT,
    is_read    INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE jobs (
    id              TEXT PRIMARY KEY,
    title           TEXT NOT NULL,
    company_id      TEXT NOT NULL,
    location        TEXT NOT NULL DEFAULT '',
    employment_type TEXT NOT NULL DEFAULT 'Full-time',
    description     TEXT NOT NULL DEFAULT '',
    requirements    TEXT NOT NULL DEFAULT '',      -- newline-separated; shown on the detail page only
    applicant_count INTEGER NOT NULL DEFAULT 0,
    applied         INTEGER NOT NULL DEFAULT 0,
    applied_at      TEXT,
    closed          INTEGER NOT NULL DEFAULT 0,    -- no longer accepting applications
    created_at      TEXT NOT NULL,
    arrived_at      REAL NOT NULL DEFAULT 0,
    origin          TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

-- What the self user submitted with each application (the Easy Apply form).
CREATE TABLE applications (
    id         TEXT PRIMARY KEY,                   -- u-<n>
    job_id     TEXT NOT NULL UNIQUE REFERENCES jobs (id),
    email      TEXT NOT NULL,
    phone      TEXT NOT NULL,
    resume     TEXT NOT NULL,
    note       TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE profile_sections (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    title      TEXT NOT NULL,
    subtitle   TEXT NOT NULL DEFAULT '',
    body       TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
