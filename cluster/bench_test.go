package cluster

import (
	"context"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/live"
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
			var id string
			for b.Loop() {
				b.StopTimer()
				seat, a := nextMove(b, p.tables[0], &id)
				b.StartTimer()
				start := time.Now()
				if _, err := p.tables[through.node].Act(context.Background(), id, a); err != nil {
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

// nextMove is a move someone may make at game *id, opening a new game
// when there is none or it is over.
func nextMove(b *testing.B, tables *Tables, id *string) (int, engine.Action) {
	ctx := context.Background()
	for {
		if *id == "" {
			host, err := tables.Create(ctx, live.CreateRequest{Options: engine.Standard(3), HostName: "Ann"})
			if err != nil {
				b.Fatal(err)
			}
			for _, name := range []string{"Bob", "Cy"} {
				if _, err := tables.Join(ctx, host.Game.ID, name, 0); err != nil {
					b.Fatal(err)
				}
			}
			if err := tables.Start(ctx, host.Game.ID, 0); err != nil {
				b.Fatal(err)
			}
			*id = host.Game.ID
		}
		for seat := range 3 {
			v, err := tables.View(ctx, *id, seat)
			if err != nil {
				b.Fatal(err)
			}
			if v.Phase == engine.PhaseOver {
				break
			}
			switch {
			case slices.Contains(v.Can, engine.ActPlay) && len(v.Hand) > 0:
				return seat, engine.Action{Kind: engine.ActPlay, Seat: seat, No: v.Plays, Cards: v.Hand[:1]}
			case slices.Contains(v.Can, engine.ActPass):
				return seat, engine.Action{Kind: engine.ActPass, Seat: seat, No: v.Plays}
			}
		}
		*id = ""
	}
}
