package engine

// Code classifies an Error so a server can answer with the right status
// without reading its message.
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
}

func (e *Error) Error() string { return e.Message }

func refuse(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }

func illegal(msg string) *Error { return refuse(CodeIllegal, msg) }

var (
	errNotYourTurn = refuse(CodeNotYourTurn, "It isn't your turn.")
	errSettled     = refuse(CodeStale, "Too late: that play was already settled.")
	errMovedOn     = refuse(CodeStale, "Too late: the table has moved on.")
	errOver        = refuse(CodeOver, "The game is over.")
	errNoSeat      = refuse(CodeIllegal, "There's no such seat at this table.")

	errNothingToCall = refuse(CodeNotYourTurn, "There's nothing to call right now.")
)
