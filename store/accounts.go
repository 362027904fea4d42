package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Account is a player's account: a name and a password hash. The name is
// shown as it was given; NameKey is its comparison form (case folded and
// normalised by the caller), unique among accounts.
type Account struct {
	bun.BaseModel `bun:"table:accounts,alias:acc"`
	// ID is set by CreateAccount.
	ID      int64  `bun:"id,pk,autoincrement"`
	Name    string `bun:"name"`
	NameKey string `bun:"name_key"`
	// Lookalike is the name's look-alike key (lookalike.Key), unique among
	// accounts: no two accounts' names look alike.
	Lookalike string `bun:"name_lookalike,nullzero"`
	// PasswordHash is the encoded hash, with its salt and parameters.
	PasswordHash string `bun:"password_hash"`
	// Bot says the account is played by a program.
	Bot       bool      `bun:"bot"`
	CreatedAt time.Time `bun:"created_at"`
}

// CreateAccount stores a new account and sets its ID. A name key already
// taken is ErrDuplicate.
func (s *Store) CreateAccount(ctx context.Context, a *Account) error {
	a.ID = 0
	if _, err := s.db.NewInsert().Model(a).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("create account %q: %w", a.Name, classify(err))
	}
	a.CreatedAt = utc(a.CreatedAt)
	return nil
}

// Account reads an account by its id. One that does not exist is
// ErrNotFound.
func (s *Store) Account(ctx context.Context, id int64) (*Account, error) {
	return s.account(ctx, "acc.id = ?", id)
}

// AccountByName reads an account by its name key. One that does not exist
// is ErrNotFound.
func (s *Store) AccountByName(ctx context.Context, nameKey string) (*Account, error) {
	if !storable(nameKey) {
		return nil, ErrNotFound
	}
	return s.account(ctx, "acc.name_key = ?", nameKey)
}

func (s *Store) account(ctx context.Context, where string, arg any) (*Account, error) {
	a := new(Account)
	err := s.db.NewSelect().Model(a).Where(where, arg).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read account: %w", err)
	}
	a.CreatedAt = utc(a.CreatedAt)
	return a, nil
}

// SetPassword replaces an account's password hash and, in the same
// transaction, ends every session of the account except the one whose hash
// is keep (none when keep is nil). An account that does not exist is
// ErrNotFound.
func (s *Store) SetPassword(ctx context.Context, id int64, hash string, keep []byte) error {
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*Account)(nil)).Set("password_hash = ?", hash).Where("id = ?", id).Exec(ctx)
		if err != nil {
			return fmt.Errorf("set the password of account %d: %w", id, err)
		}
		if err := affectedOne(res); err != nil {
			return fmt.Errorf("set the password of account %d: %w", id, err)
		}
		if _, err := deleteSessions(ctx, tx, id, keep); err != nil {
			return err
		}
		return nil
	})
}

// RehashPassword replaces an account's password hash only if it is still
// old, so a hash upgraded at sign-in never overwrites a password changed
// meanwhile. It reports whether it replaced it.
func (s *Store) RehashPassword(ctx context.Context, id int64, old, hash string) (bool, error) {
	res, err := s.db.NewUpdate().Model((*Account)(nil)).Set("password_hash = ?", hash).
		Where("id = ?", id).Where("password_hash = ?", old).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("rehash the password of account %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SetBot marks an account as played by a program, or not. An account that
// does not exist is ErrNotFound.
func (s *Store) SetBot(ctx context.Context, id int64, bot bool) error {
	res, err := s.db.NewUpdate().Model((*Account)(nil)).Set("bot = ?", bot).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("mark account %d: %w", id, err)
	}
	if err := affectedOne(res); err != nil {
		return fmt.Errorf("mark account %d: %w", id, err)
	}
	return nil
}

// affectedOne is ErrNotFound unless an update or delete by key changed a row.
func affectedOne(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}
