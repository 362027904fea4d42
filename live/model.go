package live

import (
	"context"

	"bullshit/engine/bot"
	"bullshit/game"
	"bullshit/store"
)

// seat is a seat's row as live holds it, typed, mapped as game is.
type seat struct {
	No       int
	Kind     game.SeatKind
	Name     string
	BotLevel bot.Level
	BotStyle bot.Style
	// TokenHash is the SHA-256 of the seat's token; nil for bots and empty
	// seats.
	TokenHash []byte
	Away      bool
	// Covered says a bot played this seat at some point, so it is not rated.
	Covered bool
	// PlayerID is the account the seat belongs to; 0 for a guest, a bot or
	// an empty seat.
	PlayerID int64
}

func seatOf(s store.Seat) seat {
	return seat{No: s.No, Kind: game.SeatKind(s.Kind), Name: s.Name, BotLevel: bot.Level(s.BotLevel), BotStyle: bot.Style(s.BotStyle),
		TokenHash: s.TokenHash, Away: s.Away, Covered: s.Covered, PlayerID: s.PlayerID}
}

func (s seat) row(gameID string) store.Seat {
	return store.Seat{GameID: gameID, No: s.No, Kind: string(s.Kind), Name: s.Name, BotLevel: string(s.BotLevel),
		BotStyle: string(s.BotStyle), TokenHash: s.TokenHash, Away: s.Away, Covered: s.Covered, PlayerID: s.PlayerID}
}

func seatsOf(rows []store.Seat) []seat {
	seats := make([]seat, len(rows))
	for i, r := range rows {
		seats[i] = seatOf(r)
	}
	return seats
}

func seatRows(gameID string, seats []seat) []store.Seat {
	rows := make([]store.Seat, len(seats))
	for i, s := range seats {
		rows[i] = s.row(gameID)
	}
	return rows
}

// stored is a game's rows as the store holds them, mapped.
func (m *Manager) stored(ctx context.Context, id string) (store.Game, []seat, error) {
	g, seats, err := m.st.Game(ctx, id)
	if err != nil {
		return store.Game{}, nil, err
	}
	return *g, seatsOf(seats), nil
}
