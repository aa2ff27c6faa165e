-- MicroTube state tables (docs/environments.md#microtube). The session adds `personas` and `session_meta`.
-- Times: created_at (ISO) is when an item appeared; watched_at / last_watched_at are ISO times of
-- the self user's first and latest visit of a watch page (NULL: never watched).

CREATE TABLE channels (
    id               TEXT PRIMARY KEY,          -- catalog id (chn01…)
    name             TEXT NOT NULL,
    handle           TEXT NOT NULL,
    topic            TEXT NOT NULL,             -- science, gaming, film, cooking, …
    description      TEXT NOT NULL DEFAULT '',
    subscriber_count INTEGER NOT NULL DEFAULT 0,
    is_verified      INTEGER NOT NULL DEFAULT 0,
    is_self          INTEGER NOT NULL DEFAULT 0, -- the self user's own channel
    subscribed       INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    arrived_at       REAL NOT NULL DEFAULT 0,
    origin           TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE videos (
    id              TEXT PRIMARY KEY,           -- catalog id (vid001…)
    channel_id      TEXT NOT NULL REFERENCES channels (id),
    title           TEXT NOT NULL,
    description     TEXT NOT NULL DEFAULT '',
    category        TEXT NOT NULL,
    duration_s      INTEGER NOT NULL DEFAULT 0,
    view_count      INTEGER NOT NULL DEFAULT 0,
    like_count      INTEGER NOT NULL DEFAULT 0,
    is_live         INTEGER NOT NULL DEFAULT 0,
    is_short        INTEGER NOT NULL DEFAULT 0,
    liked           INTEGER NOT NULL DEFAULT 0,
    disliked        INTEGER NOT NULL DEFAULT 0,
    saved           INTEGER NOT NULL DEFAULT 0,  -- Watch later
    watched_at      TEXT,                        -- first watch
    last_watched_at TEXT,                        -- latest watch (history order)
    created_at      TEXT NOT NULL,
    arrived_at      REAL NOT NULL DEFAULT 0,
    origin          TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX videos_created ON videos (created_at);
CREATE INDEX videos_channel ON videos (channel_id, created_at);

CREATE TABLE video_comments (
    id          TEXT PRIMARY KEY,               -- catalog id (cm0001…) or u-<n> for the self user's
    video_id    TEXT NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
    author_id   TEXT NOT NULL,                  -- persona id
    body        TEXT NOT NULL,
    like_count  INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX video_comments_video ON video_comments (video_id, created_at);

CREATE TABLE notifications (
    id          TEXT PRIMARY KEY,               -- catalog id (ntf001…)
    kind        TEXT NOT NULL,                  -- upload | live | reply | recommended | community
    channel_id  TEXT NOT NULL REFERENCES channels (id),
    video_id    TEXT,                           -- the video it opens (NULL: the channel)
    message     TEXT NOT NULL,
    is_read     INTEGER NOT NULL DEFAULT 0,
    dismissed   INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE playlists (
    id          TEXT PRIMARY KEY,               -- u-<n>: playlists are the self user's
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    arrived_at  REAL NOT NULL DEFAULT 0,
    origin      TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE playlist_videos (
    playlist_id TEXT NOT NULL REFERENCES playlists (id) ON DELETE CASCADE,
    video_id    TEXT NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    PRIMARY KEY (playlist_id, video_id)
);
