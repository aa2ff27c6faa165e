-- MicroTodo: a to-do list that lives in the tests only, the proof that the kit carries an
-- environment's conventions. One item table with the common columns of docs/environments.md#grading-tables.
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  notes TEXT NOT NULL DEFAULT '',
  is_seen INTEGER NOT NULL DEFAULT 0,
  is_done INTEGER NOT NULL DEFAULT 0,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);
