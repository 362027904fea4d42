package engine

import (
	"slices"
	"testing"
)

// The specification's worked play, "Caught sneaking": four players, sneaking
// up to 2, aces called. Seat 0 holds 10 cards and plays three, claiming two
// aces with a 5 slipped under. The pile has 6. The table sees the hand go
// 9-10 -> 7 and the pile 4-6 -> 7-10, so the sneak hid in both counts; seat 1
// calls on a hunch, it is a lie, seat 0 takes the pile and seat 1 hands over
// a card; then seat 1 plays 2s.
func TestWorkedPlayCaughtSneaking(t *testing.T) {
	s := stage(t, table{
		opts: firstCome(4),
		hands: map[int]string{
			0: "AS AH 5D 7C KS 2H 3H 4H 9D TD",
			1: "2S 2D 6H JD QC 3C 4C 5C 6C 7D 8C 9C",
		},
		pile: "8S 8H 8D 9S 9H JC",
		rank: Ranks, // aces again, on the second lap
		turn: 0,
	})
	if got := s.opts.Sneak; got != 2 {
		t.Fatalf("got sneak limit %d, want 2", got)
	}
	if v := s.View(0); v.Rank != Ace || len(v.Hand) != 10 || v.Pile.String() != "4-6" {
		t.Fatalf("got rank %v, hand %d, pile %v: want aces, 10 cards, a pile of 6", v.Rank, len(v.Hand), v.Pile)
	}
	if SneakShows(10, 6, 2, 1) {
		t.Errorf("SneakShows(10, 6, 2, 1): got true, want the sneak hidden")
	}

	play := Action{Kind: ActPlay, Seat: 0, No: Ranks, Cards: cards(t, "AS AH 5D"), Claim: 2}
	mustApply(t, s, play, at(1000))

	// What the table saw.
	v := s.View(1)
	sz := v.Last.Sizes
	if got := sz.Hand[0].String() + " -> " + sz.Hand[1].String(); got != "9-10 -> 7" {
		t.Errorf("hand: got %s, want 9-10 -> 7", got)
	}
	if got := sz.Pile[0].String() + " -> " + sz.Pile[1].String(); got != "4-6 -> 7-10" {
		t.Errorf("pile: got %s, want 4-6 -> 7-10", got)
	}
	if got := v.Seats[0].Hand.String(); got != "7" {
		t.Errorf("seat 0's hand looks %s, want 7", got)
	}
	if !LooksClean(sz.Hand[0], sz.Hand[1], 2, HandKind) || !LooksClean(sz.Pile[0], sz.Pile[1], 2, PileKind) {
		t.Errorf("LooksClean: got the sneak showing, want it hidden in the hand and the pile")
	}
	if v.Doubt != "" || v.Last.Cards != nil || v.Last.Claim != 2 || v.Last.Rank != Ace {
		t.Errorf("seat 1 sees doubt %q cards %v claim %d of %v: want a clean-looking claim of 2 aces",
			v.Doubt, v.Last.Cards, v.Last.Claim, v.Last.Rank)
	}

	// Seat 1 calls on a hunch: caught sneaking.
	mustApply(t, s, Action{Kind: ActCall, Seat: 1, No: Ranks + 1}, at(3000))
	r := s.View(2).Reveal
	if r == nil {
		t.Fatalf("got phase %v, want the reveal", s.Phase())
	}
	if r.Truth || r.Sneaked != 1 || r.Loser != 0 || r.Caller != 1 || r.Given != 1 || r.Took.String() != "7-10" {
		t.Errorf("got showdown %+v, want a lie with 1 sneaked, seat 0 taking 7-10, 1 card owed", r.Showdown)
	}
	wantSay := []string{
		"Bullshit!",
		"The play is turned up: ace of spades, ace of hearts, 5 of diamonds.",
		"Caught sneaking!",
		"The pile goes to the player.",
	}
	for i, b := range r.Beats {
		if b.Say != wantSay[i] {
			t.Errorf("beat %d: got %q, want %q", i, b.Say, wantSay[i])
		}
	}
	if got := len(s.hands[0]); got != 7+9 {
		t.Errorf("seat 0 holds %d, want 16 (7 and the pile of 9)", got)
	}

	// The caller hands over one card, then plays the next rank.
	s.Tick(s.Deadline())
	g := s.View(1).Give
	if s.Phase() != PhaseGive || g == nil || g.Count != 1 || g.Caller != 1 || g.Seat != 0 {
		t.Fatalf("got phase %v give %+v, want seat 1 handing seat 0 one card", s.Phase(), g)
	}
	mustApply(t, s, Action{Kind: ActGive, Seat: 1, No: Ranks + 1, Cards: g.Suggested}, at(9000))
	if len(s.hands[0]) != 17 || len(s.hands[1]) != 11 || !slices.Contains(s.hands[0], g.Suggested[0]) {
		t.Errorf("got hands %d and %d, want 17 and 11 with %v handed over", len(s.hands[0]), len(s.hands[1]), g.Suggested)
	}
	v = s.View(1)
	if v.Phase != PhasePlay || v.Turn != 1 || v.Rank != Two {
		t.Fatalf("got phase %v turn %d rank %v, want seat 1 to play 2s", v.Phase, v.Turn, v.Rank)
	}
	mustApply(t, s, Action{Kind: ActPlay, Seat: 1, No: Ranks + 1, Cards: cards(t, "2S 2D")}, at(10000))
	if l := s.View(3).Last; l.Seat != 1 || l.Rank != Two || l.Claim != 2 || l.No != Ranks+2 {
		t.Errorf("got last play %+v, want seat 1 claiming 2 2s", l)
	}
}
