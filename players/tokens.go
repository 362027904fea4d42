package players

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"bullshit/errcode"
	"bullshit/store"
)

// The limits on an account's API tokens.
const (
	MaxTokenName = 64
	MaxTokens    = 50
)

// Token is an API token as its account lists it: never the token itself,
// which is shown once, when it is made.
type Token struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	// LastUsed is zero until the token is first used, and kept to the
	// minute: a use within a minute of the last one recorded isn't written.
	LastUsed time.Time `json:"last_used,omitzero"`
}

func token(t *store.APIToken) Token {
	return Token{ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, LastUsed: t.LastUsed}
}

// checkTokenName trims a token's name and refuses an empty, overlong or
// multi-line one.
func checkTokenName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", refuse(errcode.Invalid, "Give the token a name, such as the program that will use it.")
	case !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl):
		return "", refuse(errcode.Invalid, "A token's name is one line of plain text.")
	case utf8.RuneCountInString(name) > MaxTokenName:
		return "", refuse(errcode.Invalid, "A token's name is at most %d characters.", MaxTokenName)
	}
	return name, nil
}

// CreateToken makes an API token for an account's programs. The token
// (TokenPrefix and 160 random bits) is returned only now: the server keeps
// its hash, so it can't be shown again.
func (s *Service) CreateToken(ctx context.Context, accountID int64, name string) (string, Token, error) {
	name, err := checkTokenName(name)
	if err != nil {
		return "", Token{}, err
	}
	have, err := s.st.APITokens(ctx, accountID)
	if err != nil {
		return "", Token{}, err
	}
	if len(have) >= MaxTokens {
		return "", Token{}, refuse(errcode.Conflict, "An account has %d tokens at most: revoke one you no longer use.", MaxTokens)
	}
	secret, hash, err := newToken()
	if err != nil {
		return "", Token{}, err
	}
	t := &store.APIToken{AccountID: accountID, Name: name, Hash: hash, CreatedAt: s.now().UTC().Truncate(time.Microsecond)}
	if err := s.st.CreateAPIToken(ctx, t); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return "", Token{}, refuse(errcode.Conflict, "You already have a token called %q: choose another name.", name)
		}
		return "", Token{}, err
	}
	s.log.Info("API token made", "account", accountID, "token", t.ID)
	return secret, token(t), nil
}

// Tokens lists an account's API tokens by name.
func (s *Service) Tokens(ctx context.Context, accountID int64) ([]Token, error) {
	ts, err := s.st.APITokens(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]Token, len(ts))
	for i := range ts {
		out[i] = token(&ts[i])
	}
	return out, nil
}

// RevokeToken deletes one of an account's tokens: the next request with it
// is refused. A token that isn't the account's is errcode.NotFound.
func (s *Service) RevokeToken(ctx context.Context, accountID, tokenID int64) error {
	err := s.st.DeleteAPIToken(ctx, accountID, tokenID)
	if errors.Is(err, store.ErrNotFound) {
		return refuse(errcode.NotFound, "You have no such token.")
	}
	if err != nil {
		return err
	}
	s.log.Info("API token revoked", "account", accountID, "token", tokenID)
	return nil
}

// TokenAccount is the account an API token acts for. It reads the database
// every time, so a revoked token is refused at once. A malformed, unknown or
// revoked token is ErrBadToken.
func (s *Service) TokenAccount(ctx context.Context, secret string) (Account, error) {
	b, ok := parseToken(secret)
	if !ok {
		return Account{}, ErrBadToken
	}
	t, a, err := s.st.APITokenAccount(ctx, secretHash(b))
	if errors.Is(err, store.ErrNotFound) {
		return Account{}, ErrBadToken
	}
	if err != nil {
		return Account{}, err
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	if t.LastUsed.IsZero() || now.Sub(t.LastUsed) >= touchEvery {
		if err := s.st.TouchAPIToken(ctx, t.ID, now, now.Add(-touchEvery)); err != nil {
			// The request goes on: a missed last-used time is no reason
			// to refuse it.
			s.log.Warn("recording an API token's use failed", "token", t.ID, "err", err)
		}
	}
	return account(a), nil
}
