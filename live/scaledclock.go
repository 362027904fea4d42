package live

import "time"

// ScaledClock runs Speed times faster than the wall clock, so a whole game
// takes seconds in tests and demos. It counts from a fixed epoch rather than
// from the start of the process, so it keeps going forward across restarts
// and a game's stored times stay in order. Speed must be at least 1.
type ScaledClock struct{ Speed float64 }

var scaledEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Now is the scaled time, in UTC without the monotonic reading.
func (c ScaledClock) Now() time.Time {
	since := time.Since(scaledEpoch)
	return scaledEpoch.Add(time.Duration(float64(since) * c.Speed)).UTC().Round(0)
}

// NewTimer starts a timer that fires once d of scaled time has passed.
func (c ScaledClock) NewTimer(d time.Duration) Timer {
	return scaledTimer{Timer: RealClock{}.NewTimer(c.Real(d)), c: c}
}

// Real is how much wall-clock time d of scaled time takes.
func (c ScaledClock) Real(d time.Duration) time.Duration {
	return time.Duration(float64(d) / c.Speed)
}

type scaledTimer struct {
	Timer
	c ScaledClock
}

func (t scaledTimer) Reset(d time.Duration) bool { return t.Timer.Reset(t.c.Real(d)) }
