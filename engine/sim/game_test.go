package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
)

// TestByThinkSortsStably checks the driver's sort of deciders against the
// standard stable sort, at both paces, with equal think times among them.
func TestByThinkSortsStably(t *testing.T) {
	kinds := []engine.Think{engine.ThinkTurn, engine.ThinkGive, engine.Listen0, engine.Listen1, engine.Listen2, engine.Listen3}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		pace := []engine.Pace{engine.Brisk, engine.Relaxed}[rng.IntN(2)]
		ds := make([]engine.Decider, rng.IntN(engine.MaxSeats))
		for i := range ds {
			ds[i] = engine.Decider{Seat: i, Think: kinds[rng.IntN(len(kinds))]}
		}
		want := slices.Clone(ds)
		slices.SortStableFunc(want, func(a, b engine.Decider) int {
			return int(engine.ThinkTime(a.Think, pace) - engine.ThinkTime(b.Think, pace))
		})
		got := slices.Clone(ds)
		times := byThink(got, nil, func(d engine.Decider) time.Duration { return engine.ThinkTime(d.Think, pace) })
		if !slices.Equal(got, want) {
			t.Fatalf("byThink(%v): got %v, want %v", ds, got, want)
		}
		for i, d := range got {
			if times[i] != engine.ThinkTime(d.Think, pace) {
				t.Fatalf("byThink(%v): got time %v for %v, want %v", ds, times[i], d, engine.ThinkTime(d.Think, pace))
			}
		}
	}
}
