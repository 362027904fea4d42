package players

import (
	"sync"
	"time"
)

// throttle counts attempts per key (a name, an address) in memory and
// refuses a key that made limit attempts within window of its first counted
// one; the caller gives back those that succeed, so in effect it counts
// failures. It holds at most max keys: when full it forgets the keys whose
// window has passed, and then, if still full, the one whose window began
// longest ago. Counts are lost on a restart.
type throttle struct {
	limit  int
	window time.Duration
	max    int

	mu   sync.Mutex
	keys map[string]strikes
}

// strikes are one key's attempts since first.
type strikes struct {
	first time.Time
	n     int
}

func newThrottle(limit int, window time.Duration, max int) *throttle {
	return &throttle{limit: limit, window: window, max: max, keys: make(map[string]strikes)}
}

// take counts an attempt by key at now, unless key has used up its window,
// in which case it says how long to wait (and counts nothing). The check
// and the count are one step, so attempts made at the same moment can't all
// pass one check: at most limit of them are let through per window. An
// attempt that turns out well is given back with refund or clear.
func (t *throttle) take(key string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.keys[key]
	if ok && now.Before(s.first.Add(t.window)) {
		if s.n >= t.limit {
			return s.first.Add(t.window).Sub(now)
		}
	} else {
		if !ok && len(t.keys) >= t.max {
			t.evict(now)
		}
		s = strikes{first: now}
	}
	s.n++
	t.keys[key] = s
	return 0
}

// refund gives back one attempt counted for key.
func (t *throttle) refund(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.keys[key]
	if !ok {
		return
	}
	if s.n--; s.n <= 0 {
		delete(t.keys, key)
		return
	}
	t.keys[key] = s
}

// clear forgets key's attempts.
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
