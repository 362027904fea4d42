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
// attempt that turns out well is given back with refund.
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

// backoff slows a name down once it has failed free times, rather than
// locking it. It counts a name's failures from every address, and each
// address's own failures for it and when it last tried. An address that has
// not failed for the name is never slowed by it, so its owner can always
// sign in from an address of their own however many others fail. An
// address that has failed waits, after its own last attempt, base doubled
// for every failure of the name past free, at most max; but its own
// failures bound how many of the name's it is charged for (see delay), so
// others' failures can't make one typo cost the longest wait. Each address
// waits on its own clock, so no other address can take its turn. A name
// quiet for window plus the longest wait is forgotten with its addresses,
// and so is an address quiet that long: one that sits out its wait comes
// back to the same wait.
type backoff struct {
	free      int
	base, max time.Duration
	window    time.Duration
	maxKeys   int
	maxAddrs  int

	mu    sync.Mutex
	names map[string]*slowed
}

// ownStep is how many of a name's failures past the free ones an address
// is charged for per failure of its own after its first: its first costs
// it at most base, its second at most 32 times that, and so on to max. So
// under a distributed guess each address gets a few guesses before it
// waits the longest, as before, and the owner's typo costs seconds.
const ownStep = 5

// slowed is one name's failures, n in all, when the last was, and each
// address's own.
type slowed struct {
	n     int
	last  time.Time
	addrs map[string]tried
}

// tried is one address's failures for a name, n since it was last cleared
// or forgotten, and when it last tried.
type tried struct {
	n    int
	last time.Time
}

func newBackoff(free int, base, max, window time.Duration, maxKeys, maxAddrs int) *backoff {
	return &backoff{free: free, base: base, max: max, window: window, maxKeys: maxKeys, maxAddrs: maxAddrs,
		names: make(map[string]*slowed)}
}

// keep is how long a quiet name is remembered: a window past the longest
// wait, so that waiting it out doesn't wipe the count.
func (b *backoff) keep() time.Duration { return b.window + b.max }

// delay is how long an address that failed own times waits after its last
// attempt when the name has failed n times: base doubled for every failure
// of the name past free, counting at most ownStep more of them for each of
// its own after its first.
func (b *backoff) delay(n, own int) time.Duration {
	n = min(n, b.free+ownStep*(own-1))
	if n < b.free {
		return 0
	}
	d := b.base
	for range n - b.free {
		if d *= 2; d >= b.max {
			return b.max
		}
	}
	return min(d, b.max)
}

// take counts an attempt for name from addr at now, unless addr has failed
// for the name and its wait isn't over, when it says how long is left (and
// counts nothing). As with throttle, the check and the count are one step,
// and an attempt that turns out well is given back (refund, clear); prev is
// what refund needs to give this one back.
func (b *backoff) take(name, addr string, now time.Time) (wait time.Duration, prev tried) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.names[name]
	if s != nil && !now.Before(s.last.Add(b.keep())) {
		delete(b.names, name)
		s = nil
	}
	if s == nil {
		if len(b.names) >= b.maxKeys {
			b.evict(now)
		}
		s = &slowed{addrs: make(map[string]tried)}
		b.names[name] = s
	}
	prev, failed := s.addrs[addr]
	switch {
	case !failed:
		if len(s.addrs) >= b.maxAddrs {
			forgetOldest(s.addrs)
		}
	case !now.Before(prev.last.Add(b.keep())):
		prev = tried{} // quiet long enough to be forgotten, as a name is
	default:
		if next := prev.last.Add(b.delay(s.n, prev.n)); now.Before(next) {
			return next.Sub(now), tried{}
		}
	}
	s.n++
	s.last = now
	s.addrs[addr] = tried{n: prev.n + 1, last: now}
	return 0, prev
}

// refund gives back an attempt take counted (a check that never happened),
// putting addr back to prev.
func (b *backoff) refund(name, addr string, prev tried) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.names[name]
	if s == nil {
		return
	}
	s.n = max(0, s.n-1)
	if prev.n == 0 {
		delete(s.addrs, addr)
	} else {
		s.addrs[addr] = prev
	}
}

// clear forgets addr's failures for a name, after its right password, and
// takes them off the name's count. Others' stay: the owner signing in
// doesn't give an attacker's addresses a fresh start.
func (b *backoff) clear(name, addr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.names[name]
	if s == nil {
		return
	}
	s.n = max(0, s.n-s.addrs[addr].n)
	delete(s.addrs, addr)
	if len(s.addrs) == 0 {
		delete(b.names, name)
	}
}

// evict makes room for one name: those quiet long enough go first, then
// the one quiet longest.
func (b *backoff) evict(now time.Time) {
	var (
		oldest   string
		oldestAt time.Time
	)
	for k, s := range b.names {
		if !now.Before(s.last.Add(b.keep())) {
			delete(b.names, k)
			continue
		}
		if oldest == "" || s.last.Before(oldestAt) {
			oldest, oldestAt = k, s.last
		}
	}
	if len(b.names) >= b.maxKeys && oldest != "" {
		delete(b.names, oldest)
	}
}

// forgetOldest removes the address that tried longest ago.
func forgetOldest(addrs map[string]tried) {
	var (
		oldest   string
		oldestAt time.Time
	)
	for a, t := range addrs {
		if oldest == "" || t.last.Before(oldestAt) {
			oldest, oldestAt = a, t.last
		}
	}
	delete(addrs, oldest)
}
