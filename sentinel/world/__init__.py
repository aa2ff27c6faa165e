"""One session's state: the World over its SQLite database, as events and views see it."""
