package players

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"

	"bullshit/errcode"
	"bullshit/internal/ratelimit"
	"bullshit/naming"
	"bullshit/naming/lookalike"
	"bullshit/store"
)

// The password's length limits, in characters. NIST SP 800-63B: at least 8,
// no composition rules, and room for a passphrase.
const (
	MinPassword = 8
	MaxPassword = 256
)

// Session is a signed-in browser: its account, and when the session ends
// unless it is used again.
type Session struct {
	Account Account
	Expires time.Time
}

// NewSession is a session just begun, with the value for its cookie. The
// value is shown only now: the server keeps only its hash.
type NewSession struct {
	Session
	Cookie string
}

// nameKey is a name's comparison form: two names with the same key are the
// same account.
func nameKey(name string) (string, error) { return naming.Key(name) }

// accountKey is the name key of the account a person means by name, as
// SignUp makes it: the name cleaned as every name is, then compared. ok is
// false for a name no account can have (a NUL, control characters, bytes
// that aren't text), which is never looked up.
func accountKey(name string) (key string, ok bool) {
	clean, err := naming.Clean(name)
	if err != nil {
		return "", false
	}
	key, err = nameKey(clean)
	return key, err == nil
}

// throttleKey is the name a sign-in is throttled by, for names that can't be
// an account's as well as those that can.
func throttleKey(name string) string {
	if key, ok := accountKey(name); ok {
		return key
	}
	key := strings.ToLower(strings.TrimSpace(name))
	for len(key) > 4*naming.Max {
		_, size := utf8.DecodeLastRuneInString(key)
		key = key[:len(key)-size]
	}
	return key
}

// checkPassword normalises a password (PRECIS OpaqueString: NFC, other
// spaces as the plain space) and refuses one too short, too long, with
// control characters, or the same as the name.
func checkPassword(password, name string) (string, error) {
	p, err := precis.OpaqueString.String(password)
	switch n := utf8.RuneCountInString(password); {
	case n < MinPassword:
		return "", refuse(errcode.Invalid, "A password is at least %d characters.", MinPassword)
	case n > MaxPassword:
		return "", refuse(errcode.Invalid, "A password is at most %d characters.", MaxPassword)
	case err != nil:
		return "", refuse(errcode.Invalid, "A password can't contain control characters or unassigned characters.")
	}
	if k, err := nameKey(p); err == nil && k == throttleKey(name) {
		return "", refuse(errcode.Invalid, "Your password can't be your name.")
	}
	return p, nil
}

// SignUp makes an account and signs it in. addr is the client's IP address,
// which may try SignUps valid sign-ups per SignUpWindow (each costs a
// password hash).
func (s *Service) SignUp(ctx context.Context, name, password, addr string) (NewSession, error) {
	name, err := naming.Clean(name)
	if err != nil {
		return NewSession{}, err
	}
	key, err := nameKey(name)
	if err != nil {
		return NewSession{}, refuse(errcode.Invalid, "That name can't be an account's: use letters, digits, spaces and common symbols.")
	}
	password, err = checkPassword(password, name)
	if err != nil {
		return NewSession{}, err
	}
	// A name already taken, or one that looks like an account's, is
	// refused before the hash is paid for; the insert below still catches
	// one taken meanwhile (both are unique in the store).
	if _, err := s.st.AccountByName(ctx, key); err == nil {
		return NewSession{}, nameTaken(name)
	} else if !errors.Is(err, store.ErrNotFound) {
		return NewSession{}, err
	}
	look := lookalike.Key(name)
	if other, err := s.st.AccountByLookalike(ctx, look); err == nil {
		return NewSession{}, naming.LooksLike(name, other.Name)
	} else if !errors.Is(err, store.ErrNotFound) {
		return NewSession{}, err
	}
	now := s.now()
	if wait := s.signUps.take(ratelimit.AddressKey(addr), now); wait > 0 {
		return NewSession{}, throttled(wait, "Too many accounts made from your address: try again in %s.")
	}
	var (
		hash    string
		hashErr error
	)
	if err := s.hash(ctx, func() { hash, hashErr = hashPassword(password, s.params) }); err != nil {
		return NewSession{}, err
	}
	if hashErr != nil {
		return NewSession{}, hashErr
	}
	a := &store.Account{Name: name, NameKey: key, Lookalike: look, PasswordHash: hash, CreatedAt: now.UTC().Truncate(time.Microsecond)}
	if err := s.st.CreateAccount(ctx, a); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return NewSession{}, nameTaken(name)
		}
		return NewSession{}, err
	}
	s.log.Info("account made", "account", a.ID)
	return s.begin(ctx, a)
}

func nameTaken(name string) error {
	return refuse(errcode.Conflict, "The name %q is taken: choose another.", name)
}

// SignIn checks a name and password and begins a session. An unknown name
// and a wrong password get the same answer (ErrBadCredentials) after the
// same work. An attempt the throttle holds back (see the constants) is
// refused (errcode.RateLimited, with the time to wait) without being checked.
func (s *Service) SignIn(ctx context.Context, name, password, addr string) (NewSession, error) {
	key, addr := throttleKey(name), ratelimit.AddressKey(addr)
	prev, err := s.attempt(key, addr)
	if err != nil {
		return NewSession{}, err
	}
	var a *store.Account
	if _, ok := accountKey(name); ok {
		var err error
		if a, err = s.st.AccountByName(ctx, key); err != nil && !errors.Is(err, store.ErrNotFound) {
			s.settle(key, addr, prev, false)
			return NewSession{}, err
		}
	}
	encoded := s.dummy
	if a != nil {
		encoded = a.PasswordHash
	}
	var ok bool
	if err := s.hash(ctx, func() { ok = passwordMatches(encoded, password) }); err != nil {
		s.settle(key, addr, prev, false)
		return NewSession{}, err
	}
	if a == nil || !ok {
		return NewSession{}, ErrBadCredentials // counted by attempt
	}
	s.settle(key, addr, prev, true)
	s.upgrade(ctx, a, password)
	return s.begin(ctx, a)
}

// passwordMatches checks a password as typed against a hash, normalised as
// SignUp normalised it.
func passwordMatches(encoded, password string) bool {
	p, err := precis.OpaqueString.String(password)
	if err != nil {
		p = password // never a match, but the same work
	}
	return verifyPassword(encoded, p)
}

// attempt counts a password check for a name (by its throttle key) from an
// address (by ratelimit.AddressKey), or refuses it when the address has failed too
// often or must still wait for the name. Every attempt counts as a failure
// until settle says otherwise, so that checks under way at once can't all
// pass the same count; prev is what settle needs to give it back.
func (s *Service) attempt(key, addr string) (prev tried, err error) {
	now := s.now()
	if wait := s.byAddr.take(addr, now); wait > 0 {
		return tried{}, throttled(wait, "Too many failed sign-ins from your address: try again in %s.")
	}
	wait, prev := s.byName.take(key, addr, now)
	if wait > 0 {
		s.byAddr.refund(addr)
		return tried{}, throttled(wait, "Too many failed sign-ins: try again in %s.")
	}
	return prev, nil
}

// settle gives back an attempt that was not a failure: a right password
// (which clears the address's failures for the name, but only gives back its
// own attempt from the address, or an attacker's own account would clear
// it), or a check that never happened (a database or context error).
func (s *Service) settle(key, addr string, prev tried, clearName bool) {
	if clearName {
		s.byName.clear(key, addr)
	} else {
		s.byName.refund(key, addr, prev)
	}
	s.byAddr.refund(addr)
}

func throttled(wait time.Duration, format string) error {
	wait = wait.Round(time.Second)
	if wait < time.Second {
		wait = time.Second
	}
	e := refuse(errcode.RateLimited, format, minutes(wait))
	e.Wait = wait
	return e
}

// minutes words a wait for a person: "1 second", "40 seconds", "1 minute",
// "12 minutes".
func minutes(d time.Duration) string {
	if d < time.Minute {
		if s := int((d + time.Second - 1) / time.Second); s != 1 {
			return fmt.Sprintf("%d seconds", s)
		}
		return "1 second"
	}
	m := int((d + time.Minute - 1) / time.Minute)
	if m == 1 {
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", m)
}

// upgrade rehashes a password whose hash was made with other parameters,
// now that the password is at hand. A failure only leaves the old hash.
func (s *Service) upgrade(ctx context.Context, a *store.Account, password string) {
	if !outdated(a.PasswordHash, s.params) {
		return
	}
	p, err := precis.OpaqueString.String(password)
	if err != nil {
		return
	}
	var (
		hash    string
		hashErr error
	)
	if err := s.hash(ctx, func() { hash, hashErr = hashPassword(p, s.params) }); err != nil || hashErr != nil {
		return
	}
	if _, err := s.st.RehashPassword(ctx, a.ID, a.PasswordHash, hash); err != nil {
		s.log.Warn("rehashing a password failed", "account", a.ID, "err", err)
	}
}

// begin starts a session for a.
func (s *Service) begin(ctx context.Context, a *store.Account) (NewSession, error) {
	cookie, hash, err := newCookie()
	if err != nil {
		return NewSession{}, err
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	ses := store.Session{IDHash: hash, AccountID: a.ID, CreatedAt: now, LastSeen: now, Expires: now.Add(s.idle)}
	if err := s.st.CreateSession(ctx, ses); err != nil {
		return NewSession{}, err
	}
	return NewSession{Session: Session{Account: account(a), Expires: ses.Expires}, Cookie: cookie}, nil
}

// Session is the signed-in account of a session cookie's value. A use more
// than a minute after the last one records it and pushes the session's end
// to SessionIdle from now (the caller may then renew the cookie to match
// Expires). A missing, malformed, signed-out or expired session is
// ErrNoSession.
func (s *Service) Session(ctx context.Context, cookie string) (Session, error) {
	ses, a, err := s.session(ctx, cookie)
	if err != nil {
		return Session{}, err
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	if now.Sub(ses.LastSeen) >= touchEvery {
		ses.Expires = now.Add(s.idle)
		if err := s.st.TouchSession(ctx, ses.IDHash, now, ses.Expires); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return Session{}, ErrNoSession
			}
			return Session{}, err
		}
	}
	return Session{Account: account(a), Expires: ses.Expires}, nil
}

// session reads a live session by its cookie, removing it if it expired.
func (s *Service) session(ctx context.Context, cookie string) (*store.Session, *store.Account, error) {
	id, ok := parseCookie(cookie)
	if !ok {
		return nil, nil, ErrNoSession
	}
	ses, a, err := s.st.SessionAccount(ctx, secretHash(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, ErrNoSession
	}
	if err != nil {
		return nil, nil, err
	}
	if !s.now().Before(ses.Expires) {
		if err := s.st.DeleteSession(ctx, ses.IDHash); err != nil {
			s.log.Warn("removing an expired session failed", "err", err)
		}
		return nil, nil, ErrNoSession
	}
	return ses, a, nil
}

// SignOut ends the session of a cookie. Signing out of a session that has
// already ended is not an error.
func (s *Service) SignOut(ctx context.Context, cookie string) error {
	id, ok := parseCookie(cookie)
	if !ok {
		return nil
	}
	return s.st.DeleteSession(ctx, secretHash(id))
}

// RemoveExpired deletes the sessions that have expired (a session used after
// its end is removed then; this clears those never used again) and says how
// many.
func (s *Service) RemoveExpired(ctx context.Context) (int, error) {
	return s.st.DeleteExpiredSessions(ctx, s.now())
}

// SignOutEverywhere ends every session of the cookie's account, this one
// included.
func (s *Service) SignOutEverywhere(ctx context.Context, cookie string) error {
	ses, _, err := s.session(ctx, cookie)
	if err != nil {
		return err
	}
	n, err := s.st.DeleteSessions(ctx, ses.AccountID, nil)
	if err != nil {
		return err
	}
	s.log.Info("signed out everywhere", "account", ses.AccountID, "sessions", n)
	return nil
}

// ChangePassword replaces the password of the cookie's account after
// checking the current one, and ends every other session of the account in
// the same transaction; this session stays signed in. Wrong current
// passwords count against the sign-in throttle, so a borrowed session can't
// be used to guess the password.
func (s *Service) ChangePassword(ctx context.Context, cookie, current, next, addr string) error {
	ses, a, err := s.session(ctx, cookie)
	if err != nil {
		return err
	}
	next, err = checkPassword(next, a.Name)
	if err != nil {
		return err
	}
	addr = ratelimit.AddressKey(addr)
	prev, err := s.attempt(a.NameKey, addr)
	if err != nil {
		return err
	}
	var ok bool
	if err := s.hash(ctx, func() { ok = passwordMatches(a.PasswordHash, current) }); err != nil {
		s.settle(a.NameKey, addr, prev, false)
		return err
	}
	if !ok {
		return refuse(errcode.Unauthorized, "Your current password isn't right.") // counted by attempt
	}
	s.settle(a.NameKey, addr, prev, true)
	var (
		hash    string
		hashErr error
	)
	if err := s.hash(ctx, func() { hash, hashErr = hashPassword(next, s.params) }); err != nil {
		return err
	}
	if hashErr != nil {
		return hashErr
	}
	if err := s.st.SetPassword(ctx, a.ID, hash, ses.IDHash); err != nil {
		return err
	}
	s.log.Info("password changed", "account", a.ID)
	return nil
}

// SetBot marks an account as played by a program, or as a person's.
func (s *Service) SetBot(ctx context.Context, accountID int64, bot bool) error {
	err := s.st.SetBot(ctx, accountID, bot)
	if errors.Is(err, store.ErrNotFound) {
		return errNoAccount
	}
	return err
}

var errNoAccount = refuse(errcode.NotFound, "There's no such account.")

// Account reads an account by its id.
func (s *Service) Account(ctx context.Context, id int64) (Account, error) {
	a, err := s.st.Account(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Account{}, errNoAccount
	}
	if err != nil {
		return Account{}, err
	}
	return account(a), nil
}
