package live

import (
	"context"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// Rematch is "play again" from a finished game's result sheet: the first of
// its players to ask opens the next table, with the same settings and the
// same bots, as its host; everyone after joins that table while it is open.
// The link from a game to the next is kept in memory: after a restart the
// players start afresh from the lobby.
func (m *Manager) Rematch(ctx context.Context, id string, by int) (game.Joined, error) {
	g, err := m.Get(ctx, id)
	if err != nil {
		return game.Joined{}, err
	}
	if g.Status != game.StatusFinished && g.Status != game.StatusEnded {
		return game.Joined{}, refuse(errcode.Conflict, "The game isn't over yet.")
	}
	if by < 0 || by >= len(g.Seats) || g.Seats[by].Kind == game.SeatEmpty {
		return game.Joined{}, errNoSeat
	}
	name, player := g.Seats[by].Name, g.Seats[by].Player
	m.rematchMu.Lock()
	defer m.rematchMu.Unlock()
	if next, ok := m.rematches[id]; ok {
		return m.Join(ctx, next, name, player)
	}
	req := game.CreateRequest{Options: g.Options, HostName: name, HostPlayer: player, AwayAfter: g.AwayAfter}
	req.Options.Seats = engine.MaxSeats
	req.Options.Penalty = engine.Penalty{}
	for _, s := range g.Seats {
		if s.Kind == game.SeatBot && s.Bot != nil && !s.Covered {
			req.Bots = append(req.Bots, *s.Bot)
		}
	}
	j, err := m.Create(ctx, req)
	if err != nil {
		return game.Joined{}, err
	}
	if m.rematches == nil {
		m.rematches = make(map[string]string)
	}
	m.rematches[id] = j.Game.ID
	return j, nil
}

// Next is the game opened by Rematch after game id, or "".
func (m *Manager) Next(id string) string {
	m.rematchMu.Lock()
	defer m.rematchMu.Unlock()
	return m.rematches[id]
}
