package live

import (
	"errors"
	"fmt"
	"log/slog"

	"bullshit/engine"
	"bullshit/store"
)

func refuse(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }

var (
	errNoGame     = refuse(CodeNotFound, "There's no game with that code.")
	errNoToken    = refuse(CodeUnauthorized, "That isn't a seat's token for this game.")
	errClosed     = refuse(CodeUnavailable, "The server is shutting down; try again in a moment.")
	errNotStarted = refuse(CodeConflict, "The game hasn't started yet.")
	errStarted    = refuse(CodeConflict, "The game has already started.")
	errFull       = refuse(CodeConflict, "The table is full.")
	errNotHost    = refuse(CodeForbidden, "Only the host can do that.")
	errBotSeat    = refuse(CodeForbidden, "A bot plays this seat now.")
	errNoSeat     = refuse(CodeInvalid, "There's no such seat at this table.")
	errOverGame   = refuse(CodeConflict, "The game is over.")
	errSeatMoved  = refuse(CodeConflict, "The seats were numbered afresh as the game started: look again.")
	// errNotAMove: only the server resumes a game.
	errNotAMove = refuse(CodeInvalid, "That isn't a move in this game.")
	// errMoved: in a cluster, the table left this node (see claims.go)
	// before it stored anything the request asked for.
	errMoved = refuse(CodeMoved, "The table moved to another server; try again.")
	// errUnsaved is a write that failed and is known not stored, or one
	// refused as it waits behind a write still unsettled.
	errUnsaved = refuse(CodeUnavailable, "The game couldn't be saved just now; try again.")
	// errUnknown is a write that may be stored: its answer was lost and the
	// store couldn't be asked yet, or the table left this node after it.
	// The table settles it by itself; the view then shows which it was.
	errUnknown = refuse(CodeUnknown, "We couldn't tell whether that was saved: look at the game again before you move.")
	// errOver is a move at a game that has ended, refused as the engine
	// refuses one.
	errOver = &engine.Error{Code: engine.CodeOver, Message: "The game is over."}
)

// unsaved is what a person is told when the store failed; the cause goes to
// the log, not to them.
func (m *Manager) unsaved(game string, err error) *Error {
	m.log.Error("store failed", slog.String("game", game), slog.Any("err", err))
	return errUnsaved
}

// fromStore turns a store error into a refusal a person can read, logging
// what they need not see.
func (m *Manager) fromStore(game string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errNoGame
	}
	return m.unsaved(game, err)
}

func invalid(format string, args ...any) *Error {
	return refuse(CodeInvalid, fmt.Sprintf(format, args...))
}

// badOptions refuses a table's setting as the engine refuses its own, so
// every setting out of range has the one code.
func badOptions(format string, args ...any) *engine.Error {
	return &engine.Error{Code: engine.CodeBadOptions, Message: fmt.Sprintf(format, args...)}
}
