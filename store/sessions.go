package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Session is a signed-in browser. Only a hash of the session's id is kept:
// someone who reads the database can't sign in with it.
type Session struct {
	bun.BaseModel `bun:"table:sessions,alias:ses"`
	// IDHash is the SHA-256 of the id in the browser's cookie.
	IDHash    []byte    `bun:"id_hash,pk"`
	AccountID int64     `bun:"account_id"`
	CreatedAt time.Time `bun:"created_at"`
	LastSeen  time.Time `bun:"last_seen_at"`
	Expires   time.Time `bun:"expires_at"`
}

// CreateSession stores a new session. An account that does not exist is
// ErrNotFound; an id hash already stored is ErrDuplicate.
func (s *Store) CreateSession(ctx context.Context, ses Session) error {
	if _, err := s.db.NewInsert().Model(&ses).Returning("NULL").Exec(ctx); err != nil {
		return fmt.Errorf("create a session of account %d: %w", ses.AccountID, classify(err))
	}
	return nil
}

// SessionAccount reads a session by its id hash, with its account. A session
// that does not exist is ErrNotFound, whether or not it has expired: the
// caller judges the expiry.
func (s *Store) SessionAccount(ctx context.Context, idHash []byte) (*Session, *Account, error) {
	var (
		ses Session
		acc Account
	)
	err := s.readWithAccount(ctx, &ses, "ses.id_hash = ?", idHash, func() int64 { return ses.AccountID }, &acc)
	if err != nil {
		return nil, nil, fmt.Errorf("read a session: %w", err)
	}
	ses.CreatedAt, ses.LastSeen, ses.Expires = utc(ses.CreatedAt), utc(ses.LastSeen), utc(ses.Expires)
	acc.CreatedAt = utc(acc.CreatedAt)
	return &ses, &acc, nil
}

// readWithAccount reads into row the one row where where holds (with key)
// and then its account (accountID, read from the row) into acc, in one
// read-only transaction. No such row is ErrNotFound.
func (s *Store) readWithAccount(ctx context.Context, row any, where string, key any, accountID func() int64, acc *Account) error {
	return s.db.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		err := tx.NewSelect().Model(row).Where(where, key).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return tx.NewSelect().Model(acc).Where("acc.id = ?", accountID()).Scan(ctx)
	})
}

// TouchSession records that a session was used at seen and now expires at
// expires. A session that does not exist (signed out meanwhile) is
// ErrNotFound.
func (s *Store) TouchSession(ctx context.Context, idHash []byte, seen, expires time.Time) error {
	res, err := s.db.NewUpdate().Model((*Session)(nil)).
		Set("last_seen_at = ?", seen).Set("expires_at = ?", expires).
		Where("id_hash = ?", idHash).Exec(ctx)
	if err != nil {
		return fmt.Errorf("touch a session: %w", err)
	}
	if err := affectedOne(res); err != nil {
		return fmt.Errorf("touch a session: %w", err)
	}
	return nil
}

// DeleteSession ends one session. One that does not exist is not an error:
// signing out twice is signing out.
func (s *Store) DeleteSession(ctx context.Context, idHash []byte) error {
	if _, err := s.db.NewDelete().Model((*Session)(nil)).Where("id_hash = ?", idHash).Exec(ctx); err != nil {
		return fmt.Errorf("delete a session: %w", err)
	}
	return nil
}

// DeleteSessions ends every session of an account but the one whose hash is
// keep (none when keep is nil), and says how many it ended.
func (s *Store) DeleteSessions(ctx context.Context, accountID int64, keep []byte) (int, error) {
	return deleteSessions(ctx, s.db, accountID, keep)
}

func deleteSessions(ctx context.Context, db bun.IDB, accountID int64, keep []byte) (int, error) {
	q := db.NewDelete().Model((*Session)(nil)).Where("account_id = ?", accountID)
	if keep != nil {
		q = q.Where("id_hash <> ?", keep)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("delete the sessions of account %d: %w", accountID, err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// DeleteExpiredSessions removes the sessions that expired before now and
// says how many.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	res, err := s.db.NewDelete().Model((*Session)(nil)).Where("expires_at < ?", now).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("delete expired sessions: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
