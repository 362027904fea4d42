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
			if err := s.StartGame(ctx, Fence{}, g.ID, base, nil); err != nil {
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
	err = s.SaveSeat(context.Background(), Fence{}, Seat{GameID: "any", No: 0, Kind: "bot"})
	if !errors.Is(err, errClosed) {
		t.Errorf("a write after Close: got %v, want %v", err, errClosed)
	}
}

// TestCommitAnswerAgreesWithTheStore asks of SQLite's committer what a lost
// answer asks of PostgreSQL: can a write's outcome be unknown? A write's
// context ending just before its commit, or while the commit runs, whether
// the write commits alone or shares the commit, must leave it either stored
// and answered nil or not stored and answered with an error.
func TestCommitAnswerAgreesWithTheStore(t *testing.T) {
	s := openStore(t, storetest.SQLiteURL(t))
	ctx := context.Background()
	create := func(id string) func(ctx context.Context, tx bun.Tx) error {
		return func(ctx context.Context, tx bun.Tx) error {
			g := newGame(id, base)
			row, err := toGameRow(&g)
			if err != nil {
				return err
			}
			_, err = tx.NewInsert().Model(&row).Exec(ctx)
			return err
		}
	}
	tests := []struct {
		name   string
		writes int
		// during: the contexts end on another goroutine as the commit
		// starts, racing it, rather than just before it.
		during bool
	}{
		{"alone, ended before the commit", 1, false},
		{"alone, ended as it commits", 1, true},
		{"shared, ended before the commit", 3, false},
		{"shared, ended as it commits", 3, true},
	}
	n := 0
	for _, tt := range tests {
		for range 50 {
			var batch []*writeReq
			var ids []string
			var cancels []context.CancelFunc
			for range tt.writes {
				n++
				id := fmt.Sprint("g", n)
				wctx, cancel := context.WithCancel(ctx)
				defer cancel()
				ids, cancels = append(ids, id), append(cancels, cancel)
				batch = append(batch, &writeReq{ctx: wctx, fn: create(id), done: make(chan error, 1)})
			}
			end := func() {
				for _, cancel := range cancels {
					cancel()
				}
			}
			s.commits.committing = func() {
				if tt.during {
					go end()
				} else {
					end()
				}
			}
			s.commits.commit(batch)
			s.commits.committing = nil
			for i, r := range batch {
				answer := <-r.done
				_, _, err := s.Game(ctx, ids[i])
				if stored := err == nil; stored != (answer == nil) {
					t.Errorf("%s: game %s: got the answer %v and stored %v, want the answer to say whether it is stored", tt.name, ids[i], answer, stored)
				}
			}
		}
	}
}
