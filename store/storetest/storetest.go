// Package storetest makes fresh, empty databases for tests: a SQLite file
// always, and a schema of its own on the PostgreSQL server named by
// BULLSHIT_TEST_POSTGRES when that is set.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
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
	u, drop, err := NewSchema(context.Background(), os.Getenv(PostgresEnv), "test_")
	if err != nil {
		tb.Fatalf("%s: %v", PostgresEnv, err)
	}
	tb.Cleanup(func() {
		if err := drop(); err != nil {
			tb.Error(err)
		}
	})
	return u
}

// NewSchema creates a schema with a random name that starts with prefix on
// the PostgreSQL server at base, and returns a URL whose connections use it
// and a function that drops it. The load test uses it too.
func NewSchema(ctx context.Context, base, prefix string) (u string, drop func() error, err error) {
	b := make([]byte, 8)
	rand.Read(b)
	schema := prefix + hex.EncodeToString(b)
	parsed, err := url.Parse(base)
	if err != nil {
		return "", nil, err
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create schema: %w", err)
	}
	drop = func() error {
		defer admin.Close()
		if _, err := admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			return fmt.Errorf("drop schema %s: %w", schema, err)
		}
		return nil
	}
	q := parsed.Query()
	q.Set("search_path", schema)
	parsed.RawQuery = q.Encode()
	return parsed.String(), drop, nil
}
