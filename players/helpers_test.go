package players

import (
	"context"
	"sync"
	"testing"
	"time"

	"bullshit/errcode"
	"bullshit/store"
	"bullshit/store/storetest"
)

// cheap are costs that keep the tests fast; the real ones are tested once.
var cheap = Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// clock is a settable time.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type fixture struct {
	ctx   context.Context
	st    *store.Store
	svc   *Service
	clock *clock
}

// newFixture is a service on a fresh database (PostgreSQL when
// BULLSHIT_TEST_POSTGRES is set, else SQLite) with a settable clock.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	svc, err := New(Config{Store: st, Params: cheap, Now: c.Now})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &fixture{ctx: ctx, st: st, svc: svc, clock: c}
}

// signUp makes an account or fails the test.
func (f *fixture) signUp(t *testing.T, name, password string) NewSession {
	t.Helper()
	ns, err := f.svc.SignUp(f.ctx, name, password, "10.0.0.1")
	if err != nil {
		t.Fatalf("SignUp(%q): %v", name, err)
	}
	return ns
}

// code is a refusal's code, or "" for none or another kind of error.
func code(err error) errcode.Code {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return ""
}
