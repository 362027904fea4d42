package store

import (
	"context"

	"github.com/uptrace/bun"

	"bullshit/game"
)

// Listed is a game with its seats (by seat number) and its results (best
// place first), as a list of games shows it.
type Listed struct {
	Game    Game
	Seats   []Seat
	Results []Result
}

// ListGames lists games as Games does, each with its seats and results (see
// SearchGames).
func (s *Store) ListGames(ctx context.Context, status game.Status, limit int) ([]Listed, error) {
	l, _, err := s.SearchGames(ctx, GameQuery{Status: status, Limit: limit})
	return l, err
}

// WithQueryHook is the store with hook called on each of its queries, such
// as to count or trace them. It shares the store's connections and SQLite's
// prepared appends (which run by database/sql, so the hook does not see
// them): close one of the two, not both.
func (s *Store) WithQueryHook(hook bun.QueryHook) *Store {
	return &Store{db: s.db.WithQueryHook(hook), dialect: s.dialect, commits: s.commits, timings: s.timings, sqliteAppend: s.sqliteAppend}
}
