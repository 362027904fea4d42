package arena

import "time"

// Win is the points for a win at any table; last place scores 0, and the
// middle of any table half of Win.
const Win = 100

// Result is one entrant's result in one arena game, as stored when the game
// ends (or, for a leave, when the entrant leaves). House bots have none.
type Result struct {
	Entrant string
	Game    string
	// Seats is how many played the game, house bots included: a bot at the
	// table is beaten like anyone.
	Seats int
	// Place is the entrant's place, 1 first; Shared is how many seats share
	// it, itself included (0 is read as 1). The engine ranks ties as
	// competitions do: 1, 2, 2, 4.
	Place, Shared int
	// Left: the entrant left before the end. It scores nothing, whatever
	// its place, and breaks its streak.
	Left bool
	// Ended is when the result was recorded.
	Ended time.Time
}

// Base is the points for place at a table of seats seats, shared by shared
// seats: Win times the share of the others beaten, a tie counting half.
// The share is what makes sizes fair: it is the mean of the entrant's
// results against each other seat, so its expectation for a player of a
// given strength against a given field is the same at four seats as at
// ten. Halves are rounded to even, which keeps a table's points summing
// to half of Win per seat.
func Base(seats, place, shared int) int {
	if shared < 1 {
		shared = 1
	}
	if seats < 2 || place < 1 || place+shared-1 > seats {
		return 0
	}
	// Beaten plus half the tied, doubled to stay in integers.
	num := Win * (2*seats - 2*place - shared + 1)
	den := 2 * (seats - 1)
	q, r := num/den, num%den
	if 2*r > den || 2*r == den && q%2 == 1 {
		q++
	}
	return q
}

// Grade is how a result counts for a streak.
type Grade int

const (
	// Bad is a result in the bottom half, or a game left: it breaks a streak.
	Bad Grade = iota
	// Middle is a result exactly halfway (the middle place of an odd
	// table): it neither extends a streak nor breaks it, so that every size
	// gives an even player the same chance of a streak.
	Middle
	// Good is a result in the top half: it extends a streak.
	Good
)

// GradeOf is how r counts for a streak.
func GradeOf(r Result) Grade {
	if r.Left {
		return Bad
	}
	switch b := Base(r.Seats, r.Place, r.Shared); {
	case 2*b > Win:
		return Good
	case 2*b == Win:
		return Middle
	}
	return Bad
}

// Fire is how many good results in a row put an entrant on fire: from
// then on each good result scores double, and a middle one half as much
// again, until a bad one.
const Fire = 2

// Score is the points r earns after streak good results in a row, and the
// streak after it. Doubling only good results on fire, not every result,
// rewards winning again rather than merely playing on a streak. A middle
// result, half good, earns half the bonus: without it an odd table's
// streak would pay less a game than an even one's.
func Score(r Result, streak int) (points, next int) {
	if r.Left {
		return 0, 0
	}
	points = Base(r.Seats, r.Place, r.Shared)
	fire := streak >= Fire
	switch GradeOf(r) {
	case Good:
		if fire {
			points *= 2
		}
		return points, streak + 1
	case Middle:
		if fire {
			points += points / 2
		}
		return points, streak
	}
	return points, 0
}
