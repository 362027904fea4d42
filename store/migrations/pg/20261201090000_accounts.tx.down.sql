DROP INDEX IF EXISTS seats_player_id;
--bun:split
ALTER TABLE seats DROP COLUMN IF EXISTS player_id;
--bun:split
DROP TABLE IF EXISTS api_tokens;
--bun:split
DROP TABLE IF EXISTS sessions;
--bun:split
DROP TABLE IF EXISTS accounts;
