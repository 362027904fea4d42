package players

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"bullshit/errcode"
	"bullshit/naming"
)

func TestSignUp(t *testing.T) {
	f := newFixture(t)
	ann := f.signUp(t, "  Ann Lee ", "correct horse")
	if ann.Account.Name != "Ann Lee" || ann.Account.ID == 0 || ann.Cookie == "" {
		t.Errorf("SignUp: got %+v, want Ann Lee with an id and a cookie", ann)
	}
	tests := []struct {
		name, password string
		want           errcode.Code
	}{
		{"ANN LEE", "another password", errcode.Conflict},
		{"Ａｎｎ Ｌｅｅ", "another password", errcode.Conflict}, // full-width letters
		{"", "correct horse", errcode.Invalid},
		{strings.Repeat("x", naming.Max+1), "correct horse", errcode.Invalid},
		{"Bea", "short", errcode.Invalid},
		{"Bea", strings.Repeat("p", MaxPassword+1), errcode.Invalid},
		{"Bea", "pass\x00word", errcode.Invalid},
		{"Bea", "bea", errcode.Invalid},
		{"Bea Long", "bea long", errcode.Invalid},
	}
	for _, tt := range tests {
		_, err := f.svc.SignUp(f.ctx, tt.name, tt.password, "10.0.0.2")
		got, _, _ := errcode.Of(err)
		if got != tt.want {
			t.Errorf("SignUp(%q, %q): got %v (%v), want code %s", tt.name, tt.password, got, err, tt.want)
		}
	}
	if _, err := f.svc.SignIn(f.ctx, "ann lee", "correct horse", "10.0.0.3"); err != nil {
		t.Errorf("SignIn with the name in other case: %v", err)
	}
}

func TestSignUpThrottle(t *testing.T) {
	f := newFixture(t)
	for i := range SignUps {
		if _, err := f.svc.SignUp(f.ctx, "Player "+string(rune('A'+i)), "correct horse", "10.9.9.9"); err != nil {
			t.Fatalf("sign-up %d: %v", i+1, err)
		}
	}
	_, err := f.svc.SignUp(f.ctx, "One Too Many", "correct horse", "10.9.9.9")
	if code(err) != errcode.RateLimited {
		t.Errorf("sign-up %d from one address: got %v, want code %s", SignUps+1, err, errcode.RateLimited)
	}
	if _, err := f.svc.SignUp(f.ctx, "One Too Many", "correct horse", "10.9.9.8"); err != nil {
		t.Errorf("a sign-up from another address: %v", err)
	}
}

// TestSignInSameAnswer checks that an unknown name and a wrong password
// are told apart neither by the answer nor by the work done.
func TestSignInSameAnswer(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Ann", "correct horse")
	type outcome struct {
		err    error
		hashed int64
	}
	try := func(name, password string) outcome {
		before := f.svc.hashed.Load()
		_, err := f.svc.SignIn(f.ctx, name, password, "10.0.0.4")
		return outcome{err, f.svc.hashed.Load() - before}
	}
	unknown, wrong := try("Nobody", "correct horse"), try("Ann", "wrong horse")
	if !errors.Is(unknown.err, ErrBadCredentials) || !errors.Is(wrong.err, ErrBadCredentials) {
		t.Fatalf("unknown name: got %v; wrong password: got %v; want %v for both", unknown.err, wrong.err, ErrBadCredentials)
	}
	if unknown.err.Error() != wrong.err.Error() {
		t.Errorf("messages: got %q and %q, want the same", unknown.err, wrong.err)
	}
	if unknown.hashed != 1 || wrong.hashed != 1 {
		t.Errorf("password hashes computed: got %d for an unknown name and %d for a wrong password, want 1 each", unknown.hashed, wrong.hashed)
	}
	// Both count against the name's throttle alike.
	for range NameFailures - 1 {
		try("Nobody", "x")
		try("Ann", "x")
	}
	a, b := try("Nobody", "x"), try("Ann", "x")
	if code(a.err) != errcode.RateLimited || code(b.err) != errcode.RateLimited {
		t.Errorf("after %d failures: got %v and %v, want both throttled", NameFailures, a.err, b.err)
	}
}

// TestSignInThrottleCantLockTheOwnerOut is the attack of anyone failing a
// name's password from many addresses: the name is slowed for the addresses
// that failed, and its owner signs in at once from one that hasn't.
func TestSignInThrottleCantLockTheOwnerOut(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Ann", "correct horse")
	for i := range 60 {
		addr := fmt.Sprintf("10.9.%d.%d", i/20, i%20)
		for range AddressFailures {
			if _, err := f.svc.SignIn(f.ctx, "Ann", "wrong horse", addr); code(err) == errcode.RateLimited {
				break
			}
		}
	}
	if _, err := f.svc.SignIn(f.ctx, "ann", "correct horse", "10.0.0.6"); err != nil {
		t.Fatalf("the owner from an address that hasn't failed: got %v, want signed in", err)
	}
}

// TestSignInThrottleBacksOff: from an address that has failed, a name is
// free for NameFailures failures, then slowed, each wait counted from the
// address's last attempt and doubling up to MaxNameWait, never locked.
func TestSignInThrottleBacksOff(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Ann", "correct horse")
	const addr = "10.0.0.5"
	for i := range NameFailures {
		if _, err := f.svc.SignIn(f.ctx, "Ann", "wrong horse", addr); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("failure %d: got %v, want %v", i+1, err, ErrBadCredentials)
		}
	}
	want := NameBackoff
	for n := NameFailures; want < MaxNameWait; n++ {
		_, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", addr)
		var e *Error
		if !errors.As(err, &e) || e.Code != errcode.RateLimited || e.Wait != want {
			t.Fatalf("after %d failures: got %v, want a wait of %v", n, err, want)
		}
		if n == NameFailures {
			if msg := "Too many failed sign-ins: try again in 1 second."; e.Message != msg {
				t.Errorf("message: got %q, want %q", e.Message, msg)
			}
		}
		f.clock.advance(want)
		if _, err := f.svc.SignIn(f.ctx, "Ann", "wrong horse", addr); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("once the wait of %v is over: got %v, want the password checked", want, err)
		}
		want = min(2*want, MaxNameWait)
	}
	_, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", addr)
	var e *Error
	if !errors.As(err, &e) || e.Wait != MaxNameWait || e.Message != "Too many failed sign-ins: try again in 15 minutes." {
		t.Fatalf("at the longest wait: got %v, want a wait of %v", err, MaxNameWait)
	}
	f.clock.advance(MaxNameWait)
	if _, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", addr); err != nil {
		t.Fatalf("the right password after the longest wait: %v", err)
	}
	// The right password cleared the name: a typo is free again.
	if _, err := f.svc.SignIn(f.ctx, "Ann", "wrong horse", addr); !errors.Is(err, ErrBadCredentials) {
		t.Errorf("a failure after signing in: got %v, want %v", err, ErrBadCredentials)
	}
}

func TestSignInThrottlePerAddress(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Ann", "correct horse")
	for i := range AddressFailures {
		// A new name each time: only the address counts them all.
		if _, err := f.svc.SignIn(f.ctx, "Guess "+strings.Repeat("x", i), "whatever1", "10.6.6.6"); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("failure %d: got %v, want %v", i+1, err, ErrBadCredentials)
		}
	}
	if _, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "10.6.6.6"); code(err) != errcode.RateLimited {
		t.Errorf("attempt %d from one address: got %v, want code %s", AddressFailures+1, err, errcode.RateLimited)
	}
	if _, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "10.7.7.7"); err != nil {
		t.Errorf("Ann from another address: %v", err)
	}
}

func TestSessionSliding(t *testing.T) {
	f := newFixture(t)
	ns := f.signUp(t, "Ann", "correct horse")
	if want := f.clock.Now().Add(DefaultSessionIdle); !ns.Expires.Equal(want) {
		t.Errorf("Expires at sign-up: got %v, want %v", ns.Expires, want)
	}
	s, err := f.svc.Session(f.ctx, ns.Cookie)
	if err != nil || s.Account != ns.Account {
		t.Fatalf("Session: got %+v, %v; want %+v", s, err, ns.Account)
	}
	// Used every 20 days, it never ends.
	for range 3 {
		f.clock.advance(20 * 24 * time.Hour)
		s, err = f.svc.Session(f.ctx, ns.Cookie)
		if err != nil {
			t.Fatalf("Session after 20 days: %v", err)
		}
		if want := f.clock.Now().Add(DefaultSessionIdle); !s.Expires.Equal(want) {
			t.Errorf("Expires after a use: got %v, want %v", s.Expires, want)
		}
	}
	// Unused for longer than that, it ends.
	f.clock.advance(DefaultSessionIdle)
	if _, err := f.svc.Session(f.ctx, ns.Cookie); !errors.Is(err, ErrNoSession) {
		t.Errorf("Session after %v unused: got %v, want %v", DefaultSessionIdle, err, ErrNoSession)
	}
	for _, bad := range []string{"", "nonsense", ns.Cookie[1:] + "A"} {
		if _, err := f.svc.Session(f.ctx, bad); !errors.Is(err, ErrNoSession) {
			t.Errorf("Session(%q): got %v, want %v", bad, err, ErrNoSession)
		}
	}
}

func TestSignOut(t *testing.T) {
	f := newFixture(t)
	ns := f.signUp(t, "Ann", "correct horse")
	other, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "10.0.0.7")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SignOut(f.ctx, ns.Cookie); err != nil {
		t.Fatalf("SignOut: %v", err)
	}
	if _, err := f.svc.Session(f.ctx, ns.Cookie); !errors.Is(err, ErrNoSession) {
		t.Errorf("Session after SignOut: got %v, want %v", err, ErrNoSession)
	}
	if _, err := f.svc.Session(f.ctx, other.Cookie); err != nil {
		t.Errorf("the other session after SignOut: %v", err)
	}
	if err := f.svc.SignOut(f.ctx, ns.Cookie); err != nil {
		t.Errorf("SignOut again: got %v, want nil", err)
	}
}

func TestSignOutEverywhere(t *testing.T) {
	f := newFixture(t)
	first := f.signUp(t, "Ann", "correct horse")
	bea := f.signUp(t, "Bea", "battery staple")
	var cookies []string
	for range 3 {
		ns, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "10.0.0.8")
		if err != nil {
			t.Fatal(err)
		}
		cookies = append(cookies, ns.Cookie)
	}
	if err := f.svc.SignOutEverywhere(f.ctx, cookies[1]); err != nil {
		t.Fatalf("SignOutEverywhere: %v", err)
	}
	for _, c := range append(cookies, first.Cookie) {
		if _, err := f.svc.Session(f.ctx, c); !errors.Is(err, ErrNoSession) {
			t.Errorf("one of Ann's sessions after SignOutEverywhere: got %v, want %v", err, ErrNoSession)
		}
	}
	if _, err := f.svc.Session(f.ctx, bea.Cookie); err != nil {
		t.Errorf("Bea's session after Ann signed out everywhere: %v", err)
	}
	if err := f.svc.SignOutEverywhere(f.ctx, cookies[0]); !errors.Is(err, ErrNoSession) {
		t.Errorf("SignOutEverywhere with an ended session: got %v, want %v", err, ErrNoSession)
	}
}

func TestChangePassword(t *testing.T) {
	f := newFixture(t)
	here := f.signUp(t, "Ann", "correct horse")
	there, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "10.0.0.9")
	if err != nil {
		t.Fatal(err)
	}
	bea := f.signUp(t, "Bea", "battery staple")

	if err := f.svc.ChangePassword(f.ctx, here.Cookie, "wrong horse", "new password", "10.0.0.9"); code(err) != errcode.Unauthorized {
		t.Errorf("ChangePassword with a wrong current password: got %v, want code %s", err, errcode.Unauthorized)
	}
	if err := f.svc.ChangePassword(f.ctx, here.Cookie, "correct horse", "short", "10.0.0.9"); code(err) != errcode.Invalid {
		t.Errorf("ChangePassword to a short one: got %v, want code %s", err, errcode.Invalid)
	}
	if err := f.svc.ChangePassword(f.ctx, here.Cookie, "correct horse", "new password", "10.0.0.9"); err != nil {
		t.Fatalf("ChangePassword: %v", err)
	}
	if _, err := f.svc.Session(f.ctx, here.Cookie); err != nil {
		t.Errorf("the session that changed the password: %v", err)
	}
	if _, err := f.svc.Session(f.ctx, there.Cookie); !errors.Is(err, ErrNoSession) {
		t.Errorf("Ann's other session: got %v, want %v", err, ErrNoSession)
	}
	if _, err := f.svc.Session(f.ctx, bea.Cookie); err != nil {
		t.Errorf("Bea's session: %v", err)
	}
	if _, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "10.0.0.10"); !errors.Is(err, ErrBadCredentials) {
		t.Errorf("SignIn with the old password: got %v, want %v", err, ErrBadCredentials)
	}
	if _, err := f.svc.SignIn(f.ctx, "Ann", "new password", "10.0.0.10"); err != nil {
		t.Errorf("SignIn with the new password: %v", err)
	}
}

// TestRehash checks that a hash made with other costs is replaced at the
// next sign-in, and still signs in.
func TestRehash(t *testing.T) {
	f := newFixture(t)
	ns := f.signUp(t, "Ann", "correct horse")
	stronger := cheap
	stronger.Time = 2
	svc, err := New(Config{Store: f.st, Params: stronger, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SignIn(f.ctx, "Ann", "correct horse", "10.0.0.11"); err != nil {
		t.Fatalf("SignIn with an older hash: %v", err)
	}
	a, err := f.st.Account(f.ctx, ns.Account.ID)
	if err != nil {
		t.Fatal(err)
	}
	if outdated(a.PasswordHash, stronger) {
		t.Errorf("hash after signing in: got %q, want one made with %+v", a.PasswordHash, stronger)
	}
	if _, err := svc.SignIn(f.ctx, "Ann", "correct horse", "10.0.0.11"); err != nil {
		t.Errorf("SignIn with the new hash: %v", err)
	}
}

// TestSignInThrottleIPv6Block checks that an IPv6 client can't escape the
// address limit by moving around its /64.
func TestSignInThrottleIPv6Block(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Ann", "correct horse")
	for i := range AddressFailures {
		addr := fmt.Sprintf("2001:db8:0:1::%x", i+1)
		if _, err := f.svc.SignIn(f.ctx, fmt.Sprintf("Guess %d", i), "whatever1", addr); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("failure %d: got %v, want %v", i+1, err, ErrBadCredentials)
		}
	}
	if _, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "2001:db8:0:1::ffff"); code(err) != errcode.RateLimited {
		t.Errorf("another address in the same /64: got %v, want code %s", err, errcode.RateLimited)
	}
	if _, err := f.svc.SignIn(f.ctx, "Ann", "correct horse", "2001:db8:0:2::1"); err != nil {
		t.Errorf("an address in another /64: %v", err)
	}
}

// TestSignInThrottleTogether makes many wrong sign-ins for one name at the
// same moment: from one address only NameFailures are checked, the rest
// refused; from addresses that have not failed, each is checked once (what
// a name costs an attacker with many addresses, and what keeps its owner's
// way in open).
func TestSignInThrottleTogether(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Ann", "correct horse")
	const tries = 30
	checked := func(addr func(i int) string) int {
		errs := make(chan error, tries)
		var wg sync.WaitGroup
		for i := range tries {
			wg.Go(func() {
				_, err := f.svc.SignIn(f.ctx, "Ann", "wrong horse", addr(i))
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		n := 0
		for err := range errs {
			switch {
			case errors.Is(err, ErrBadCredentials):
				n++
			case code(err) != errcode.RateLimited:
				t.Errorf("a sign-in: got %v, want %v or code %s", err, ErrBadCredentials, errcode.RateLimited)
			}
		}
		return n
	}
	if n := checked(func(int) string { return "10.1.0.1" }); n != NameFailures {
		t.Errorf("passwords checked from one address: got %d, want %d", n, NameFailures)
	}
	if n := checked(func(i int) string { return fmt.Sprintf("10.2.0.%d", i) }); n != tries {
		t.Errorf("passwords checked from %d new addresses: got %d, want %d", tries, n, tries)
	}
}

// TestSignInThrottleOwnersTypoUnderAttack: strangers failing a name from many
// addresses don't set the wait of the owner's own address. After 30 of them,
// the owner's one typo costs at most a few seconds, then the right password
// signs in. (The name's total used to set it: 15 minutes.)
func TestSignInThrottleOwnersTypoUnderAttack(t *testing.T) {
	f := newFixture(t)
	f.signUp(t, "Alice", "correct horse")
	for i := range 30 {
		if _, err := f.svc.SignIn(f.ctx, "Alice", "wrong horse", fmt.Sprintf("10.9.0.%d", i)); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("a stranger's failure %d: got %v, want %v", i+1, err, ErrBadCredentials)
		}
	}
	const owner = "10.0.0.7"
	if _, err := f.svc.SignIn(f.ctx, "alice", "correct hose", owner); !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("the owner's typo: got %v, want %v", err, ErrBadCredentials)
	}
	_, err := f.svc.SignIn(f.ctx, "Alice", "correct horse", owner)
	var e *Error
	if errors.As(err, &e) && e.Code == errcode.RateLimited {
		if e.Wait > 3*time.Second {
			t.Fatalf("the owner's right password after one typo: got a wait of %v, want at most 3s", e.Wait)
		}
		f.clock.advance(e.Wait)
		_, err = f.svc.SignIn(f.ctx, "Alice", "correct horse", owner)
	}
	if err != nil {
		t.Fatalf("the owner's right password after one typo: got %v, want signed in", err)
	}
}
