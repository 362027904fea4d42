package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"bullshit/store"
)

// openStore opens the run's store: a SQLite file in a temporary folder, or,
// given a PostgreSQL URL, a schema of its own on that server, so that a run
// never sees another's games. cleanup removes either.
func openStore(ctx context.Context, postgres string) (st *store.Store, cleanup func(), err error) {
	if postgres == "" {
		dir, err := os.MkdirTemp("", "bullshit-loadtest-")
		if err != nil {
			return nil, nil, err
		}
		st, err := store.Open(ctx, filepath.Join(dir, "games.db"))
		if err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
		return st, func() { st.Close(); os.RemoveAll(dir) }, nil
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "loadtest_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", postgres) // the driver the store registers
	if err != nil {
		return nil, nil, err
	}
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		return nil, nil, fmt.Errorf("create schema: %w", err)
	}
	drop := func() {
		admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	}
	u, err := url.Parse(postgres)
	if err != nil {
		drop()
		return nil, nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	st, err = store.Open(ctx, u.String())
	if err != nil {
		drop()
		return nil, nil, err
	}
	return st, func() { st.Close(); drop() }, nil
}
