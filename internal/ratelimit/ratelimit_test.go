package ratelimit

import (
	"strconv"
	"testing"
	"time"
)

// fakeNow is a clock the test moves by hand.
type fakeNow struct{ t time.Time }

func (f *fakeNow) now() time.Time          { return f.t }
func (f *fakeNow) advance(d time.Duration) { f.t = f.t.Add(d) }

func TestLimiter(t *testing.T) {
	type step struct {
		advance    time.Duration
		key        string
		ok         bool
		retryAfter int
	}
	tests := []struct {
		name  string
		rate  Rate
		steps []step
	}{
		{"burst then refused", Rate{PerSecond: 1, Burst: 2}, []step{
			{0, "a", true, 0}, {0, "a", true, 0}, {0, "a", false, 1},
		}},
		{"refills with time", Rate{PerSecond: 2, Burst: 1}, []step{
			{0, "a", true, 0}, {0, "a", false, 1}, {500 * time.Millisecond, "a", true, 0}, {0, "a", false, 1},
		}},
		{"retry after rounds up", Rate{PerSecond: 0.25, Burst: 1}, []step{
			{0, "a", true, 0}, {0, "a", false, 4}, {time.Second, "a", false, 3},
		}},
		{"keys are separate", Rate{PerSecond: 1, Burst: 1}, []step{
			{0, "a", true, 0}, {0, "b", true, 0}, {0, "a", false, 1}, {0, "b", false, 1},
		}},
		{"never more than the burst", Rate{PerSecond: 1, Burst: 2}, []step{
			{time.Hour, "a", true, 0}, {0, "a", true, 0}, {0, "a", false, 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeNow{t: time.Unix(1e9, 0)}
			l := New(tt.rate, 100, clock.now)
			for i, s := range tt.steps {
				clock.advance(s.advance)
				ok, wait := l.Allow(s.key)
				if ok != s.ok || wait != s.retryAfter {
					t.Errorf("step %d: allow(%q) = %v, %d; want %v, %d", i, s.key, ok, wait, s.ok, s.retryAfter)
				}
			}
		})
	}
}

func TestLimiterMemoryBounded(t *testing.T) {
	clock := &fakeNow{t: time.Unix(1e9, 0)}
	l := New(Rate{PerSecond: 1, Burst: 5}, 50, clock.now)
	for i := range 1000 {
		l.Allow("client-" + strconv.Itoa(i))
		if got := l.Size(); got > 50 {
			t.Fatalf("after %d clients the limiter holds %d buckets, want at most 50", i+1, got)
		}
	}
	// Full buckets go first: a client that has been idle long enough to
	// refill is the same as a new one.
	clock.advance(time.Minute)
	l.Allow("one more")
	if got := l.Size(); got != 1 {
		t.Errorf("after every bucket refilled, the limiter holds %d buckets, want 1", got)
	}
}

func TestAddressKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"192.0.2.1", "192.0.2.1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"not an address", "not an address"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := AddressKey(tt.in); got != tt.want {
			t.Errorf("AddressKey(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}
