// Package ratelimit is the server's one allowance per client: a token bucket
// per key, and the key a client address is counted under.
package ratelimit

import (
	"math"
	"net/netip"
	"sync"
	"time"
)

// Rate is a token bucket's refill rate and size.
type Rate struct {
	PerSecond float64
	Burst     int
}

// Limiter keeps one token bucket per key (a client address or a seat's
// token). It holds at most max buckets: full ones are forgotten first, since
// a full bucket is the same as no bucket, and past that an arbitrary one is,
// which at worst gives that client a fresh burst.
type Limiter struct {
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

// New is a limiter of rate r holding at most max buckets, timed by now.
func New(r Rate, max int, now func() time.Time) *Limiter {
	return &Limiter{rate: r, now: now, max: max, buckets: make(map[string]*bucket)}
}

// Allow takes a token from key's bucket. When there is none it says how many
// whole seconds until there will be, for Retry-After.
func (l *Limiter) Allow(key string) (ok bool, retryAfter int) {
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

func (l *Limiter) refill(b *bucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(float64(l.rate.Burst), b.tokens+d.Seconds()*l.rate.PerSecond)
		b.at = now
	}
}

// evict makes room for one more bucket.
func (l *Limiter) evict(now time.Time) {
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

// Size is how many buckets are held.
func (l *Limiter) Size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// AddressKey is the key a client address is counted under. An IPv6 client is
// keyed by its /64: one home or host is usually given a whole /64, so keying
// by the full address would give it billions of allowances. An address that
// isn't an IP is its own key.
func AddressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}
