DROP TABLE IF EXISTS arena_results;
--bun:split
DROP TABLE IF EXISTS arena_games;
--bun:split
DROP TABLE IF EXISTS arena_entries;
--bun:split
DROP TABLE IF EXISTS arenas;
