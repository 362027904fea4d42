-- Every game is replayed with the rules version it was played under. The
-- games stored before versions existed were all played under version 1.
ALTER TABLE games ADD COLUMN IF NOT EXISTS rules INTEGER NOT NULL DEFAULT 1;
