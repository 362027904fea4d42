package store

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// RatedPoint is an account's rating just after one rated game: a point of
// its rating history.
type RatedPoint struct {
	GameID    string    `bun:"game_id"`
	At        time.Time `bun:"at"`
	Rating    float64   `bun:"after_rating"`
	Deviation float64   `bun:"after_deviation"`
}

// RatingHistory reads an account's ratings after its last limit rated
// games, oldest first. The player_games_player_at index gives them newest
// first; only that many rows are read however long the history.
func (s *Store) RatingHistory(ctx context.Context, player int64, limit int) ([]RatedPoint, error) {
	var out []RatedPoint
	err := s.db.NewSelect().TableExpr("player_games AS pg").
		ColumnExpr("pg.game_id, pg.at, pg.after_rating, pg.after_deviation").
		Where("pg.player_id = ?", player).
		Where("pg.rated = ?", true).
		OrderExpr("pg.at DESC, pg.game_id DESC").
		Limit(int64(limit)).
		Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("read the rating history of player %d: %w", player, err)
	}
	slices.Reverse(out)
	for i := range out {
		out[i].At = utc(out[i].At)
	}
	return out, nil
}

// PlaceCount is how often an account finished in one place.
type PlaceCount struct {
	Place int `bun:"place"`
	Games int `bun:"games"`
}

// Places counts an account's finishes by place, first place first.
func (s *Store) Places(ctx context.Context, player int64) ([]PlaceCount, error) {
	var out []PlaceCount
	err := s.db.NewSelect().TableExpr("player_games AS pg").
		ColumnExpr("pg.place, COUNT(*) AS games").
		Where("pg.player_id = ?", player).
		GroupExpr("pg.place").
		OrderExpr("pg.place").
		Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("count the places of player %d: %w", player, err)
	}
	return out, nil
}
