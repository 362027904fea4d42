package store

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
)

// postgresEnv names the environment variable holding a PostgreSQL URL to run
// the tests against as well as SQLite.
const postgresEnv = "BULLSHIT_TEST_POSTGRES"

// testDB makes fresh, empty databases of one dialect for tests.
type testDB struct {
	name string
	// url returns the URL of a new empty database, removed when tb ends.
	url func(tb testing.TB) string
}

// testDBs are the databases every test runs on: SQLite always, PostgreSQL
// when postgresEnv is set.
func testDBs(tb testing.TB) []testDB {
	dbs := []testDB{{name: SQLite, url: sqliteURL}}
	if os.Getenv(postgresEnv) != "" {
		dbs = append(dbs, testDB{name: Postgres, url: postgresURL})
	}
	return dbs
}

// forEachDB runs f as a subtest on each test database, saying once why
// PostgreSQL is skipped when it is.
func forEachDB(t *testing.T, f func(t *testing.T, db testDB)) {
	t.Helper()
	for _, db := range testDBs(t) {
		t.Run(db.name, func(t *testing.T) { f(t, db) })
	}
	if os.Getenv(postgresEnv) == "" {
		t.Run(Postgres, func(t *testing.T) {
			t.Skipf("%s is not set to a PostgreSQL URL", postgresEnv)
		})
	}
}

// sqliteURL is a database file in a folder that does not exist yet, so that
// Open has to create it.
func sqliteURL(tb testing.TB) string {
	return filepath.Join(tb.TempDir(), "data", "bullshit.db")
}

// postgresURL creates a schema of its own on the server in postgresEnv and
// returns a URL whose connections use it, so that tests run in parallel and
// reruns never see each other's tables.
func postgresURL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv(postgresEnv)
	b := make([]byte, 8)
	rand.Read(b)
	schema := "test_" + hex.EncodeToString(b)

	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("open %s: %v", postgresEnv, err)
	}
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
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
		tb.Fatalf("parse %s: %v", postgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// openStore opens a store on url, closed when tb ends.
func openStore(tb testing.TB, url string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return s
}

// newStore opens a store on a fresh database of db's dialect.
func newStore(tb testing.TB, db testDB) *Store {
	tb.Helper()
	s := openStore(tb, db.url(tb))
	if s.Dialect() != db.name {
		tb.Fatalf("Dialect() = %q, want %q", s.Dialect(), db.name)
	}
	return s
}

// mustCreate stores a game with its seats or fails the test.
func mustCreate(tb testing.TB, s *Store, g Game, seats ...Seat) {
	tb.Helper()
	if err := s.CreateGame(context.Background(), &g, seats); err != nil {
		tb.Fatalf("CreateGame(%s): %v", g.ID, err)
	}
}

// describe prints a value for failure messages, with field names.
func describe(v any) string { return fmt.Sprintf("%+v", v) }
