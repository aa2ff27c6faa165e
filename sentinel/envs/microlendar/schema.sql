-- MicroLendar state tables (docs/environments.md#microlendar). The session adds `personas` and `session_meta`
-- (whose `today` row holds the calendar's current date). Times are local calendar times written
-- 'YYYY-MM-DDTHH:MM' so date(start_at) and string comparison both work.

CREATE TABLE events (
    id           TEXT PRIMARY KEY,             -- catalog id (ev0001…) or u-<n> for the agent's own
    title        TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    location     TEXT NOT NULL DEFAULT '',
    category     TEXT NOT NULL CHECK (category IN ('work', 'personal', 'family')),
    start_at     TEXT NOT NULL,
    end_at       TEXT NOT NULL,
    all_day      INTEGER NOT NULL DEFAULT 0,
    organizer_id TEXT,                         -- persona id; NULL or the self id for own events
    deleted      INTEGER NOT NULL DEFAULT 0,   -- deleted by the agent, or withdrawn by its organizer
    viewed       INTEGER NOT NULL DEFAULT 0,   -- the detail page was opened
    created_at   TEXT NOT NULL,
    arrived_at   REAL NOT NULL DEFAULT 0,
    origin       TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX events_start ON events (start_at);

CREATE TABLE event_attendees (
    event_id   TEXT NOT NULL REFERENCES events (id),
    persona_id TEXT NOT NULL,
    response   TEXT NOT NULL DEFAULT 'pending' CHECK (response IN ('pending', 'yes', 'maybe', 'no')),
    PRIMARY KEY (event_id, persona_id)
);

CREATE TABLE tasks (
    id         TEXT PRIMARY KEY,               -- catalog id (td0001…) or u-<n>
    title      TEXT NOT NULL,
    notes      TEXT NOT NULL DEFAULT '',
    due_date   TEXT,                           -- 'YYYY-MM-DD' or NULL
    completed  INTEGER NOT NULL DEFAULT 0,
    deleted    INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
