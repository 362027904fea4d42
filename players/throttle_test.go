package players

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	th := newThrottle(5, 15*time.Minute, 100)
	for i := range 5 {
		if w := th.take("ann", start.Add(time.Duration(i)*time.Minute)); w != 0 {
			t.Fatalf("attempt %d: got a wait of %v, want none", i+1, w)
		}
	}
	at := start.Add(5 * time.Minute)
	if got, want := th.take("ann", at), 10*time.Minute; got != want {
		t.Errorf("the 6th attempt within the window: got a wait of %v, want %v", got, want)
	}
	if w := th.take("bea", at); w != 0 {
		t.Errorf("another key: got a wait of %v, want none", w)
	}
	// A refused attempt counts nothing, and one given back frees a place.
	th.refund("ann")
	if w := th.take("ann", at); w != 0 {
		t.Errorf("after a refund: got a wait of %v, want none", w)
	}
	if w := th.take("ann", at); w == 0 {
		t.Errorf("after the refunded place is used again: got no wait, want one")
	}
	if w := th.take("ann", start.Add(15*time.Minute)); w != 0 {
		t.Errorf("once the window has passed: got a wait of %v, want none", w)
	}
	th.clear("ann")
	th.refund("bea")
	if n := th.size(); n != 0 {
		t.Errorf("keys after clear and refund: got %d, want 0", n)
	}
}

// TestThrottleTogether takes many attempts at once: no more than the limit
// get through, however they interleave.
func TestThrottleTogether(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	th := newThrottle(5, 15*time.Minute, 100)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		passed int
	)
	for range 50 {
		wg.Go(func() {
			if th.take("ann", start) == 0 {
				mu.Lock()
				passed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if passed != 5 {
		t.Errorf("attempts let through: got %d, want 5", passed)
	}
}

func TestThrottleBound(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	th := newThrottle(1, time.Hour, 10)
	for i := range 25 {
		th.take(strconv.Itoa(i), start.Add(time.Duration(i)*time.Second))
		if n := th.size(); n > 10 {
			t.Fatalf("after %d keys: got %d held, want at most 10", i+1, n)
		}
	}
	// The newest keys are the ones kept.
	if w := th.take("24", start.Add(time.Minute)); w == 0 {
		t.Errorf("the newest key: got no wait, want one")
	}
	if w := th.take("0", start.Add(time.Minute)); w != 0 {
		t.Errorf("the oldest key, forgotten: got a wait of %v, want none", w)
	}
}
