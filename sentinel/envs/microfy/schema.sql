-- MicroFy state tables (docs/environments.md#microfy). The session adds `personas` and `session_meta`.
-- Every item table carries the common columns (id, arrived_at, created_at, origin) (docs/environments.md#grading-tables).

CREATE TABLE artists (
    id                TEXT PRIMARY KEY,           -- catalog id (art001…)
    name              TEXT NOT NULL,
    genre             TEXT NOT NULL,              -- one of the eight broad genres the moods use
    style             TEXT NOT NULL DEFAULT '',   -- the finer genre shown on the artist page
    origin_city       TEXT NOT NULL DEFAULT '',
    monthly_listeners INTEGER NOT NULL DEFAULT 0,
    followed          INTEGER NOT NULL DEFAULT 0,
    created_at        TEXT NOT NULL,
    arrived_at        REAL NOT NULL DEFAULT 0,
    origin            TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE moods (
    id         TEXT PRIMARY KEY,                  -- md01…
    name       TEXT NOT NULL,
    genres     TEXT NOT NULL,                     -- broad genres joined by ", "
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE tracks (
    id             TEXT PRIMARY KEY,              -- trk0001…
    title          TEXT NOT NULL,
    artist_id      TEXT NOT NULL,
    album_id       TEXT NOT NULL,                 -- names the cover art and nothing else
    album          TEXT NOT NULL,
    duration_s     INTEGER NOT NULL,
    genre          TEXT NOT NULL,
    lyrics         TEXT NOT NULL DEFAULT '',      -- shown on the track page only (hidden detail)
    global_plays   INTEGER NOT NULL DEFAULT 0,
    is_new_release INTEGER NOT NULL DEFAULT 0,
    liked          INTEGER NOT NULL DEFAULT 0,
    my_play_count  INTEGER NOT NULL DEFAULT 0,    -- explicit Play presses only
    last_played_at REAL,                          -- sim time of the last Play: the "Now playing" strip
    created_at     TEXT NOT NULL,
    arrived_at     REAL NOT NULL DEFAULT 0,
    origin         TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX tracks_artist ON tracks (artist_id);

CREATE TABLE playlists (
    id             TEXT PRIMARY KEY,              -- pl001… or u-<n> for the user's own
    name           TEXT NOT NULL,
    description    TEXT NOT NULL DEFAULT '',
    owner_id       TEXT NOT NULL,                 -- persona id
    is_mine        INTEGER NOT NULL DEFAULT 0,
    follower_count INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT NOT NULL,
    arrived_at     REAL NOT NULL DEFAULT 0,
    origin         TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

CREATE TABLE playlist_tracks (
    playlist_id TEXT NOT NULL,
    track_id    TEXT NOT NULL,
    position    INTEGER NOT NULL,
    PRIMARY KEY (playlist_id, track_id)
);
