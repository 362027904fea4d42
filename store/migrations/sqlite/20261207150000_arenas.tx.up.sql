-- Arenas (see store/arenas.go): timed events of tables formed one after
-- another from their entrants; the entrants, kept in every state they
-- reach; and the link of each game formed in an arena, written with the
-- game itself. IF NOT EXISTS so a run interrupted between the commit and
-- bun marking the migration applied can simply run again.
CREATE TABLE IF NOT EXISTS arenas (
	id             INTEGER   PRIMARY KEY AUTOINCREMENT,
	name           TEXT      NOT NULL,
	created_by     INTEGER   REFERENCES accounts (id) ON DELETE SET NULL,
	created_at     TIMESTAMP NOT NULL,
	starts_at      TIMESTAMP NOT NULL,
	ends_at        TIMESTAMP NOT NULL,
	min_seats      INTEGER   NOT NULL,
	max_seats      INTEGER   NOT NULL,
	options        TEXT      NOT NULL,
	rules          INTEGER   NOT NULL,
	away_after_ms  INTEGER   NOT NULL DEFAULT 0,
	rated          BOOLEAN   NOT NULL,
	entrants       TEXT      NOT NULL,
	rating_floor   REAL,
	rating_ceiling REAL,
	house_bots     BOOLEAN   NOT NULL DEFAULT FALSE,
	max_entrants   INTEGER   NOT NULL DEFAULT 0,
	schedule_key   TEXT,
	owner          TEXT      NOT NULL DEFAULT '',
	epoch          INTEGER   NOT NULL DEFAULT 0,
	done_at        TIMESTAMP
);
--bun:split
-- A house arena is created once whichever server tries first; NULLs (the
-- arenas accounts create) never collide.
CREATE UNIQUE INDEX IF NOT EXISTS arenas_schedule_key ON arenas (schedule_key);
--bun:split
CREATE INDEX IF NOT EXISTS arenas_starts ON arenas (starts_at, id);
--bun:split
CREATE INDEX IF NOT EXISTS arenas_ends ON arenas (ends_at, id);
--bun:split
CREATE INDEX IF NOT EXISTS arenas_created_by ON arenas (created_by, created_at);
--bun:split
CREATE TABLE IF NOT EXISTS arena_entries (
	arena_id   INTEGER   NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
	player_id  INTEGER   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	state      TEXT      NOT NULL,
	joined_at  TIMESTAMP NOT NULL,
	changed_at TIMESTAMP NOT NULL,
	PRIMARY KEY (arena_id, player_id)
);
--bun:split
-- An account's arenas, newest first, as its page lists them.
CREATE INDEX IF NOT EXISTS arena_entries_player ON arena_entries (player_id, joined_at DESC, arena_id DESC);
--bun:split
CREATE TABLE IF NOT EXISTS arena_games (
	game_id   TEXT      NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	arena_id  INTEGER   NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
	formed_at TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX IF NOT EXISTS arena_games_arena ON arena_games (arena_id, formed_at);
--bun:split
-- Each entrant's seat in each finished game of an arena, written in the
-- transaction that finishes the game: the standings' whole input in one
-- narrow table, read in the order the games ended. The end is kept as
-- Unix microseconds (a timestamp's precision): read back as text, 100,000
-- timestamps would cost SQLite's driver more than the rest of the rows. Without a rowid, the rows are stored in that order.
CREATE TABLE IF NOT EXISTS arena_results (
	arena_id  INTEGER   NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
	ended_us  BIGINT    NOT NULL,
	game_id   TEXT      NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat      INTEGER   NOT NULL,
	player_id INTEGER   NOT NULL,
	seats     INTEGER   NOT NULL,
	place     INTEGER   NOT NULL,
	left_seat BOOLEAN   NOT NULL,
	covered   BOOLEAN   NOT NULL,
	PRIMARY KEY (arena_id, ended_us, game_id, seat)
) WITHOUT ROWID;
--bun:split
-- The results of given games, as a director reads those of the tables it saw end.
CREATE INDEX IF NOT EXISTS arena_results_game ON arena_results (game_id, seat);
