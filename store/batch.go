package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// AppendActions stores accepted actions, of one game or several, all or
// none, in one statement. A server batches its tables' actions this way so
// they share one commit (and one sync to disk) instead of one each.
func (s *Store) AppendActions(ctx context.Context, actions []Action) error {
	if len(actions) == 0 {
		return nil
	}
	rows := make([]actionRow, len(actions))
	for i, a := range actions {
		row, err := toActionRow(a)
		if err != nil {
			return err
		}
		rows[i] = row
	}
	err := s.write(ctx, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewInsert().Model(&rows).Returning("NULL").Exec(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("store %d actions: %w", len(rows), classify(err))
	}
	return nil
}
