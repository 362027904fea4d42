// Package game is what everyone outside the tables' runtime says of a game:
// its statuses and seats, a new table's settings, the summary the lobby and
// the API list, one seat's frame, the finished game's record, the refusals
// a request can meet, and the token a request carries to its table. The
// runtime (package live) and the cluster speak it; the API, the pages and
// the event streams read it and import nothing of the runtime.
package game

import (
	"encoding/json"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
)

// Status is where a game is in its life.
type Status string

// The statuses of a game.
const (
	StatusOpen     Status = "open"     // waiting for players; the host starts it
	StatusLive     Status = "live"     // being played
	StatusFinished Status = "finished" // someone went out, or the play cap ended it
	StatusEnded    Status = "ended"    // the host ended it early, or nobody joined in time; kept, never rated
	// StatusBroken: a fault on the server's side stopped the table. Only
	// the running server says so: its log and its stored status are kept as
	// they were, so a server without the fault takes the game up again.
	StatusBroken Status = "broken"
)

// SeatKind says who sits in a seat.
type SeatKind string

// The kinds of seat.
const (
	SeatEmpty  SeatKind = "empty"
	SeatPerson SeatKind = "person"
	SeatBot    SeatKind = "bot"
)

// BotSpec is a bot seat's level and style (see engine/bot).
type BotSpec struct {
	Level string `json:"level"`
	Style string `json:"style"`
}

// CreateRequest is a new table's settings. The host takes seat 0.
type CreateRequest struct {
	Options engine.Options
	// HostName is the host's display name.
	HostName string
	// Bots are bot seats, filled from seat 1 upwards; with FillBots every
	// seat nobody has joined by the start is given a bot.
	Bots     []BotSpec
	FillBots bool
	// AwayAfter is how long a person's own turn may wait before a bot plays
	// it for them (the seat is marked away until they act again).
	AwayAfter time.Duration
	// Address is the network address (IP) the request came from, which
	// caps the open tables one client may hold (Config.MaxOpenPerAddress).
	// Empty for tables the server opens itself: only the cap on all open
	// tables applies to them.
	Address string
	// HostPlayer is the host's account, 0 for a guest.
	HostPlayer int64
	// Seed, when set, deals the game from this seed rather than a random
	// one: a practice table (Options.Practice), whose deal can be played
	// again and which is never rated, since its creator can know every hand.
	Seed *uint64
}

// SeatInfo is one seat as anyone may see it.
type SeatInfo struct {
	Seat    int      `json:"seat"`
	Kind    SeatKind `json:"kind"`
	Name    string   `json:"name"`
	Bot     *BotSpec `json:"bot,omitempty"`
	Away    bool     `json:"away"`
	Covered bool     `json:"covered"` // a bot played it at some point: not rated
	// Player is the account the seat belongs to; 0 (left out) for a guest.
	Player int64 `json:"player_id,omitempty"`
}

// Summary is a game as the lobby and the API list it.
type Summary struct {
	ID        string         `json:"id"`
	Status    Status         `json:"status"`
	Options   engine.Options `json:"options"`
	AwayAfter time.Duration  `json:"-"` // JSON: away_after_seconds
	Seats     []SeatInfo     `json:"seats"`
	Host      int            `json:"host"`
	Plays     int            `json:"plays"`
	CreatedAt time.Time      `json:"created_at"`
	StartedAt time.Time      `json:"started_at,omitzero"`
	EndedAt   time.Time      `json:"ended_at,omitzero"`
	Result    []engine.Place `json:"result,omitempty"`
}

// summaryJSON is Summary as JSON has it: durations in seconds, as a new
// game's settings are given.
type summaryJSON struct {
	summaryFields
	AwayAfterSeconds float64 `json:"away_after_seconds"`
}

type summaryFields Summary

// MarshalJSON writes the summary with AwayAfter in seconds.
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(summaryJSON{summaryFields(s), s.AwayAfter.Seconds()})
}

// UnmarshalJSON reads a summary written by MarshalJSON.
func (s *Summary) UnmarshalJSON(b []byte) error {
	var j summaryJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Summary(j.summaryFields)
	s.AwayAfter = time.Duration(j.AwayAfterSeconds * float64(time.Second))
	return nil
}

// Joined is what a person gets on creating or joining a table: their seat and
// the bearer token that acts for it. The token is shown once and stored hashed.
type Joined struct {
	Game  Summary `json:"game"`
	Seat  int     `json:"seat"`
	Token string  `json:"token"`
}

// Publisher receives every seat's new frame (and the spectator's) after each
// change of a table, the waiting room's included, and is told when a game's
// streams can be closed. Each table calls it from a goroutine other than the
// one that plays (its outbox's, one at a time, in order): a Publisher that
// blocks holds up only that table's pushes, and one that panics stops only
// that table (its status becomes broken).
type Publisher interface {
	Publish(game string, f Frame)
	Close(game string)
}

// Error is a refused request, with a message for the person to read, and
// for a refusal that will pass, how long to wait before asking again.
type Error struct {
	Code    errcode.Code
	Message string
	Wait    time.Duration
}

func (e *Error) Error() string { return e.Message }

// RetryAfter is how long to wait before asking again; 0 for a refusal that
// waiting does not change.
func (e *Error) RetryAfter() time.Duration { return e.Wait }

// ErrorCode is the refusal's code, for errcode's table.
func (e *Error) ErrorCode() errcode.Code { return e.Code }
