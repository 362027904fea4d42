package bot

import (
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
			got := sneakChance(&v)
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
		got := sneakChance(&v)
		if got < prev {
			t.Fatalf("caught %d: got %.3f, want at least %.3f", caught, got, prev)
		}
		prev = got
	}
	v := callView(nil, 1, 12, 10, false)
	bigPile(&v)
	if prev <= sneakChance(&v) {
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
			got := rankLieChance(ptr(callView(cards(t, tt.hand...), tt.claim, 9, 9-tt.claim, false)))
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
