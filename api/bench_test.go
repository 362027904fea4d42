package api_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/server"
	"bullshit/store"
)

// BenchmarkActionToEvent measures, on localhost with the server as
// server.Assemble builds it (the router, the push and the store: SQLite, or
// PostgreSQL as in the tests) and the real clock, how long after a move is
// sent its change arrives on an HTTP subscriber's event stream (a
// spectator's). The figures include the request,
// storing the action and the push; p50 and p99 are reported, with the p99 of
// the move's own answer beside them to tell the store's share from the push's.
func BenchmarkActionToEvent(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, storeURL(b))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	// The server as serve builds it: its router, push and store.
	unlimited := api.Rate{PerSecond: 1e9, Burst: 1e9}
	site, err := server.Assemble(ctx, st, nil, nil, server.Settings{PerAddress: unlimited, PerToken: unlimited})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler)
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stop()
		wg.Wait()
		srv.Close()
		if err := site.Close(ctx); err != nil {
			b.Error(err)
		}
	}()

	var (
		mu      sync.Mutex
		arrived = map[string]map[int]time.Time{} // game → version → when it arrived
	)
	// newGame seats three people (nobody acts but the benchmark) and follows
	// the spectator's stream.
	newGame := func() (string, []*client.Client) {
		c := client.New(srv.URL, nil)
		host, err := c.Create(ctx, client.CreateBody{Seats: 3, Name: "A", WindowSeconds: 10})
		if err != nil {
			b.Fatal(err)
		}
		id := host.Game.ID
		seats := []*client.Client{c.WithToken(host.Token)}
		for _, name := range []string{"B", "C"} {
			j, err := c.Join(ctx, id, name)
			if err != nil {
				b.Fatal(err)
			}
			seats = append(seats, c.WithToken(j.Token))
		}
		if _, err := seats[0].Start(ctx, id); err != nil {
			b.Fatal(err)
		}
		mu.Lock()
		arrived[id] = map[int]time.Time{}
		mu.Unlock()
		ready := make(chan struct{})
		wg.Go(func() {
			once := sync.OnceFunc(func() { close(ready) })
			_ = c.Events(runCtx, id, func(v engine.View) error {
				now := time.Now()
				mu.Lock()
				if _, seen := arrived[id][v.Version]; !seen {
					arrived[id][v.Version] = now
				}
				mu.Unlock()
				once()
				return nil
			})
		})
		<-ready
		return id, seats
	}

	// waitFor is when the view of version v arrived on the stream.
	waitFor := func(id string, v int) time.Time {
		for {
			mu.Lock()
			at, ok := arrived[id][v]
			mu.Unlock()
			if ok {
				return at
			}
			time.Sleep(20 * time.Microsecond)
		}
	}

	id, seats := newGame()
	lat := make([]time.Duration, 0, b.N)  // sent → on the stream
	acks := make([]time.Duration, 0, b.N) // sent → answered
	push := make([]time.Duration, 0, b.N) // answered → on the stream (0 if it came first)
	b.ResetTimer()
	for range b.N {
		var moved bool
		for !moved {
			for _, s := range seats {
				v, err := s.View(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				if v.Phase == engine.PhaseOver {
					id, seats = newGame()
					break
				}
				a, ok := v.Fallback()
				if !ok {
					continue
				}
				sent := time.Now()
				nv, err := s.Act(ctx, id, a)
				if err != nil {
					b.Fatalf("move %+v: %v", a, err)
				}
				answered := time.Now()
				at := waitFor(id, nv.Version)
				acks = append(acks, answered.Sub(sent))
				lat = append(lat, at.Sub(sent))
				push = append(push, max(0, at.Sub(answered)))
				moved = true
				break
			}
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(acks)
	slices.Sort(push)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "event-p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "event-p99-µs")
		b.ReportMetric(float64(acks[len(acks)*99/100].Microseconds()), "answer-p99-µs")
		b.ReportMetric(float64(push[len(push)*99/100].Microseconds()), "after-answer-p99-µs")
	}
}
