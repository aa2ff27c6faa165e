-- MicroScholar state tables (docs/environments.md#microscholar). The session adds `personas` and `session_meta`.
-- `authors` is the display text ("Renée Jackson, Greta Lund"); paper_authors links personas.

CREATE TABLE papers (
    id             TEXT PRIMARY KEY,          -- catalog id (sp0001…)
    title          TEXT NOT NULL,
    authors        TEXT NOT NULL,
    venue          TEXT NOT NULL DEFAULT '',
    year           INTEGER NOT NULL,
    abstract       TEXT NOT NULL DEFAULT '',
    cited_by_count INTEGER NOT NULL DEFAULT 0, -- changes over the timeline (citations events)
    versions       INTEGER NOT NULL DEFAULT 1,
    is_book        INTEGER NOT NULL DEFAULT 0,
    saved          INTEGER NOT NULL DEFAULT 0,
    saved_at       REAL,                      -- sim time of the last save (0 for the preload's); NULL if never saved
    cited          INTEGER NOT NULL DEFAULT 0, -- the self user asked for its citation (Cite POST)
    withdrawn      INTEGER NOT NULL DEFAULT 0, -- withdrawn by its authors: out of search, cannot be saved or cited
    created_at     TEXT NOT NULL,
    arrived_at     REAL NOT NULL DEFAULT 0,
    origin         TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);
CREATE INDEX papers_created ON papers (created_at);

CREATE TABLE paper_authors (
    paper_id   TEXT NOT NULL REFERENCES papers (id),
    persona_id TEXT NOT NULL,
    position   INTEGER NOT NULL,               -- 1 = first author
    PRIMARY KEY (paper_id, persona_id)
);

CREATE TABLE alerts (
    id           TEXT PRIMARY KEY,             -- catalog id (al001…)
    kind         TEXT NOT NULL CHECK (kind IN ('citation', 'new_paper', 'keyword')),
    title        TEXT NOT NULL,
    description  TEXT NOT NULL,
    paper_id     TEXT,
    is_read      INTEGER NOT NULL DEFAULT 0,
    arrived_read INTEGER NOT NULL DEFAULT 0,    -- it came in already read (trailing near misses)
    created_at   TEXT NOT NULL,
    arrived_at   REAL NOT NULL DEFAULT 0,
    origin       TEXT NOT NULL CHECK (origin IN ('preload', 'event', 'self'))
);

-- Alerts the self user creates: a query; its page lists the indexed papers that match it.
CREATE TABLE alert_queries (
    id         TEXT PRIMARY KEY,               -- u-<n>
    query      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    arrived_at REAL NOT NULL DEFAULT 0,
    origin     TEXT NOT NULL DEFAULT 'self'
);

CREATE VIEW coauthors AS
    SELECT a.persona_id AS persona_a, b.persona_id AS persona_b, COUNT(*) AS shared_count
    FROM paper_authors a JOIN paper_authors b ON a.paper_id = b.paper_id AND a.persona_id != b.persona_id
    GROUP BY a.persona_id, b.persona_id;
