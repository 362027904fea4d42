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

// finish ends the game. The winner (or, at the cap, nobody: winner -1) comes
// first; everyone else is placed by cards left, fewest first, ties sharing.
func (s *State) finish(winner int, now time.Time) {
	s.phase = PhaseOver
	s.win, s.beats, s.until = nil, nil, time.Time{}
	places := make([]Place, 0, s.n)
	for seat, h := range s.hands {
		places = append(places, Place{Seat: seat, Left: len(h)})
	}
	slices.SortStableFunc(places, func(a, b Place) int {
		if (a.Seat == winner) != (b.Seat == winner) {
			if a.Seat == winner {
				return -1
			}
			return 1
		}
		return a.Left - b.Left
	})
	for i := range places {
		switch {
		case i > 0 && places[i].Left == places[i-1].Left && places[i-1].Seat != winner:
			places[i].Place = places[i-1].Place
		default:
			places[i].Place = i + 1
		}
	}
	s.result = places
	s.emit(Event{At: now, Kind: EventOver, Seat: winner, Result: slices.Clone(places)})
}
