package engine

import (
	"slices"
	"time"
)

// LeastUseful picks the k cards a player would most like rid of, as the
// current rules pick them for a hand-over that runs out. first is the rank
// index (see RankAt) of their next turn and seats the table size.
func LeastUseful(hand []Card, first, seats, k int) []Card {
	// A direct call where the current version's pick is known, so that a
	// bot's hand can stay on its stack; the rulebook's entry otherwise.
	if CurrentRules == 1 {
		return leastUsefulByWait(hand, first, seats, k)
	}
	return rulebook[CurrentRules].leastUseful(hand, first, seats, k)
}

// leastUsefulByWait is rules version 1's pick: the ranks the player will be
// asked for last, which are the bluffs waiting to happen; ties go to the
// lower card, so the choice is deterministic.
func leastUsefulByWait(hand []Card, first, seats, k int) []Card {
	if hand == nil {
		return nil
	}
	// wait[r] is how many of the player's turns pass before rank r is
	// asked for, Ranks if never.
	var wait [Ranks]int
	for r := range wait {
		wait[r] = Ranks
	}
	for m := Ranks - 1; m >= 0; m-- {
		if r := RankAt(first + m*seats); r >= 0 {
			wait[r] = m
		}
	}
	// Each card's key sorts it as the rules do: the longest wait first,
	// then the lower card. No two cards share an order, so no two share a
	// key, and picking the k smallest keys one by one is the sort's first k.
	var buf [2 * 52]uint16
	keys := buf[:0]
	for _, c := range hand {
		if int(c) >= len(orders) {
			return leastUsefulSorted(hand, wait, k)
		}
		keys = append(keys, uint16(Ranks-wait[c.Rank()])<<7|uint16(orders[c]))
	}
	out := make([]Card, min(k, len(hand)))
	for i := range out {
		least := i
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[least] {
				least = j
			}
		}
		keys[i], keys[least] = keys[least], keys[i]
		out[i] = byOrder[keys[i]&127]
	}
	return out
}

// leastUsefulSorted is leastUsefulByWait by sorting, for cards outside two
// decks.
func leastUsefulSorted(hand []Card, wait [Ranks]int, k int) []Card {
	sorted := slices.Clone(hand)
	slices.SortStableFunc(sorted, func(a, b Card) int {
		if wa, wb := wait[a.Rank()], wait[b.Rank()]; wa != wb {
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
	s.win, s.shout, s.until = nil, nil, time.Time{}
	s.dropBeats()
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
	s.emit(&Event{At: now, Kind: EventOver, Seat: winner, Result: slices.Clone(places)})
}
