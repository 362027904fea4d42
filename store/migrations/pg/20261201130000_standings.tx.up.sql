-- The leaderboard's and the player page's indexes (measured with 10,000
-- players and 100,000 rated games: see BenchmarkStandings).
-- The leaderboard's whole order, so a page is read off the index, deep
-- pages included.
CREATE INDEX IF NOT EXISTS ratings_rank ON ratings (rating DESC, player_id);
--bun:split
DROP INDEX IF EXISTS ratings_rating;
--bun:split
-- A player's games newest first in the order the pages list them, so the
-- rating history and the recent games stop after the rows they show.
CREATE INDEX IF NOT EXISTS player_games_player_recent ON player_games (player_id, at DESC, game_id DESC);
--bun:split
DROP INDEX IF EXISTS player_games_player_at;
--bun:split
-- A player's totals and places from the index alone, in place order.
CREATE INDEX IF NOT EXISTS player_games_player_stats ON player_games (player_id, place) INCLUDE (calls, right_calls, lies, sneaks, caught);
