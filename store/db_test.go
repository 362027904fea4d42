package store

import (
	"context"
	"fmt"
	"os"
	"testing"

	"bullshit/store/storetest"
)

const postgresEnv = storetest.PostgresEnv

// testDB makes fresh, empty databases of one dialect for tests.
type testDB struct {
	name string
	// url returns the URL of a new empty database, removed when tb ends.
	url func(tb testing.TB) string
}

// testDBs are the databases every test runs on: SQLite always, PostgreSQL
// when postgresEnv is set.
func testDBs(tb testing.TB) []testDB {
	dbs := []testDB{{name: SQLite, url: storetest.SQLiteURL}}
	if os.Getenv(postgresEnv) != "" {
		dbs = append(dbs, testDB{name: Postgres, url: storetest.PostgresURL})
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
