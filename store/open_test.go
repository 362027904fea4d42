package store

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"bullshit/store/storetest"
)

func TestMigrateTwice(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		url := db.url(t)
		first, err := Open(ctx, url)
		if err != nil {
			t.Fatalf("first Open: %v", err)
		}
		mustCreate(t, first, newGame("kept", base))
		if err := first.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}

		s := openStore(t, url)
		n, err := s.DB().NewSelect().Table("bun_migrations").Count(ctx)
		if err != nil {
			t.Fatalf("count applied migrations: %v", err)
		}
		entries, err := migrationFiles.ReadDir("migrations/" + db.name)
		if err != nil {
			t.Fatalf("read migrations: %v", err)
		}
		if want := int64(len(entries)/2 + len(goMigrations[db.name])); n != want {
			t.Errorf("applied migrations: got %d, want %d", n, want)
		}
		if _, _, err := s.Game(ctx, "kept"); err != nil {
			t.Errorf("Game after reopening: got %v, want the game kept", err)
		}
	})
}

func TestOpenSQLiteURLs(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		url  string
		ok   bool
		file string // the file it must create
	}{
		{url: dir + "/plain/a.db", ok: true, file: dir + "/plain/a.db"},
		{url: "sqlite:" + dir + "/prefixed/b.db", ok: true, file: dir + "/prefixed/b.db"},
		{url: "sqlite://" + dir + "/slashes/c.db", ok: true, file: dir + "/slashes/c.db"},
		{url: ""},
		{url: "sqlite:"},
		{url: ":memory:"},
		{url: "file:" + dir + "/uri.db"},
		{url: dir + "/query.db?mode=ro"},
	}
	for _, tt := range tests {
		s, err := Open(context.Background(), tt.url)
		if !tt.ok {
			if err == nil {
				s.Close()
				t.Errorf("Open(%q): got no error, want one", tt.url)
			}
			continue
		}
		if err != nil {
			t.Errorf("Open(%q): %v", tt.url, err)
			continue
		}
		if got := s.Dialect(); got != SQLite {
			t.Errorf("Open(%q).Dialect(): got %q, want %q", tt.url, got, SQLite)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if _, err := os.Stat(tt.file); err != nil {
			t.Errorf("Open(%q) made no database file: %v", tt.url, err)
		}
	}
}

// TestSQLiteSettings checks the settings on several of the pool's
// connections at once: a PRAGMA run once would reach only one of them.
func TestSQLiteSettings(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, storetest.SQLiteURL(t))
	tests := []struct {
		pragma, want string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", strconv.Itoa(busyTimeoutMS)},
	}
	const conns = 4
	for i := range conns {
		conn, err := s.DB().Conn(ctx)
		if err != nil {
			t.Fatalf("Conn: %v", err)
		}
		defer conn.Close()
		for _, tt := range tests {
			var got string
			if err := conn.QueryRowContext(ctx, "PRAGMA "+tt.pragma).Scan(&got); err != nil {
				t.Fatalf("PRAGMA %s: %v", tt.pragma, err)
			}
			if got != tt.want {
				t.Errorf("connection %d: %s: got %q, want %q", i, tt.pragma, got, tt.want)
			}
		}
	}
}

// TestMigrateUnmarked reopens a database whose migrations ran but were not
// recorded, as after a crash between the two: they must run again cleanly.
func TestMigrateUnmarked(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		url := db.url(t)
		first, err := Open(ctx, url)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		mustCreate(t, first, newGame("kept", base))
		if _, err := first.DB().NewDelete().Table("bun_migrations").Where("1 = 1").Exec(ctx); err != nil {
			t.Fatalf("forget the migrations: %v", err)
		}
		first.Close()

		s := openStore(t, url)
		if _, _, err := s.Game(ctx, "kept"); err != nil {
			t.Errorf("Game after migrating again: got %v, want the game kept", err)
		}
	})
}

// TestOpenTogether opens one new database from several stores at once, as
// servers starting together would: every one must migrate or find it done.
func TestOpenTogether(t *testing.T) {
	const stores = 4
	forEachDB(t, func(t *testing.T, db testDB) {
		url := db.url(t)
		errs := make(chan error, stores)
		var wg sync.WaitGroup
		for range stores {
			wg.Go(func() {
				s, err := Open(context.Background(), url)
				if err == nil {
					err = s.Close()
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("Open: %v", err)
			}
		}
		s := openStore(t, url)
		mustCreate(t, s, newGame("after", base))
	})
}

// TestOldGamesGetRulesOne opens a database written before games had a rules
// version: its games were played under version 1, and read as such.
func TestOldGamesGetRulesOne(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		url := db.url(t)
		first, err := Open(ctx, url)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		mustCreate(t, first, newGame("old", base))
		// Back to the schema before the rules column.
		if _, err := first.DB().ExecContext(ctx, "ALTER TABLE games DROP COLUMN rules"); err != nil {
			t.Fatalf("drop the rules column: %v", err)
		}
		if _, err := first.DB().NewDelete().Table("bun_migrations").Where("name = ?", "20261201000001").Exec(ctx); err != nil {
			t.Fatalf("forget the rules migration: %v", err)
		}
		first.Close()

		s := openStore(t, url)
		g, _, err := s.Game(ctx, "old")
		if err != nil {
			t.Fatalf("Game after migrating: %v", err)
		}
		if g.Options.Rules != 1 {
			t.Errorf("rules of a game stored before versions: got %d, want 1", g.Options.Rules)
		}
	})
}

// TestPoolLimits takes every connection the pool allows: one more waits, and
// those given back stay open for the next burst.
func TestPoolLimits(t *testing.T) {
	limit := map[string]int{SQLite: sqliteMaxConns, Postgres: postgresMaxConns}
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		most := limit[db.name]
		if got := s.DB().Stats().MaxOpenConnections; got != most {
			t.Errorf("most open connections: got %d, want %d", got, most)
		}
		conns := make([]bun.Conn, most)
		for i := range conns {
			c, err := s.DB().Conn(ctx)
			if err != nil {
				t.Fatalf("connection %d: %v", i, err)
			}
			conns[i] = c
		}
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		if c, err := s.DB().Conn(short); err == nil {
			c.Close()
			t.Errorf("connection %d: got one, want it to wait for one given back", most)
		}
		cancel()
		for _, c := range conns {
			c.Close()
		}
		if got := s.DB().Stats().Idle; got != most {
			t.Errorf("idle connections after a burst: got %d, want %d", got, most)
		}
	})
}
