package live

import (
	"testing"

	"bullshit/engine"
)

// BenchmarkAct is one action end to end through the Manager: to the table's
// goroutine, applied, stored in SQLite (synchronously, to disk), the views
// queued for the Publisher, and the seat's view back. Three people play, so
// no bot or clock is involved.
func BenchmarkAct(b *testing.B) {
	f := newFixture(b)
	var id string
	newGame := func() {
		id, _ = f.create(3, 0, "Bob", "Cy")
		if err := f.m.Start(f.ctx, id, 0); err != nil {
			b.Fatal(err)
		}
	}
	newGame()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		v := f.view(id, engine.Spectator)
		if v.Phase == engine.PhaseOver {
			newGame()
			v = f.view(id, engine.Spectator)
		}
		a, _ := f.view(id, v.Deciding[0].Seat).Fallback()
		b.StartTimer()
		if _, err := f.m.Act(f.ctx, id, a); err != nil {
			b.Fatalf("act %+v: %v", a, err)
		}
	}
}
