package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"

	"bullshit/store/storetest"

	"github.com/uptrace/bun"
)

// TestSharedCommitRollsBackOnlyTheWriteRefused commits writes together as
// SQLite's committer does when they queue at once: a write refused, even
// halfway through, leaves nothing of itself, and the others stand.
func TestSharedCommitRollsBackOnlyTheWriteRefused(t *testing.T) {
	s := openStore(t, storetest.SQLiteURL(t))
	ctx := context.Background()
	mustCreate(t, s, newGame("taken", base))

	var mu sync.Mutex
	seen := map[*sql.Tx]bool{}
	insert := func(id string, seats ...Seat) func(ctx context.Context, tx bun.Tx) error {
		return func(ctx context.Context, tx bun.Tx) error {
			mu.Lock()
			seen[tx.Tx] = true
			mu.Unlock()
			g := newGame(id, base)
			row, err := toGameRow(&g)
			if err != nil {
				return err
			}
			if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
				return classify(err)
			}
			for _, seat := range seats {
				seat.GameID = id
				if _, err := tx.NewInsert().Model(&seat).Exec(ctx); err != nil {
					return classify(err)
				}
			}
			return nil
		}
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		fn   func(ctx context.Context, tx bun.Tx) error
		want error // nil, or what the answer wraps
	}{
		{"a new game", ctx, insert("first", Seat{No: 0, Kind: "bot"}), nil},
		{"an id taken", ctx, insert("taken"), ErrDuplicate},
		{"a seat twice, after its game", ctx, insert("half", Seat{No: 0, Kind: "bot"}, Seat{No: 0, Kind: "bot"}), ErrDuplicate},
		{"a caller gone", gone, insert("never"), context.Canceled},
		{"a panic", ctx, func(context.Context, bun.Tx) error { panic("broken") }, errPanicked},
		{"another new game", ctx, insert("second"), nil},
	}
	batch := make([]*writeReq, len(tests))
	for i, tt := range tests {
		batch[i] = &writeReq{ctx: tt.ctx, fn: tt.fn, done: make(chan error, 1)}
	}
	s.commits.commit(batch)

	for i, tt := range tests {
		got := <-batch[i].done
		if (got == nil) != (tt.want == nil) || (tt.want != nil && !errors.Is(got, tt.want)) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	if len(seen) != 1 {
		t.Errorf("transactions: got %d, want the batch's writes to share one", len(seen))
	}
	for id, want := range map[string]bool{"first": true, "second": true, "taken": true, "half": false, "never": false} {
		_, _, err := s.Game(ctx, id)
		if got := err == nil; got != want {
			t.Errorf("game %s stored: got %v (%v), want %v", id, got, err, want)
		}
	}
}

// TestCommitterAnswersEveryWrite writes from many goroutines at once: every
// write is answered and stored, however the committer groups them.
func TestCommitterAnswersEveryWrite(t *testing.T) {
	s := openStore(t, storetest.SQLiteURL(t))
	ctx := context.Background()
	const writers = 64
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			g := newGame(fmt.Sprint("g", i), base)
			if err := s.CreateGame(ctx, &g, []Seat{{No: 0, Kind: "person"}}); err != nil {
				errs <- err
				return
			}
			if err := s.StartGame(ctx, g.ID, base, nil); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	live, err := s.Unfinished(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != writers {
		t.Errorf("live games: got %d, want %d", len(live), writers)
	}
}

// TestWriteAfterCloseIsRefused: a closed store's committer takes no more
// writes, rather than leave a caller waiting for an answer.
func TestWriteAfterCloseIsRefused(t *testing.T) {
	s, err := Open(context.Background(), storetest.SQLiteURL(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	err = s.SaveSeat(context.Background(), Seat{GameID: "any", No: 0, Kind: "bot"})
	if !errors.Is(err, errClosed) {
		t.Errorf("a write after Close: got %v, want %v", err, errClosed)
	}
}
