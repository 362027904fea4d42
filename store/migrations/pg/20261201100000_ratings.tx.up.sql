-- Ratings, and every account's seat in every finished game: its place, its
-- play in numbers and its rating change. Written in the transaction that
-- finishes the game.
CREATE TABLE IF NOT EXISTS ratings (
	player_id  BIGINT NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	rating     DOUBLE PRECISION NOT NULL,
	deviation  DOUBLE PRECISION NOT NULL,
	volatility DOUBLE PRECISION NOT NULL,
	games      INTEGER NOT NULL,
	rated_at   TIMESTAMPTZ NOT NULL
);
--bun:split
CREATE INDEX IF NOT EXISTS ratings_rating ON ratings (rating DESC);
--bun:split
CREATE TABLE IF NOT EXISTS player_games (
	game_id          TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat             INTEGER NOT NULL,
	player_id        BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	at               TIMESTAMPTZ NOT NULL,
	seats            INTEGER NOT NULL,
	place            INTEGER NOT NULL,
	cards_left       INTEGER NOT NULL,
	calls            INTEGER NOT NULL,
	right_calls      INTEGER NOT NULL,
	lies             INTEGER NOT NULL,
	sneaks           INTEGER NOT NULL,
	caught           INTEGER NOT NULL,
	rated            BOOLEAN NOT NULL,
	before_rating    DOUBLE PRECISION NOT NULL,
	before_deviation DOUBLE PRECISION NOT NULL,
	after_rating     DOUBLE PRECISION NOT NULL,
	after_deviation  DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (game_id, seat)
);
--bun:split
CREATE INDEX IF NOT EXISTS player_games_player_at ON player_games (player_id, at);
