-- Statements use IF NOT EXISTS so that a run interrupted between the commit
-- and bun marking the migration applied can simply run again.
CREATE TABLE IF NOT EXISTS games (
	id            TEXT    NOT NULL PRIMARY KEY,
	status        TEXT    NOT NULL,
	options       TEXT    NOT NULL,
	seed          INTEGER NOT NULL,
	host          INTEGER NOT NULL DEFAULT 0,
	away_after_ms INTEGER NOT NULL DEFAULT 0,
	plays         INTEGER NOT NULL DEFAULT 0,
	capped        BOOLEAN NOT NULL DEFAULT FALSE,
	fill_bots     BOOLEAN NOT NULL DEFAULT FALSE,
	created_at    TIMESTAMP NOT NULL,
	started_at    TIMESTAMP,
	ended_at      TIMESTAMP
);
--bun:split
CREATE INDEX IF NOT EXISTS games_status_created_at ON games (status, created_at);
--bun:split
CREATE INDEX IF NOT EXISTS games_created_at ON games (created_at);
--bun:split
CREATE TABLE IF NOT EXISTS seats (
	game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat       INTEGER NOT NULL,
	kind       TEXT    NOT NULL,
	name       TEXT    NOT NULL DEFAULT '',
	bot_level  TEXT    NOT NULL DEFAULT '',
	bot_style  TEXT    NOT NULL DEFAULT '',
	token_hash BLOB,
	away       BOOLEAN NOT NULL DEFAULT FALSE,
	covered    BOOLEAN NOT NULL DEFAULT FALSE,
	PRIMARY KEY (game_id, seat)
);
--bun:split
CREATE TABLE IF NOT EXISTS actions (
	game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	at_ns   INTEGER NOT NULL,
	action  TEXT    NOT NULL,
	PRIMARY KEY (game_id, seq)
);
--bun:split
CREATE TABLE IF NOT EXISTS results (
	game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat    INTEGER NOT NULL,
	place   INTEGER NOT NULL,
	cards_left INTEGER NOT NULL,
	rated   BOOLEAN NOT NULL DEFAULT FALSE,
	PRIMARY KEY (game_id, seat)
);
