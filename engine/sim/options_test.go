package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"bullshit/engine"
)

// TestShoutsCounted: at four seats the bots' listening times never tie, so
// no second call comes within 300 ms; at six some do, always at the same
// moment (within 50 ms as within 300), and never more than the calls.
func TestShoutsCounted(t *testing.T) {
	for _, tt := range []struct {
		seats int
		ties  bool
	}{{4, false}, {6, true}} {
		rng := rand.New(rand.NewPCG(uint64(tt.seats), 9))
		var calls, together [1]int
		var within [len(ShoutGaps)]int
		for range 20 {
			out, err := Play(Game{Options: engine.Standard(tt.seats), Seats: randomSeats(tt.seats, rng), Seed: rng.Uint64()})
			if err != nil {
				t.Fatal(err)
			}
			calls[0] += out.Calls
			together[0] += out.Together
			for i := range within {
				within[i] += out.Within[i]
			}
		}
		if got := within[0] > 0; got != tt.ties || within[0] != within[2] || together[0] > calls[0] || within[2] > together[0] {
			t.Errorf("%d seats: got %d calls, %d with a second caller, %v within the gaps; want ties %v, all at once",
				tt.seats, calls[0], together[0], within, tt.ties)
		}
	}
}

// TestPlayOnPlaysPastTheFirstOut: games played on go past the first out, to
// places for all but two (or the cap).
func TestPlayOnPlaysPastTheFirstOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	longer := 0
	for range 10 {
		o := engine.Standard(5)
		o.PlayOn = true
		out, err := Play(Game{Options: o, Seats: randomSeats(5, rng), Seed: rng.Uint64()})
		if err != nil {
			t.Fatal(err)
		}
		if out.Capped {
			continue
		}
		if out.FirstOut <= 0 || out.FirstOut > out.Plays {
			t.Errorf("got the first out at play %d of %d", out.FirstOut, out.Plays)
		}
		if out.FirstOut < out.Plays {
			longer++
		}
		places := slices.Clone(out.Places)
		slices.Sort(places)
		if places[0] != 1 || places[1] != 2 || places[2] != 3 {
			t.Errorf("got places %v, want first, second and third out before two are left", out.Places)
		}
	}
	if longer == 0 {
		t.Errorf("no game played on past its first out")
	}
}
