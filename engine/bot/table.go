package bot

import (
	"math"

	"bullshit/engine"
)

// What a bot reads from each seat's record in this game, the tallies the
// view shows every player (calls, right calls, lies caught): how readily the
// table calls, and how often a seat's plays turn out to be lies when called,
// against the table's.
const (
	// callPrior is the chance a play is called that a bot assumes before
	// it has seen any, and priorPlays how many plays that guess is worth.
	callPrior, priorPlays = 0.35, 6
	// priorCalls is how many calls' worth of the table's record a seat's
	// own record is weighed against, and recordWeight the power the
	// record's factor is raised to before it moves a chance of a lie.
	priorCalls, recordWeight = 2, 3
)

// calledChance is the chance someone calls one of this seat's plays, read
// from the calls the other seats have made in this game so far.
func calledChance(v *engine.View) float64 {
	calls := 0
	for _, s := range v.Seats {
		if s.Seat != v.Seat {
			calls += s.Calls
		}
	}
	return (float64(calls) + callPrior*priorPlays) / (float64(v.Plays) + priorPlays)
}

// liar is how much the seat's record moves the odds that its play is a lie:
// 1 knows nothing, above 1 its called plays have turned out lies more often
// than the table's, below 1 less. The view tells how often each seat was
// caught lying but not how often it was called, so the table's wrong calls
// are taken to be shared evenly among the seats. The factor is the ratio of
// the seat's odds of a called play being a lie (its record with priorCalls
// of the table's added) to the table's, raised to recordWeight.
func liar(v *engine.View, seat int) float64 {
	calls, right := 0, 0
	for _, s := range v.Seats {
		calls += s.Calls
		right += s.Right
	}
	if right == 0 || right == calls {
		return 1
	}
	table := float64(right) / float64(calls)
	lies := float64(v.Seats[seat].Lies)
	called := lies + float64(calls-right)/float64(max(1, v.Playing()))
	rate := (lies + priorCalls*table) / (called + priorCalls)
	return math.Pow(rate/(1-rate)/(table/(1-table)), recordWeight)
}
