package bot

import (
	"math"
	"slices"
	"testing"

	"bullshit/engine"
)

// bigPile puts the play on a pile of 12 that grows to 14, which looks the
// same (11-15) whatever went down, so only the hand's count can tell.
func bigPile(v *engine.View) {
	v.Pile = engine.Seen(14, engine.PileKind)
	v.Last.Sizes.Pile = [2]engine.Range{engine.Seen(12, engine.PileKind), engine.Seen(14, engine.PileKind)}
}

func TestSneakChance(t *testing.T) {
	tests := []struct {
		name          string
		claim         int
		before, after int
		min, max      float64
	}{
		// A counted hand going down by exactly the claim: nothing could hide.
		{"counted hand, clean", 1, 7, 6, 0, 0},
		// A counted hand dropping more than the claim: only a sneak explains it.
		{"counted hand, short", 1, 7, 5, 1, 1},
		// 12 cards look like 11-13 and 10 like 9-10: two cards from 11, or one
		// from 11 or 12 with one sneaked. Either could be.
		{"rough hand, could hide", 1, 12, 10, 0.2, 0.6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := callView(nil, tt.claim, tt.before, tt.after, false)
			bigPile(&v)
			got := sneakChance(&v, sneakPrior(&v, v.Last.Seat))
			if got < tt.min || got > tt.max {
				t.Errorf("got %.3f, want %.2f to %.2f", got, tt.min, tt.max)
			}
		})
	}
}

// Someone caught sneaking before is likelier to be sneaking now.
func TestSneakChanceRisesWithCatches(t *testing.T) {
	prev := -1.0
	for caught := range 6 {
		v := callView(nil, 1, 12, 10, false)
		v.Seats[0].Caught = caught
		bigPile(&v)
		got := sneakChance(&v, sneakPrior(&v, v.Last.Seat))
		if got < prev {
			t.Fatalf("caught %d: got %.3f, want at least %.3f", caught, got, prev)
		}
		prev = got
	}
	v := callView(nil, 1, 12, 10, false)
	bigPile(&v)
	if prev <= sneakChance(&v, sneakPrior(&v, v.Last.Seat)) {
		t.Errorf("got %.3f after five catches, want more than with none", prev)
	}
}

func TestRankLieChance(t *testing.T) {
	tests := []struct {
		name     string
		hand     []string
		claim    int
		min, max float64
	}{
		// Bluffs are one card, now and then two: four aces are nearly always
		// true (a padded three is the likeliest lie).
		{"four claimed", []string{"2S", "5C"}, 4, 0, 0.2},
		{"one claimed", []string{"2S", "5C"}, 1, 0.3, 0.8},
		// Holding three of the four makes a one-card claim likelier a lie.
		{"one claimed, three held", []string{"AS", "AH", "AD"}, 1, 0.6, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rankLieChance(ptr(callView(cards(t, tt.hand...), tt.claim, 9, 9-tt.claim, false)), true)
			if got < tt.min || got > tt.max {
				t.Errorf("got %.3f, want %.2f to %.2f", got, tt.min, tt.max)
			}
		})
	}
}

// A hard bot calls a play it reads as a likely sneak far more often than one
// the counts say is clean.
func TestHardCallsLikelySneaks(t *testing.T) {
	b, err := New(Hard, Honest, 3)
	if err != nil {
		t.Fatal(err)
	}
	rate := func(caught int) float64 {
		calls := 0
		for version := range 300 {
			v := callView(cards(t, "2S", "5C", "9C", "JD", "QH", "KS"), 1, 12, 10, false)
			v.Seats[0].Caught = caught
			bigPile(&v)
			v.Version = version
			if a, _ := b.Choose(v); a.Kind == engine.ActCall {
				calls++
			}
		}
		return float64(calls) / 300
	}
	if never, often := rate(0), rate(5); often <= never {
		t.Errorf("got %.2f called from a player caught five times, want more than %.2f from one never caught", often, never)
	}
}

func ptr[T any](v T) *T { return &v }

// rankLieChanceByHand is rankLieChance as first written, every log-gamma
// worked out afresh: the reference the tabled one must match to the bit,
// since the simulator's report depends on every bot's choice.
func rankLieChanceByHand(v *engine.View) float64 {
	last := v.Last
	unseen := 52*v.Options.Decks() - len(v.Hand)
	rank := v.Options.Copies() - heldOf(v.Hand, last.Rank)
	frac := planned * float64(max(mid(last.Sizes.Hand[0]), last.Claim)) / float64(max(1, unseen))
	frac = min(max(frac, 0.01), 0.99)
	lbeta := func(a, b float64) float64 {
		x, _ := math.Lgamma(a)
		y, _ := math.Lgamma(b)
		z, _ := math.Lgamma(a + b)
		return x + y - z
	}
	pad := padGuess
	if v.Options.Decks() > 1 || v.Playing() >= bigTable {
		pad = padGuesses
	}
	var truth, lie float64
	a, b := clump*frac, clump*(1-frac)
	base := lbeta(a, b)
	for k := 0; k <= rank; k++ {
		p := math.Exp(lchoose(rank, k) + lbeta(float64(k)+a, float64(rank-k)+b) - base)
		switch c := last.Claim; {
		case k == 0 && c == 1:
			lie += p * float64(1-bluffTwo)
		case k == 0 && c == 2:
			lie += p * float64(bluffTwo)
		case c == k:
			truth += p * (1 - pad)
		case c == k+1:
			lie += p * pad
		case c < k:
			truth += p * offScript
		default:
			lie += p * offScript
		}
	}
	if truth+lie == 0 {
		return 1
	}
	return lie / (truth + lie)
}

// TestRankLieChanceMatchesByHand reads every listener's view of random
// games at three to ten seats, one deck and two, with both versions.
func TestRankLieChanceMatchesByHand(t *testing.T) {
	checked := 0
	for seats := engine.MinSeats; seats <= engine.MaxSeats; seats++ {
		walk(t, seats, engine.Standard(seats), uint64(seats), func(s *engine.State, v engine.View, b *Bot) {
			if v.Phase != engine.PhaseCall || v.Last == nil || v.Last.Seat == v.Seat {
				return
			}
			checked++
			if got, want := rankLieChance(&v, true), rankLieChanceByHand(&v); got != want {
				t.Fatalf("%d seats, play %d, seat %d: got %v, want %v", seats, v.Plays, v.Seat, got, want)
			}
		})
	}
	if checked < 500 {
		t.Errorf("got %d views read, want 500 at least", checked)
	}
}

// TestShareCountsAsTheLoopDoes checks share's count by runs against the
// count size by size, for every pair of ranges a table can see and every
// change a play can make, and for ranges no table shows.
func TestShareCountsAsTheLoopDoes(t *testing.T) {
	byLoop := func(r [2]engine.Range, by int, k engine.Kind) float64 {
		lo, hi := r[0].Lo, r[0].Hi
		if hi == engine.Open {
			hi = lo + 20
		}
		hits := 0
		for n := lo; n <= hi; n++ {
			if m := n + by; m >= 0 && engine.Seen(m, k) == r[1] {
				hits++
			}
		}
		return float64(hits) / float64(hi-lo+1)
	}
	for _, k := range []engine.Kind{engine.HandKind, engine.PileKind} {
		ranges := []engine.Range{{Lo: 2, Hi: 5}, {Lo: 7, Hi: engine.Open}}
		for n := 0; n <= 104; n++ {
			if r := engine.Seen(n, k); !slices.Contains(ranges, r) {
				ranges = append(ranges, r)
			}
		}
		for _, before := range ranges {
			for _, after := range ranges {
				for by := -8; by <= 8; by++ {
					r := [2]engine.Range{before, after}
					if got, want := Share(r, by, k), byLoop(r, by, k); got != want {
						t.Errorf("share(%v, %d, %v): got %v, want %v", r, by, k, got, want)
					}
				}
			}
		}
	}
}
