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
	var t Tally
	for _, r := range results {
		t.Add(r)
	}
	return t.Standings()
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

// Tally keeps an arena's standings as results come, so that a director
// need not recount every result for each pairing: after the same results
// in the same order it says what Standings says. The zero Tally is empty.
type Tally struct {
	index map[string]int
	lines []Standing
}

// Add counts the next result recorded.
func (t *Tally) Add(r Result) {
	if t.index == nil {
		t.index = map[string]int{}
	}
	i, ok := t.index[r.Entrant]
	if !ok {
		i = len(t.lines)
		t.index[r.Entrant] = i
		t.lines = append(t.lines, Standing{Entrant: r.Entrant})
	}
	t.lines[i].add(r)
}

// Of is the entrant's standing so far (Rank left 0), ok false with none.
func (t *Tally) Of(entrant string) (s Standing, ok bool) {
	i, ok := t.index[entrant]
	if !ok {
		return Standing{Entrant: entrant}, false
	}
	s = t.lines[i]
	s.Recent = slices.Clone(s.Recent)
	return s, true
}

// Standings are the standings so far, ranked, in a slice of the caller's.
func (t *Tally) Standings() []Standing {
	out := make([]Standing, len(t.lines))
	for i, s := range t.lines {
		out[i] = s
		out[i].Recent = slices.Clone(s.Recent)
	}
	slices.SortFunc(out, compare)
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
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
