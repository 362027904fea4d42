package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// gamesPerSize is how many random games the invariant test plays at each
// table size; -short and the race detector play fewer.
func gamesPerSize() int {
	if testing.Short() || raceEnabled {
		return 40
	}
	return 375
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		t.Run(fmt.Sprintf("seats=%d", seats), func(t *testing.T) {
			t.Parallel()
			var plays, capped, probes, refused, shouts, together, playedOn int
			for g := range gamesPerSize() {
				seed := uint64(seats*100_000 + g)
				rng := rand.New(rand.NewPCG(seed, 7))
				d := newDriver(t, randomOptions(rng, seats), seed)
				checkInvariants(t, d.s, d.now)
				d.play(t, func() {
					checkInvariants(t, d.s, d.now)
					if d.s.phase == PhaseShout {
						shouts++
						if len(d.s.shout.callers) > 1 {
							together++
						}
					}
					if rng.IntN(10) == 0 {
						probes++
						if probe(t, d.s, junkAction(rng, d.s), d.now.Add(time.Duration(rng.IntN(3000))*time.Millisecond)) {
							refused++
						}
					}
				})
				if !d.s.Over() {
					t.Fatalf("seed %d: the game did not end", seed)
				}
				plays += d.s.plays
				if d.s.capped {
					capped++
				}
				if len(d.s.out) > 1 {
					playedOn++
				}
			}
			if refused == 0 {
				t.Errorf("got no refused probes of %d, want some", probes)
			}
			// The grace after a first call, with calls made together, and
			// games played on past the first out (from four seats) are
			// among the states checked.
			if together == 0 || (seats > 3 && playedOn == 0) {
				t.Errorf("got %d states in the grace (%d with calls together) and %d games played on, want some of each",
					shouts, together, playedOn)
			}
			t.Logf("%d games, %.1f plays a game, %d reached the cap, %d played on; %d of %d probes refused; %d states in the grace",
				gamesPerSize(), float64(plays)/float64(gamesPerSize()), capped, playedOn, refused, probes, shouts)
		})
	}
}

// probe tries an action on a copy of the state and reports whether it was
// refused. A refused action must change nothing beyond what the time it was
// made at settles by itself; an accepted one must leave the invariants whole.
func probe(tb testing.TB, s *State, a Action, now time.Time) (refused bool) {
	tb.Helper()
	got, want := scratch(s), ticked(s, now)
	if err := got.Apply(a, now); err != nil {
		want.from = 0 // got is a scratch copy too
		if !want.matches(got) {
			tb.Fatalf("refused %+v (%v) changed the state", a, err)
		}
		codeOf(tb, err)
		return true
	}
	if last := s.log[len(s.log)-1].At; now.Before(last) {
		now = last
	}
	checkInvariants(tb, got, now)
	return false
}

// junkAction is a move of any kind by any seat (some off the table), with
// play numbers near the current one, cards from anywhere (some repeated) and
// any claim.
func junkAction(rng *rand.Rand, s *State) Action {
	kinds := []ActionKind{ActPlay, ActCall, ActPass, ActGive, "shuffle"}
	a := Action{
		Kind:  kinds[rng.IntN(len(kinds))],
		Seat:  rng.IntN(s.n+2) - 1,
		No:    s.plays + rng.IntN(3) - 1,
		Claim: rng.IntN(11) - 2,
	}
	var pool []Card
	if a.Seat >= 0 && a.Seat < s.n && rng.IntN(3) > 0 {
		pool = s.hands[a.Seat]
	} else {
		pool = deck(s.opts.Decks())
	}
	if len(pool) > 0 {
		for range rng.IntN(6) {
			a.Cards = append(a.Cards, pool[rng.IntN(len(pool))])
		}
	}
	return a
}
