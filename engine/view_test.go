package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
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

// TestRevealHoldsTheCountsUntilTheSweep: the pile is the loser's from the
// call, but a reveal's view says what the table saw before it (every seat's
// count, and the loser's own hand) and when the sweep lands, at the end of
// the take beat under the game's own rules: here a version whose take beat
// is longer than the current one's.
func TestRevealHoldsTheCountsUntilTheSweep(t *testing.T) {
	const version = 97
	own := rulebook[CurrentRules].clone()
	own.Version, own.timed = version, false
	own.Beats[CueTake] = 2500 * time.Millisecond
	rulebook[version] = &own
	t.Cleanup(func() { delete(rulebook, version) })

	rng := rand.New(rand.NewPCG(18, 18))
	reveals, lost, ranged := 0, 0, 0
	for g := 0; reveals < 400; g++ {
		seats := MinSeats + g%(MaxSeats-MinSeats+1)
		opts := randomOptions(rng, seats)
		opts.Rules = version
		d := newDriver(t, opts, uint64(5000+g))
		before := make([]View, seats+1) // each seat's view, the spectator's last
		revealed := -1                  // the play whose reveal was checked
		d.play(t, func() {
			for i := range before {
				seat := i
				if i == seats {
					seat = Spectator
				}
				v := d.s.View(seat)
				if r := v.Reveal; r != nil && v.Last.No != revealed {
					if i == seats {
						revealed = v.Last.No
						reveals++
					}
					was := before[i]
					for k := range seats {
						if got, want := r.Counts[k], was.Seats[k].Count(); got != want {
							t.Fatalf("game %d, play %d, seat %d's view: seat %d's count before the sweep: got %v, want %v (shown before the call)",
								g, v.Last.No, seat, k, got, want)
						}
					}
					if r.Counts[r.Loser] != v.Seats[r.Loser].Hand && i == seats {
						ranged++
					}
					var take Beat
					for _, b := range r.Beats {
						if b.Cue == CueTake {
							take = b
						}
					}
					if want := take.At.Add(2500 * time.Millisecond); !r.Lands.Equal(want) {
						t.Fatalf("game %d, play %d: the sweep lands at %v, want %v (the take beat's end under the game's rules)",
							g, v.Last.No, r.Lands, want)
					}
					if !take.Ends.Equal(r.Lands) {
						t.Fatalf("game %d, play %d: the take beat ends at %v, want %v (when the sweep lands)", g, v.Last.No, take.Ends, r.Lands)
					}
					for k := 1; k < len(r.Beats); k++ {
						if got, want := r.Beats[k-1].Ends, r.Beats[k].At; !got.Equal(want) {
							t.Fatalf("game %d, play %d: the %s beat ends at %v, want %v (the %s beat's start)",
								g, v.Last.No, r.Beats[k-1].Cue, got, want, r.Beats[k].Cue)
						}
					}
					switch {
					case seat == r.Loser:
						lost++
						if !slices.Equal(r.Hand, was.Hand) {
							t.Fatalf("game %d, play %d: the loser's hand before the sweep: got %v, want %v", g, v.Last.No, r.Hand, was.Hand)
						}
					case r.Hand != nil:
						t.Fatalf("game %d, play %d: seat %d, not the loser, is given a hand before the sweep: %v", g, v.Last.No, seat, r.Hand)
					}
				}
				if v.Phase != PhaseReveal {
					before[i] = v
				}
			}
		})
	}
	if lost == 0 || ranged == 0 {
		t.Errorf("got %d reveals seen by their loser and %d whose loser's count changed, want some of each", lost, ranged)
	}
}

// TestDealtCountsTillTheHandChanges: every seat's view shows each hand's
// exact count from the deal until that hand first changes (a play, the pile
// taken, a card handed over), and the table's range from then on.
func TestDealtCountsTillTheHandChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 30))
	for g := range 300 {
		seats := MinSeats + g%(MaxSeats-MinSeats+1)
		d := newDriver(t, randomOptions(rng, seats), uint64(7000+g))
		changed := make([]bool, seats)
		sizes := make([]int, seats)
		for i := range seats {
			sizes[i] = len(d.s.hands[i])
		}
		check := func() {
			for i := range seats {
				if len(d.s.hands[i]) != sizes[i] {
					changed[i], sizes[i] = true, len(d.s.hands[i])
				}
			}
			for _, seat := range []int{0, seats - 1, Spectator} {
				v := d.s.View(seat)
				for i, sv := range v.Seats {
					want := 0
					if !changed[i] {
						want = sizes[i]
					}
					if sv.Dealt != want {
						t.Fatalf("game %d, play %d, seat %d's view: seat %d dealt %d: got %d, want %d (changed %v)",
							g, v.Plays, seat, i, sizes[i], sv.Dealt, want, changed[i])
					}
					wantCount := Seen(sizes[i], HandKind)
					if want > 0 {
						wantCount = Range{want, want}
					}
					if got := sv.Count(); got != wantCount {
						t.Fatalf("game %d, play %d, seat %d's view: seat %d's count for a hand of %d: got %v, want %v", g, v.Plays, seat, i, sizes[i], got, wantCount)
					}
				}
			}
		}
		check()
		d.play(t, check)
	}
}
