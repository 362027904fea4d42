-- Several servers on one database (see store/nodes.go): a row per server
-- with its lease, renewed in the database's time, and each game's owner
-- and owner epoch, which every write of the game by its table is fenced on.
CREATE TABLE IF NOT EXISTS nodes (
	id          TEXT        NOT NULL PRIMARY KEY,
	lease_until TIMESTAMPTZ NOT NULL,
	draining    BOOLEAN     NOT NULL DEFAULT FALSE,
	started_at  TIMESTAMPTZ NOT NULL
);
--bun:split
ALTER TABLE games ADD COLUMN IF NOT EXISTS owner TEXT NOT NULL DEFAULT '';
--bun:split
ALTER TABLE games ADD COLUMN IF NOT EXISTS epoch BIGINT NOT NULL DEFAULT 0;
--bun:split
-- The games a claim looks at: those being played or waiting, by owner.
CREATE INDEX IF NOT EXISTS games_owner_playing ON games (owner) WHERE status IN ('open', 'live');
