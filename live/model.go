package live

import (
	"context"
	"time"

	"bullshit/engine"
	"bullshit/engine/bot"
	"bullshit/game"
	"bullshit/store"
)

// gameRow is a game's row as live holds it, typed: it is mapped from the
// store's row once, as it is read (gameOf), and back as it is written (row).
type gameRow struct {
	ID        string
	Status    game.Status
	Options   engine.Options
	Seed      uint64
	Host      int
	AwayAfter time.Duration
	Plays     int
	Capped    bool
	FillBots  bool
	CreatedAt time.Time
	StartedAt time.Time
	EndedAt   time.Time
	// Owner and Epoch are who runs the game in a cluster (see claims.go):
	// the fence of the table's writes.
	Owner string
	Epoch int64
}

func gameOf(g *store.Game) gameRow {
	return gameRow{ID: g.ID, Status: game.Status(g.Status), Options: g.Options, Seed: g.Seed, Host: g.Host, AwayAfter: g.AwayAfter,
		Plays: g.Plays, Capped: g.Capped, FillBots: g.FillBots, CreatedAt: g.CreatedAt, StartedAt: g.StartedAt, EndedAt: g.EndedAt,
		Owner: g.Owner, Epoch: g.Epoch}
}

func (g gameRow) row() *store.Game {
	return &store.Game{ID: g.ID, Status: string(g.Status), Options: g.Options, Seed: g.Seed, Host: g.Host, AwayAfter: g.AwayAfter,
		Plays: g.Plays, Capped: g.Capped, FillBots: g.FillBots, CreatedAt: g.CreatedAt, StartedAt: g.StartedAt, EndedAt: g.EndedAt,
		Owner: g.Owner, Epoch: g.Epoch}
}

// over reports whether the game is stored as over.
func (g gameRow) over() bool { return g.Status == game.StatusFinished || g.Status == game.StatusEnded }

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
func (m *Manager) stored(ctx context.Context, id string) (gameRow, []seat, error) {
	g, seats, err := m.st.Game(ctx, id)
	if err != nil {
		return gameRow{}, nil, err
	}
	return gameOf(g), seatsOf(seats), nil
}
