package store

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bullshit/engine"
)

// TestConcurrentAppend appends from many goroutines at once, through two
// stores on the same database as two server processes would, while others
// read. Every append must succeed: on SQLite that is busy_timeout and
// immediate transactions at work, not luck.
func TestConcurrentAppend(t *testing.T) {
	const (
		writers = 8
		each    = 40
	)
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		url := db.url(t)
		stores := []*Store{openStore(t, url), openStore(t, url)}
		mustCreate(t, stores[0], newGame("busy", base))

		var seq atomic.Int64
		errs := make(chan error, writers*each+writers)
		var wg sync.WaitGroup
		for w := range writers {
			s := stores[w%len(stores)]
			wg.Go(func() {
				for range each {
					n := int(seq.Add(1))
					a := Action{GameID: "busy", Seq: n, At: base.Add(time.Duration(n)), Action: engine.Action{Kind: engine.ActPass, Seat: w, No: n}}
					if err := s.AppendAction(ctx, a); err != nil {
						errs <- fmt.Errorf("append %d: %w", n, err)
					}
				}
			})
			// A reader and a transaction beside each writer.
			wg.Go(func() {
				if _, err := s.Actions(ctx, "busy"); err != nil {
					errs <- fmt.Errorf("read: %w", err)
				}
				if err := s.SaveSeat(ctx, Seat{GameID: "busy", No: w, Kind: "bot"}); err != nil {
					errs <- fmt.Errorf("save seat %d: %w", w, err)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}

		got, err := stores[1].Actions(ctx, "busy")
		if err != nil {
			t.Fatalf("Actions: %v", err)
		}
		if len(got) != writers*each {
			t.Fatalf("actions stored: got %d, want %d", len(got), writers*each)
		}
		for i, a := range got {
			if a.Seq != i+1 || !a.At.Equal(base.Add(time.Duration(i+1))) {
				t.Errorf("action %d: got seq %d at %v, want seq %d at %v", i, a.Seq, a.At, i+1, base.Add(time.Duration(i+1)))
			}
		}
	})
}

// BenchmarkAppendAction measures storing one action, as a table does before
// acknowledging it, one at a time and from several tables at once.
func BenchmarkAppendAction(b *testing.B) {
	for _, db := range testDBs(b) {
		b.Run(db.name+"/serial", func(b *testing.B) {
			s := openStore(b, db.url(b))
			mustCreate(b, s, newGame("bench", base))
			ctx := context.Background()
			a := Action{GameID: "bench", At: base, Action: engine.Action{Kind: engine.ActPlay, Seat: 1, No: 3, Cards: []engine.Card{1, 2, 3}, Claim: 2}}
			b.ResetTimer()
			for i := range b.N {
				a.Seq = i + 1
				if err := s.AppendAction(ctx, a); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(db.name+"/parallel", func(b *testing.B) {
			s := openStore(b, db.url(b))
			const tables = 16
			for i := range tables {
				mustCreate(b, s, newGame(fmt.Sprint("bench", i), base))
			}
			ctx := context.Background()
			var table atomic.Int64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				id := fmt.Sprint("bench", (table.Add(1)-1)%tables)
				a := Action{GameID: id, At: base, Action: engine.Action{Kind: engine.ActPass, Seat: 2, No: 3}}
				for pb.Next() {
					a.Seq++
					if err := s.AppendAction(ctx, a); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
