// Package errcode is the one table from a refusal's code to its HTTP status.
//
// Every refusal a player can cause says its code (see Coded): the engine's
// moves (engine.Code, declared in the engine, which imports nothing of the
// server's), the runtime's requests (package live), the accounts (package
// players) and the API's own (a body too large, a client too fast). The API
// renders a refusal as JSON and the pages render it as a page, both with the
// status this table gives.
package errcode

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"bullshit/engine"
)

// Code classifies a refusal so a server answers it with the right status
// without reading its message. It is the engine's type, so the engine's
// codes are in the table though the engine imports nothing of the server's.
type Code = engine.Code

// The codes outside the engine's, spelt so by every package that refuses
// with them.
const (
	NotFound     Code = "not_found"    // no such game, account, token or page
	Unauthorized Code = "unauthorized" // no token or session, or the wrong one
	Forbidden    Code = "forbidden"    // a token for another seat, or not the host
	Conflict     Code = "conflict"     // the game is full, started or over; a name taken
	Invalid      Code = "invalid"      // a request out of range or unreadable
	// Unavailable: the server is shutting down, or a write failed; what
	// was asked is not stored.
	Unavailable Code = "unavailable"
	// Broken: a fault on the server's side stopped the game's table.
	Broken Code = "broken"
	// TooManyTables: the address has as many tables waiting for players as
	// it may.
	TooManyTables Code = "too_many_tables"
	// LobbyFull: the server has as many tables waiting for players as it
	// holds.
	LobbyFull Code = "lobby_full"
	// RateLimited: the client is sending too fast, or failed to sign in
	// too often; the refusal says how long to wait.
	RateLimited      Code = "rate_limited"
	TooLarge         Code = "too_large"          // a request body over the limit
	MethodNotAllowed Code = "method_not_allowed" // an address asked with the wrong method
	// Internal: a fault nobody planned for, answered without its details.
	Internal Code = "internal"
	// Busy: the server is full, its tables running as late as it
	// allows; it takes no new table or seat until they keep time again,
	// and the refusal says how long to wait.
	Busy Code = "busy"
	// Moved: the game's table moved to another server of the cluster (this
	// one lost it, or is handing it over); the same request is safe to try
	// again, and finds the new owner.
	Moved Code = "moved"
	// Unknown: a write was made but its answer was lost (the database's
	// connection dropped as it committed, or the table left this server
	// just after): it may be stored or not. Read the view to see which;
	// a move sent again is refused as stale if the first one stands.
	Unknown Code = "outcome_unknown"
)

// entry is a code's status and the plain words for a refusal of its kind,
// for when nothing more particular is known.
type entry struct {
	status  int
	message string
}

// table holds every code a client can see.
var table = map[Code]entry{
	engine.CodeNotYourTurn: {http.StatusUnprocessableEntity, "It isn't your turn."},
	engine.CodeIllegal:     {http.StatusUnprocessableEntity, "That breaks the rules."},
	engine.CodeStale:       {http.StatusConflict, "Too late: the table has moved on."},
	engine.CodeOver:        {http.StatusConflict, "The game is over."},
	engine.CodeBadOptions:  {http.StatusUnprocessableEntity, "Those settings are out of range."},
	NotFound:               {http.StatusNotFound, "There's nothing at that address."},
	Unauthorized:           {http.StatusUnauthorized, "That needs you to say who you are."},
	Forbidden:              {http.StatusForbidden, "That isn't yours to do."},
	Conflict:               {http.StatusConflict, "That can't be done now."},
	Invalid:                {http.StatusBadRequest, "The request couldn't be read."},
	Unavailable:            {http.StatusServiceUnavailable, "The server can't do that just now; try again in a moment."},
	Broken:                 {http.StatusConflict, "A fault on our side stopped this game."},
	TooManyTables:          {http.StatusTooManyRequests, "You have as many open tables as you may."},
	LobbyFull:              {http.StatusConflict, "The lobby is full: join a table that is waiting."},
	RateLimited:            {http.StatusTooManyRequests, "Slow down and try again in a moment."},
	TooLarge:               {http.StatusRequestEntityTooLarge, "The request is too large."},
	MethodNotAllowed:       {http.StatusMethodNotAllowed, "That address doesn't take that method."},
	Internal:               {http.StatusInternalServerError, "Something went wrong on our side. Try again in a moment."},
	Busy:                   {http.StatusServiceUnavailable, "The server is busy: try again in a few seconds."},
	Moved:                  {http.StatusServiceUnavailable, "The table moved to another server; try again."},
	Unknown:                {http.StatusServiceUnavailable, "We couldn't tell whether that was saved: look at the game again before you move."},
}

// Known reports whether code is in the table.
func Known(code Code) bool {
	_, ok := table[code]
	return ok
}

// Status is the HTTP status a refusal with code is answered with; a code
// not in the table is the server's fault, 500.
func Status(code Code) int {
	if e, ok := table[code]; ok {
		return e.status
	}
	return http.StatusInternalServerError
}

// Message is the plain words for a refusal with code when nothing more
// particular is known.
func Message(code Code) string {
	if e, ok := table[code]; ok {
		return e.message
	}
	return table[Internal].message
}

// Codes lists every code in the table, sorted.
func Codes() []Code {
	codes := make([]Code, 0, len(table))
	for c := range table {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// Coded is a refusal that says its code; its Error is the message for the
// person to read.
type Coded interface {
	error
	ErrorCode() Code
}

// Of finds the refusal in err's chain: its code and its message. ok is false
// when err is no refusal, which is the server's fault.
func Of(err error) (code Code, message string, ok bool) {
	var c Coded
	if !errors.As(err, &c) {
		return "", "", false
	}
	return c.ErrorCode(), c.Error(), true
}

// Waiter is a refusal that asks the client to wait before trying again (a
// rate limit, a sign-in throttled, a server full).
type Waiter interface {
	RetryAfter() time.Duration
}

// RetryAfter is the whole seconds err's refusal asks the client to wait,
// rounded up, for the Retry-After header; 0 for none.
func RetryAfter(err error) int {
	var w Waiter
	if !errors.As(err, &w) || w.RetryAfter() <= 0 {
		return 0
	}
	return int((w.RetryAfter() + time.Second - 1) / time.Second)
}
