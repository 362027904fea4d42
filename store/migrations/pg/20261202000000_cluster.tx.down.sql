DROP INDEX IF EXISTS games_owner_playing;
--bun:split
ALTER TABLE games DROP COLUMN IF EXISTS epoch;
--bun:split
ALTER TABLE games DROP COLUMN IF EXISTS owner;
--bun:split
DROP TABLE IF EXISTS nodes;
