package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// aliveRow is the alive mark: a single row, its time as Unix nanoseconds
// like an action's, so the mark and the actions compare exactly.
type aliveRow struct {
	bun.BaseModel `bun:"table:alive,alias:al"`
	ID            int   `bun:"id,pk"`
	AtNS          int64 `bun:"at_ns"`
}

// MarkAlive records that the server was running at at. The server calls it
// every second and once more on a clean stop; it is one small row whatever
// the number of games, overwritten each time.
func (s *Store) MarkAlive(ctx context.Context, at time.Time) error {
	if at.Before(minActionTime) || at.After(maxActionTime) {
		return fmt.Errorf("mark alive: time %v out of range", at)
	}
	row := aliveRow{ID: 1, AtNS: at.UnixNano()}
	err := s.write(ctx, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewInsert().Model(&row).Returning("NULL").On("CONFLICT (id) DO UPDATE").Set("at_ns = EXCLUDED.at_ns").Exec(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("mark alive: %w", err)
	}
	return nil
}

// Alive is the time last given to MarkAlive, or the zero time if it never
// was.
func (s *Store) Alive(ctx context.Context) (time.Time, error) {
	var row aliveRow
	err := s.db.NewSelect().Model(&row).Where("id = 1").Scan(ctx)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("read the alive mark: %w", err)
	}
	return time.Unix(0, row.AtNS).UTC(), nil
}
