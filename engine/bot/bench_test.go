package bot

import (
	"testing"

	"bullshit/engine"
)

// decisions are views from four-seat bot games, past the first few plays:
// plays are views of the seat to play, calls of a listener in the window.
func decisions(b *testing.B) (plays, calls []engine.View) {
	b.Helper()
	for seed := uint64(1); len(plays) < 64 || len(calls) < 64; seed++ {
		s, err := engine.New(engine.Standard(4), seed, epoch)
		if err != nil {
			b.Fatal(err)
		}
		bots := make([]*Bot, 4)
		for i := range bots {
			if bots[i], err = New([]Level{Medium, Hard}[i%2], SiteStyles()[i%3], seed+uint64(i)); err != nil {
				b.Fatal(err)
			}
		}
		now := epoch
		for !s.Over() {
			ds := s.Deciding()
			if len(ds) == 0 {
				now = s.Deadline()
				s.Tick(now)
				continue
			}
			v := s.View(ds[0].Seat)
			if s.Plays() >= 8 {
				switch {
				case v.Phase == engine.PhasePlay && len(plays) < 64:
					plays = append(plays, v)
				case v.Phase == engine.PhaseCall && len(calls) < 64:
					calls = append(calls, v)
				}
			}
			a, ok := bots[ds[0].Seat].Choose(v)
			if !ok {
				b.Fatalf("seed %d: no move for seat %d", seed, ds[0].Seat)
			}
			if err := s.Apply(a, now); err != nil {
				b.Fatal(err)
			}
		}
	}
	return plays, calls
}

// BenchmarkChoose is one bot decision, a play or a call, by a medium and a
// hard bot: the views are made beforehand, so only the choice is timed.
func BenchmarkChoose(b *testing.B) {
	plays, calls := decisions(b)
	for _, kind := range []struct {
		name  string
		views []engine.View
	}{{"play", plays}, {"call", calls}} {
		for _, level := range []Level{Medium, Hard} {
			b.Run(kind.name+"/"+string(level), func(b *testing.B) {
				bot, err := New(level, Cautious, 1)
				if err != nil {
					b.Fatal(err)
				}
				i := 0
				for b.Loop() {
					if _, ok := bot.Choose(kind.views[i%len(kind.views)]); !ok {
						b.Fatal("no move")
					}
					i++
				}
			})
		}
	}
}
