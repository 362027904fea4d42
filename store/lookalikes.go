package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"bullshit/naming/lookalike"
)

// AccountByLookalike reads the account whose name looks like the one with
// look-alike key key (lookalike.Key). None is ErrNotFound.
func (s *Store) AccountByLookalike(ctx context.Context, key string) (*Account, error) {
	if !storable(key) {
		return nil, ErrNotFound
	}
	return s.account(ctx, "acc.name_lookalike = ?", key)
}

// grandfathered is the look-alike key stored for an account whose name
// already looked like an older account's when keys were first given: its
// key with its id after a control character no name holds, so the unique
// index can hold while both keep their names, and a new name is checked
// against the older account's key alone.
func grandfathered(key string, id int64) string {
	return key + "\x01" + strconv.FormatInt(id, 10)
}

// nameLookalikes is the migration giving every account its name's
// look-alike key, in a column with a unique index, so no two accounts'
// names look alike. The key is computed in Go (lookalike.Key), so this is
// a migration in Go, on both dialects; it computes every account's key
// afresh, so running it again (after a crash before bun marked it, or with
// new Unicode tables) is safe. Accounts made before it whose names already
// looked alike keep them: the newer of each such pair is grandfathered.
func nameLookalikes(dialect string) migrate.Migration {
	return migrate.Migration{
		Name:    "20261202090000",
		Comment: "name_lookalikes",
		Up: func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
			return m.DB().RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				if err := addLookalikeColumn(ctx, tx, dialect); err != nil {
					return err
				}
				return fillLookalikes(ctx, tx)
			})
		},
		Down: func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
			if _, err := m.DB().ExecContext(ctx, "DROP INDEX IF EXISTS accounts_name_lookalike"); err != nil {
				return err
			}
			_, err := m.DB().ExecContext(ctx, "ALTER TABLE accounts DROP COLUMN name_lookalike")
			return err
		},
	}
}

// refillLookalikes is a migration computing every account's look-alike key
// again, for a change to lookalike.Key: the stored keys were computed by the
// old one, and a name that now looks like another's would pass the check
// against them. Like nameLookalikes it can run again, and the newer of two
// stored names that now look alike is grandfathered.
func refillLookalikes(name, comment string) migrate.Migration {
	return migrate.Migration{
		Name:    name,
		Comment: comment,
		Up: func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
			return m.DB().RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fillLookalikes(ctx, tx) })
		},
		// Keys computed afresh are the keys there are: nothing to undo.
		Down: func(context.Context, *migrate.Migrator, *migrate.Migration) error { return nil },
	}
}

func addLookalikeColumn(ctx context.Context, tx bun.Tx, dialect string) error {
	if dialect == Postgres {
		_, err := tx.ExecContext(ctx, "ALTER TABLE accounts ADD COLUMN IF NOT EXISTS name_lookalike TEXT")
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('accounts') WHERE name = 'name_lookalike'").Scan(&n); err != nil || n > 0 {
		return err
	}
	_, err := tx.ExecContext(ctx, "ALTER TABLE accounts ADD COLUMN name_lookalike TEXT")
	return err
}

// fillLookalikes computes every account's look-alike key, oldest first,
// and then makes the keys unique.
func fillLookalikes(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.ExecContext(ctx, "DROP INDEX IF EXISTS accounts_name_lookalike"); err != nil {
		return err
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Name string `bun:"name"`
	}
	if err := tx.NewSelect().Table("accounts").Column("id", "name").Order("id").Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read accounts' names: %w", err)
	}
	taken := make(map[string]bool, len(rows))
	for _, r := range rows {
		key := lookalike.Key(r.Name)
		if taken[key] {
			key = grandfathered(key, r.ID)
		}
		taken[key] = true
		if _, err := tx.NewUpdate().Table("accounts").Set("name_lookalike = ?", key).Where("id = ?", r.ID).Exec(ctx); err != nil {
			return fmt.Errorf("store account %d's look-alike key: %w", r.ID, err)
		}
	}
	_, err := tx.ExecContext(ctx, "CREATE UNIQUE INDEX IF NOT EXISTS accounts_name_lookalike ON accounts (name_lookalike)")
	return err
}
