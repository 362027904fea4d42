package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// writing runs fn as the store's only writer of the games' tables, on
// SQLite, which takes one writer at a time anyway: writers queued here wait
// their turn in order, where writers meeting in SQLite itself would wait in
// its busy handler, which sleeps and polls, so that with a few writing at
// once most of their time went in sleeps (starting a thousand tables took
// seconds per hundred). PostgreSQL takes writers side by side, so there fn
// just runs. A writer still queued when ctx ends gives up.
func (s *Store) writing(ctx context.Context, fn func() error) error {
	if s.writer == nil {
		return fn()
	}
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("waiting to write: %w", ctx.Err())
	}
	defer func() { <-s.writer }()
	return fn()
}

// inTx runs fn in a read-write transaction, as the only writer on SQLite.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	return s.writing(ctx, func() error { return s.db.RunInTx(ctx, nil, fn) })
}
