-- Every game is replayed with the rules version it was played under. The
-- games stored before versions existed were all played under version 1.
-- SQLite's twin is written in Go (goMigrations in store/migrate.go): SQLite
-- has no ADD COLUMN IF NOT EXISTS.
ALTER TABLE games ADD COLUMN IF NOT EXISTS rules INTEGER NOT NULL DEFAULT 1;
