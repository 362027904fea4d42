package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"
)

// The standings benchmarks' database: a site some years old.
const (
	benchPlayers = 10_000
	benchGames   = 100_000
	// benchSeated accounts sit at each game, beside bots.
	benchSeated = 4
	// benchHeavy is the share of games the busiest account (id 1) plays:
	// one with thousands of games, the player page's worst case.
	benchHeavy = 0.05
	benchBatch = 1000
)

// seedStandings fills s with benchPlayers accounts (one in ten a program),
// their ratings, and benchGames finished, rated games of benchSeated
// accounts each, in batched inserts in one transaction. It returns the
// busiest account's name and a typical one's.
func seedStandings(tb testing.TB, s *Store) (heavy, typical string) {
	tb.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	name := func(i int) string { return fmt.Sprintf("player%05d", i) }
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		accounts := make([]Account, 0, benchBatch)
		flush := func() error {
			if len(accounts) == 0 {
				return nil
			}
			_, err := tx.NewInsert().Model(&accounts).Exec(ctx)
			accounts = accounts[:0]
			return err
		}
		for i := 1; i <= benchPlayers; i++ {
			accounts = append(accounts, Account{ID: int64(i), Name: name(i), NameKey: name(i), PasswordHash: "x", Bot: i%10 == 0, CreatedAt: start})
			if len(accounts) == benchBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}

		// Each player's rating walks from 1500 game by game, so the rows
		// agree with the ratings written last.
		type state struct {
			r, dev float64
			games  int
			at     time.Time
		}
		players := make([]state, benchPlayers+1)
		for i := range players {
			players[i] = state{r: 1500, dev: 350}
		}
		games := make([]gameRow, 0, benchBatch)
		rows := make([]PlayerGame, 0, benchBatch*benchSeated)
		flushGames := func() error {
			if len(games) == 0 {
				return nil
			}
			if _, err := tx.NewInsert().Model(&games).Exec(ctx); err != nil {
				return err
			}
			if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
				return err
			}
			games, rows = games[:0], rows[:0]
			return nil
		}
		opts := standard(benchSeated + 2)
		for g := range benchGames {
			id := fmt.Sprintf("g%07d", g)
			at := start.Add(time.Duration(g) * 7 * time.Minute)
			row, err := toGameRow(&Game{ID: id, Status: "finished", Options: opts, Seed: uint64(g), AwayAfter: time.Minute,
				Plays: 60, CreatedAt: at.Add(-10 * time.Minute), StartedAt: at.Add(-9 * time.Minute), EndedAt: at})
			if err != nil {
				return err
			}
			games = append(games, row)
			seated := map[int]bool{}
			if rng.Float64() < benchHeavy {
				seated[1] = true
			}
			for len(seated) < benchSeated {
				seated[1+rng.IntN(benchPlayers)] = true
			}
			places := rng.Perm(benchSeated + 2)
			seat := 0
			for p := range seated {
				st := &players[p]
				place := places[seat] + 1
				after := st.r + float64(benchSeated+2-2*place)*st.dev/60
				dev := max(45, st.dev*0.93)
				rows = append(rows, PlayerGame{GameID: id, Seat: seat, PlayerID: int64(p), At: at, Seats: benchSeated + 2,
					Place: place, Left: place - 1, Calls: rng.IntN(6), Right: rng.IntN(3), Lies: rng.IntN(8), Sneaks: rng.IntN(3),
					Caught: rng.IntN(2), Rated: true, BeforeRating: st.r, BeforeDeviation: st.dev, AfterRating: after, AfterDeviation: dev})
				st.r, st.dev, st.at = after, dev, at
				st.games++
				seat++
			}
			if len(games) == benchBatch {
				if err := flushGames(); err != nil {
					return err
				}
			}
		}
		if err := flushGames(); err != nil {
			return err
		}
		ratings := make([]Rating, 0, benchBatch)
		for i := 1; i <= benchPlayers; i++ {
			if players[i].games == 0 {
				continue
			}
			ratings = append(ratings, Rating{PlayerID: int64(i), Rating: players[i].r, Deviation: players[i].dev, Volatility: 0.06,
				Games: players[i].games, RatedAt: players[i].at})
			if len(ratings) == benchBatch || i == benchPlayers {
				if _, err := tx.NewInsert().Model(&ratings).Exec(ctx); err != nil {
					return err
				}
				ratings = ratings[:0]
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("seeding: %v", err)
	}
	// The planner's statistics and PostgreSQL's visibility map, as a live
	// database's autovacuum keeps them.
	analyze := "ANALYZE"
	if s.Dialect() == Postgres {
		analyze = "VACUUM ANALYZE"
	}
	if _, err := s.db.ExecContext(ctx, analyze); err != nil {
		tb.Fatalf("%s: %v", analyze, err)
	}
	return name(1), name(2)
}

// playerPage runs the queries a player's page makes (players.Profile).
func playerPage(ctx context.Context, s *Store, name string) error {
	a, err := s.AccountByName(ctx, name)
	if err != nil {
		return err
	}
	if _, err := s.Ratings(ctx, []int64{a.ID}); err != nil {
		return err
	}
	if _, err := s.Totals(ctx, a.ID); err != nil {
		return err
	}
	if _, err := s.Places(ctx, a.ID); err != nil {
		return err
	}
	if _, err := s.RatingHistory(ctx, a.ID, 200); err != nil {
		return err
	}
	_, err = s.PlayerGames(ctx, a.ID, 20)
	return err
}

// capture records the statements run while it is on.
type capture struct {
	mu      sync.Mutex
	on      bool
	queries []string
}

func (c *capture) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (c *capture) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.on {
		c.queries = append(c.queries, e.Query)
	}
}

// explain logs the plan of every statement f runs.
func explain(b *testing.B, s *Store, c *capture, what string, f func() error) {
	c.mu.Lock()
	c.on, c.queries = true, nil
	c.mu.Unlock()
	err := f()
	c.mu.Lock()
	c.on = false
	queries := c.queries
	c.mu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	prefix := "EXPLAIN QUERY PLAN "
	if s.Dialect() == Postgres {
		prefix = "EXPLAIN "
	}
	var out strings.Builder
	for _, q := range queries {
		rows, err := s.db.QueryContext(context.Background(), prefix+q)
		if err != nil {
			b.Fatalf("explaining %s: %v", q, err)
		}
		fmt.Fprintf(&out, "\n  %s\n", q)
		for _, line := range planLines(b, rows) {
			fmt.Fprintf(&out, "    %s\n", line)
		}
	}
	b.Logf("%s on %s:%s", what, s.Dialect(), out.String())
}

// planLines reads a plan's rows: PostgreSQL's one text column, SQLite's
// detail column (the last).
func planLines(b *testing.B, rows *sql.Rows) []string {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals[len(vals)-1]))
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkStandings times the leaderboard and the player page on a
// database of benchPlayers accounts and benchGames rated games, on SQLite
// and (with BULLSHIT_TEST_POSTGRES) PostgreSQL, and logs the plans of their
// queries. The seeding takes a while: run it alone, with -run '^$'.
func BenchmarkStandings(b *testing.B) {
	for _, db := range testDBs(b) {
		b.Run(db.name, func(b *testing.B) {
			s := newStore(b, db)
			began := time.Now()
			heavy, typical := seedStandings(b, s)
			b.Logf("seeded %d players and %d games on %s in %v", benchPlayers, benchGames, db.name, time.Since(began).Round(time.Second))
			c := &capture{}
			s.db.AddQueryHook(c)
			ctx := context.Background()
			boards := []struct {
				name string
				q    LeaderboardQuery
			}{
				// The settled ratings, as players.Service reads a page.
				{"leaderboard/all/page1", LeaderboardQuery{MaxDeviation: 110, Limit: 51}},
				{"leaderboard/people/page1", LeaderboardQuery{Who: People, MaxDeviation: 110, Limit: 51}},
				{"leaderboard/programs/page1", LeaderboardQuery{Who: Programs, MaxDeviation: 110, Limit: 51}},
				{"leaderboard/all/page100", LeaderboardQuery{MaxDeviation: 110, Limit: 51, Offset: 99 * 50}},
				// The provisional ones after them.
				{"leaderboard/provisional/page1", LeaderboardQuery{MinDeviation: 110, Limit: 51}},
			}
			for _, bq := range boards {
				explain(b, s, c, bq.name, func() error { _, err := s.Leaderboard(ctx, bq.q); return err })
				b.Run(bq.name, func(b *testing.B) {
					for b.Loop() {
						if _, err := s.Leaderboard(ctx, bq.q); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			settled := LeaderboardQuery{MaxDeviation: 110}
			n, err := s.LeaderboardCount(ctx, settled)
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("%d settled ratings of %d players", n, benchPlayers)
			explain(b, s, c, "leaderboard/count", func() error { _, err := s.LeaderboardCount(ctx, settled); return err })
			b.Run("leaderboard/count", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.LeaderboardCount(ctx, settled); err != nil {
						b.Fatal(err)
					}
				}
			})
			for _, p := range []struct{ what, name string }{{"player/busiest", heavy}, {"player/typical", typical}} {
				explain(b, s, c, p.what, func() error { return playerPage(ctx, s, p.name) })
				b.Run(p.what, func(b *testing.B) {
					for b.Loop() {
						if err := playerPage(ctx, s, p.name); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
