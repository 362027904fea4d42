package live

import "time"

// Clock is where the runtime reads the time and sets its timers, so tests can
// drive tables with a FakeClock.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer is a Clock's one-shot timer. As with time.Timer since Go 1.23, no
// stale time is received after Reset or Stop returns.
type Timer interface {
	C() <-chan time.Time
	Reset(d time.Duration) bool
	Stop() bool
}

// RealClock is the system clock.
type RealClock struct{}

// Now is the current time in UTC, without the monotonic reading, so times
// stored and replayed compare and print the same.
func (RealClock) Now() time.Time { return time.Now().UTC() }

// NewTimer starts a timer that fires after d.
func (RealClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
