package live

import (
	"errors"
	"fmt"
	"log/slog"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/store"
)

func refuse(code game.Code, msg string) *game.Error { return &game.Error{Code: code, Message: msg} }

var (
	errNoGame     = refuse(game.CodeNotFound, "There's no game with that code.")
	errNoToken    = refuse(game.CodeUnauthorized, "That isn't a seat's token for this game.")
	errClosed     = refuse(game.CodeUnavailable, "The server is shutting down; try again in a moment.")
	errNotStarted = refuse(game.CodeConflict, "The game hasn't started yet.")
	errStarted    = refuse(game.CodeConflict, "The game has already started.")
	errFull       = refuse(game.CodeConflict, "The table is full.")
	errNotHost    = refuse(game.CodeForbidden, "Only the host can do that.")
	errBotSeat    = refuse(game.CodeForbidden, "A bot plays this seat now.")
	errNoSeat     = refuse(game.CodeInvalid, "There's no such seat at this table.")
	errOverGame   = refuse(game.CodeConflict, "The game is over.")
	errSeatMoved  = refuse(game.CodeConflict, "The seats were numbered afresh as the game started: look again.")
	// errNotAMove: only the server resumes a game.
	errNotAMove = refuse(game.CodeInvalid, "That isn't a move in this game.")
	// errMoved: in a cluster, the table left this node (see claims.go)
	// before it stored anything the request asked for.
	errMoved = refuse(game.CodeMoved, "The table moved to another server; try again.")
	// errUnsaved is a write that failed and is known not stored, or one
	// refused as it waits behind a write still unsettled.
	errUnsaved = refuse(game.CodeUnavailable, "The game couldn't be saved just now; try again.")
	// errUnknown is a write that may be stored: its answer was lost and the
	// store couldn't be asked yet, or the table left this node after it.
	// The table settles it by itself; the view then shows which it was.
	errUnknown = refuse(game.CodeUnknown, "We couldn't tell whether that was saved: look at the game again before you move.")
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
	return refuse(game.CodeInvalid, fmt.Sprintf(format, args...))
}

// badOptions refuses a table's setting as the engine refuses its own, so
// every setting out of range has the one code.
func badOptions(format string, args ...any) *engine.Error {
	return &engine.Error{Code: engine.CodeBadOptions, Message: fmt.Sprintf(format, args...)}
}
