-- MicroHub: code hosting for one repository (docs/environments.md#microhub). The star count is never stored
-- as a live value: pages interpolate it from star_waypoints at the current sim time. Item tables
-- carry the common columns (docs/environments.md#grading-tables: arrived_at sim seconds, created_at ISO, origin).

CREATE TABLE repo (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  visibility TEXT NOT NULL DEFAULT 'public',
  default_branch TEXT NOT NULL,
  license TEXT NOT NULL,
  homepage TEXT,
  topics_json TEXT NOT NULL,        -- ["typescript", ...]
  languages_json TEXT NOT NULL,     -- [["TypeScript", 78.4], ...]
  traffic_json TEXT NOT NULL,
  deployments_json TEXT NOT NULL,   -- [[environment, status, when], ...]
  packages_json TEXT NOT NULL,      -- [[name, version], ...]
  branches INTEGER NOT NULL,
  tags INTEGER NOT NULL,
  initial_stars INTEGER NOT NULL,   -- the count at sim 0, before any waypoint
  forks INTEGER NOT NULL,           -- others' forks (the self fork adds one)
  watchers INTEGER NOT NULL,        -- others watching (watching adds one)
  starred_by_me INTEGER NOT NULL DEFAULT 0,
  watching INTEGER NOT NULL DEFAULT 0,
  forked INTEGER NOT NULL DEFAULT 0,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

-- [t, stars] points in sim seconds (the clock scales them). seq keeps insertion order.
CREATE TABLE star_waypoints (
  seq INTEGER PRIMARY KEY,
  t REAL NOT NULL,
  stars REAL NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

-- Derived: written by finalize() for the frozen moment (grading time); one row.
CREATE TABLE repo_stats (
  stars INTEGER NOT NULL,           -- rounded down, + 1 while starred_by_me
  forks INTEGER NOT NULL,
  watchers INTEGER NOT NULL,
  starred_by_me INTEGER NOT NULL,
  watching INTEGER NOT NULL,
  forked INTEGER NOT NULL
);

CREATE TABLE files (
  id TEXT PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  parent_path TEXT NOT NULL,        -- '' for the root
  kind TEXT NOT NULL CHECK (kind IN ('dir', 'file')),
  size INTEGER NOT NULL,
  language TEXT NOT NULL,
  content TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

CREATE TABLE commits (
  id TEXT PRIMARY KEY,
  sha TEXT NOT NULL UNIQUE,
  message TEXT NOT NULL,
  author_id TEXT NOT NULL REFERENCES personas(id),
  additions INTEGER NOT NULL,
  deletions INTEGER NOT NULL,
  files_json TEXT NOT NULL,         -- changed paths
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

CREATE TABLE labels (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

-- Issues and pull requests share one number sequence, assigned on arrival.
CREATE TABLE issues (
  id TEXT PRIMARY KEY,
  number INTEGER NOT NULL UNIQUE,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
  locked INTEGER NOT NULL DEFAULT 0, -- a locked conversation takes no comments
  author_id TEXT NOT NULL REFERENCES personas(id),
  milestone TEXT,
  viewed INTEGER NOT NULL DEFAULT 0,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

CREATE TABLE issue_labels (
  issue_id TEXT NOT NULL,           -- an issue or a pull request id
  label_id TEXT NOT NULL REFERENCES labels(id),
  PRIMARY KEY (issue_id, label_id)
);

CREATE TABLE pull_requests (
  id TEXT PRIMARY KEY,
  number INTEGER NOT NULL UNIQUE,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'merged')),
  author_id TEXT NOT NULL REFERENCES personas(id),
  source_branch TEXT NOT NULL,
  target_branch TEXT NOT NULL,
  checks_status TEXT NOT NULL,      -- success | failure | pending
  reviewers_json TEXT NOT NULL,     -- persona ids
  viewed INTEGER NOT NULL DEFAULT 0,
  merged_by_me INTEGER NOT NULL DEFAULT 0,
  merge_strategy TEXT,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  target_kind TEXT NOT NULL CHECK (target_kind IN ('issue', 'pr')),
  target_id TEXT NOT NULL,
  author_id TEXT NOT NULL REFERENCES personas(id),
  body TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);
CREATE INDEX comments_target ON comments(target_kind, target_id);

CREATE TABLE workflows (id TEXT PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, state TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');
CREATE TABLE workflow_runs (id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL REFERENCES workflows(id),
  run_number INTEGER NOT NULL, title TEXT NOT NULL, status TEXT NOT NULL, conclusion TEXT, branch TEXT NOT NULL,
  actor TEXT NOT NULL REFERENCES personas(id), duration_s INTEGER NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');
CREATE TABLE releases (id TEXT PRIMARY KEY, tag TEXT NOT NULL, name TEXT NOT NULL, body TEXT NOT NULL,
  is_latest INTEGER NOT NULL, is_prerelease INTEGER NOT NULL, assets_json TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');
CREATE TABLE wiki_pages (id TEXT PRIMARY KEY, slug TEXT NOT NULL UNIQUE, title TEXT NOT NULL, body TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');
CREATE TABLE advisories (id TEXT PRIMARY KEY, severity TEXT NOT NULL, package TEXT NOT NULL, title TEXT NOT NULL,
  state TEXT NOT NULL, arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');
CREATE TABLE scanning_alerts (id TEXT PRIMARY KEY, rule TEXT NOT NULL, severity TEXT NOT NULL, file TEXT NOT NULL,
  line INTEGER NOT NULL, state TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');
CREATE TABLE projects (id TEXT PRIMARY KEY, name TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');
CREATE TABLE project_cards (id TEXT PRIMARY KEY, project_id TEXT NOT NULL REFERENCES projects(id),
  column_name TEXT NOT NULL, title TEXT NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'preload');

-- Self.
CREATE TABLE follows (persona_id TEXT PRIMARY KEY REFERENCES personas(id),
  arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'self');
CREATE TABLE my_repos (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, description TEXT NOT NULL,
  visibility TEXT NOT NULL, arrived_at REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'self');
