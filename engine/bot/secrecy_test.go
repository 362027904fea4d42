package bot

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"bullshit/engine"
)

// Two games that differ only in what a seat can't see (which cards another
// player put face down) give that seat byte-identical views, and so every
// bot in that seat the same choice.
func TestHiddenCardsDontChangeChoices(t *testing.T) {
	checked := 0
	for seed := range uint64(30) {
		seats := 3 + int(seed)%8
		rng := rand.New(rand.NewPCG(seed, 11))
		walk(t, seats, engine.Standard(seats), seed, func(s *engine.State, v engine.View, b *Bot) {
			if v.Phase != engine.PhasePlay || rng.IntN(4) != 0 {
				return
			}
			a, _ := b.Choose(v)
			// The same play with one face-down card swapped for another the
			// player holds: nobody else can tell them apart.
			var other []engine.Card
			for _, c := range v.Hand {
				if !slices.Contains(a.Cards, c) {
					other = append(other, c)
				}
			}
			if len(other) == 0 {
				return
			}
			swapped := a
			swapped.Cards = slices.Clone(a.Cards)
			swapped.Cards[rng.IntN(len(swapped.Cards))] = other[rng.IntN(len(other))]
			one, two := s.Clone(), s.Clone()
			// Any time after the play in hand will do: no deadline is due.
			at := epoch.Add(time.Duration(v.Plays+1) * time.Hour)
			if err := one.Apply(a, at); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if err := two.Apply(swapped, at); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for seat := range seats {
				if seat == v.Seat {
					continue
				}
				v1, v2 := one.View(seat), two.View(seat)
				j1, _ := json.Marshal(v1)
				j2, _ := json.Marshal(v2)
				if !bytes.Equal(j1, j2) {
					t.Fatalf("seed %d: seat %d sees the swapped card:\n%s\n%s", seed, seat, j1, j2)
				}
				for _, bb := range every(t, seed+uint64(seat)) {
					c1, _ := bb.Choose(v1)
					c2, _ := bb.Choose(v2)
					if !sameAction(c1, c2) {
						t.Fatalf("seed %d: %s in seat %d chose %+v and %+v", seed, bb, seat, c1, c2)
					}
				}
				checked++
			}
		})
	}
	if checked < 500 {
		t.Errorf("got %d views checked, want at least 500", checked)
	}
}
