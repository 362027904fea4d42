DROP TABLE IF EXISTS api_tokens;
--bun:split
DROP TABLE IF EXISTS sessions;
--bun:split
DROP TABLE IF EXISTS accounts;
