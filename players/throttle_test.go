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
	th.refund("ann")
	th.refund("bea")
	if n := th.size(); n != 0 {
		t.Errorf("keys after their refunds: got %d, want 0", n)
	}
}

// TestThrottleTogether takes many attempts at once: no more than the limit
// get through, however they interleave.
func TestThrottleTogether(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	th := newThrottle(5, 15*time.Minute, 100)
	if passed := together(50, func() bool { return th.take("ann", start) == 0 }); passed != 5 {
		t.Errorf("attempts let through: got %d, want 5", passed)
	}
}

// together makes n attempts at once and counts those take lets through.
func together(n int, take func() bool) int {
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		passed int
	)
	for range n {
		wg.Go(func() {
			if take() {
				mu.Lock()
				passed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return passed
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

// TestBackoff: a name's first failures are free; then an address that has
// failed for it waits, after its own last attempt, a wait that doubles with
// each failure of the name up to the most, while an address that has not
// failed for it is never held back.
func TestBackoff(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	b := newBackoff(3, time.Second, 10*time.Second, 15*time.Minute, 100, 100)
	now := start
	for i := range 3 {
		if w, _ := b.take("ann", "a", now); w != 0 {
			t.Fatalf("free failure %d: got a wait of %v, want none", i+1, w)
		}
	}
	// Past the free ones the waits double, from each attempt, to the most.
	for i, want := range []time.Duration{1, 2, 4, 8, 10, 10} {
		want *= time.Second
		if w, _ := b.take("ann", "a", now); w != want {
			t.Fatalf("failure %d: got a wait of %v, want %v", 4+i, w, want)
		}
		if w, _ := b.take("ann", "a", now.Add(want-time.Millisecond)); w != time.Millisecond {
			t.Fatalf("failure %d a moment early: got a wait of %v, want 1ms", 4+i, w)
		}
		now = now.Add(want)
		if w, _ := b.take("ann", "a", now); w != 0 {
			t.Fatalf("failure %d once its wait is over: got a wait of %v, want none", 4+i, w)
		}
	}
	// An address that hasn't failed for the name goes at once, and then
	// waits by its own failures, not the name's; another name is untouched.
	if w, _ := b.take("ann", "b", now); w != 0 {
		t.Errorf("a new address: got a wait of %v, want none", w)
	}
	if w, _ := b.take("ann", "b", now); w != time.Second {
		t.Errorf("the new address again: got a wait of %v, want 1s", w)
	}
	if w, _ := b.take("bea", "a", now); w != 0 {
		t.Errorf("another name: got a wait of %v, want none", w)
	}
	// A refund puts the address back as it was: a new one is new again.
	_, prev := b.take("ann", "c", now)
	b.refund("ann", "c", prev)
	if w, _ := b.take("ann", "c", now); w != 0 {
		t.Errorf("an address whose only attempt was refunded: got a wait of %v, want none", w)
	}
	// The right password clears its address, which is new again (the
	// name's free failures used by b and c), not the others.
	b.clear("ann", "a")
	if w, _ := b.take("ann", "a", now); w != 0 {
		t.Errorf("after clear: got a wait of %v, want none", w)
	}
	if w, _ := b.take("ann", "a", now); w != time.Second {
		t.Errorf("after clear, again: got a wait of %v, want 1s", w)
	}
	if w, _ := b.take("ann", "b", now); w != time.Second {
		t.Errorf("another address after clear: got a wait of %v, want 1s", w)
	}
	// A name quiet for the window past the longest wait is forgotten: its
	// free failures are free again. A window alone isn't enough.
	b.take("bea", "a", now)
	b.take("bea", "a", now) // its 3 free failures

	later := now.Add(15 * time.Minute)
	if w, _ := b.take("bea", "a", later); w != 0 {
		t.Fatalf("once the wait is over: got a wait of %v, want none", w)
	}
	if w, _ := b.take("bea", "a", later); w != 2*time.Second {
		t.Errorf("after a quiet window: got a wait of %v, want 2s", w)
	}
	later = later.Add(15*time.Minute + 10*time.Second)
	for i := range 3 {
		if w, _ := b.take("bea", "a", later); w != 0 {
			t.Errorf("free failure %d after the name is forgotten: got a wait of %v, want none", i+1, w)
		}
	}
}

// TestBackoffOwnFailures: under a guess from many addresses, an address's
// wait is bounded by its own failures (its first costs at most base, its
// second ownStep doublings more, then the most), so one typo costs seconds
// while a guessing address soon waits the longest.
func TestBackoffOwnFailures(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	b := newBackoff(5, time.Second, 15*time.Minute, 15*time.Minute, 100, 100)
	for i := range 30 {
		if w, _ := b.take("ann", strconv.Itoa(i), start); w != 0 {
			t.Fatalf("address %d's first failure: got a wait of %v, want none", i, w)
		}
	}
	now := start
	for i, want := range []time.Duration{time.Second, 32 * time.Second, 15 * time.Minute, 15 * time.Minute} {
		if w, _ := b.take("ann", "owner", now); w != 0 {
			t.Fatalf("failure %d once its wait is over: got a wait of %v, want none", i+1, w)
		}
		if w, _ := b.take("ann", "owner", now); w != want {
			t.Errorf("after failure %d of its own: got a wait of %v, want %v", i+1, w, want)
		}
		now = now.Add(want)
	}
}

// TestBackoffTogether: attempts from one address at once get no more than
// the free ones through.
func TestBackoffTogether(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	b := newBackoff(5, time.Second, time.Minute, 15*time.Minute, 100, 100)
	take := func() bool {
		w, _ := b.take("ann", "a", start)
		return w == 0
	}
	if passed := together(50, take); passed != 5 {
		t.Errorf("attempts let through: got %d, want 5", passed)
	}
}

func TestBackoffBound(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	b := newBackoff(1, time.Minute, time.Hour, time.Hour, 10, 3)
	for i := range 25 {
		b.take(strconv.Itoa(i), "a", start.Add(time.Duration(i)*time.Second))
		b.take("ann", strconv.Itoa(i), start.Add(time.Duration(i)*time.Second))
	}
	b.mu.Lock()
	names, addrs := len(b.names), len(b.names["ann"].addrs)
	b.mu.Unlock()
	if names > 10 || addrs > 3 {
		t.Errorf("held: got %d names and %d addresses of one name, want at most 10 and 3", names, addrs)
	}
}
