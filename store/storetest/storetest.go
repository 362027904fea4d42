// Package storetest makes fresh, empty databases for tests: a SQLite file
// always, and a schema of its own on the PostgreSQL server named by
// BULLSHIT_TEST_POSTGRES when that is set.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver for creating schemas
)

// PostgresEnv names the environment variable holding a PostgreSQL URL for
// the tests to run against as well as SQLite.
const PostgresEnv = "BULLSHIT_TEST_POSTGRES"

// HavePostgres reports whether PostgresEnv is set.
func HavePostgres() bool { return os.Getenv(PostgresEnv) != "" }

// URL is a new empty database: PostgreSQL's when PostgresEnv is set, else a
// SQLite file.
func URL(tb testing.TB) string {
	if HavePostgres() {
		return PostgresURL(tb)
	}
	return SQLiteURL(tb)
}

// SQLiteURL is a database file in a folder that does not exist yet, so that
// opening the store has to create it.
func SQLiteURL(tb testing.TB) string {
	return filepath.Join(tb.TempDir(), "data", "bullshit.db")
}

// PostgresURL creates a schema of its own on the server in PostgresEnv,
// dropped when tb ends, and returns a URL whose connections use it, so that
// tests run in parallel and reruns never see each other's tables.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv(PostgresEnv)
	b := make([]byte, 8)
	rand.Read(b)
	schema := "test_" + hex.EncodeToString(b)

	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("open %s: %v", PostgresEnv, err)
	}
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
	})

	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("parse %s: %v", PostgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
