-- MicroHood: stock trading (docs/environments.md#microhood). Prices are never stored as a live value: pages
-- interpolate them from price_waypoints at the current sim time. Item tables carry the common
-- columns (docs/environments.md#grading-tables: arrived_at sim seconds, created_at ISO, origin preload|event|self).

CREATE TABLE stocks (
  id TEXT PRIMARY KEY,              -- the symbol
  symbol TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  sector TEXT NOT NULL,
  start_price REAL NOT NULL,        -- the price at sim 0, before any waypoint
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

-- One row per open position; a position sold down to 0 shares is deleted.
CREATE TABLE holdings (
  symbol TEXT PRIMARY KEY REFERENCES stocks(symbol),
  shares INTEGER NOT NULL CHECK (shares > 0),
  avg_cost REAL NOT NULL,
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

CREATE TABLE watchlist (
  symbol TEXT PRIMARY KEY REFERENCES stocks(symbol),
  added_at TEXT NOT NULL,           -- ISO time it was added
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

-- Exactly one row.
CREATE TABLE account (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  buying_power REAL NOT NULL
);

CREATE TABLE news (
  id TEXT PRIMARY KEY,
  source TEXT NOT NULL,
  headline TEXT NOT NULL,
  symbol TEXT,                      -- NULL for market-wide news
  arrived_at REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);

-- Filled orders only (a rejected order leaves no row). id = 'ord-<n>'.
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  symbol TEXT NOT NULL REFERENCES stocks(symbol),
  side TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  order_type TEXT NOT NULL CHECK (order_type IN ('market', 'limit')),
  limit_price REAL,                 -- NULL for market orders
  fill_price REAL NOT NULL,         -- the displayed price at the moment of the fill (cents)
  placed_at REAL NOT NULL,          -- sim seconds
  arrived_at REAL NOT NULL,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'self'
);

-- [t, price] points in sim seconds (the clock scales them). seq keeps insertion order.
CREATE TABLE price_waypoints (
  seq INTEGER PRIMARY KEY,
  symbol TEXT NOT NULL REFERENCES stocks(symbol),
  t REAL NOT NULL,
  price REAL NOT NULL,
  origin TEXT NOT NULL DEFAULT 'preload'
);
CREATE INDEX price_waypoints_symbol ON price_waypoints(symbol, t);

-- Derived: written by finalize() for the frozen moment (grading time). Declared here so that
-- grading SQL compiles against the schema; empty until finalize runs.
CREATE TABLE current_prices (
  symbol TEXT PRIMARY KEY,
  price REAL NOT NULL
);

CREATE VIEW portfolio (buying_power, positions_value, portfolio_value) AS
  SELECT a.buying_power,
         ROUND(COALESCE((SELECT SUM(h.shares * c.price) FROM holdings h
                         JOIN current_prices c ON c.symbol = h.symbol), 0), 2),
         ROUND(a.buying_power + COALESCE((SELECT SUM(h.shares * c.price) FROM holdings h
                                          JOIN current_prices c ON c.symbol = h.symbol), 0), 2)
  FROM account a;
