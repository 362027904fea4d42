package players

import (
	"strconv"
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	th := newThrottle(5, 15*time.Minute, 100)
	for i := range 5 {
		if w := th.wait("ann", start); w != 0 {
			t.Fatalf("attempt %d: got a wait of %v, want none", i+1, w)
		}
		th.add("ann", start.Add(time.Duration(i)*time.Minute))
	}
	at := start.Add(5 * time.Minute)
	if got, want := th.wait("ann", at), 10*time.Minute; got != want {
		t.Errorf("the 6th attempt within the window: got a wait of %v, want %v", got, want)
	}
	if w := th.wait("bea", at); w != 0 {
		t.Errorf("another key: got a wait of %v, want none", w)
	}
	if w := th.wait("ann", start.Add(15*time.Minute)); w != 0 {
		t.Errorf("once the window has passed: got a wait of %v, want none", w)
	}
	th.add("ann", start.Add(16*time.Minute))
	if w := th.wait("ann", start.Add(16*time.Minute)); w != 0 {
		t.Errorf("one failure in a new window: got a wait of %v, want none", w)
	}
	th.clear("ann")
	if n := th.size(); n != 0 {
		t.Errorf("keys after clear: got %d, want 0", n)
	}
}

func TestThrottleBound(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	th := newThrottle(1, time.Hour, 10)
	for i := range 25 {
		th.add(strconv.Itoa(i), start.Add(time.Duration(i)*time.Second))
		if n := th.size(); n > 10 {
			t.Fatalf("after %d keys: got %d held, want at most 10", i+1, n)
		}
	}
	// The newest keys are the ones kept.
	if w := th.wait("24", start.Add(time.Minute)); w == 0 {
		t.Errorf("the newest key: got no wait, want one")
	}
	if w := th.wait("0", start.Add(time.Minute)); w != 0 {
		t.Errorf("the oldest key, forgotten: got a wait of %v, want none", w)
	}
}
