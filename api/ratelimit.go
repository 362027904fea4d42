package api

import (
	"math"
	"sync"
	"time"
)

// Rate is a token bucket's refill rate and size.
type Rate struct {
	PerSecond float64
	Burst     int
}

// limiter keeps one token bucket per key (a client address or a seat's
// token). It holds at most max buckets: full ones are forgotten first, since
// a full bucket is the same as no bucket, and past that an arbitrary one is,
// which at worst gives that client a fresh burst.
type limiter struct {
	rate Rate
	now  func() time.Time
	max  int

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(r Rate, max int, now func() time.Time) *limiter {
	return &limiter{rate: r, now: now, max: max, buckets: make(map[string]*bucket)}
}

// allow takes a token from key's bucket. When there is none it says how many
// whole seconds until there will be, for Retry-After.
func (l *limiter) allow(key string) (ok bool, retryAfter int) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= l.max {
			l.evict(now)
		}
		b = &bucket{tokens: float64(l.rate.Burst), at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := (1 - b.tokens) / l.rate.PerSecond
	return false, max(1, int(math.Ceil(wait)))
}

func (l *limiter) refill(b *bucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(float64(l.rate.Burst), b.tokens+d.Seconds()*l.rate.PerSecond)
		b.at = now
	}
}

// evict makes room for one more bucket.
func (l *limiter) evict(now time.Time) {
	for key, b := range l.buckets {
		l.refill(b, now)
		if b.tokens >= float64(l.rate.Burst) {
			delete(l.buckets, key)
		}
	}
	for key := range l.buckets {
		if len(l.buckets) < l.max {
			break
		}
		delete(l.buckets, key)
	}
}

// size is how many buckets are held, for tests.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
