package engine

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestSmokeRandomGames(t *testing.T) {
	for seed := range uint64(200) {
		n := 3 + int(seed%8)
		now := time.Unix(0, 0)
		s, err := New(Standard(n), seed, now)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for steps := 0; !s.Over(); steps++ {
			if steps > 100000 {
				t.Fatalf("seed %d: game did not end", seed)
			}
			now = now.Add(500 * time.Millisecond)
			ds := s.Deciding()
			if len(ds) == 0 {
				s.Tick(s.Deadline())
				continue
			}
			d := ds[rng.IntN(len(ds))]
			v := s.View(d.Seat)
			a, _ := v.Fallback()
			if a.Kind == ActPass && rng.IntN(4) == 0 {
				a.Kind = ActCall
			}
			if a.Kind == ActPlay && rng.IntN(3) == 0 && len(v.Hand) > 3 {
				a.Cards = v.Hand[:3]
				a.Claim = 2
			}
			if err := s.Apply(a, now); err != nil {
				t.Fatalf("seed %d: %v: %v", seed, a, err)
			}
		}
		total := 0
		for i := range n {
			total += s.HandSize(i)
		}
		total += len(s.pile)
		if total != 52*s.opts.Decks() {
			t.Fatalf("seed %d: %d cards", seed, total)
		}
	}
}
