package store

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"bullshit/game"
)

// queryCounter counts the queries a store makes.
type queryCounter struct{ n atomic.Int64 }

func (c *queryCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *queryCounter) AfterQuery(context.Context, *bun.QueryEvent) {}

func TestListGames(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		const n = 12
		for i := range n {
			g := newGame(fmt.Sprintf("g%02d", i), base.Add(time.Duration(i)*time.Second))
			mustCreate(t, s, g,
				Seat{No: 0, Kind: "person", Name: "Ann", TokenHash: hashOf(g.ID)},
				Seat{No: 1, Kind: "bot", Name: "Bot", BotLevel: "easy", BotStyle: "bold"},
				Seat{No: 2, Kind: "empty"})
			if i%3 == 0 {
				continue // open, with no results
			}
			if err := s.StartGame(ctx, Fence{}, g.ID, base.Add(time.Hour), nil); err != nil {
				t.Fatal(err)
			}
			if i%3 == 1 {
				continue // live
			}
			results := []Result{{Seat: 1, Place: 1}, {Seat: 0, Place: 2, Left: i, Rated: true}}
			if err := s.FinishGame(ctx, Fence{}, g.ID, "finished", base.Add(2*time.Hour), i, false, results, nil); err != nil {
				t.Fatal(err)
			}
		}

		counter := &queryCounter{}
		counted := s.WithQueryHook(counter)
		tests := []struct {
			status game.Status
			limit  int
			want   int
		}{
			{"", 0, n},
			{"", 1, 1},
			{"", 5, 5},
			{"finished", 0, n / 3},
			{"live", 2, 2},
			{"ended", 0, 0},
		}
		queries := map[int64]bool{}
		for _, tt := range tests {
			before := counter.n.Load()
			listed, err := counted.ListGames(ctx, tt.status, tt.limit)
			if err != nil {
				t.Fatalf("ListGames(%q, %d): %v", tt.status, tt.limit, err)
			}
			if tt.want > 0 {
				queries[counter.n.Load()-before] = true
			}
			games, err := s.Games(ctx, tt.status, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(listed) != tt.want || len(games) != tt.want {
				t.Fatalf("ListGames(%q, %d): got %d games (Games %d), want %d", tt.status, tt.limit, len(listed), len(games), tt.want)
			}
			for i, l := range listed {
				g, seats, err := s.Game(ctx, games[i].ID)
				if err != nil {
					t.Fatal(err)
				}
				results, err := s.Results(ctx, g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(l.Game, *g) || !sameRows(l.Seats, seats) || !sameRows(l.Results, results) {
					t.Errorf("ListGames(%q, %d)[%d]:\ngot  %s\nwant %s", tt.status, tt.limit, i, describe(l), describe(Listed{*g, seats, results}))
				}
			}
		}
		if len(queries) != 1 {
			t.Errorf("queries per listing: got %v, want the same number whatever the limit", queries)
		}
	})
}

// sameRows compares two lists of rows, an empty one equal to none.
func sameRows[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
