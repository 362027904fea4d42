// Package players keeps people's accounts: signing up with a name and a
// password (hashed with argon2id), signing in (throttled per name and per
// address), browser sessions kept server-side, and the API tokens an
// account makes for its programs. It knows nothing of HTTP: the browser's
// handlers set and read the session cookie, and the API's middleware reads
// the bearer token, and both ask a Service.
//
// SignUp and SignIn return the session cookie's value (NewSession.Cookie):
// the browser's handler sets it HttpOnly, SameSite=Lax (and Secure over
// HTTPS), expiring at NewSession.Expires, and hands it back to Session on
// each request, renewing the cookie when Session's Expires has moved on.
// Session-wide calls (SignOut, SignOutEverywhere, ChangePassword) take the
// cookie's value, which proves the session; account-wide calls (tokens,
// SetBot) take the account id the caller got from Session.
package players

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync/atomic"
	"time"

	"bullshit/errcode"
	"bullshit/store"
)

// Store is what the service needs of the database (*store.Store).
type Store interface {
	CreateAccount(ctx context.Context, a *store.Account) error
	Account(ctx context.Context, id int64) (*store.Account, error)
	AccountByName(ctx context.Context, nameKey string) (*store.Account, error)
	AccountByLookalike(ctx context.Context, key string) (*store.Account, error)
	SetPassword(ctx context.Context, id int64, hash string, keep []byte) error
	RehashPassword(ctx context.Context, id int64, old, hash string) (bool, error)
	SetBot(ctx context.Context, id int64, bot bool) error

	CreateSession(ctx context.Context, s store.Session) error
	SessionAccount(ctx context.Context, idHash []byte) (*store.Session, *store.Account, error)
	TouchSession(ctx context.Context, idHash []byte, seen, expires time.Time) error
	DeleteSession(ctx context.Context, idHash []byte) error
	DeleteSessions(ctx context.Context, accountID int64, keep []byte) (int, error)
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error)

	CreateAPIToken(ctx context.Context, t *store.APIToken) error
	APITokens(ctx context.Context, accountID int64) ([]store.APIToken, error)
	APITokenAccount(ctx context.Context, hash []byte) (*store.APIToken, *store.Account, error)
	TouchAPIToken(ctx context.Context, id int64, at, before time.Time) error
	DeleteAPIToken(ctx context.Context, accountID, id int64) error

	Standings
}

// The service's defaults.
const (
	// DefaultSessionIdle is how long a session lasts unused: every use
	// pushes its end this far ahead.
	DefaultSessionIdle = 30 * 24 * time.Hour
	// touchEvery is how stale a session's last-seen time, or a token's
	// last use, may get before a use writes it again: at most one write a
	// minute per session or token, however busy.
	touchEvery = time.Minute
)

// The sign-in throttle (see docs/decisions.md). A name's first NameFailures
// failures are free; past them an address that has failed for the name waits
// NameBackoff after its last attempt, doubled for each further failure of
// the name, at most MaxNameWait, but at most NameBackoff after its own first
// failure and 32 times that after its second; an address that has not failed
// for it isn't slowed. An address may fail AddressFailures times, whatever
// the names, within FailureWindow. A name's failures (and each address's
// for it) are forgotten after FailureWindow plus MaxNameWait without one.
const (
	NameFailures    = 5
	NameBackoff     = time.Second
	MaxNameWait     = 15 * time.Minute
	AddressFailures = 20
	FailureWindow   = 15 * time.Minute
	// SignUps is how many sign-ups one address may try per SignUpWindow
	// (those refused before the password is hashed aside).
	SignUps      = 10
	SignUpWindow = time.Hour
	maxKeys      = 100_000
	// maxAddrs bounds the addresses remembered for one name.
	maxAddrs = 10_000
)

// Config configures a Service. Zero fields take the defaults.
type Config struct {
	Store Store
	// Params are the password hash's costs; tests lower them.
	Params      Params
	SessionIdle time.Duration
	Now         func() time.Time
	Logger      *slog.Logger
}

// Service runs accounts, sessions and tokens. It is safe for concurrent use.
type Service struct {
	st     Store
	params Params
	idle   time.Duration
	now    func() time.Time
	log    *slog.Logger

	// dummy is a hash of nothing anyone knows, checked against when a name
	// has no account so that the answer takes the same work.
	dummy string
	// hashing bounds the password hashes computed at once (each takes
	// Params.Memory), so a burst of sign-ins can't exhaust memory.
	hashing chan struct{}
	// hashed counts the password hashes computed, so a test can see that
	// two answers cost the same work.
	hashed atomic.Int64

	byName  *backoff
	byAddr  *throttle
	signUps *throttle
}

// New returns a service on cfg.Store.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("players: no store")
	}
	if cfg.Params == (Params{}) {
		cfg.Params = DefaultParams
	}
	if cfg.SessionIdle <= 0 {
		cfg.SessionIdle = DefaultSessionIdle
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	dummy, err := hashPassword("no account has this password", cfg.Params)
	if err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	return &Service{
		st: cfg.Store, params: cfg.Params, idle: cfg.SessionIdle, now: cfg.Now, log: cfg.Logger,
		dummy:   dummy,
		hashing: make(chan struct{}, max(1, runtime.GOMAXPROCS(0))),
		byName:  newBackoff(NameFailures, NameBackoff, MaxNameWait, FailureWindow, maxKeys, maxAddrs),
		byAddr:  newThrottle(AddressFailures, FailureWindow, maxKeys),
		signUps: newThrottle(SignUps, SignUpWindow, maxKeys),
	}, nil
}

// Account is an account as its owner and others may see it.
type Account struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// Bot says the account is played by a program.
	Bot       bool      `json:"bot"`
	CreatedAt time.Time `json:"created_at"`
}

func account(a *store.Account) Account {
	return Account{ID: a.ID, Name: a.Name, Bot: a.Bot, CreatedAt: a.CreatedAt}
}

// Error is a refusal with a message for the person to read.
type Error struct {
	Code    errcode.Code
	Message string
	// Wait is how long to wait, for errcode.RateLimited.
	Wait time.Duration
}

func (e *Error) Error() string { return e.Message }

// RetryAfter is how long to wait; see errcode.RetryAfter.
func (e *Error) RetryAfter() time.Duration { return e.Wait }

// ErrorCode is the refusal's code, for errcode's table.
func (e *Error) ErrorCode() errcode.Code { return e.Code }

func refuse(code errcode.Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// The refusals callers may want to recognise with errors.Is.
var (
	// ErrBadCredentials is the one answer to a sign-in with an unknown name
	// or a wrong password.
	ErrBadCredentials = refuse(errcode.Unauthorized, "That name and password don't match an account.")
	// ErrNoSession is a cookie that is missing, malformed, signed out or
	// expired.
	ErrNoSession = refuse(errcode.Unauthorized, "You're not signed in, or your session has ended: sign in again.")
	// ErrBadToken is an API token that is malformed, unknown or revoked.
	ErrBadToken = refuse(errcode.Unauthorized, "That API token isn't valid: it may have been revoked.")
)

// Is makes errors.Is match refusals by code and message, so a wrapped copy
// of ErrBadCredentials is still it.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Message == e.Message
}

// hash computes a password hash, waiting for a turn when as many are
// under way as the server has CPUs.
func (s *Service) hash(ctx context.Context, fn func()) error {
	select {
	case s.hashing <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.hashing }()
	fn()
	s.hashed.Add(1)
	return nil
}
