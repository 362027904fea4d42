package cluster

import (
	"context"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
)

// BenchmarkMove times a move made on the node that runs its table and one
// made through the other node, and reports their p50 and p99.
func BenchmarkMove(b *testing.B) {
	for _, through := range []struct {
		name string
		node int
	}{{"owner", 0}, {"other", 1}} {
		b.Run(through.name, func(b *testing.B) {
			p := newPair(b, 0)
			var took []time.Duration
			var g benchGame
			for b.Loop() {
				b.StopTimer()
				seat, a := g.next(b, p.tables[0])
				b.StartTimer()
				start := time.Now()
				if _, err := p.tables[through.node].Move(context.Background(), g.id, g.tokens[seat], a); err != nil {
					b.Fatalf("%s by seat %d: %v", a.Kind, seat, err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// BenchmarkFrame times a move's spectator frame from the move to the hub of
// the node that runs the table, and to the hub of the other node, which
// follows it over NATS; it reports the p50 and p99 of each.
func BenchmarkFrame(b *testing.B) {
	p := newPair(b, time.Hour)
	type arrival struct {
		node int
		game string
		rev  int
		at   time.Time
	}
	arrivals := make(chan arrival, 1024)
	for i := range 2 {
		p.hubs[i].tap = func(game string, f game.Frame) {
			if f.Seat == engine.Spectator {
				arrivals <- arrival{i, game, f.Revision, time.Now()}
			}
		}
	}
	var g benchGame
	var followed string
	var took [2][]time.Duration
	for b.Loop() {
		b.StopTimer()
		seat, a := g.next(b, p.tables[0])
		id := g.id
		if id != followed {
			p.relays[1].Follow(id, engine.Spectator, "", 0, true)
			followed = id
			time.Sleep(50 * time.Millisecond) // the subscription's interest reaches the owner
		}
		want, err := p.tables[0].Frame(context.Background(), id, engine.Spectator)
		if err != nil {
			b.Fatal(err)
		}
		for len(arrivals) > 0 {
			<-arrivals
		}
		b.StartTimer()
		start := time.Now()
		if _, err := p.tables[0].Move(context.Background(), id, g.tokens[seat], a); err != nil {
			b.Fatal(err)
		}
		var seen [2]bool
		for !seen[0] || !seen[1] {
			select {
			case ar := <-arrivals:
				if ar.game == id && ar.rev > want.Revision && !seen[ar.node] {
					seen[ar.node] = true
					took[ar.node] = append(took[ar.node], ar.at.Sub(start))
				}
			case <-time.After(10 * time.Second):
				b.Fatalf("no frame after a move on node(s) %v", seen)
			}
		}
	}
	for i, name := range []string{"owner", "other"} {
		slices.Sort(took[i])
		b.ReportMetric(float64(took[i][len(took[i])/2].Microseconds()), name+"-p50-µs")
		b.ReportMetric(float64(took[i][len(took[i])*99/100].Microseconds()), name+"-p99-µs")
	}
}

// benchGame is the game a benchmark moves in, and its seats' tokens.
type benchGame struct {
	id     string
	tokens map[int]string
}

// next is the next move in g: the first seat that may play plays its first
// card, or else the first that may let the last play go does. A game over
// is followed by a new one.
func (g *benchGame) next(b *testing.B, tables *Service) (int, engine.Action) {
	ctx := context.Background()
	for {
		if g.id == "" {
			host, err := tables.Create(ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann"})
			if err != nil {
				b.Fatal(err)
			}
			joined := []string{host.Token}
			for _, name := range []string{"Bob", "Cy"} {
				j, err := tables.Join(ctx, host.Game.ID, name, 0)
				if err != nil {
					b.Fatal(err)
				}
				joined = append(joined, j.Token)
			}
			if err := tables.Start(ctx, host.Game.ID, 0); err != nil {
				b.Fatal(err)
			}
			g.id, g.tokens = host.Game.ID, make(map[int]string)
			for _, token := range joined {
				seat, err := tables.Authenticate(ctx, g.id, token) // the start numbers the seats afresh
				if err != nil {
					b.Fatal(err)
				}
				g.tokens[seat] = token
			}
		}
		for seat := range 3 {
			v, err := tables.View(ctx, g.id, seat)
			if err != nil {
				b.Fatal(err)
			}
			if v.Phase == engine.PhaseOver {
				break
			}
			switch {
			case slices.Contains(v.Can, engine.ActPlay) && len(v.Hand) > 0:
				return seat, engine.Action{Kind: engine.ActPlay, No: v.Plays, Cards: v.Hand[:1]}
			case slices.Contains(v.Can, engine.ActPass):
				return seat, engine.Action{Kind: engine.ActPass, No: v.Plays}
			}
		}
		g.id = ""
	}
}
