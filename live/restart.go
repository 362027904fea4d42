package live

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"bullshit/store"
)

// runningReader is a store that reads every game being played in a few
// streaming queries (store.Store does); a store without it is read a game
// at a time.
type runningReader interface {
	EachRunning(ctx context.Context, parts int, each func(store.Running) error) error
}

// loadRunning rebuilds every game being played after a restart. One
// goroutine reads the store's stream of games; a worker per core decodes
// and replays them, the part that costs; the tables start only once all
// are rebuilt, so none competes for the store or the cores meanwhile. As
// in load, a game that cannot be rebuilt gets a broken table.
func (m *Manager) loadRunning(ctx context.Context, rr runningReader, alive time.Time) error {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan store.Running, 4*workers)
	tables := make([][]*table, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := range jobs {
				tables[w] = append(tables[w], m.rebuildRunning(ctx, r, alive))
			}
		})
	}
	err := rr.EachRunning(ctx, workers, func(r store.Running) error {
		select {
		case jobs <- r:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(jobs)
	wg.Wait()
	if err != nil {
		return fmt.Errorf("live: load live games: %w", err)
	}
	for _, ts := range tables {
		for _, t := range ts {
			if err := m.add(t); err != nil {
				return err
			}
		}
	}
	return nil
}

// rebuildRunning is the table of one game read by loadRunning, or a broken
// one saying why it could not be rebuilt.
func (m *Manager) rebuildRunning(ctx context.Context, r store.Running, alive time.Time) *table {
	var t *table
	err := guard(func() error {
		actions, err := r.Timed()
		if err != nil {
			return err
		}
		t, err = m.rebuilt(r.Game, r.Seats, actions, alive)
		return err
	})
	if err != nil {
		t = m.brokenTable(ctx, r.Game, fmt.Errorf("rebuilding the game: %w", err))
	}
	return t
}
