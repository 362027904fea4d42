package fakeclock

import (
	"testing"
	"time"

	"bullshit/internal/clocks"
)

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestClockFiresDueTimers(t *testing.T) {
	c := New(epoch)
	a, b := c.NewTimer(time.Second), c.NewTimer(3*time.Second)
	fired := func(tm clocks.Timer) (time.Time, bool) {
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
