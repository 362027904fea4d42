package lease_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"bullshit/lease"
)

// ttl is short so that the tests see many renewals and lapses; steady is
// long enough that a busy machine's stalls don't lapse a session that must
// not. Nothing is asserted of how long anything takes.
const (
	ttl    = 40 * time.Millisecond
	steady = 2 * time.Second
)

// fakeStore counts renewals and releases, failing or stalling renewals when
// told to.
type fakeStore struct {
	mu       sync.Mutex
	renewals int
	releases int
	fail     error
	stall    time.Duration
}

func (f *fakeStore) RenewLease(ctx context.Context, node string, ttl time.Duration) (time.Time, error) {
	f.mu.Lock()
	fail, stall := f.fail, f.stall
	f.mu.Unlock()
	if stall > 0 {
		time.Sleep(stall)
	}
	if fail != nil {
		return time.Time{}, fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renewals++
	return time.Now().Add(ttl), nil
}

func (f *fakeStore) ReleaseLease(ctx context.Context, node string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.releases++
	return nil
}

func (f *fakeStore) counts() (renewals, releases int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.renewals, f.releases
}

// renewals records what Config.Renewed is told.
type renewals struct {
	mu       sync.Mutex
	errs     []error
	late     int
	heldLate int // renewals that held the lease, but late
}

func (r *renewals) told(err error, late bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, err)
	if late {
		r.late++
		if err == nil {
			r.heldLate++
		}
	}
}

// count is how many renewals were told err.
func (r *renewals) count(err error) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.errs {
		if errors.Is(e, err) {
			n++
		}
	}
	return n
}

func (r *renewals) seen() (n, late int, last error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) > 0 {
		last = r.errs[len(r.errs)-1]
	}
	return len(r.errs), r.late, last
}

// await polls cond until it holds, failing the test after a generous wait.
func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("gave up waiting: %s", what)
		}
	}
}

func ended(s *lease.Session) bool {
	select {
	case <-s.Done():
		return true
	default:
		return false
	}
}

func TestGrantNeedsANodeAndATime(t *testing.T) {
	tests := []struct {
		name string
		cfg  lease.Config
	}{
		{"no node", lease.Config{TTL: ttl}},
		{"no time", lease.Config{Node: "n1"}},
		{"a negative time", lease.Config{Node: "n1", TTL: -ttl}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &fakeStore{}
			s, err := lease.Grant(context.Background(), st, tt.cfg)
			if err == nil {
				s.End()
				t.Fatalf("Grant: got a session, want an error")
			}
			if got, _ := st.counts(); got != 0 {
				t.Errorf("renewals: got %d, want 0", got)
			}
		})
	}
}

func TestGrantFailsWhenTheStoreDoes(t *testing.T) {
	defer goleak.VerifyNone(t)
	down := errors.New("the database does not answer")
	st := &fakeStore{fail: down}
	var r renewals
	_, err := lease.Grant(context.Background(), st, lease.Config{Node: "n1", TTL: ttl, Renewed: r.told})
	if !errors.Is(err, down) {
		t.Fatalf("Grant: got %v, want %v", err, down)
	}
	if n, late, last := r.seen(); n != 1 || late != 1 || !errors.Is(last, down) {
		t.Errorf("told: got %d renewals, %d late, last %v; want 1, 1, %v", n, late, last, down)
	}
}

func TestASessionRenewsUntilReleased(t *testing.T) {
	defer goleak.VerifyNone(t)
	st := &fakeStore{}
	s, err := lease.Grant(context.Background(), st, lease.Config{Node: "n1", TTL: steady})
	if err != nil {
		t.Fatal(err)
	}
	await(t, "three renewals after the grant", func() bool { n, _ := st.counts(); return n >= 4 })
	if ended(s) || s.Lapsed() {
		t.Errorf("a renewed session: got ended %v, lapsed %v; want neither", ended(s), s.Lapsed())
	}
	if err := s.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	renewed, released := st.counts()
	if released != 1 {
		t.Errorf("releases: got %d, want 1", released)
	}
	if !ended(s) || !s.Lapsed() {
		t.Errorf("a released session: got ended %v, lapsed %v; want both", ended(s), s.Lapsed())
	}
	// Its goroutines are gone (goleak), so no renewal can follow.
	if got, _ := st.counts(); got != renewed {
		t.Errorf("renewals after the release: got %d, want %d", got, renewed)
	}
}

func TestASessionWhoseRenewalsStopLapses(t *testing.T) {
	down := errors.New("connection refused")
	tests := []struct {
		name   string
		freeze bool
		fail   error
		want   error
	}{
		{"frozen", true, nil, lease.ErrFrozen},
		{"the database failing", false, down, down},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t)
			st := &fakeStore{}
			var r renewals
			var frozen atomic.Bool
			s, err := lease.Grant(context.Background(), st, lease.Config{Node: "n1", TTL: ttl, Renewed: r.told, Freeze: frozen.Load})
			if err != nil {
				t.Fatal(err)
			}
			defer s.End()
			frozen.Store(tt.freeze)
			st.mu.Lock()
			st.fail = tt.fail
			st.mu.Unlock()
			select {
			case <-s.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the session did not end with its renewals stopped")
			}
			if !s.Lapsed() {
				t.Errorf("Lapsed: got false, want true")
			}
			if _, released := st.counts(); released != 0 {
				t.Errorf("releases: got %d, want 0 (a lapse leaves the lease to run out)", released)
			}
			// After the grant, the renewals that failed and the lapse
			// itself, all late.
			if n, late, _ := r.seen(); late < n-1 {
				t.Errorf("told late: got %d of %d, want all but the grant", late, n)
			}
			if got := r.count(lease.ErrLapsed); got != 1 {
				t.Errorf("told the lapse: got %d times, want once", got)
			}
			if got := r.count(tt.want); got == 0 {
				t.Errorf("told %v: got none, want some", tt.want)
			}
		})
	}
}

func TestIgnoreDeadlineKeepsALapsedSessionGoing(t *testing.T) {
	defer goleak.VerifyNone(t)
	st := &fakeStore{}
	var r renewals
	var frozen atomic.Bool
	s, err := lease.Grant(context.Background(), st, lease.Config{Node: "n1", TTL: ttl, Renewed: r.told,
		Freeze: frozen.Load, IgnoreDeadline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.End()
	frozen.Store(true)
	await(t, "the lease overdue by the local clock", func() bool { return s.Left() <= 0 })
	n, _, _ := r.seen()
	await(t, "two more frozen renewals", func() bool { m, _, _ := r.seen(); return m >= n+2 })
	if ended(s) || s.Lapsed() {
		t.Errorf("ignoring its deadline: got ended %v, lapsed %v; want neither", ended(s), s.Lapsed())
	}
}

func TestASessionEndsWithItsContextAndLeavesTheLease(t *testing.T) {
	defer goleak.VerifyNone(t)
	st := &fakeStore{}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := lease.Grant(ctx, st, lease.Config{Node: "n1", TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end with its context")
	}
	s.End()
	if _, released := st.counts(); released != 0 {
		t.Errorf("releases: got %d, want 0", released)
	}
}

func TestASlowRenewalIsLate(t *testing.T) {
	defer goleak.VerifyNone(t)
	st := &fakeStore{}
	var r renewals
	s, err := lease.Grant(context.Background(), st, lease.Config{Node: "n1", TTL: steady, Renewed: r.told})
	if err != nil {
		t.Fatal(err)
	}
	defer s.End()
	st.mu.Lock()
	st.stall = steady / 3
	st.mu.Unlock()
	await(t, "a renewal that held told late", func() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.heldLate > 0 })
}
