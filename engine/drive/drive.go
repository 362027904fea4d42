// Package drive is the one rule of who acts next at a table and when, for
// the seats that think on a clock (bots, and the simulator's scripted
// people). The simulator, the tests and the benchmarks drive whole games by
// it (Table, Play); the live tables keep its Clock and order their bots'
// moves by it, and the API client shares its decisions (Decision), so the
// simulator's minutes are the minutes a live table runs.
//
// The rule:
//   - A seat thinks from the moment its decision became its own (Clock): the
//     change of the state (the deal, a move, a deadline settled) after which
//     it first decides that (Decision). A listener keeps its moment through
//     the others' passes and the grace after a first call; the next player's
//     turn begins when the window closes, not at the play.
//   - Of the seats deciding, the one whose think time runs out first acts
//     then, stamped with that moment; equal moments go in seat order, as the
//     engine names them.
//   - A deadline due at or before that moment is settled first: a move that
//     ties with a deadline comes after it, as the engine settles every
//     deadline due by a move's time before the move.
//
// A move is so never stamped before the state's last change, which a live
// table, playing on a real clock, could not do.
//
// The package is pure, like the engine: time is passed in, nothing is
// read, and nothing runs on its own.
package drive

import (
	"strconv"
	"time"

	"bullshit/engine"
)

// Decision identifies what a seat is deciding, so that its think time runs
// once per decision however often the table is looked at: a new one begins
// when the play, the kind of thinking or the phase changes, the grace after
// a first call counting as the window's tail (a listener still thinking
// keeps its moment).
type Decision struct {
	Phase engine.Phase
	Plays int
	Think engine.Think
}

// DecisionOf is the decision of a seat thinking think at a table in phase
// after plays plays.
func DecisionOf(phase engine.Phase, plays int, think engine.Think) Decision {
	if phase == engine.PhaseShout {
		phase = engine.PhaseCall
	}
	return Decision{Phase: phase, Plays: plays, Think: think}
}

// First reports whether a move due at at comes after the deadline dl (zero:
// none), which is then settled first.
func First(dl, at time.Time) bool { return !dl.IsZero() && !dl.After(at) }

// Next is what happens next at a table driven by Table.Next.
type Next struct {
	// Over: the game is over and nothing happens.
	Over bool
	// Deadline: the state's deadline, due at At, is settled next.
	Deadline bool
	At       time.Time
	// Deciders are the seats that may act, soonest due first, with the
	// moments they are due; when Deadline is false the first of them acts
	// at At.
	Deciders []engine.Decider
	Dues     []time.Time
}

// Table drives one game by the rule: Next says what happens next, and the
// driver, having done it, says so with Settle or Moved.
type Table struct {
	s     *engine.State
	think func(engine.Decider) time.Duration
	clock Clock
	ds    []engine.Decider
	dues  []time.Time
}

// New drives s, dealt at start, with think the think time of each decision.
func New(s *engine.State, start time.Time, think func(engine.Decider) time.Duration) *Table {
	t := &Table{s: s, think: think}
	t.clock.Changed(s, start)
	return t
}

// Next is what happens next. Its slices are the table's own, valid until
// the next call.
func (t *Table) Next() Next {
	if t.s.Over() {
		return Next{Over: true}
	}
	dl := t.s.Deadline()
	t.ds = t.s.AppendDeciding(t.ds[:0])
	if len(t.ds) == 0 {
		return Next{Deadline: true, At: dl}
	}
	t.dues = byDue(t.ds, t.dues, func(d engine.Decider) time.Time {
		at, _ := t.clock.Due(d.Seat, t.think(d))
		return at
	})
	at := t.dues[0]
	if First(dl, at) {
		return Next{Deadline: true, At: dl, Deciders: t.ds, Dues: t.dues}
	}
	return Next{At: at, Deciders: t.ds, Dues: t.dues}
}

// Settle settles the deadline Next named, due at d.
func (t *Table) Settle(d time.Time) {
	t.s.Tick(d)
	t.clock.Changed(t.s, d)
}

// Moved notes a, applied to the state at at (the moment Next named).
func (t *Table) Moved(a engine.Action, at time.Time) {
	t.clock.Changed(t.s, at)
}

// byDue sorts the deciders by when they are due, soonest first, equal
// moments keeping their order (an insertion sort, which is stable), and
// returns their moments in the same order, in dues' array.
func byDue(ds []engine.Decider, dues []time.Time, due func(engine.Decider) time.Time) []time.Time {
	dues = dues[:0]
	for i, d := range ds {
		k := due(d)
		dues = append(dues, k)
		j := i
		for ; j > 0 && dues[j-1].After(k); j-- {
			ds[j], dues[j] = ds[j-1], dues[j-1]
		}
		ds[j], dues[j] = d, k
	}
	return dues
}

// Seat plays a seat, deciding from its view alone (a *bot.Bot does).
type Seat interface {
	Decide(v *engine.View) (engine.Action, bool)
}

// Play plays s, dealt at start, to its end by the rule, each seat by
// seats[seat] thinking for the engine's think times at the game's pace, and
// returns the actions made. A move the state refuses ends the game's play
// with its error: only a broken engine or bot makes one.
func Play(s *engine.State, start time.Time, seats []Seat) ([]engine.Timed, error) {
	pace := s.Options().Pace
	t := New(s, start, func(d engine.Decider) time.Duration { return engine.ThinkTime(d.Think, pace) })
	var (
		actions []engine.Timed
		v       engine.View
	)
	for {
		n := t.Next()
		switch {
		case n.Over:
			return actions, nil
		case n.Deadline:
			t.Settle(n.At)
			continue
		}
		seat := n.Deciders[0].Seat
		s.ViewInto(seat, &v)
		a, ok := seats[seat].Decide(&v)
		if !ok {
			return actions, errNothing{seat}
		}
		if err := s.Apply(a, n.At); err != nil {
			return actions, err
		}
		t.Moved(a, n.At)
		actions = append(actions, engine.Timed{Action: a, At: n.At})
	}
}

// errNothing is a seat named to act that had nothing to do, which only a
// broken engine or bot makes.
type errNothing struct{ seat int }

func (e errNothing) Error() string {
	return "drive: seat " + strconv.Itoa(e.seat) + ", named to act, had nothing to do"
}
