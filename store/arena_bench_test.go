package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"bullshit/game"
)

// The arena benchmark's arena: issue 27's large one, played out.
const (
	benchEntrants   = 2_000
	benchArenaGames = 20_000
	// benchInPlay of its games are still live: a table for a quarter of
	// the entrants.
	benchInPlay = 100
)

// seedArena fills s with benchEntrants accounts entered in one arena and
// benchArenaGames games of 4 to 6 of them formed in it, each with its
// seats and results, the last benchInPlay still live; now and then a seat
// was handed to a bot. It returns the arena.
func seedArena(tb testing.TB, s *Store) Arena {
	tb.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	start := time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC)
	a := mustArena(tb, s, newArena("benchmark", 0, start, 3*time.Hour))
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		accounts := make([]Account, benchEntrants)
		entries := make([]ArenaEntry, benchEntrants)
		for i := range accounts {
			name := fmt.Sprintf("entrant%04d", i+1)
			accounts[i] = Account{ID: int64(i + 1), Name: name, NameKey: name, PasswordHash: "x", Bot: i%2 == 0, CreatedAt: start}
			entries[i] = ArenaEntry{ArenaID: a.ID, PlayerID: int64(i + 1), State: EntryActive, JoinedAt: start, ChangedAt: start}
		}
		if _, err := tx.NewInsert().Model(&accounts).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(&entries).Exec(ctx); err != nil {
			return err
		}
		var (
			games   []gameRow
			seats   []Seat
			results []Result
			links   []arenaGame
			points  []arenaResultRow
		)
		flush := func() error {
			for _, m := range []any{&games, &seats, &results, &links, &points} {
				if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
					return err
				}
			}
			games, seats, results, links, points = games[:0], seats[:0], results[:0], links[:0], points[:0]
			return nil
		}
		// Games end in about the order they were formed, 20 to 200 s after.
		step := 3 * time.Hour / benchArenaGames
		for g := range benchArenaGames {
			id := fmt.Sprintf("a%07d", g)
			formed := start.Add(time.Duration(g) * step)
			n := 4 + rng.IntN(3)
			live := g >= benchArenaGames-benchInPlay
			gm := Game{ID: id, Status: game.StatusFinished, Options: standard(n), Seed: uint64(g), AwayAfter: time.Minute,
				Plays: 40, CreatedAt: formed, StartedAt: formed, EndedAt: formed.Add(time.Duration(20+rng.IntN(180)) * time.Second)}
			if live {
				gm.Status, gm.EndedAt = game.StatusLive, time.Time{}
			}
			row, err := toGameRow(&gm)
			if err != nil {
				return err
			}
			games = append(games, row)
			links = append(links, arenaGame{GameID: id, ArenaID: a.ID, FormedAt: formed})
			places := rng.Perm(n)
			for seat, p := range rng.Perm(benchEntrants)[:n] {
				kind := game.SeatPerson
				if rng.IntN(20) == 0 {
					kind = game.SeatBot
				}
				seats = append(seats, Seat{GameID: id, No: seat, Kind: kind, Name: accounts[p].Name, PlayerID: int64(p + 1), Covered: kind == game.SeatBot})
				if !live {
					// As FinishGame writes them.
					results = append(results, Result{GameID: id, Seat: seat, Place: places[seat] + 1, Left: places[seat]})
					points = append(points, arenaResultRow{ArenaID: a.ID, EndedUS: gm.EndedAt.UnixMicro(), GameID: id, Seat: seat, PlayerID: int64(p + 1),
						Seats: n, Place: places[seat] + 1, Left: kind == game.SeatBot, Covered: kind == game.SeatBot})
				}
			}
			if len(games) == benchBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if len(games) > 0 {
			return flush()
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("seeding: %v", err)
	}
	analyze := "ANALYZE"
	if s.Dialect() == Postgres {
		analyze = "VACUUM ANALYZE"
	}
	if _, err := s.db.ExecContext(ctx, analyze); err != nil {
		tb.Fatalf("%s: %v", analyze, err)
	}
	return a
}

// BenchmarkArena times the reads an arena's director and pages make, and
// a table formed, at an arena of benchEntrants entrants and
// benchArenaGames games, on SQLite and (with BULLSHIT_TEST_POSTGRES)
// PostgreSQL, and logs their plans. Run it alone, with -run '^$'.
func BenchmarkArena(b *testing.B) {
	for _, db := range testDBs(b) {
		b.Run(db.name, func(b *testing.B) {
			s := newStore(b, db)
			began := time.Now()
			a := seedArena(b, s)
			b.Logf("seeded %d entrants and %d games on %s in %v", benchEntrants, benchArenaGames, db.name, time.Since(began).Round(time.Second))
			c := &capture{}
			s.db.AddQueryHook(c)
			ctx := context.Background()
			results, err := s.ArenaResults(ctx, a.ID)
			if err != nil {
				b.Fatal(err)
			}
			tables, err := s.ArenaTables(ctx, a.ID)
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("%d results, %d tables in play", len(results), len(tables))
			reads := []struct {
				name string
				f    func() error
			}{
				{"results", func() error { _, err := s.ArenaResults(ctx, a.ID); return err }},
				{"tables", func() error { _, err := s.ArenaTables(ctx, a.ID); return err }},
				{"entries", func() error { _, err := s.ArenaEntries(ctx, a.ID); return err }},
				{"games/page1", func() error { _, err := s.ArenaGames(ctx, a.ID, 50, 0); return err }},
				{"account", func() error { _, err := s.AccountArenas(ctx, 1, 20, 0); return err }},
			}
			for _, r := range reads {
				explain(b, s, c, r.name, r.f)
				b.Run(r.name, func(b *testing.B) {
					for b.Loop() {
						if err := r.f(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			// A table formed: the fence, the check that no one sits at
			// another table (each entrant has ~50 seats in the arena), the
			// game, its seats and its link. The games are stored finished,
			// so the next loop's entrants are free again.
			seated := map[int64]bool{}
			for _, t := range tables {
				for _, p := range t.Players {
					seated[p] = true
				}
			}
			var free []int64
			for p := int64(1); p <= benchEntrants; p++ {
				if !seated[p] {
					free = append(free, p)
				}
			}
			n := 0
			b.Run("form", func(b *testing.B) {
				for b.Loop() {
					n++
					players := make([]int64, 5)
					for i := range players {
						players[i] = free[(n*5+i)%len(free)]
					}
					g, seats := arenaTable(fmt.Sprintf("f%07d", n), a.StartsAt, 5, players...)
					g.Status = game.StatusFinished
					if err := s.CreateArenaGame(ctx, a.Fence(), a.ID, &g, seats, a.StartsAt.Add(time.Hour)); err != nil {
						b.Fatal(err)
					}
				}
			})
			// A pool of 200 paired at once: 40 tables in one transaction.
			b.Run("form40", func(b *testing.B) {
				for b.Loop() {
					tables := make([]FormedTable, 40)
					for t := range tables {
						n++
						players := make([]int64, 5)
						for i := range players {
							players[i] = free[(t*5+i)%len(free)]
						}
						g, seats := arenaTable(fmt.Sprintf("f%07d", n), a.StartsAt, 5, players...)
						g.Status = game.StatusFinished
						tables[t] = FormedTable{Game: &g, Seats: seats}
					}
					if err := s.CreateArenaGames(ctx, a.Fence(), a.ID, tables, a.StartsAt.Add(time.Hour)); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
