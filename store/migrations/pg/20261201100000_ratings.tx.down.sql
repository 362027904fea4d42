DROP TABLE IF EXISTS player_games;
--bun:split
DROP TABLE IF EXISTS ratings;
