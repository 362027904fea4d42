package live

import (
	"context"
	"testing"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/store"
)

// unstored is a store that drops actions, to time the runtime alone.
type unstored struct{ *store.Store }

func (unstored) AppendAction(context.Context, store.Action) error    { return nil }
func (unstored) AppendActions(context.Context, []store.Action) error { return nil }

// BenchmarkAct is one action end to end through the Manager: to the table's
// goroutine, applied, stored (in SQLite, synchronously to disk; or dropped,
// to time the runtime alone), the views queued for the Publisher, and the
// seat's view back. Three people play, so no bot or clock is involved.
func BenchmarkAct(b *testing.B) {
	for _, bb := range []struct {
		name  string
		store func(*store.Store) storage
	}{
		{"sqlite", func(st *store.Store) storage { return st }},
		{"unstored", func(st *store.Store) storage { return unstored{st} }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			f := newFixture(b)
			f.m.Close(f.ctx)
			f.m = f.open(bb.store(f.st))
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
				// The status, not the view: a game whose actions were
				// dropped is viewed, once over, as dealt.
				if f.status(id) != game.StatusLive {
					newGame()
				}
				v := f.view(id, engine.Spectator)
				a, _ := f.view(id, v.Deciding[0].Seat).Fallback()
				b.StartTimer()
				if _, err := f.m.Act(f.ctx, id, a); err != nil {
					b.Fatalf("act %+v: %v", a, err)
				}
			}
		})
	}
}
