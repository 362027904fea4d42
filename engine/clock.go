package engine

import (
	"fmt"
	"slices"
	"time"
)

// Deadline is when the state next needs a Tick: the call window closing, the
// reveal ending or the hand-over running out. It is zero when the table waits
// only for a player (their own turn) or the game is over.
func (s *State) Deadline() time.Time {
	switch s.phase {
	case PhaseCall:
		return s.win.closes
	case PhaseShout:
		return s.shout.closes
	case PhaseReveal, PhaseGive:
		return s.until
	}
	return time.Time{}
}

// Tick settles every deadline due by now, each at its own time, so the state
// after Tick(now) does not depend on how often or how late it was called. It
// reports whether anything changed.
func (s *State) Tick(now time.Time) bool {
	changed := false
	for {
		d := s.Deadline()
		if d.IsZero() || d.After(now) {
			break
		}
		switch s.phase {
		case PhaseCall:
			s.stand(d)
		case PhaseShout:
			s.settleShout(d)
		case PhaseReveal:
			s.endReveal(d)
		case PhaseGive:
			s.handOver(s.rules.leastUseful(s.hands[s.last.Caller], s.rankFor(s.last.Caller), s.playing(), s.owed), d)
		}
		// One version per deadline settled, not per call, so the version
		// too is the same however the ticks were spread (a replay ticks
		// only inside Apply).
		s.version++
		changed = true
	}
	return changed
}

// Think is the kind of decision a seat is making, which sets how long a bot
// takes over it.
type Think string

// The think-time kinds. A listening seat's speed (Listen0 quickest) changes
// every play, so no bot is always the quick one to shout.
const (
	ThinkTurn Think = "turn"
	ThinkGive Think = "give"
	Listen0   Think = "listen0"
	Listen1   Think = "listen1"
	Listen2   Think = "listen2"
	Listen3   Think = "listen3"
)

var listens = [4]Think{Listen0, Listen1, Listen2, Listen3}

// thinkTime is a bot's think time at a brisk pace; relaxed doubles it but
// keeps every listen inside the shortest window (4 s). Listening times are
// spread so shouts arrive one at a time, and the slowest brisk one still
// leaves a person a good part of the window to shout first. It is a switch,
// not a map, because drivers ask it for every decider of every decision.
func thinkTime(k Think) time.Duration {
	switch k {
	case ThinkTurn:
		return 1800 * time.Millisecond
	case ThinkGive:
		return 1500 * time.Millisecond
	case Listen0:
		return 900 * time.Millisecond
	case Listen1:
		return 1300 * time.Millisecond
	case Listen2:
		return 1700 * time.Millisecond
	case Listen3:
		return 2100 * time.Millisecond
	}
	return 0
}

// ThinkTime is how long a bot takes over a decision of kind k at pace p.
func ThinkTime(k Think, p Pace) time.Duration {
	d := thinkTime(k)
	if p == Relaxed {
		if k == ThinkTurn || k == ThinkGive {
			return 2 * d
		}
		return d * 17 / 10
	}
	return d
}

// Decider is a seat that may act now and the kind of decision it is making.
type Decider struct {
	Seat  int   `json:"seat"`
	Think Think `json:"think"`
}

// Deciding names the seats that may act now: the player on their turn, every
// listener in a call window (or its grace after a first call) that hasn't
// let the play go or called it, or the caller picking cards to hand over.
// A seat that is out decides nothing.
func (s *State) Deciding() []Decider {
	if ds := s.AppendDeciding(nil); len(ds) > 0 {
		return ds
	}
	return nil
}

// AppendDeciding appends to ds the seats that may act now, as Deciding
// names them, so that a driver asking before every move can reuse one array.
func (s *State) AppendDeciding(ds []Decider) []Decider {
	switch s.phase {
	case PhasePlay:
		return append(ds, Decider{s.turn, ThinkTurn})
	case PhaseCall, PhaseShout:
		if ds == nil {
			ds = make([]Decider, 0, s.n-1)
		}
		for seat := range s.n {
			if seat != s.last.Seat && !s.win.passed[seat] && !s.isOut(seat) &&
				(s.shout == nil || !slices.Contains(s.shout.callers, seat)) {
				ds = append(ds, Decider{seat, listenKind(seat, s.plays)})
			}
		}
	case PhaseGive:
		return append(ds, Decider{s.last.Caller, ThinkGive})
	}
	return ds
}

func listenKind(seat, play int) Think { return listens[(seat*7+play*3)%4] }

func (t Think) String() string { return string(t) }

// GoString helps test failures read well.
func (d Decider) GoString() string { return fmt.Sprintf("{%d %s}", d.Seat, d.Think) }
