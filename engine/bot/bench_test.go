package bot

import (
	"testing"

	"bullshit/engine"
	"bullshit/engine/drive"
)

// watched is a bot that keeps the views it decides from, past the first
// few plays: plays of the seat to play, calls of a listener in the window.
type watched struct {
	*Bot
	s            *engine.State
	plays, calls *[]engine.View
}

func (w *watched) Decide(v *engine.View) (engine.Action, bool) {
	if v.Plays >= 8 {
		switch {
		case v.Phase == engine.PhasePlay && len(*w.plays) < 64:
			*w.plays = append(*w.plays, w.s.View(v.Seat))
		case v.Phase == engine.PhaseCall && len(*w.calls) < 64:
			*w.calls = append(*w.calls, w.s.View(v.Seat))
		}
	}
	return w.Bot.Decide(v)
}

// decisions are views from four-seat bot games, past the first few plays:
// plays are views of the seat to play, calls of a listener in the window.
func decisions(b *testing.B) (plays, calls []engine.View) {
	b.Helper()
	for seed := uint64(1); len(plays) < 64 || len(calls) < 64; seed++ {
		s, err := engine.New(engine.Standard(4), seed, epoch)
		if err != nil {
			b.Fatal(err)
		}
		seats := make([]drive.Seat, 4)
		for i := range seats {
			bt, err := New([]Level{Medium, Hard}[i%2], SiteStyles()[i%3], seed+uint64(i))
			if err != nil {
				b.Fatal(err)
			}
			seats[i] = &watched{bt, s, &plays, &calls}
		}
		if _, err := drive.Play(s, epoch, seats); err != nil {
			b.Fatalf("seed %d: %v", seed, err)
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
