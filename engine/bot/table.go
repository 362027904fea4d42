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
	// sneakGuess is the chance a hard bot takes a play to hide a sneak
	// before it has seen the claimant called, and sneakWeight how many
	// calls' worth that guess is: the site's bots sneak on most plays the
	// counts hide, so the guess is near their rate and the record soon
	// moves it. lowSneakGuess is the guess at four seats, where each call
	// between two bots hands a silent seat a third of its worth (a person
	// who calls only on the hint won 1.2 to 1.3 fair shares against hard
	// bots guessing 0.45), and with two decks, where a person reading as
	// hard does won 1.4 to 1.8 fair shares against medium bots at eight
	// seats.
	sneakGuess, lowSneakGuess, sneakWeight = 0.45, 0.25, 2
	// leastSneak and mostSneak bound the record's reading.
	leastSneak, mostSneak = 0.05, 0.8
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

// sneakPrior is a hard bot's chance that the seat's play hides a sneak,
// before the counts are read: the share of its called plays that were
// caught sneaking, with sneakWeight calls' worth of sneakGuess added (its
// called plays counted as in liar). A seat called often and never caught
// sneaking is soon read as one that doesn't, and one caught every time
// as one that always does, so a hard bot's calls go where the sneaks are.
// At three seats it
// reads as a medium bot does (casualPrior): there every call between the
// two bots hands the third seat half the pile's worth.
func sneakPrior(v *engine.View, seat int) float64 {
	n := v.Playing()
	if n <= 3 {
		return casualPrior(v, seat)
	}
	calls, right := 0, 0
	for _, s := range v.Seats {
		calls += s.Calls
		right += s.Right
	}
	s := v.Seats[seat]
	called := float64(s.Lies) + float64(calls-right)/float64(n)
	guess := sneakGuess
	if n == 4 || v.Options.Decks() > 1 {
		guess = lowSneakGuess
	}
	p := (float64(s.Caught) + sneakWeight*guess) / (called + sneakWeight)
	return min(mostSneak, max(leastSneak, p))
}

// casualPrior is a medium bot's chance that the seat's play hides a sneak:
// a play in five, more from a seat caught before (0.06 a catch, at most a
// half). A medium bot reading the record as a hard bot does took away all
// a well-timed sneak pays a person against medium bots.
func casualPrior(v *engine.View, seat int) float64 {
	return min(0.5, 0.2+0.06*float64(v.Seats[seat].Caught))
}
