-- One row: the last moment the server was known to be running, which a
-- restart resumes the live games from (see Store.MarkAlive).
CREATE TABLE IF NOT EXISTS alive (
	id    INTEGER NOT NULL PRIMARY KEY,
	at_ns BIGINT  NOT NULL
);
