package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/uptrace/bun"
)

// Listed is a game with its seats (by seat number) and its results (best
// place first), as a list of games shows it.
type Listed struct {
	Game    Game
	Seats   []Seat
	Results []Result
}

// ListGames lists games as Games does, each with its seats and results, in
// the same number of queries however many games it lists: the games, then
// the seats of them all, then their results, in one read-only transaction
// so the three agree.
func (s *Store) ListGames(ctx context.Context, status string, limit int) ([]Listed, error) {
	var (
		rows    []gameRow
		seats   []Seat
		results []Result
	)
	err := s.db.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		q := tx.NewSelect().Model(&rows).OrderExpr("g.created_at DESC, g.id DESC")
		if status != "" {
			q = q.Where("g.status = ?", status)
		}
		if limit > 0 {
			q = q.Limit(int64(limit))
		}
		if err := q.Scan(ctx); err != nil {
			return err
		}
		if len(rows) == 0 {
			return nil
		}
		ids := make([]string, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		if err := tx.NewSelect().Model(&seats).Where("game_id IN (?)", bun.In(ids)).Order("game_id", "seat").Scan(ctx); err != nil {
			return err
		}
		return tx.NewSelect().Model(&results).Where("game_id IN (?)", bun.In(ids)).Order("game_id", "place", "seat").Scan(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	seatsOf := make(map[string][]Seat, len(rows))
	for _, seat := range seats {
		seatsOf[seat.GameID] = append(seatsOf[seat.GameID], seat)
	}
	resultsOf := make(map[string][]Result, len(rows))
	for _, r := range results {
		resultsOf[r.GameID] = append(resultsOf[r.GameID], r)
	}
	out := make([]Listed, 0, len(rows))
	for i := range rows {
		g, err := rows[i].game()
		if err != nil {
			return nil, err
		}
		out = append(out, Listed{Game: g, Seats: seatsOf[g.ID], Results: resultsOf[g.ID]})
	}
	return out, nil
}

// WithQueryHook is the store with hook called on each of its queries, such
// as to count or trace them. It shares the store's connections: close one of
// the two, not both.
func (s *Store) WithQueryHook(hook bun.QueryHook) *Store {
	return &Store{db: s.db.WithQueryHook(hook), dialect: s.dialect, writer: s.writer}
}
