package main

import (
	"context"
	"os"
	"path/filepath"

	"bullshit/store"
	"bullshit/store/storetest"
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
	u, drop, err := storetest.NewSchema(ctx, postgres, "loadtest_")
	if err != nil {
		return nil, nil, err
	}
	st, err = store.Open(ctx, u)
	if err != nil {
		drop()
		return nil, nil, err
	}
	return st, func() { st.Close(); drop() }, nil
}
