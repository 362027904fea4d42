package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// goMigrations are the migrations SQL alone cannot make safe to run twice
// (after a crash between a migration's commit and its mark, or by servers
// starting together on one SQLite file): SQLite has no ADD COLUMN IF NOT
// EXISTS, so adding a column checks for it first, in the same transaction.
var goMigrations = map[string][]migrate.Migration{
	SQLite: {
		sqliteAddColumn("20261201090001", "seat_players", "seats", "player_id", "INTEGER REFERENCES accounts (id) ON DELETE SET NULL"),
	},
}

// sqliteAddColumn is a migration adding a column to a SQLite table unless
// it is there already.
func sqliteAddColumn(name, comment, table, column, decl string) migrate.Migration {
	return migrate.Migration{
		Name:    name,
		Comment: comment,
		Up: func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
			// The store's SQLite transactions begin IMMEDIATE: holding the
			// write lock from the start, the check and the change are one.
			return m.DB().RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				var n int
				err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, column).Scan(&n)
				if err != nil || n > 0 {
					return err
				}
				_, err = tx.ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s %s", table, column, decl))
				return err
			})
		},
		Down: func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
			_, err := m.DB().ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s DROP COLUMN %s", table, column))
			return err
		},
	}
}
