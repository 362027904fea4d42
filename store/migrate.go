package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

//go:embed migrations
var migrationFiles embed.FS

// migrate applies the migrations for the store's dialect that are not yet
// applied. Each runs in a transaction and is marked applied only once it
// succeeded, so a failed one runs again next time.
func (s *Store) migrate(ctx context.Context) error {
	migrations, err := s.migrations()
	if err != nil {
		return err
	}
	if s.dialect == Postgres {
		// Servers starting together must not migrate the same database at
		// once. A session lock is released by PostgreSQL itself if the
		// process dies, unlike bun's lock table.
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", migrationLockKey); err != nil {
			return fmt.Errorf("lock for migration: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", migrationLockKey)
	}
	m := migrate.NewMigrator(s.db, migrations, migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(ctx); err != nil {
		return err
	}
	_, err = m.Migrate(ctx)
	return err
}

// migrationLockKey names the PostgreSQL advisory lock held while migrating.
const migrationLockKey int64 = 0x62756c6c73686974 // "bullshit" in ASCII

// migrations are the dialect's SQL files under migrations/ and its
// migrations written in Go.
func (s *Store) migrations() (*migrate.Migrations, error) {
	dir, err := fs.Sub(migrationFiles, "migrations/"+s.dialect)
	if err != nil {
		return nil, err
	}
	migrations := migrate.NewMigrations()
	if err := migrations.Discover(dir); err != nil {
		return nil, err
	}
	for _, m := range goMigrations[s.dialect] {
		migrations.Add(m)
	}
	return migrations, nil
}

// goMigrations are the migrations SQL alone cannot make safe to run twice
// (after a crash between a migration's commit and its mark, or by servers
// starting together on one SQLite file): SQLite has no ADD COLUMN IF NOT
// EXISTS, so adding a column checks for it first, in the same transaction.
// The accounts' look-alike keys are computed in Go, and computed again by a
// new migration whenever lookalike.Key changes.
var goMigrations = map[string][]migrate.Migration{
	SQLite: {
		sqliteAddColumn("20261201000001", "rules", "games", "rules", "INTEGER NOT NULL DEFAULT 1"),
		sqliteAddColumn("20261201090001", "seat_players", "seats", "player_id", "INTEGER REFERENCES accounts (id) ON DELETE SET NULL"),
		nameLookalikes(SQLite),
		sqliteAddColumn("20261202000001", "owner", "games", "owner", "TEXT NOT NULL DEFAULT ''"),
		sqliteAddColumn("20261202000002", "epoch", "games", "epoch", "INTEGER NOT NULL DEFAULT 0"),
		lookalikeReadAs,
	},
	Postgres: {nameLookalikes(Postgres), lookalikeReadAs},
}

// lookalikeReadAs recomputes the look-alike keys for lookalike.Key reading
// the palochka as l and Greek and Cyrillic small letters as their capitals.
var lookalikeReadAs = refillLookalikes("20261206120000", "lookalike_read_as")

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
