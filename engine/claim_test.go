package engine

import (
	"slices"
	"testing"
)

// TestCheckPlay: a play judged before it is made says what the rules would
// say of it (the fault State.Apply refuses it for) and what the table
// could tell: the cards off the rank, the last cards, a sneak the counts
// might show.
func TestCheckPlay(t *testing.T) {
	opts := Standard(4) // one deck: claims of 1 to 4, sneaks of up to 2
	noSneak := opts
	noSneak.Sneak = 0
	tests := []struct {
		name  string
		opts  Options
		hand  string
		cards string
		sneak int
		want  PlayCheck
	}{
		{"nothing picked", opts, "AS AH 5C", "", 0, PlayCheck{Fault: ClaimNoCards}},
		{"the truth", opts, "AS AH 5C", "AS AH", 0, PlayCheck{Claim: 2}},
		{"a bluff", opts, "AS AH 5C", "AS 5C", 0, PlayCheck{Claim: 2, Off: 1}},
		{"all sneaked", opts, "AS AH 5C", "AS AH", 2, PlayCheck{Claim: 0, Fault: ClaimNothing}},
		{"over the limit", opts, "AS AH AD AC 5C 6C", "AS AH AD AC 5C", 0, PlayCheck{Claim: 5, Fault: ClaimTooMany, Off: 1}},
		{"more claimed than put down", opts, "AS AH 5C", "AS", -1, PlayCheck{Claim: 2, Fault: ClaimOverCards}},
		{"sneaking off", noSneak, "AS AH 5C", "AS 5C", 1, PlayCheck{Claim: 1, Fault: ClaimSneakOff, Off: 1}},
		{"sneaking too many", opts, "AS AH 5C 6C 7C", "AS 5C 6C 7C", 3, PlayCheck{Claim: 1, Fault: ClaimSneakTooMany, Off: 3}},
		{"the last cards", opts, "AS 5C", "AS 5C", 0, PlayCheck{Claim: 2, Off: 1, Last: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stage(t, table{opts: tt.opts, hands: map[int]string{0: tt.hand}})
			v := s.View(0)
			got := v.CheckPlay(cards(t, tt.cards), tt.sneak)
			// The counts' part is SneakMayShow's, tested on its own.
			tt.want.MayShow = tt.sneak > 0 && tt.want.Claim > 0 && SneakMayShow(len(v.Hand), v.Pile, tt.want.Claim, tt.sneak)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			// (An action claiming 0 claims all it puts down, so those are left out.)
			if tt.want.Fault == ClaimNoCards || tt.want.Claim < 1 || tt.sneak < 0 {
				return
			}
			// The engine refuses exactly the plays CheckPlay finds at fault.
			err := s.Apply(Action{Kind: ActPlay, Seat: 0, No: v.Plays, Cards: cards(t, tt.cards), Claim: got.Claim}, t0)
			if refused := err != nil; refused != (got.Fault != ClaimFine) {
				t.Errorf("got the play refused: %v (%v), want refused: %v", refused, err, got.Fault != ClaimFine)
			}
		})
	}
}

// TestPicks: the honest play is the cards of the rank, up to the claim
// limit, and Fallback plays it.
func TestPicks(t *testing.T) {
	s := stage(t, table{hands: map[int]string{0: "AS AH 5C"}})
	v := s.View(0)
	if got, want := v.Picks(), cards(t, "AS AH"); !slices.Equal(got, want) {
		t.Errorf("got picks %v, want %v", got, want)
	}
	if a, ok := v.Fallback(); !ok || !slices.Equal(a.Cards, v.Picks()) {
		t.Errorf("got the fallback %v (%v), want a play of %v", a, ok, v.Picks())
	}
}
