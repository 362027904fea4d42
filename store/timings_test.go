package store

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestObserveWritesTimesEachStage(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		var mu sync.Mutex
		seen := map[WriteStage]int{}
		s.ObserveWrites(func(stage WriteStage, d time.Duration) {
			if d < 0 {
				t.Errorf("%v took %v, want no less than 0", stage, d)
			}
			mu.Lock()
			seen[stage]++
			mu.Unlock()
		})
		// A game's creation is a transaction of statements; an append a
		// lone statement (on PostgreSQL) or a write in a shared
		// transaction (SQLite).
		mustCreate(t, s, newGame("one", base))
		if err := s.AppendActions(ctx, []Action{pass("one", 1), pass("one", 2)}); err != nil {
			t.Fatal(err)
		}
		want := []WriteStage{WriteStatements, WriteCommit}
		if db.name == SQLite {
			want = append(want, WriteQueued)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, stage := range []WriteStage{WriteQueued, WriteStatements, WriteCommit} {
			if got, wanted := seen[stage] > 0, slices.Contains(want, stage); got != wanted {
				t.Errorf("%s: timed %d times, want timed: %v", stage, seen[stage], wanted)
			}
		}
	})
}
