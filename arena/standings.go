package arena

import (
	"cmp"
	"slices"
	"time"
)

// Standing is one entrant's line in an arena's standings.
type Standing struct {
	// Rank is the entrant's place in the standings, 1 first; no two share.
	Rank    int
	Entrant string
	Points  int
	// Games counts the entrant's results, games left included; Wins and
	// Left count the first places and the games left.
	Games, Wins, Left int
	// Streak is the good results in a row the entrant is on now.
	Streak int
	// Sum is the base points of the games played to the end (see
	// Performance), Played how many they are.
	Sum, Played int
	// Reached is when the entrant reached its points: the time of the last
	// result that added any (zero: none did).
	Reached time.Time
	// Recent are the points of the entrant's results, latest last, for a
	// standings line's form (2s and 4s on lichess's).
	Recent []int
}

// Performance is the mean share of the table beaten in the games the
// entrant played to the end, Win for beating everyone: how well it played,
// whatever its luck with streaks.
func (s Standing) Performance() float64 {
	if s.Played == 0 {
		return 0
	}
	return float64(s.Sum) / float64(s.Played)
}

// recent is how many results a standing's Recent keeps.
const recent = 10

// Standings are the arena's standings from its results in the order they
// were recorded: most points first, then the better performance, then the
// earlier to reach its points, then the entrant's id, so that every node
// computes the same order from the same results. Entrants with no result
// are not listed.
func Standings(results []Result) []Standing {
	index := make(map[string]int)
	var out []Standing
	for _, r := range results {
		i, ok := index[r.Entrant]
		if !ok {
			i = len(out)
			index[r.Entrant] = i
			out = append(out, Standing{Entrant: r.Entrant})
		}
		out[i].add(r)
	}
	slices.SortFunc(out, compare)
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// Total is the entrant's standing from the arena's results (Rank left 0).
func Total(results []Result, entrant string) Standing {
	s := Standing{Entrant: entrant}
	for _, r := range results {
		if r.Entrant == entrant {
			s.add(r)
		}
	}
	return s
}

// add counts the entrant's next result.
func (s *Standing) add(r Result) {
	p, next := Score(r, s.Streak)
	s.Points += p
	s.Streak = next
	s.Games++
	if p > 0 {
		s.Reached = r.Ended
	}
	switch {
	case r.Left:
		s.Left++
	default:
		s.Sum += Base(r.Seats, r.Place, r.Shared)
		s.Played++
		if r.Place == 1 {
			s.Wins++
		}
	}
	if len(s.Recent) == recent {
		s.Recent = append(s.Recent[:0], s.Recent[1:]...)
	}
	s.Recent = append(s.Recent, p)
}

// compare orders standings, the leader first.
func compare(a, b Standing) int {
	if c := cmp.Compare(b.Points, a.Points); c != 0 {
		return c
	}
	// The better mean, compared exactly: a.Sum/a.Played against b's, none
	// played counting as 0.
	an, ad := a.Sum, max(a.Played, 1)
	bn, bd := b.Sum, max(b.Played, 1)
	if c := cmp.Compare(bn*ad, an*bd); c != 0 {
		return c
	}
	if c := a.Reached.Compare(b.Reached); c != 0 {
		return c
	}
	return cmp.Compare(a.Entrant, b.Entrant)
}
