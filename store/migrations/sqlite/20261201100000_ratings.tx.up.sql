-- Ratings, and every account's seat in every finished game: its place, its
-- play in numbers and its rating change. Written in the transaction that
-- finishes the game.
CREATE TABLE IF NOT EXISTS ratings (
	player_id  INTEGER NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	rating     REAL    NOT NULL,
	deviation  REAL    NOT NULL,
	volatility REAL    NOT NULL,
	games      INTEGER NOT NULL,
	rated_at   TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX IF NOT EXISTS ratings_rating ON ratings (rating DESC);
--bun:split
CREATE TABLE IF NOT EXISTS player_games (
	game_id          TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat             INTEGER NOT NULL,
	player_id        INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	at               TIMESTAMP NOT NULL,
	seats            INTEGER NOT NULL,
	place            INTEGER NOT NULL,
	cards_left       INTEGER NOT NULL,
	calls            INTEGER NOT NULL,
	right_calls      INTEGER NOT NULL,
	lies             INTEGER NOT NULL,
	sneaks           INTEGER NOT NULL,
	caught           INTEGER NOT NULL,
	rated            BOOLEAN NOT NULL,
	before_rating    REAL    NOT NULL,
	before_deviation REAL    NOT NULL,
	after_rating     REAL    NOT NULL,
	after_deviation  REAL    NOT NULL,
	PRIMARY KEY (game_id, seat)
);
--bun:split
CREATE INDEX IF NOT EXISTS player_games_player_at ON player_games (player_id, at);
