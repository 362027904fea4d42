package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestViewIntoMatchesView fills one reused view per seat (and one for a
// spectator) at every step of random games, of every size and with every
// option, and checks each against a fresh View: reusing the arrays must
// never leave anything of an earlier view behind, nor show a seat more.
func TestViewIntoMatchesView(t *testing.T) {
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		t.Run(fmt.Sprintf("seats=%d", seats), func(t *testing.T) {
			for g := range 12 {
				seed := uint64(seats*1000 + g)
				d := newDriver(t, randomOptions(rand.New(rand.NewPCG(seed, 11)), seats), seed)
				views := make([]View, seats+1)
				check := func() {
					for seat := Spectator; seat < seats; seat++ {
						v := &views[seat+1]
						d.s.ViewInto(seat, v)
						if got, want := *v, d.s.View(seat); !reflect.DeepEqual(got, want) {
							t.Fatalf("seed %d, play %d, seat %d: got %+v, want %+v", seed, d.s.plays, seat, got, want)
						}
					}
				}
				check()
				d.play(t, check)
			}
		})
	}
}

func TestAppendDecidingMatchesDeciding(t *testing.T) {
	d := newDriver(t, Standard(5), 3)
	var ds []Decider
	d.play(t, func() {
		ds = d.s.AppendDeciding(ds[:0])
		if want := d.s.Deciding(); !reflect.DeepEqual(ds, want) && (len(ds) != 0 || len(want) != 0) {
			t.Fatalf("play %d: got %v, want %v", d.s.plays, ds, want)
		}
	})
}
