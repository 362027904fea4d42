package engine

import (
	"fmt"
	"time"
)

// Timed is an action and the moment it was made, as a game's record holds
// every accepted move. At comes first so that its JSON names the time
// before the move, as the record always has.
type Timed struct {
	At time.Time `json:"at"`
	Action
}

// Replay is a game as its record holds it: its options, its seed, when it
// was dealt and its accepted actions at their times, which determine it
// exactly. Recovery, the record, the review and the tests all rebuild a
// game through it.
type Replay struct {
	Options Options
	Seed    uint64
	Start   time.Time
	Actions []Timed
	// Over, when set, is when the game ended, and HostEnded says the host
	// ended it then; State brings the game to that end.
	Over      time.Time
	HostEnded bool
}

// Step is one change a replay makes, at At: the deal, a deadline settled
// between two actions, or an action applied (the Timed's own).
type Step struct {
	Timed
	Kind StepKind
}

// StepKind says what a Step of a replay made.
type StepKind int8

// The steps of a replay.
const (
	StepDeal StepKind = iota
	StepDeadline
	StepAction
)

// State is the game after its last action, brought to its end when Over is
// set.
func (r Replay) State() (*State, error) { return r.Each(nil) }

// Each replays the game and, when step is not nil, calls it after every
// change with the state as it stands: the deal, each deadline settled between two
// actions, one at a time at its own time (every deadline due by an action,
// or by a resume's Since, is settled before it, as the live table did), and
// each action applied. The end (Over) is made after the last step.
func (r Replay) Each(step func(s *State, st Step)) (*State, error) {
	s, err := New(r.Options, r.Seed, r.Start)
	if err != nil {
		return nil, err
	}
	if step != nil {
		step(s, Step{Timed: Timed{At: r.Start}, Kind: StepDeal})
	}
	for i, a := range r.Actions {
		if step != nil {
			due := a.At
			if a.Kind == ActResume {
				due = a.Since
			}
			for d := s.Deadline(); !d.IsZero() && !d.After(due); d = s.Deadline() {
				s.Tick(d)
				step(s, Step{Timed: Timed{At: d}, Kind: StepDeadline})
			}
		}
		if err := s.Apply(a.Action, a.At); err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
		if step != nil {
			step(s, Step{Timed: a, Kind: StepAction})
		}
	}
	switch {
	case r.HostEnded:
		s.End(r.Over)
	case !r.Over.IsZero():
		// The end is stored to the microsecond, and the deadline that
		// ended the game may lie up to a microsecond after it.
		s.Tick(r.Over.Add(time.Microsecond))
	}
	return s, nil
}
