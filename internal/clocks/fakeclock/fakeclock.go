// Package fakeclock is a clocks.Clock that moves only when a test moves it.
package fakeclock

import (
	"slices"
	"sync"
	"time"

	"bullshit/internal/clocks"
)

// Clock moves only when told to: Advance moves it on and fires the timers
// due. It is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

// New returns a Clock reading start.
func New(start time.Time) *Clock {
	return &Clock{now: start.UTC().Round(0)}
}

// Now is the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer that fires once the clock has been advanced by d.
func (c *Clock) NewTimer(d time.Duration) clocks.Timer {
	t := &fakeTimer{clock: c, ch: make(chan time.Time, 1)}
	t.Reset(d)
	return t
}

// Advance moves the clock on by d and fires every timer due by then, in the
// order they fall due. A timer's channel holds one firing, as a receiver that
// is busy picks it up later.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	due := slices.DeleteFunc(slices.Clone(c.timers), func(t *fakeTimer) bool { return t.when.After(c.now) })
	slices.SortStableFunc(due, func(a, b *fakeTimer) int { return a.when.Compare(b.when) })
	for _, t := range due {
		c.remove(t)
		select {
		case t.ch <- t.when:
		default:
		}
	}
}

// Timers is how many timers are waiting to fire.
func (c *Clock) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

func (c *Clock) remove(t *fakeTimer) bool {
	i := slices.Index(c.timers, t)
	if i < 0 {
		return false
	}
	c.timers = slices.Delete(c.timers, i, i+1)
	return true
}

type fakeTimer struct {
	clock *Clock
	when  time.Time
	ch    chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

// Reset re-arms the timer, dropping a firing not yet received, as Go's
// timers do.
func (t *fakeTimer) Reset(d time.Duration) bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	active := c.remove(t)
	t.drain()
	t.when = c.now.Add(d)
	if d <= 0 {
		t.ch <- t.when
		return active
	}
	c.timers = append(c.timers, t)
	return active
}

// Stop disarms the timer, dropping a firing not yet received.
func (t *fakeTimer) Stop() bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	active := c.remove(t)
	t.drain()
	return active
}

func (t *fakeTimer) drain() {
	select {
	case <-t.ch:
	default:
	}
}
