package live

import (
	"context"

	"bullshit/engine/review"
	"bullshit/game"
	"bullshit/naming"
	"bullshit/store"
)

// Search lists the games the query picks and says whether more follow. Like
// List it reads the store a fixed number of times whatever the page's size.
// A player's name is cleaned as names are (naming.Visible), and one no seat
// could have (a NUL, bytes that aren't text, too long) is refused as
// invalid before the store is asked.
func (m *Manager) Search(ctx context.Context, q game.Query) ([]game.Summary, bool, error) {
	if err := m.ensureOpen(); err != nil {
		return nil, false, err
	}
	if q.Player != "" {
		name, err := naming.Visible(q.Player)
		if err != nil {
			return nil, false, err
		}
		q.Player = name
	}
	listed, more, err := m.st.SearchGames(ctx, store.GameQuery{Status: q.Status, Player: q.Player, Offset: q.Offset, Limit: q.Limit})
	if err != nil {
		return nil, false, m.unsaved("", err)
	}
	out := make([]game.Summary, 0, len(listed))
	for i := range listed {
		l := &listed[i]
		t, err := m.table(l.Game.ID)
		if err != nil {
			return nil, false, err
		}
		if t != nil {
			out = append(out, t.snap.Load().summary)
			continue
		}
		out = append(out, storedSummary(l.Game, l.Seats, l.Results))
	}
	return out, more, nil
}

// Reviewed is a finished game's record and its review (see Review), read
// from the store once. A game not over is refused as Record refuses it.
func (m *Manager) Reviewed(ctx context.Context, id string) (game.Record, *review.Review, error) {
	rec, err := m.Record(ctx, id)
	if err != nil {
		return game.Record{}, nil, err
	}
	g, err := rec.ReviewGame()
	if err != nil {
		return game.Record{}, nil, m.unsaved(id, err)
	}
	r, err := review.Of(g)
	if err != nil {
		return game.Record{}, nil, m.unsaved(id, err)
	}
	return rec, r, nil
}
