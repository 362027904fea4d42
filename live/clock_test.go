package live

import (
	"testing"
	"time"
)

func TestFakeClockFiresDueTimers(t *testing.T) {
	c := NewFakeClock(epoch)
	a, b := c.NewTimer(time.Second), c.NewTimer(3*time.Second)
	fired := func(tm Timer) (time.Time, bool) {
		select {
		case at := <-tm.C():
			return at, true
		default:
			return time.Time{}, false
		}
	}
	steps := []struct {
		name         string
		do           func()
		wantA, wantB bool
		wantAt       time.Time // a's firing time, when it fires
	}{
		{"not yet", func() { c.Advance(999 * time.Millisecond) }, false, false, time.Time{}},
		{"a due", func() { c.Advance(time.Millisecond) }, true, false, epoch.Add(time.Second)},
		{"reset a, stop b", func() { a.Reset(time.Second); b.Stop(); c.Advance(5 * time.Second) }, true, false, epoch.Add(2 * time.Second)},
		{"reset drops a firing not taken", func() { a.Reset(time.Second); c.Advance(time.Second); a.Reset(time.Hour) }, false, false, time.Time{}},
		{"zero fires at once", func() { a.Reset(0) }, true, false, epoch.Add(7 * time.Second)},
	}
	for _, s := range steps {
		s.do()
		atA, gotA := fired(a)
		_, gotB := fired(b)
		if gotA != s.wantA || gotB != s.wantB {
			t.Errorf("%s: got fired %v, %v, want %v, %v", s.name, gotA, gotB, s.wantA, s.wantB)
		}
		if gotA && !atA.Equal(s.wantAt) {
			t.Errorf("%s: got a firing at %v, want %v", s.name, atA, s.wantAt)
		}
	}
	if got, want := c.Timers(), 0; got != want {
		t.Errorf("got %d timers waiting, want %d", got, want)
	}
}

func TestHistogramQuantiles(t *testing.T) {
	tests := []struct {
		name          string
		values        []time.Duration
		p50, p99, max time.Duration
	}{
		{"empty", nil, 0, 0, 0},
		{"one", []time.Duration{5 * time.Microsecond}, 5 * time.Microsecond, 5 * time.Microsecond, 5 * time.Microsecond},
		{"negative counts as zero", []time.Duration{-time.Second}, 0, 0, 0},
		// Quantiles read the top of their bucket: 500µs lies in 480-511µs.
		{"spread", spread(1000), 511 * time.Microsecond, 1000 * time.Microsecond, 1000 * time.Microsecond},
	}
	for _, tt := range tests {
		var h histogram
		for _, v := range tt.values {
			h.record(v)
		}
		l := h.latency()
		if l.Count != int64(len(tt.values)) || l.P50 != tt.p50 || l.P99 != tt.p99 || l.Max != tt.max {
			t.Errorf("%s: got %+v, want count %d p50 %v p99 %v max %v", tt.name, l, len(tt.values), tt.p50, tt.p99, tt.max)
		}
	}
}

// spread is 1µs, 2µs, ... n µs.
func spread(n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i+1) * time.Microsecond
	}
	return out
}

func TestScaledClockRunsFaster(t *testing.T) {
	c := ScaledClock{Speed: 50}
	if got, want := c.Real(5*time.Second), 100*time.Millisecond; got != want {
		t.Errorf("Real(5s): got %v, want %v", got, want)
	}
	before := c.Now()
	timer := c.NewTimer(time.Second)
	<-timer.C()
	// A second of scaled time has passed once the timer fires, though only
	// about 20 ms of wall time has.
	if got := c.Now().Sub(before); got < time.Second {
		t.Errorf("scaled time passed by the timer's firing: got %v, want at least 1s", got)
	}
	timer.Reset(time.Second)
	<-timer.C()
	if got := c.Now().Sub(before); got < 2*time.Second {
		t.Errorf("scaled time passed after a reset: got %v, want at least 2s", got)
	}
}
