package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// APIToken is a token an account made for its programs. Only a hash of the
// token is kept.
type APIToken struct {
	bun.BaseModel `bun:"table:api_tokens,alias:tok"`
	// ID is set by CreateAPIToken.
	ID        int64  `bun:"id,pk,autoincrement"`
	AccountID int64  `bun:"account_id"`
	Name      string `bun:"name"`
	// Hash is the SHA-256 of the token's secret. APITokens leaves it out.
	Hash      []byte    `bun:"hash"`
	CreatedAt time.Time `bun:"created_at"`
	// LastUsed is zero until the token is first used.
	LastUsed time.Time `bun:"last_used_at,nullzero"`
}

// CreateAPIToken stores a new token and sets its ID. A name the account
// already gave a token is ErrDuplicate; an account that does not exist is
// ErrNotFound.
func (s *Store) CreateAPIToken(ctx context.Context, t *APIToken) error {
	t.ID = 0
	if _, err := s.db.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("create API token %q of account %d: %w", t.Name, t.AccountID, classify(err))
	}
	return nil
}

// APITokens lists an account's tokens by name, without their hashes.
func (s *Store) APITokens(ctx context.Context, accountID int64) ([]APIToken, error) {
	var tokens []APIToken
	err := s.db.NewSelect().Model(&tokens).
		Column("id", "account_id", "name", "created_at", "last_used_at").
		Where("account_id = ?", accountID).Order("name", "id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the API tokens of account %d: %w", accountID, err)
	}
	for i := range tokens {
		tokens[i].CreatedAt, tokens[i].LastUsed = utc(tokens[i].CreatedAt), utc(tokens[i].LastUsed)
	}
	return tokens, nil
}

// APITokenAccount reads a token by its hash, with its account. A token that
// does not exist, revoked ones included, is ErrNotFound.
func (s *Store) APITokenAccount(ctx context.Context, hash []byte) (*APIToken, *Account, error) {
	var (
		tok APIToken
		acc Account
	)
	err := s.readWithAccount(ctx, &tok, "tok.hash = ?", hash, func() int64 { return tok.AccountID }, &acc)
	if err != nil {
		return nil, nil, fmt.Errorf("read an API token: %w", err)
	}
	tok.CreatedAt, tok.LastUsed = utc(tok.CreatedAt), utc(tok.LastUsed)
	acc.CreatedAt = utc(acc.CreatedAt)
	return &tok, &acc, nil
}

// TouchAPIToken records that a token was used at, unless its last use is
// already recorded as after before: many requests at once write it once.
func (s *Store) TouchAPIToken(ctx context.Context, id int64, at, before time.Time) error {
	_, err := s.db.NewUpdate().Model((*APIToken)(nil)).Set("last_used_at = ?", at).
		Where("id = ?", id).
		WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
			return q.Where("last_used_at IS NULL").WhereOr("last_used_at < ?", before)
		}).Exec(ctx)
	if err != nil {
		return fmt.Errorf("touch API token %d: %w", id, err)
	}
	return nil
}

// DeleteAPIToken revokes one of an account's tokens. A token that does not
// exist or is another account's is ErrNotFound.
func (s *Store) DeleteAPIToken(ctx context.Context, accountID, id int64) error {
	res, err := s.db.NewDelete().Model((*APIToken)(nil)).Where("id = ?", id).Where("account_id = ?", accountID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("revoke API token %d: %w", id, err)
	}
	if err := affectedOne(res); err != nil {
		return fmt.Errorf("revoke API token %d: %w", id, err)
	}
	return nil
}
