-- MicroGram state tables (docs/environments.md#microgram). The session adds `personas` and `session_meta`.
-- Every table carries the common columns (created_at, arrived_at, origin) that world.insert fills.

CREATE TABLE posts (
    id          TEXT PRIMARY KEY,           -- catalog id (gp0001…)
    author_id   TEXT NOT NULL,              -- persona id
    image_alt   TEXT NOT NULL,              -- the picture's description (web/static/microgram/<id>.svg)
    caption     TEXT NOT NULL DEFAULT '',
    location    TEXT NOT NULL DEFAULT '',
    like_count  INTEGER NOT NULL DEFAULT 0, -- includes the self user's like while liked = 1
    liked       INTEGER NOT NULL DEFAULT 0,
    saved       INTEGER NOT NULL DEFAULT 0,
    viewed      INTEGER NOT NULL DEFAULT 0, -- set by opening the post page
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX posts_order ON posts (created_at);

CREATE TABLE post_comments (
    id          TEXT PRIMARY KEY,           -- catalog id (gc0001…) or u-<n> for the self user's
    post_id     TEXT NOT NULL REFERENCES posts (id),
    author_id   TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX post_comments_post ON post_comments (post_id);

CREATE TABLE stories (
    id          TEXT PRIMARY KEY,           -- catalog id (gs001…)
    author_id   TEXT NOT NULL,
    image_alt   TEXT NOT NULL,
    viewed      INTEGER NOT NULL DEFAULT 0, -- set only by opening the story's own page
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE dm_threads (
    id              TEXT PRIMARY KEY,       -- gt01…
    counterpart_id  TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    arrived_at      REAL NOT NULL DEFAULT 0,
    origin          TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE dm_messages (
    id          TEXT PRIMARY KEY,           -- catalog id (gm001…) or u-<n> for sent messages
    thread_id   TEXT NOT NULL REFERENCES dm_threads (id),
    sender_id   TEXT NOT NULL,
    body        TEXT NOT NULL,
    is_read     INTEGER NOT NULL DEFAULT 0, -- set by opening the thread
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX dm_messages_thread ON dm_messages (thread_id, created_at);

CREATE TABLE activity (
    id          TEXT PRIMARY KEY,           -- catalog id (ga001…)
    kind        TEXT NOT NULL CHECK (kind IN ('like', 'follow', 'comment', 'mention')),
    actor_id    TEXT NOT NULL,
    post_id     TEXT,                       -- the self user's post it is about (NULL for follows)
    text        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE follows (                      -- accounts the self user follows
    persona_id  TEXT PRIMARY KEY,
    created_at  TEXT NOT NULL,              -- followed at
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
