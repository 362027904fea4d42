// Package drive is the one rule of who acts next at a table and when, for
// the seats that think on a clock (bots, and the simulator's scripted
// people). The simulator, the tests and the benchmarks drive whole games by
// it (Table, Play); the live tables and the API client, which play on a
// real clock, share its decisions (Decision) and its deadline rule (First).
//
// The rule:
//   - Every seat deciding has been thinking since the table last moved on
//     for everyone (Table.Since): the deal, a deadline settled, a play, a
//     call that turns the cards up and a hand-over move it on. A pass does
//     not (the others were thinking meanwhile), nor does a call held open
//     for the grace, in which a listener as quick may call too; so after
//     the last pass closes a window the next player has been thinking since
//     the play.
//   - Of the seats deciding, the quickest thinker acts first, when its think
//     time has run from then; equal think times go in seat order, as the
//     engine names them. Its move is stamped with that moment and the clock
//     moves on to it, even when the engine takes the move as made later (at
//     its last change: a player whose think time ran out inside the window
//     plays the moment the last pass closes it).
//   - A deadline due at or before that moment is settled first: a move that
//     ties with a deadline comes after it, as the engine settles every
//     deadline due by a move's time before the move.
//
// The live tables can't stamp a move in the past, so they time a seat's
// think from the moment its decision became its own (see docs/decisions.md).
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
	// Deciders are the seats that may act, quickest first, with their think
	// times; when Deadline is false the first of them acts at At.
	Deciders []engine.Decider
	Thinks   []time.Duration
}

// Table drives one game by the rule: Next says what happens next, and the
// driver, having done it, says so with Settle or Moved.
type Table struct {
	s     *engine.State
	think func(engine.Decider) time.Duration
	// since is when the table last moved on for everyone.
	since  time.Time
	ds     []engine.Decider
	thinks []time.Duration
}

// New drives s, dealt at start, with think the think time of each decision.
func New(s *engine.State, start time.Time, think func(engine.Decider) time.Duration) *Table {
	return &Table{s: s, think: think, since: start}
}

// Since is when the table last moved on for everyone.
func (t *Table) Since() time.Time { return t.since }

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
	t.thinks = byThink(t.ds, t.thinks, t.think)
	at := t.since.Add(t.thinks[0])
	if First(dl, at) {
		return Next{Deadline: true, At: dl, Deciders: t.ds, Thinks: t.thinks}
	}
	return Next{At: at, Deciders: t.ds, Thinks: t.thinks}
}

// Settle settles the deadline Next named, due at d: everyone decides
// afresh from then.
func (t *Table) Settle(d time.Time) {
	t.s.Tick(d)
	t.since = d
}

// Moved notes a, applied to the state at at (the moment Next named).
func (t *Table) Moved(a engine.Action, at time.Time) {
	if a.Kind != engine.ActPass && t.s.Phase() != engine.PhaseShout {
		t.since = at
	}
}

// byThink sorts the deciders by think time, quickest first, equal times
// keeping their order (an insertion sort, which is stable), and returns
// their think times in the same order, in thinks' array.
func byThink(ds []engine.Decider, thinks []time.Duration, think func(engine.Decider) time.Duration) []time.Duration {
	thinks = thinks[:0]
	for i, d := range ds {
		k := think(d)
		thinks = append(thinks, k)
		j := i
		for ; j > 0 && thinks[j-1] > k; j-- {
			ds[j], thinks[j] = ds[j-1], thinks[j-1]
		}
		ds[j], thinks[j] = d, k
	}
	return thinks
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
