package engine

import "time"

// EventKind names a line of the game's log.
type EventKind string

// The log's lines.
const (
	EventDeal EventKind = "deal" // the cards are dealt; Seat is the dealer
	EventPlay EventKind = "play" // a claim, with the sizes the table saw
	EventMine EventKind = "mine" // the player's own cards, told to them alone
	EventPass EventKind = "pass" // a seat let the play go
	// EventShouted: a seat called the play at a table with a grace; the
	// call competes with the others made within the grace of the first.
	EventShouted EventKind = "shouted"
	// EventOut: a seat went out and the others play on for places; Place
	// is its place.
	EventOut    EventKind = "out"
	EventStood  EventKind = "stood"  // the window closed and the play stands
	EventCalled EventKind = "called" // a play called and turned up
	EventGave   EventKind = "gave"   // cards changed hands, how many only
	EventHanded EventKind = "handed" // which cards, told to the two of them
	EventOver   EventKind = "over"   // the game ended; Seat is the winner or -1
	// EventResumed: the server came back after being down since Since; every
	// clock running then runs on from here with the time it had left.
	EventResumed EventKind = "resumed"
)

// Event is one line of the game's log. To lists the seats it is told to;
// nil means everyone.
type Event struct {
	At       time.Time `json:"at"`
	Kind     EventKind `json:"kind"`
	No       int       `json:"no,omitempty"`
	Seat     int       `json:"seat"`
	Caller   *int      `json:"caller,omitempty"`
	Rank     *Rank     `json:"rank,omitempty"`
	Claim    int       `json:"claim,omitempty"`
	Out      bool      `json:"out,omitempty"`
	Cards    []Card    `json:"cards,omitempty"`
	Sizes    *Sizes    `json:"sizes,omitempty"`
	Showdown *Showdown `json:"showdown,omitempty"`
	Given    int       `json:"given,omitempty"`
	Result   []Place   `json:"result,omitempty"`
	Place    int       `json:"place,omitempty"`
	To       []int     `json:"to,omitempty"`
	// Since is when a resumed game was last known to be running.
	Since time.Time `json:"since,omitzero"`
}

func ptr[T any](v T) *T { return &v }

// Log is the log as seat sees it: every public line and the private lines
// told to that seat. A spectator (any seat outside the table, such as -1)
// sees the public lines; once the game is over everything is public.
func (s *State) Log(seat int) []Event {
	out := make([]Event, 0, len(s.log))
	for i := range s.log {
		if l := &s.log[i]; s.phase == PhaseOver || l.toldTo(seat) {
			out = append(out, s.event(l))
		}
	}
	return out
}

// LogLen is the number of lines in the complete log.
func (s *State) LogLen() int { return len(s.log) }
