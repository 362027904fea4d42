package live

import (
	"context"

	"bullshit/store"
)

// stored is a game's rows as the store holds them.
func (m *Manager) stored(ctx context.Context, id string) (store.Game, []store.Seat, error) {
	g, seats, err := m.st.Game(ctx, id)
	if err != nil {
		return store.Game{}, nil, err
	}
	return *g, seats, nil
}
