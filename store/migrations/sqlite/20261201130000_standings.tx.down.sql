DROP INDEX IF EXISTS player_games_player_stats;
--bun:split
CREATE INDEX IF NOT EXISTS player_games_player_at ON player_games (player_id, at);
--bun:split
DROP INDEX IF EXISTS player_games_player_recent;
--bun:split
CREATE INDEX IF NOT EXISTS ratings_rating ON ratings (rating DESC);
--bun:split
DROP INDEX IF EXISTS ratings_rank;
