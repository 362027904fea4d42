package live

import (
	"context"

	"bullshit/engine"
	"bullshit/game"
)

// List lists games with the given status ("" for all), newest first. It
// reads the store a fixed number of times whatever the limit: a running
// game is summed up by its table, any other from the rows listed.
func (m *Manager) List(ctx context.Context, status game.Status, limit int) ([]game.Summary, error) {
	if err := m.ensureOpen(); err != nil {
		return nil, err
	}
	listed, err := m.st.ListGames(ctx, status, limit)
	if err != nil {
		return nil, m.unsaved("", err)
	}
	out := make([]game.Summary, 0, len(listed))
	for i := range listed {
		l := &listed[i]
		t, err := m.table(l.Game.ID)
		if err != nil {
			return nil, err
		}
		if t != nil {
			out = append(out, t.snap.Load().summary)
			continue
		}
		out = append(out, storedSummary(l.Game, l.Seats, l.Results))
	}
	return out, nil
}

// Get is one game's summary.
func (m *Manager) Get(ctx context.Context, id string) (game.Summary, error) {
	t, err := m.table(id)
	if err != nil {
		return game.Summary{}, err
	}
	if t != nil {
		return t.snap.Load().summary, nil
	}
	g, seats, err := m.stored(ctx, id)
	if err != nil {
		return game.Summary{}, m.fromStore(id, err)
	}
	results, err := m.st.Results(ctx, id)
	if err != nil {
		return game.Summary{}, m.unsaved(id, err)
	}
	return storedSummary(g, seats, results), nil
}

// Seats lists a game's seats as anyone may see them.
func (m *Manager) Seats(ctx context.Context, id string) ([]game.SeatInfo, error) {
	s, err := m.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.Seats, nil
}

// View is the game as seat sees it; engine.Spectator for anyone.
func (m *Manager) View(ctx context.Context, id string, seat int) (engine.View, error) {
	var v engine.View
	running, err := m.do(ctx, id, asSeat(ctx, seat, func(t *table) error {
		if t.state == nil {
			return errNotStarted
		}
		v = t.state.View(seat)
		return nil
	}))
	if running {
		if gaveUp(ctx, err) {
			return engine.View{}, err
		}
		return v, err
	}
	if err := m.elsewhere(ctx, id); err != nil {
		return engine.View{}, err
	}
	s, err := m.final(ctx, id)
	if err != nil {
		return engine.View{}, err
	}
	return s.View(seat), nil
}

// Log is the game's log as seat may read it: the public lines and the
// seat's private ones while it runs, everything once it is over.
func (m *Manager) Log(ctx context.Context, id string, seat int) ([]engine.Event, error) {
	var events []engine.Event
	running, err := m.do(ctx, id, asSeat(ctx, seat, func(t *table) error {
		if t.state == nil {
			return errNotStarted
		}
		events = t.state.Log(seat)
		return nil
	}))
	if running {
		if gaveUp(ctx, err) {
			return nil, err
		}
		return events, err
	}
	if err := m.elsewhere(ctx, id); err != nil {
		return nil, err
	}
	s, err := m.final(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.Log(seat), nil
}
