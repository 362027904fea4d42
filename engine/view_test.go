package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
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
						// The doubt worked out once a play is the one Doubt gives.
						if l := d.s.last; l != nil && !l.Shown && l.Seat != seat && d.s.phase != PhaseOver {
							var hand []Card
							if seat != Spectator {
								hand = d.s.hands[seat]
							}
							if want := Doubt(hand, l.Rank, l.Claim, l.Sizes, d.s.opts.Copies()); v.Doubt != want {
								t.Fatalf("seed %d, play %d, seat %d: got doubt %q, want %q", seed, d.s.plays, seat, v.Doubt, want)
							}
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

// TestQuickSortsMatchSlowOnes checks the set-based card sort and the
// hand-over's pick by keys against plain sorts, over random hands of one and
// two decks.
func TestQuickSortsMatchSlowOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 2000 {
		all := deck(1 + i%2)
		rng.Shuffle(len(all), func(a, b int) { all[a], all[b] = all[b], all[a] })
		hand := all[:rng.IntN(len(all)+1)]
		got, want := slices.Clone(hand), slices.Clone(hand)
		sortCards(got)
		slowSort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("sortCards(%v): got %v, want %v", hand, got, want)
		}
		first, seats, k := rng.IntN(600), MinSeats+rng.IntN(MaxSeats-MinSeats+1), rng.IntN(5)
		var wait [Ranks]int
		for r := range wait {
			wait[r] = Ranks
			for m := range Ranks {
				if RankAt(first+m*seats) == Rank(r) {
					wait[r] = m
					break
				}
			}
		}
		if got, want := leastUsefulByWait(hand, first, seats, k), leastUsefulSorted(hand, wait, k); !slices.Equal(got, want) {
			t.Fatalf("leastUsefulByWait(%v, %d, %d, %d): got %v, want %v", hand, first, seats, k, got, want)
		}
		if got, want := LeastUseful(hand, first, seats, k), rulebook[CurrentRules].leastUseful(hand, first, seats, k); !slices.Equal(got, want) {
			t.Fatalf("LeastUseful(%v, %d, %d, %d): got %v, want the current rules' %v", hand, first, seats, k, got, want)
		}
	}
}

// TestViewIntoLeavesNothingBehind fills one view for every seat in turn and
// checks that no card of another seat's hand is left in the arrays beyond
// the slices' ends, where a bot could read it.
func TestViewIntoLeavesNothingBehind(t *testing.T) {
	d := newDriver(t, Standard(4), 9)
	var v View
	d.play(t, func() {
		for seat := range d.s.n {
			d.s.ViewInto(seat, &v)
			tails := [][]Card{v.Hand[len(v.Hand):cap(v.Hand)]}
			if v.Last != nil {
				tails = append(tails, v.Last.Cards[len(v.Last.Cards):cap(v.Last.Cards)])
			}
			for _, tail := range tails {
				for _, c := range tail {
					if c != 0 {
						t.Fatalf("play %d, seat %d: got %v beyond the end, want nothing", d.s.plays, seat, tail)
					}
				}
			}
		}
	})
}
