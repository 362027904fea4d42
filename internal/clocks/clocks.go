// Package clocks is where the tables read the time and set their timers:
// the system clock, and one that runs faster for tests and demos. A test
// that moves the time itself uses package fakeclock.
package clocks

import "time"

// Clock is where the tables read the time and set their timers, so a test
// can drive them with a clock it moves (fakeclock).
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

// Real is the system clock.
type Real struct{}

// Now is the current time in UTC, without the monotonic reading, so times
// stored and replayed compare and print the same.
func (Real) Now() time.Time { return time.Now().UTC() }

// NewTimer starts a timer that fires after d.
func (Real) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }
func (r realTimer) Stop() bool                 { return r.t.Stop() }

// Scaled runs Speed times faster than the wall clock, so a whole game
// takes seconds in tests and demos. It counts from a fixed epoch rather than
// from the start of the process, so it keeps going forward across restarts
// and a game's stored times stay in order. Speed must be at least 1.
type Scaled struct{ Speed float64 }

var scaledEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Now is the scaled time, in UTC without the monotonic reading.
func (c Scaled) Now() time.Time {
	since := time.Since(scaledEpoch)
	return scaledEpoch.Add(time.Duration(float64(since) * c.Speed)).UTC().Round(0)
}

// NewTimer starts a timer that fires once d of scaled time has passed.
func (c Scaled) NewTimer(d time.Duration) Timer {
	return scaledTimer{Timer: Real{}.NewTimer(c.Real(d)), c: c}
}

// Real is how much wall-clock time d of scaled time takes.
func (c Scaled) Real(d time.Duration) time.Duration {
	return time.Duration(float64(d) / c.Speed)
}

type scaledTimer struct {
	Timer
	c Scaled
}

func (t scaledTimer) Reset(d time.Duration) bool { return t.Timer.Reset(t.c.Real(d)) }
