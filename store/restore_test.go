package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bullshit/engine"
)

// TestEachRunning checks that a restart's streaming read hands over every
// game being played, and only those, each with exactly what Game and
// Actions read for it one at a time.
func TestEachRunning(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		if err := s.EachRunning(ctx, 2, func(r Running) error {
			t.Errorf("with no game: got game %s", r.Game.ID)
			return nil
		}); err != nil {
			t.Errorf("with no game: %v", err)
		}
		// The actions of the live games are stored interleaved, as tables
		// playing at once store them.
		games := []struct {
			id      string
			status  string
			actions int
		}{
			{"open1", "open", 0},
			{"live0", "live", 0},
			{"live1", "live", 1},
			{"live3", "live", 3},
			{"done2", "finished", 2},
			{"live5", "live", 5},
		}
		for i, g := range games {
			mustCreate(t, s, newGame(g.id, base.Add(time.Duration(i)*time.Second)),
				Seat{No: 0, Kind: "person", Name: "Ann", TokenHash: hashOf(g.id)}, Seat{No: 1, Kind: "bot", BotLevel: "hard", BotStyle: "caller"},
				Seat{No: 2, Kind: "bot", BotLevel: "easy"})
			if g.status != "open" {
				if err := s.StartGame(ctx, Fence{}, g.id, base.Add(time.Minute), nil); err != nil {
					t.Fatalf("StartGame(%s): %v", g.id, err)
				}
			}
		}
		for seq := 1; seq <= 5; seq++ {
			for _, g := range games {
				if seq > g.actions {
					continue
				}
				a := Action{GameID: g.id, Seq: seq, At: base.Add(time.Duration(seq) * time.Second),
					Action: engine.Action{Kind: engine.ActPlay, Seat: seq % 3, No: seq - 1, Cards: []engine.Card{engine.Card(seq), engine.Card(seq + 13)}, Claim: 1}}
				if err := s.AppendAction(ctx, a); err != nil {
					t.Fatalf("AppendAction(%s, %d): %v", g.id, seq, err)
				}
			}
		}
		if err := s.FinishGame(ctx, Fence{}, "done2", "finished", base.Add(time.Hour), 2, false, nil, nil); err != nil {
			t.Fatalf("FinishGame: %v", err)
		}

		for _, parts := range []int{1, 2, 3, 10} {
			var (
				mu  sync.Mutex
				got []string
			)
			err := s.EachRunning(ctx, parts, func(r Running) error {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, r.Game.ID)
				g, seats, err := s.Game(ctx, r.Game.ID)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(r.Game, *g) {
					t.Errorf("%s: got game %s, want %s", g.ID, describe(r.Game), describe(*g))
				}
				if !reflect.DeepEqual(r.Seats, seats) {
					t.Errorf("%s: got seats %s, want %s", g.ID, describe(r.Seats), describe(seats))
				}
				want, err := s.Actions(ctx, r.Game.ID)
				if err != nil {
					return err
				}
				actions, err := r.Actions()
				if err != nil {
					return err
				}
				if len(actions) != len(want) || (len(want) > 0 && !reflect.DeepEqual(actions, want)) {
					t.Errorf("%s: got actions %s, want %s", g.ID, describe(actions), describe(want))
				}
				return nil
			})
			if err != nil {
				t.Fatalf("EachRunning in %d parts: %v", parts, err)
			}
			sort.Strings(got)
			if want := []string{"live0", "live1", "live3", "live5"}; !reflect.DeepEqual(got, want) {
				t.Errorf("in %d parts: got games %v, want %v", parts, got, want)
			}
		}

		stop := errors.New("stop")
		calls := 0
		err := s.EachRunning(ctx, 1, func(Running) error { calls++; return stop })
		if !errors.Is(err, stop) || calls != 1 {
			t.Errorf("an error from each: got %v after %d calls, want %v after 1", err, calls, stop)
		}
	})
}

// BenchmarkEachRunning reads n stored games of 100 actions each, as a
// restart does, decoding every action.
func BenchmarkEachRunning(b *testing.B) {
	for _, n := range []int{1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			s := newStore(b, testDB{name: SQLite, url: func(tb testing.TB) string { return tb.TempDir() + "/b.db" }})
			var batch []Action
			for i := range n {
				id := fmt.Sprintf("g%05d", i)
				mustCreate(b, s, newGame(id, base), Seat{No: 0, Kind: "bot"}, Seat{No: 1, Kind: "bot"}, Seat{No: 2, Kind: "bot"}, Seat{No: 3, Kind: "bot"})
				if err := s.StartGame(ctx, Fence{}, id, base, nil); err != nil {
					b.Fatal(err)
				}
				for seq := 1; seq <= 100; seq++ {
					batch = append(batch, Action{GameID: id, Seq: seq, At: base.Add(time.Duration(seq) * time.Second),
						Action: engine.Action{Kind: engine.ActPass, Seat: seq % 4, No: seq / 4}})
				}
				if len(batch) >= 1000 {
					if err := s.AppendActions(ctx, batch); err != nil {
						b.Fatal(err)
					}
					batch = batch[:0]
				}
			}
			if err := s.AppendActions(ctx, batch); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				var games atomic.Int64
				err := s.EachRunning(ctx, 2, func(r Running) error {
					games.Add(1)
					_, err := r.Actions()
					return err
				})
				if err != nil || games.Load() != int64(n) {
					b.Fatalf("got %d games, %v; want %d", games.Load(), err, n)
				}
			}
		})
	}
}
