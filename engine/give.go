package engine

import (
	"slices"
	"time"
)

// LeastUseful picks the k cards a player would most like rid of, as the
// current rules pick them for a hand-over that runs out. first is the rank
// index (see RankAt) of their next turn and seats the table size.
func LeastUseful(hand []Card, first, seats, k int) []Card {
	return rulebook[CurrentRules].leastUseful(hand, first, seats, k)
}

// leastUsefulByWait is rules version 1's pick: the ranks the player will be
// asked for last, which are the bluffs waiting to happen; ties go to the
// lower card, so the choice is deterministic.
func leastUsefulByWait(hand []Card, first, seats, k int) []Card {
	wait := func(c Card) int {
		for m := range Ranks {
			if RankAt(first+m*seats) == c.Rank() {
				return m
			}
		}
		return Ranks
	}
	sorted := slices.Clone(hand)
	slices.SortStableFunc(sorted, func(a, b Card) int {
		if wa, wb := wait(a), wait(b); wa != wb {
			return wb - wa
		}
		return order(a) - order(b)
	})
	return sorted[:min(k, len(sorted))]
}

// Place is where a seat finished.
type Place struct {
	Seat  int `json:"seat"`
	Place int `json:"place"`
	Left  int `json:"left"`
}

// finish ends the game. The seats that went out come first, in the order
// they did (the winner, and with PlayOn the places after); everyone else is
// placed by cards left, fewest first, ties sharing. At the cap or a host's
// end nobody may have gone out.
func (s *State) finish(now time.Time) {
	s.phase = PhaseOver
	s.win, s.shout, s.beats, s.until = nil, nil, nil, time.Time{}
	places := make([]Place, 0, s.n)
	for i, seat := range s.out {
		places = append(places, Place{Seat: seat, Place: i + 1, Left: len(s.hands[seat])})
	}
	var rest []Place
	for seat, h := range s.hands {
		if !s.isOut(seat) {
			rest = append(rest, Place{Seat: seat, Left: len(h)})
		}
	}
	slices.SortStableFunc(rest, func(a, b Place) int { return a.Left - b.Left })
	for i := range rest {
		rest[i].Place = len(s.out) + i + 1
		if i > 0 && rest[i].Left == rest[i-1].Left {
			rest[i].Place = rest[i-1].Place
		}
		places = append(places, rest[i])
	}
	winner := -1
	if len(s.out) > 0 {
		winner = s.out[0]
	}
	s.result = places
	s.emit(Event{At: now, Kind: EventOver, Seat: winner, Result: slices.Clone(places)})
}
