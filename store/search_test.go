package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"bullshit/game"
)

// finishedGames stores n finished games: game i seats Ann always, Bo in the
// even ones, Cy in every third and Dee in every 250th, then a bot; the
// newest is the last.
func finishedGames(tb testing.TB, s *Store, n int) {
	tb.Helper()
	ctx := context.Background()
	for i := range n {
		g := newGame(fmt.Sprintf("f%05d", i), base.Add(time.Duration(i)*time.Second))
		seats := []Seat{{No: 0, Kind: "person", Name: "Ann", TokenHash: hashOf(g.ID)}}
		if i%2 == 0 {
			seats = append(seats, Seat{No: len(seats), Kind: "person", Name: "Bo", TokenHash: hashOf(g.ID + "b")})
		}
		if i%3 == 0 {
			seats = append(seats, Seat{No: len(seats), Kind: "person", Name: "Cy", TokenHash: hashOf(g.ID + "c")})
		}
		if i%250 == 0 {
			seats = append(seats, Seat{No: len(seats), Kind: "person", Name: "Dee", TokenHash: hashOf(g.ID + "d")})
		}
		seats = append(seats, Seat{No: len(seats), Kind: "bot", Name: "Robo", BotLevel: "easy", BotStyle: "bold"})
		mustCreate(tb, s, g, seats...)
		if err := s.StartGame(ctx, Fence{}, g.ID, g.CreatedAt, nil); err != nil {
			tb.Fatal(err)
		}
		results := []Result{{Seat: 0, Place: 1}}
		if err := s.FinishGame(ctx, Fence{}, g.ID, "finished", g.CreatedAt.Add(time.Minute), 10, false, results, nil); err != nil {
			tb.Fatal(err)
		}
	}
	// One still open, with Bo at it: a search for finished games skips it.
	g := newGame("open1", base.Add(time.Hour))
	mustCreate(tb, s, g, Seat{No: 0, Kind: "person", Name: "Bo", TokenHash: hashOf("open1")})
}

func TestSearchGames(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		const n = 12
		finishedGames(t, s, n)
		ids := func(from, step, count int) []string {
			var out []string
			for i := from; i >= 0 && len(out) < count; i -= step {
				out = append(out, fmt.Sprintf("f%05d", i))
			}
			return out
		}
		tests := []struct {
			name string
			q    GameQuery
			want []string
			more bool
		}{
			{"every finished game", GameQuery{Status: "finished"}, ids(11, 1, n), false},
			{"a page", GameQuery{Status: "finished", Limit: 5}, ids(11, 1, 5), true},
			{"the next page", GameQuery{Status: "finished", Limit: 5, Offset: 5}, ids(6, 1, 5), true},
			{"the last page", GameQuery{Status: "finished", Limit: 5, Offset: 10}, ids(1, 1, 2), false},
			{"past the end", GameQuery{Status: "finished", Limit: 5, Offset: 20}, nil, false},
			{"by name", GameQuery{Status: "finished", Player: "Bo"}, ids(10, 2, n), false},
			{"by name in other case", GameQuery{Status: "finished", Player: "cY"}, ids(9, 3, n), false},
			{"by name, paged", GameQuery{Status: "finished", Player: "bo", Limit: 2, Offset: 2}, ids(6, 2, 2), true},
			{"by name, any status", GameQuery{Player: "bo", Limit: 1}, []string{"open1"}, true},
			{"a bot's name", GameQuery{Status: "finished", Player: "robo", Limit: 3}, ids(11, 1, 3), true},
			{"one game", GameQuery{Status: "finished", Player: "DEE"}, []string{"f00000"}, false},
			{"nobody of that name", GameQuery{Status: "finished", Player: "Eve"}, nil, false},
			{"a part of a name", GameQuery{Status: "finished", Player: "An"}, nil, false},
		}
		for _, tt := range tests {
			listed, more, err := s.SearchGames(ctx, tt.q)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			var got []string
			for _, l := range listed {
				got = append(got, l.Game.ID)
				if l.Game.Status == "finished" && (len(l.Seats) < 2 || len(l.Results) != 1) {
					t.Errorf("%s: %s has %d seats and %d results, want them read with it", tt.name, l.Game.ID, len(l.Seats), len(l.Results))
				}
			}
			if !slices.Equal(got, tt.want) || more != tt.more {
				t.Errorf("%s: got %v (more %v), want %v (more %v)", tt.name, got, more, tt.want, tt.more)
			}
		}
	})
}

// queryCatcher keeps the SQL of the queries a store makes.
type queryCatcher struct {
	mu      sync.Mutex
	queries []string
}

func (c *queryCatcher) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (c *queryCatcher) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queries = append(c.queries, e.Query)
}

// TestSearchByNameUsesTheIndex: SQLite plans a search by name through the
// index of folded names, not by reading every seat, and reads the games it
// names by their keys, not every game of the status.
func TestSearchByNameUsesTheIndex(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, testDBs(t)[0])
	finishedGames(t, s, 30)
	c := &queryCatcher{}
	if _, _, err := s.WithQueryHook(c).SearchGames(ctx, GameQuery{Status: "finished", Player: "Bo", Limit: 10}); err != nil {
		t.Fatal(err)
	}
	var search string
	for _, q := range c.queries {
		if strings.Contains(q, "lower(name)") {
			search = q
		}
	}
	if search == "" {
		t.Fatalf("no search by name among the queries %q", c.queries)
	}
	var plan []struct {
		ID      int    `bun:"id"`
		Parent  int    `bun:"parent"`
		NotUsed int    `bun:"notused"`
		Detail  string `bun:"detail"`
	}
	rows, err := s.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+search)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.ScanRows(ctx, rows, &plan); err != nil {
		t.Fatal(err)
	}
	var details []string
	for _, p := range plan {
		details = append(details, p.Detail)
	}
	all := strings.Join(details, "; ")
	if !strings.Contains(all, "seats_name_key") || strings.Contains(all, "SCAN seats") ||
		!strings.Contains(all, "(id=?)") || strings.Contains(all, "games_status_created_at") {
		t.Errorf("got the plan %q, want the seats read through seats_name_key and their games by id", all)
	}
}

// BenchmarkSearchGames times a page of a frequent player's finished games
// (in a third of 5,000 games), the only page of a rare player's (in 20), and
// a page of all finished games.
func BenchmarkSearchGames(b *testing.B) {
	ctx := context.Background()
	for _, db := range testDBs(b) {
		s := newStore(b, db)
		finishedGames(b, s, 5000)
		for _, q := range []struct {
			name string
			q    GameQuery
		}{
			{"player", GameQuery{Status: "finished", Player: "cy", Limit: 20, Offset: 200}},
			{"rare", GameQuery{Status: "finished", Player: "dee", Limit: 20}},
			{"all", GameQuery{Status: "finished", Limit: 20, Offset: 200}},
		} {
			b.Run(db.name+"/"+q.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if l, _, err := s.SearchGames(ctx, q.q); err != nil || len(l) != 20 {
						b.Fatalf("got %d games, %v", len(l), err)
					}
				}
			})
		}
	}
}

// TestLookUpsByUnstorableText: a look-up by a string no row can hold (a NUL
// byte, which bun would write into the SQL text as a marker the database
// can't parse, or bytes that aren't UTF-8, which it would change to U+FFFD)
// finds nothing, on each dialect, and never fails as the database's error.
func TestLookUpsByUnstorableText(t *testing.T) {
	forEachDB(t, func(t *testing.T, db testDB) {
		ctx := context.Background()
		s := newStore(t, db)
		finishedGames(t, s, 2)
		if err := s.CreateAccount(ctx, &Account{Name: "Ann", NameKey: "ann", PasswordHash: "h", CreatedAt: base}); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"\x00", "a\x00b", "Ann\x00", "Ann\xff", "\xff"} {
			for _, status := range []game.Status{"", game.StatusFinished} {
				got, more, err := s.SearchGames(ctx, GameQuery{Status: status, Player: bad, Limit: 20})
				if err != nil || len(got) != 0 || more {
					t.Errorf("SearchGames(player %q, status %q): got %d games, %v, %v; want none and no error", bad, status, len(got), more, err)
				}
			}
			if got, _, err := s.SearchGames(ctx, GameQuery{Status: game.Status(bad)}); err != nil || len(got) != 0 {
				t.Errorf("SearchGames(status %q): got %d games, %v; want none and no error", bad, len(got), err)
			}
			if _, err := s.AccountByName(ctx, strings.ToLower(bad)); !errors.Is(err, ErrNotFound) {
				t.Errorf("AccountByName(%q): got %v, want ErrNotFound", bad, err)
			}
			if _, _, err := s.Game(ctx, "f00000"+bad); !errors.Is(err, ErrNotFound) {
				t.Errorf("Game(%q): got %v, want ErrNotFound", "f00000"+bad, err)
			}
		}
	})
}
