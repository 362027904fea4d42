package live

import (
	"context"

	"bullshit/engine"
	"bullshit/game"
)

// Frame is seat's frame of game id now; engine.Spectator's for anyone. A
// game that is over gets its final frame, rebuilt from the store.
func (m *Manager) Frame(ctx context.Context, id string, seat int) (game.Frame, error) {
	var f game.Frame
	running, err := m.do(ctx, id, asSeat(ctx, seat, func(t *table) error {
		if seat != engine.Spectator && (seat < 0 || seat >= len(t.seats)) {
			return errNoSeat
		}
		f = t.frame(t.snap.Load().summary, seat)
		return nil
	}))
	if running {
		if gaveUp(ctx, err) {
			return game.Frame{}, err
		}
		return f, err
	}
	if err := m.elsewhere(ctx, id); err != nil {
		return game.Frame{}, err
	}
	sum, err := m.Get(ctx, id)
	if err != nil {
		return game.Frame{}, err
	}
	f = game.Frame{Game: sum, Seat: seat, Final: true}
	if !sum.StartedAt.IsZero() {
		s, err := m.replayed(ctx, id)
		if err != nil {
			return game.Frame{}, err
		}
		v := s.View(seat)
		f.View, f.Revision = &v, v.Version
		players, err := m.st.GamePlayers(ctx, id)
		if err != nil {
			return game.Frame{}, m.unsaved(id, err)
		}
		f.Ratings = ratingChanges(players)
	}
	return f, nil
}
