package engine_test

import (
	"fmt"
	"time"

	"bullshit/engine"
)

// start is when the examples' games begin.
var start = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// A deal: four seats, the standard options, a seed. The same seed deals the
// same cards; the seat on the dealer's left plays first, and the first
// rank is aces.
func ExampleNew() {
	s, err := engine.New(engine.Standard(4), 4, start)
	if err != nil {
		fmt.Println(err)
		return
	}
	v := s.View(s.Turn())
	fmt.Println("phase:", v.Phase, "· turn: seat", v.Turn, "· rank:", v.Rank.Name(true))
	fmt.Println("seat 1 holds:", v.Hand)
	for _, sv := range v.Seats {
		fmt.Printf("seat %d is seen holding %s\n", sv.Seat, sv.Hand)
	}
	// Output:
	// phase: play · turn: seat 1 · rank: aces
	// seat 1 holds: [AD AC 2H 2D 3H 6S 8S 9D TS TC QS KS KD]
	// seat 0 is seen holding 11-13
	// seat 1 is seen holding 11-13
	// seat 2 is seen holding 11-13
	// seat 3 is seen holding 11-13
}

// A play: the seat whose turn it is puts cards down and claims them as the
// rank; the others then have the call window to shout or let it go.
func ExampleState_Apply_play() {
	s, _ := engine.New(engine.Standard(4), 4, start)
	v := s.View(s.Turn())
	play := engine.Action{Kind: engine.ActPlay, Seat: v.Seat, No: v.Plays, Cards: v.Picks()}
	if err := s.Apply(play, start.Add(3*time.Second)); err != nil {
		fmt.Println(err)
		return
	}
	w := s.View(2)
	fmt.Printf("seat 2 sees seat %d claim %d %s; the pile is %s\n", w.Last.Seat, w.Last.Claim, w.Last.Rank.Name(true), w.Pile)
	fmt.Println("phase:", w.Phase, "· seat 2 can:", w.Can, "· the window closes at", w.Closes.Sub(start))
	// Output:
	// seat 2 sees seat 1 claim 2 aces; the pile is 2
	// phase: call · seat 2 can: [call pass] · the window closes at 9s
}

// A call: seat 2 shouts Bullshit! at the play. It is turned up beat by beat,
// each beat with its start and its end under the game's own rules.
func ExampleState_Apply_call() {
	s, _ := engine.New(engine.Standard(4), 4, start)
	v := s.View(s.Turn())
	_ = s.Apply(engine.Action{Kind: engine.ActPlay, Seat: v.Seat, No: v.Plays, Cards: v.Picks()}, start)
	if err := s.Apply(engine.Action{Kind: engine.ActCall, Seat: 2, No: 1}, start.Add(time.Second)); err != nil {
		fmt.Println(err)
		return
	}
	// Calls made within the grace compete; once it passes the play is
	// turned up, the beats timed from the first call.
	s.Tick(start.Add(2 * time.Second))
	r := s.View(engine.Spectator).Reveal
	for _, b := range r.Beats {
		fmt.Printf("%-7s %v to %v: %s\n", b.Cue, b.At.Sub(start), b.Ends.Sub(start), b.Say)
	}
	fmt.Println("the pile goes to seat", r.Loser, "when the sweep lands, at", r.Lands.Sub(start))
	// Output:
	// shout   1s to 1.7s: Bullshit!
	// flip    1.7s to 3.2s: The play is turned up: ace of diamonds, ace of clubs.
	// verdict 3.2s to 4.2s: It was the truth.
	// take    4.2s to 5.2s: The pile goes to the caller.
	// the pile goes to seat 2 when the sweep lands, at 5.2s
}

// A view is all a seat may know: its own hand exactly, the others' only as
// the table sees them. A bot decides from one, and so does the page: here
// it judges two plays before they are made.
func ExampleView_CheckPlay() {
	s, _ := engine.New(engine.Standard(4), 4, start)
	v := s.View(s.Turn())
	honest := v.CheckPlay(v.Picks(), 0)
	fmt.Printf("%v: claims %d, %d off the rank, fine: %v\n", v.Picks(), honest.Claim, honest.Off, honest.Fault == engine.ClaimFine)
	kings := v.Hand[len(v.Hand)-2:]
	bluff := v.CheckPlay(kings, 1)
	fmt.Printf("%v, one sneaked: claims %d, %d off the rank, might show: %v\n", kings, bluff.Claim, bluff.Off, bluff.MayShow)
	// Output:
	// [AD AC]: claims 2, 0 off the rank, fine: true
	// [KS KD], one sneaked: claims 1, 2 off the rank, might show: true
}
