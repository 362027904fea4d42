package store

import (
	"context"
	"fmt"
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
	err := s.writing(ctx, func() error {
		_, err := s.db.NewInsert().Model(&rows).Exec(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("store %d actions: %w", len(rows), classify(err))
	}
	return nil
}
