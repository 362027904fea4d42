package players

import (
	"sync"
	"time"
)

// throttle counts failures per key (a name, an address) in memory and
// refuses a key that failed limit times within window of its first counted
// failure. It holds at most max keys: when full it forgets the keys whose
// window has passed, and then, if still full, the one whose window began
// longest ago. Counts are lost on a restart.
type throttle struct {
	limit  int
	window time.Duration
	max    int

	mu   sync.Mutex
	keys map[string]strikes
}

// strikes are one key's failures since first.
type strikes struct {
	first time.Time
	n     int
}

func newThrottle(limit int, window time.Duration, max int) *throttle {
	return &throttle{limit: limit, window: window, max: max, keys: make(map[string]strikes)}
}

// wait is how long key must wait before its next attempt: zero when it may
// try now.
func (t *throttle) wait(key string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.keys[key]
	if !ok {
		return 0
	}
	end := s.first.Add(t.window)
	if !now.Before(end) {
		delete(t.keys, key)
		return 0
	}
	if s.n < t.limit {
		return 0
	}
	return end.Sub(now)
}

// add counts a failure (or, for sign-ups, an account made) of key at now.
func (t *throttle) add(key string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.keys[key]
	if !ok || !now.Before(s.first.Add(t.window)) {
		if !ok && len(t.keys) >= t.max {
			t.evict(now)
		}
		s = strikes{first: now}
	}
	s.n++
	t.keys[key] = s
}

// clear forgets key's failures.
func (t *throttle) clear(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.keys, key)
}

// evict makes room for one key. It scans every key, which happens only
// when the throttle is full, that is under attack: it is cheap beside the
// password hash each counted failure cost.
func (t *throttle) evict(now time.Time) {
	var (
		oldest    string
		oldestAt  time.Time
		haveFirst bool
	)
	for k, s := range t.keys {
		if !now.Before(s.first.Add(t.window)) {
			delete(t.keys, k)
			continue
		}
		if !haveFirst || s.first.Before(oldestAt) {
			oldest, oldestAt, haveFirst = k, s.first, true
		}
	}
	if len(t.keys) >= t.max && haveFirst {
		delete(t.keys, oldest)
	}
}

// size is how many keys the throttle holds.
func (t *throttle) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.keys)
}
