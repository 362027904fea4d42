package live

import (
	"errors"
	"fmt"
	"log/slog"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

func refuse(code errcode.Code, msg string) *game.Error { return &game.Error{Code: code, Message: msg} }

var (
	errNoGame     = refuse(errcode.NotFound, "There's no game with that code.")
	errNoToken    = refuse(errcode.Unauthorized, "That isn't a seat's token for this game.")
	errClosed     = refuse(errcode.Unavailable, "The server is shutting down; try again in a moment.")
	errNotStarted = refuse(errcode.Conflict, "The game hasn't started yet.")
	errStarted    = refuse(errcode.Conflict, "The game has already started.")
	errFull       = refuse(errcode.Conflict, "The table is full.")
	errNotHost    = refuse(errcode.Forbidden, "Only the host can do that.")
	errBotSeat    = refuse(errcode.Forbidden, "A bot plays this seat now.")
	errNoSeat     = refuse(errcode.Invalid, "There's no such seat at this table.")
	errOverGame   = refuse(errcode.Conflict, "The game is over.")
	errSeatMoved  = refuse(errcode.Conflict, "The seats were numbered afresh as the game started: look again.")
	// errNotAMove: only the server resumes a game.
	errNotAMove = refuse(errcode.Invalid, "That isn't a move in this game.")
	// errMoved: in a cluster, the table left this node (see claims.go)
	// before it stored anything the request asked for.
	errMoved = refuse(errcode.Moved, "The table moved to another server; try again.")
	// errUnsaved is a write that failed and is known not stored, or one
	// refused as it waits behind a write still unsettled.
	errUnsaved = refuse(errcode.Unavailable, "The game couldn't be saved just now; try again.")
	// errUnknown is a write that may be stored: its answer was lost and the
	// store couldn't be asked yet, or the table left this node after it.
	// The table settles it by itself; the view then shows which it was.
	errUnknown = refuse(errcode.Unknown, "We couldn't tell whether that was saved: look at the game again before you move.")
	// errOver is a move at a game that has ended, refused as the engine
	// refuses one.
	errOver = &engine.Error{Code: engine.CodeOver, Message: "The game is over."}
)

// unsaved is what a person is told when the store failed; the cause goes to
// the log, not to them.
func (m *Manager) unsaved(game string, err error) *game.Error {
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

func invalid(format string, args ...any) *game.Error {
	return refuse(errcode.Invalid, fmt.Sprintf(format, args...))
}

// badOptions refuses a table's setting as the engine refuses its own, so
// every setting out of range has the one code.
func badOptions(format string, args ...any) *engine.Error {
	return &engine.Error{Code: engine.CodeBadOptions, Message: fmt.Sprintf(format, args...)}
}
