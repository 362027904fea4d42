package drive

import (
	"time"

	"bullshit/engine"
)

// Clock is the rule's memory of one table: what each seat is deciding and
// since when. The simulator's Table and the live tables both keep one, so
// a seat thinks for the same time in both.
type Clock struct {
	seats []thinking
	buf   []engine.Decider
}

// thinking is the decision a seat is making and when it became its own.
type thinking struct {
	active bool
	key    Decision
	since  time.Time
}

// Changed notes a change of s made at at (the deal, a move, a deadline
// settled, a resume): a seat whose decision is new from this change thinks
// from at, and one still making the same decision keeps its moment. It
// reports the seats whose decision began or ended here.
func (c *Clock) Changed(s *engine.State, at time.Time) (renewed [engine.MaxSeats]bool) {
	if n := s.Seats(); len(c.seats) != n {
		c.seats = make([]thinking, n)
	}
	var deciding [engine.MaxSeats]bool
	phase, plays := s.Phase(), s.Plays()
	c.buf = s.AppendDeciding(c.buf[:0])
	for _, d := range c.buf {
		key := DecisionOf(phase, plays, d.Think)
		if p := &c.seats[d.Seat]; !p.active || p.key != key {
			*p = thinking{active: true, key: key, since: at}
			renewed[d.Seat] = true
		}
		deciding[d.Seat] = true
	}
	for seat := range c.seats {
		if !deciding[seat] && c.seats[seat].active {
			c.seats[seat] = thinking{}
			renewed[seat] = true
		}
	}
	return renewed
}

// Deciding is the decision seat is making and since when (ok false: none).
func (c *Clock) Deciding(seat int) (key Decision, since time.Time, ok bool) {
	if seat < 0 || seat >= len(c.seats) || !c.seats[seat].active {
		return Decision{}, time.Time{}, false
	}
	p := c.seats[seat]
	return p.key, p.since, true
}

// Due is when seat, thinking for think, acts: think after its decision
// became its own. ok is false when it decides nothing.
func (c *Clock) Due(seat int, think time.Duration) (at time.Time, ok bool) {
	_, since, ok := c.Deciding(seat)
	if !ok {
		return time.Time{}, false
	}
	return since.Add(think), true
}

// Shift moves every decision's moment on by d: a resume after the server
// was down, as the engine moves its deadlines.
func (c *Clock) Shift(d time.Duration) {
	for i := range c.seats {
		if c.seats[i].active {
			c.seats[i].since = c.seats[i].since.Add(d)
		}
	}
}
