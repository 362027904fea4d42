package bot

import "bullshit/engine"

// What a bot reads from each seat's record in this game, the tallies the
// view shows every player (calls, right calls, lies caught): how readily the
// table calls, and how often a seat is caught lying against how often the
// table would catch a seat that lies as much as the rest.
const (
	// callPrior is the chance a play is called that a bot assumes before
	// it has seen any, and priorPlays how many plays that guess is worth.
	callPrior, priorPlays = 0.35, 6
	// liePlays is how many plays' worth of an average record a seat's own
	// record is weighed against.
	liePlays = 8
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

// liar is how much likelier than the table's average seat the seat is to
// be caught lying per play, from its record: 1 knows nothing, above 1 it has
// been caught more often than the rest, below 1 less. Each seat's plays are
// taken to be an equal share of the table's.
func liar(v *engine.View, seat int) float64 {
	lies := 0
	for _, s := range v.Seats {
		lies += s.Lies
	}
	n := float64(max(1, v.Playing()))
	perPlay := float64(lies) / float64(max(1, v.Plays))
	expected := perPlay * float64(v.Plays) / n
	prior := perPlay * liePlays
	if prior == 0 {
		return 1
	}
	return (float64(v.Seats[seat].Lies) + prior) / (expected + prior)
}
