package engine

import "fmt"

// Code classifies an Error so a server can answer with the right status
// without reading its message. The server's table of codes (package
// errcode) is keyed by this type, so the engine needs to import nothing.
type Code string

// The codes of refused actions.
const (
	// CodeNotYourTurn: the seat may not act now.
	CodeNotYourTurn Code = "not_your_turn"
	// CodeIllegal: the action breaks a rule (a card not held, a claim too big).
	CodeIllegal Code = "illegal"
	// CodeStale: the action answers a play that is already settled, or repeats
	// an accepted one. It changed nothing, so a retry is safe.
	CodeStale Code = "stale"
	// CodeOver: the game has ended.
	CodeOver Code = "over"
	// CodeBadOptions: a table's settings are out of range.
	CodeBadOptions Code = "bad_options"
)

// Error is an action or setting a player caused and the engine refused.
// Its message is written for the player to read.
type Error struct {
	Code    Code
	Message string
	// format and named: the message names seat named (see refuseNaming).
	format string
	named  int
}

func (e *Error) Error() string { return e.Message }

// ErrorCode is the refusal's code, for the server's table of codes.
func (e *Error) ErrorCode() Code { return e.Code }

func refuse(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }

func illegal(msg string) *Error { return refuse(CodeIllegal, msg) }

// refuseNaming is a refusal whose message names a seat: format has one %s
// for it, which the message fills with "Seat N" and a server may fill with
// the seat's name instead (see Error.Named).
func refuseNaming(code Code, format string, seat int) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, SeatName(seat)), format: format, named: seat}
}

// SeatName is how the engine's messages name a seat when a server doesn't
// name it itself: "Seat 3", counted from 0 as the API counts seats.
func SeatName(seat int) string { return fmt.Sprintf("Seat %d", seat) }

// Named is the error's message with the seat it names called name, and
// whether it names a seat at all.
func (e *Error) Named(name func(seat int) string) (string, bool) {
	if e.format == "" {
		return e.Message, false
	}
	return fmt.Sprintf(e.format, name(e.named)), true
}

var (
	errNotYourTurn = refuse(CodeNotYourTurn, "It isn't your turn.")
	errSettled     = refuse(CodeStale, "Too late: that play was already settled.")
	errMovedOn     = refuse(CodeStale, "Too late: the table has moved on.")
	errOver        = refuse(CodeOver, "The game is over.")
	errNoSeat      = refuse(CodeIllegal, "There's no such seat at this table.")

	errNothingToCall = refuse(CodeNotYourTurn, "There's nothing to call right now.")
	errOutCantCall   = refuse(CodeNotYourTurn, "You're out: the others play on for the places after yours.")
)
