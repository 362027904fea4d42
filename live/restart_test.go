package live

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/engine/drive"
	"bullshit/game"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/store"
	"bullshit/store/storetest"
)

// storeRunning stores n four-seat bot games, each played by the bots some
// forty plays in, as a server that stopped mid-game leaves them.
func storeRunning(tb testing.TB, st *store.Store, n int, start time.Time) {
	tb.Helper()
	ctx := context.Background()
	opts := engine.Standard(4)
	opts.Rules = engine.CurrentRules
	var batch []store.Action
	for i := range n {
		id := fmt.Sprintf("r%05d", i)
		seed := uint64(i) + 1
		seats := make([]store.Seat, 4)
		bots := make([]*bot.Bot, 4)
		for s := range seats {
			seats[s] = store.Seat{No: s, Kind: game.SeatBot, Name: "Bot", BotLevel: bot.Medium, BotStyle: siteStyle(seed, s)}
			var err error
			if bots[s], err = bot.New(bot.Medium, siteStyle(seed, s), seed+uint64(s)); err != nil {
				tb.Fatal(err)
			}
		}
		g := store.Game{ID: id, Status: game.StatusOpen, Options: opts, Seed: seed, AwayAfter: time.Minute, CreatedAt: start}
		if err := st.CreateGame(ctx, &g, seats); err != nil {
			tb.Fatal(err)
		}
		if err := st.StartGame(ctx, store.Fence{}, id, start, nil); err != nil {
			tb.Fatal(err)
		}
		s, err := engine.New(opts, seed, start)
		if err != nil {
			tb.Fatal(err)
		}
		// Every seat thinks half a second, by the driver's rule.
		dt := drive.New(s, start, func(engine.Decider) time.Duration { return 500 * time.Millisecond })
		for seq := 1; s.Plays() < 40 && !s.Over(); {
			next := dt.Next()
			if next.Deadline {
				dt.Settle(next.At)
				continue
			}
			seat := next.Deciders[0].Seat
			a, ok := bots[seat].Choose(s.View(seat))
			if !ok {
				tb.Fatalf("game %s: seat %d has no move", id, seat)
			}
			if err := s.Apply(a, next.At); err != nil {
				tb.Fatalf("game %s: %+v: %v", id, a, err)
			}
			dt.Moved(a, next.At)
			batch = append(batch, store.Action{GameID: id, Seq: seq, At: next.At, Action: a})
			seq++
		}
		if len(batch) >= 2000 || i == n-1 {
			if err := st.AppendActions(ctx, batch); err != nil {
				tb.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// BenchmarkRestart is a server starting on a store holding n games being
// played: every one read and rebuilt from its actions (the tables started,
// not yet played), on SQLite and, when BULLSHIT_TEST_POSTGRES is set,
// PostgreSQL.
func BenchmarkRestart(b *testing.B) {
	dbs := []struct{ name, url string }{{"sqlite", ""}}
	if storetest.HavePostgres() {
		dbs = append(dbs, struct{ name, url string }{"postgres", "pg"})
	}
	for _, db := range dbs {
		for _, n := range []int{1000} {
			b.Run(fmt.Sprintf("%s/%d", db.name, n), func(b *testing.B) {
				url := storetest.SQLiteURL(b)
				if db.url != "" {
					url = storetest.PostgresURL(b)
				}
				if err := os.MkdirAll(url[:len(url)-len("/bullshit.db")], 0o755); db.url == "" && err != nil {
					b.Fatal(err)
				}
				st, err := store.Open(context.Background(), url)
				if err != nil {
					b.Fatal(err)
				}
				defer st.Close()
				clock := fakeclock.New(epoch)
				storeRunning(b, st, n, epoch)
				for b.Loop() {
					m, err := startManager(context.Background(), Config{Clock: clock}, st, Hooks{})
					if err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					if len(m.running) != n {
						b.Fatalf("got %d tables, want %d", len(m.running), n)
					}
					m.Close(context.Background())
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/restart")
			})
		}
	}
}
