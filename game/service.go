package game

import (
	"context"

	"bullshit/engine"
	"bullshit/engine/review"
)

// Service is the tables as the API and the pages call them: the runtime on a
// single node (live.Manager), the cluster's Tables on a node of several,
// which send each call to the node running its table. Every refusal is an
// error errcode can map (*Error, *engine.Error).
type Service interface {
	// Create opens a table; Rematch opens the next one from a finished
	// game, for its seats, and Next is the table a finished game's
	// players went on to ("" for none yet).
	Create(ctx context.Context, req CreateRequest) (Joined, error)
	Rematch(ctx context.Context, id string, by int) (Joined, error)
	Next(id string) string

	// The lists: the tables by status, and the games a query picks.
	List(ctx context.Context, status Status, limit int) ([]Summary, error)
	Search(ctx context.Context, q Query) ([]Summary, bool, error)

	// The waiting room and the seats.
	Get(ctx context.Context, id string) (Summary, error)
	Join(ctx context.Context, id, name string, player int64) (Joined, error)
	Authenticate(ctx context.Context, id, token string) (seat int, err error)
	Start(ctx context.Context, id string, by int) error
	Leave(ctx context.Context, id string, seat int) error
	HandToBot(ctx context.Context, id string, by, seat int) error
	End(ctx context.Context, id string, by int) error
	AddBot(ctx context.Context, id string, by int, level string) error
	RemoveBot(ctx context.Context, id string, by, seat int) error
	Seats(ctx context.Context, id string) ([]SeatInfo, error)

	// Play: a seat's view and log, its whole frame, and a move. Move
	// makes the move for the seat token holds (the action's seat is the
	// table's to find) and returns that seat's frame after it; a refused
	// move comes with the frame as it stands where one can be read.
	View(ctx context.Context, id string, seat int) (engine.View, error)
	Log(ctx context.Context, id string, seat int) ([]engine.Event, error)
	Frame(ctx context.Context, id string, seat int) (Frame, error)
	Move(ctx context.Context, id, token string, a engine.Action) (Frame, error)

	// A game once over: its record, and its review.
	Record(ctx context.Context, id string) (Record, error)
	Reviewed(ctx context.Context, id string) (Record, *review.Review, error)
}
