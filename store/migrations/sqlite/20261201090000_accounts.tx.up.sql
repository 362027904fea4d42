-- Accounts, their sessions and their API tokens. Statements use IF NOT
-- EXISTS so that a run interrupted between the commit and bun marking the
-- migration applied can simply run again. The seats' player_id column is
-- added by a migration in Go (store/migrate_columns.go): SQLite has no ADD
-- COLUMN IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS accounts (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	name          TEXT    NOT NULL,
	name_key      TEXT    NOT NULL,
	password_hash TEXT    NOT NULL,
	bot           BOOLEAN NOT NULL DEFAULT FALSE,
	created_at    TIMESTAMP NOT NULL
);
--bun:split
CREATE UNIQUE INDEX IF NOT EXISTS accounts_name_key ON accounts (name_key);
--bun:split
CREATE TABLE IF NOT EXISTS sessions (
	id_hash      BLOB    NOT NULL PRIMARY KEY,
	account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created_at   TIMESTAMP NOT NULL,
	last_seen_at TIMESTAMP NOT NULL,
	expires_at   TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX IF NOT EXISTS sessions_account_id ON sessions (account_id);
--bun:split
CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at);
--bun:split
CREATE TABLE IF NOT EXISTS api_tokens (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name         TEXT    NOT NULL,
	hash         BLOB    NOT NULL,
	created_at   TIMESTAMP NOT NULL,
	last_used_at TIMESTAMP
);
--bun:split
CREATE UNIQUE INDEX IF NOT EXISTS api_tokens_hash ON api_tokens (hash);
--bun:split
CREATE UNIQUE INDEX IF NOT EXISTS api_tokens_account_id_name ON api_tokens (account_id, name);
