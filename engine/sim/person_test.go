package sim

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
)

// listening walks a game where every seat plays and calls as the given
// person would, and calls check with each listener's view of each play
// (before that listener answers) and the person's answer to it.
func listening(t *testing.T, st Strategy, seats int, seed uint64, check func(v *engine.View, call bool)) {
	t.Helper()
	deciding(t, st, seats, seed, func(v *engine.View, a engine.Action) {
		if v.Phase == engine.PhaseCall {
			check(v, a.Kind == engine.ActCall)
		}
	})
}

// deciding walks a game where every seat plays as the given person would,
// and calls check with every view a seat decides from and its move.
func deciding(t *testing.T, st Strategy, seats int, seed uint64, check func(v *engine.View, a engine.Action)) {
	t.Helper()
	// First come, and every move a moment after the last, so no window
	// closes before everyone has answered.
	opts := engine.Standard(seats)
	opts.Grace = 0
	s, err := engine.New(opts, seed, epoch)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPerson(st, seed)
	if err != nil {
		t.Fatal(err)
	}
	now := epoch
	for steps := 0; !s.Over() && steps < 5000; steps++ {
		ds := s.Deciding()
		if len(ds) == 0 {
			now = s.Deadline()
			s.Tick(now)
			continue
		}
		v := s.View(ds[0].Seat)
		a, ok := p.Decide(&v)
		if !ok {
			t.Fatalf("%s: nothing to do with %v deciding", st, ds)
		}
		check(&v, a)
		now = now.Add(time.Millisecond)
		if err := s.Apply(a, now); err != nil {
			t.Fatalf("%s: the engine refused %+v: %v", st, a, err)
		}
	}
}

// The panel's callers call what their policy says, from the view alone.
func TestPeopleCallByTheirPolicy(t *testing.T) {
	tests := []struct {
		st   Strategy
		want func(v *engine.View) bool // nil: only checks the game plays
	}{
		{"silent", func(v *engine.View) bool { return v.Last.Out }},
		{"hint", func(v *engine.View) bool { return v.Last.Out || v.Doubt != "" }},
		{"small piles", func(v *engine.View) bool {
			return v.Last.Out || v.Doubt != "" || v.Pile.Hi != engine.Open && v.Pile.Hi <= 3
		}},
		{"calls 30%", nil},
		{"sharp", nil},
	}
	for _, tt := range tests {
		for seats := engine.MinSeats; seats <= engine.MaxSeats; seats += 3 {
			t.Run(fmt.Sprintf("%s at %d seats", tt.st, seats), func(t *testing.T) {
				listened := 0
				listening(t, tt.st, seats, uint64(seats)*7, func(v *engine.View, call bool) {
					listened++
					if tt.want != nil && call != tt.want(v) {
						t.Fatalf("play %d (claim %d, pile %v, doubt %q, out %v): got call %v, want %v",
							v.Plays, v.Last.Claim, v.Pile, v.Doubt, v.Last.Out, call, tt.want(v))
					}
				})
				if listened == 0 {
					t.Fatalf("got no call window to answer, want some")
				}
			})
		}
	}
}

// A person's choice depends on the view alone: the same view gets the same
// answer, and the same game plays the same way.
func TestPeopleAreDeterministic(t *testing.T) {
	for _, st := range Strategies {
		g := Game{Options: engine.Standard(5), Seats: make([]Seat, 5), Seed: 99}
		for i := range g.Seats {
			g.Seats[i] = Seat{Level: "medium", Style: "cautious"}
		}
		g.Seats[2] = Seat{Person: st.Name}
		a, err := Play(g)
		if err != nil {
			t.Fatalf("%s: %v", st.Name, err)
		}
		b, err := Play(g)
		if err != nil {
			t.Fatalf("%s: %v", st.Name, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: got two different outcomes from one game: %+v and %+v", st.Name, a, b)
		}
		if a.Seats == nil || a.Seats.Played[2] == 0 {
			t.Errorf("%s: got no plays tallied for the person's seat, want some", st.Name)
		}
	}
}

// A careful sneaker sneaks only where the counts won't show it: the hint
// never says its plays give a sneak away.
func TestCarefulSneakerNeverShows(t *testing.T) {
	for seats := engine.MinSeats; seats <= engine.MaxSeats; seats++ {
		sneaked := 0
		listening(t, "careful sneaker", seats, uint64(seats), func(v *engine.View, _ bool) {
			if v.Last.Seat == v.Seat {
				return
			}
			if engine.Doubt(nil, v.Last.Rank, v.Last.Claim, v.Last.Sizes, v.Options.Copies()) != "" {
				t.Fatalf("%d seats, play %d: the counts show a sneak (%v), want none", seats, v.Plays, v.Last.Sizes)
			}
			sneaked++
		})
		if sneaked == 0 {
			t.Fatalf("%d seats: got no plays to watch", seats)
		}
	}
}

func TestUnknownStrategy(t *testing.T) {
	g := Game{Options: engine.Standard(3), Seats: []Seat{{Person: "psychic"}, {Level: "easy", Style: "bold"}, {Level: "easy", Style: "bold"}}, Seed: 1}
	if _, err := Play(g); err == nil {
		t.Errorf("got no error for a person of no known strategy, want one")
	}
}
