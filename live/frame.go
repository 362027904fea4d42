package live

import (
	"context"

	"bullshit/engine"
)

// Frame is one seat's whole screen at one moment: the table as anyone may
// see it (seats, names, away and covered marks, the host, the status) and,
// once the game has started, the seat's own view of the game. A table
// publishes a frame for every seat and one for spectators after every change
// it makes, the waiting room's included.
type Frame struct {
	// Revision counts the changes the table has published: it moves on with
	// every move and tick, and also on joins, leaves, bots added or removed,
	// away marks and the start, which the view's Version does not see.
	Revision int
	// Epoch is the owner epoch of the table that made the frame: in a
	// cluster it goes up each time the table moves to another node, whose
	// revisions count afresh; 0 on a single server.
	Epoch int64
	Game  Summary
	// Seat is the seat the frame was made for, or engine.Spectator.
	Seat int
	// View is the seat's view of the game; nil before the start.
	View *engine.View
	// Final is the game's last frame: its streams close after it.
	Final bool
	// Ratings are the accounts' seats' rating changes once the game is
	// stored as over (the result sheet's); empty before, and for a game
	// without accounts.
	Ratings []RatingChange
}

// Frame is seat's frame of game id now; engine.Spectator's for anyone. A
// game that is over gets its final frame, rebuilt from the store.
func (m *Manager) Frame(ctx context.Context, id string, seat int) (Frame, error) {
	var f Frame
	running, err := m.do(ctx, id, asSeat(ctx, seat, func(t *table) error {
		if seat != engine.Spectator && (seat < 0 || seat >= len(t.seats)) {
			return errNoSeat
		}
		f = t.frame(t.snap.Load().summary, seat)
		return nil
	}))
	if running {
		return f, err
	}
	if err := m.elsewhere(ctx, id); err != nil {
		return Frame{}, err
	}
	sum, err := m.Get(ctx, id)
	if err != nil {
		return Frame{}, err
	}
	f = Frame{Game: sum, Seat: seat, Final: true}
	if !sum.StartedAt.IsZero() {
		s, err := m.replayed(ctx, id)
		if err != nil {
			return Frame{}, err
		}
		v := s.View(seat)
		f.View, f.Revision = &v, v.Version
		players, err := m.st.GamePlayers(ctx, id)
		if err != nil {
			return Frame{}, m.unsaved(id, err)
		}
		f.Ratings = ratingChanges(players)
	}
	return f, nil
}
