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

// TestConcurrentAppend appends from many goroutines at once, each to a game
// of its own (a game's log is written in order, by one table), through two
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
		for w := range writers {
			mustCreate(t, stores[0], newGame(fmt.Sprint("busy", w), base))
		}

		errs := make(chan error, writers*each+writers)
		var wg sync.WaitGroup
		for w := range writers {
			s := stores[w%len(stores)]
			game := fmt.Sprint("busy", w)
			wg.Go(func() {
				for n := 1; n <= each; n++ {
					a := Action{GameID: game, Seq: n, At: base.Add(time.Duration(n)), Action: engine.Action{Kind: engine.ActPass, Seat: w, No: n}}
					if err := s.AppendAction(ctx, a); err != nil {
						errs <- fmt.Errorf("append %d to %s: %w", n, game, err)
					}
				}
			})
			// A reader and a transaction beside each writer.
			wg.Go(func() {
				if _, err := s.Actions(ctx, game); err != nil {
					errs <- fmt.Errorf("read: %w", err)
				}
				if err := s.SaveSeat(ctx, Fence{}, Seat{GameID: game, No: w, Kind: "bot"}); err != nil {
					errs <- fmt.Errorf("save seat %d: %w", w, err)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}

		for w := range writers {
			got, err := stores[1].Actions(ctx, fmt.Sprint("busy", w))
			if err != nil {
				t.Fatalf("Actions: %v", err)
			}
			if len(got) != each {
				t.Fatalf("actions stored: got %d, want %d", len(got), each)
			}
			for i, a := range got {
				if a.Seq != i+1 || !a.At.Equal(base.Add(time.Duration(i+1))) {
					t.Errorf("action %d: got seq %d at %v, want seq %d at %v", i, a.Seq, a.At, i+1, base.Add(time.Duration(i+1)))
				}
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

// BenchmarkAppendActions measures one group commit of actions of many
// games, as the tables' writer makes them, by the batch's size; ns/op is
// one batch, so the cost of an action is ns/op over the size.
func BenchmarkAppendActions(b *testing.B) {
	for _, db := range testDBs(b) {
		for _, size := range []int{1, 32, 256, 1024} {
			b.Run(fmt.Sprintf("%s/%d", db.name, size), func(b *testing.B) {
				s := openStore(b, db.url(b))
				const games = 2000
				for i := range games {
					mustCreate(b, s, newGame(fmt.Sprint("bench", i), base))
				}
				ctx := context.Background()
				seqs := make([]int, games)
				batch := make([]Action, size)
				next := 0
				b.ResetTimer()
				for range b.N {
					for j := range batch {
						g := next % games
						next++
						seqs[g]++
						batch[j] = Action{GameID: fmt.Sprint("bench", g), Seq: seqs[g], At: base,
							Action: engine.Action{Kind: engine.ActPass, Seat: 2, No: seqs[g]}}
					}
					if err := s.AppendActions(ctx, batch); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*size), "ns/action")
			})
		}
	}
}
