-- The servers' leases (see store/nodes.go). SQLite has one writer, so one
-- server: the table is never written, but the schema matches PostgreSQL's.
-- The games' owner and epoch columns are added in Go (migrate.go).
CREATE TABLE IF NOT EXISTS nodes (
	id          TEXT      NOT NULL PRIMARY KEY,
	lease_until TIMESTAMP NOT NULL,
	draining    BOOLEAN   NOT NULL DEFAULT FALSE,
	started_at  TIMESTAMP NOT NULL
);
