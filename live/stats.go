package live

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/game"
)

// Stats are the runtime's timings since its Manager started, for the load
// test and for operators.
type Stats struct {
	// Actions counts the actions stored, people's and bots' alike.
	Actions int64
	// Deadlines is how late engine deadlines (a window closing, a reveal
	// ending, a hand-over running out) were settled.
	Deadlines Latency
	// Bots is how late bot decisions, and away seats being taken over, were
	// made after they fell due.
	Bots Latency
	// Publish is the time from an action being accepted and stored (or a
	// deadline settled) to the Publisher being called with the new views.
	Publish Latency
	// Queued is how long each action waited for its group commit to
	// begin; Commits is how long each group commit of actions took, and
	// Batch the mean number of actions in one.
	Queued  Latency
	Commits Latency
	Batch   float64
	// In a cluster: Claims counts the games this node claimed (or took
	// back), Fenced its tables' writes the fence refused, and LateRenewals
	// the lease renewals that failed, were skipped or took longer than the
	// time between two.
	Claims, Fenced, LateRenewals int64
	// Full is whether the node is full now (see Manager.Capacity), and
	// RefusedFull counts the new tables and joins refused while it was.
	Full        bool
	RefusedFull int64
}

// Latency summarises a distribution of durations. Quantiles are accurate to
// about 12%; Max is exact.
type Latency struct {
	Count         int64
	P50, P99, Max time.Duration
}

// histogram counts durations in log-linear buckets: eight to each doubling,
// in microseconds, so recording is a few instructions and memory is fixed.
type histogram struct {
	mu     sync.Mutex
	counts [512]int64
	n      int64
	max    time.Duration
	// also are called with every duration recorded (see Manager.Observe):
	// the list is replaced whole, so a recording reads it without a lock.
	also atomic.Pointer[[]func(time.Duration)]
}

const subBits = 3

func bucketOf(us uint64) int {
	if us < 1<<subBits {
		return int(us)
	}
	e := bits.Len64(us) - 1 - subBits
	return (e+1)<<subBits + int(us>>e)&(1<<subBits-1)
}

// upper is the largest value in bucket i, in microseconds.
func upper(i int) uint64 {
	if i < 1<<subBits {
		return uint64(i)
	}
	e := i>>subBits - 1
	return (uint64(1<<subBits|i&(1<<subBits-1))+1)<<e - 1
}

func (h *histogram) record(d time.Duration) {
	d = max(d, 0)
	h.mu.Lock()
	h.counts[bucketOf(uint64(d/time.Microsecond))]++
	h.n++
	h.max = max(h.max, d)
	h.mu.Unlock()
	if fns := h.also.Load(); fns != nil {
		for _, fn := range *fns {
			fn(d)
		}
	}
}

// observe adds fn to the functions called with every duration recorded.
func (h *histogram) observe(fn func(time.Duration)) {
	for {
		old := h.also.Load()
		var fns []func(time.Duration)
		if old != nil {
			fns = append(fns, *old...)
		}
		fns = append(fns, fn)
		if h.also.CompareAndSwap(old, &fns) {
			return
		}
	}
}

func (h *histogram) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.counts, h.n, h.max = [len(h.counts)]int64{}, 0, 0
}

func (h *histogram) latency() Latency {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := Latency{Count: h.n, Max: h.max}
	if h.n == 0 {
		return l
	}
	l.P50 = min(h.quantile(0.50), h.max)
	l.P99 = min(h.quantile(0.99), h.max)
	return l
}

func (h *histogram) quantile(q float64) time.Duration {
	rank := int64(q*float64(h.n-1)) + 1
	var seen int64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return time.Duration(upper(i)) * time.Microsecond
		}
	}
	return h.max
}

type stats struct {
	mu        sync.Mutex
	actions   int64
	deadlines histogram
	bots      histogram
	publish   histogram
	commits   histogram
	queued    histogram
}

func (s *stats) stored() {
	s.mu.Lock()
	s.actions++
	s.mu.Unlock()
}

// Stats reports the runtime's timings so far.
func (m *Manager) Stats() Stats {
	m.stats.mu.Lock()
	n := m.stats.actions
	m.stats.mu.Unlock()
	s := Stats{
		Actions:     n,
		Deadlines:   m.stats.deadlines.latency(),
		Bots:        m.stats.bots.latency(),
		Publish:     m.stats.publish.latency(),
		Commits:     m.stats.commits.latency(),
		Queued:      m.stats.queued.latency(),
		Full:        m.capacity.isFull(m.clock.Now()),
		RefusedFull: m.capacity.refused.Load(),
	}
	if s.Commits.Count > 0 {
		s.Batch = float64(n) / float64(s.Commits.Count)
	}
	if l := m.cl; l != nil {
		s.Claims, s.Fenced, s.LateRenewals = l.claims.Load(), l.fenced.Load(), l.late.Load()
	}
	return s
}

// ResetStats starts the timings afresh, to measure a steady state after a
// warm-up.
func (m *Manager) ResetStats() {
	m.stats.mu.Lock()
	m.stats.actions = 0
	m.stats.mu.Unlock()
	for _, h := range []*histogram{&m.stats.deadlines, &m.stats.bots, &m.stats.publish, &m.stats.commits, &m.stats.queued} {
		h.reset()
	}
}

// Timing names one of the runtime's timings, as Stats reports them.
type Timing int

// The timings, one per Latency of Stats.
const (
	TimeDeadlines Timing = iota
	TimeBots
	TimePublish
	TimeCommits
	TimeQueued
)

// Observe has fn called with every duration timed from now on, beside the
// summaries of Stats and any function observing before, so a metrics
// exporter can keep histograms of its own and a load test its own figures.
// fn is called on the goroutine that timed it (a table's, the writer's), so
// it must be quick and never block. Timings made before the call are in
// Stats alone.
func (m *Manager) Observe(fn func(Timing, time.Duration)) {
	for t, h := range map[Timing]*histogram{TimeDeadlines: &m.stats.deadlines, TimeBots: &m.stats.bots,
		TimePublish: &m.stats.publish, TimeCommits: &m.stats.commits, TimeQueued: &m.stats.queued} {
		h.observe(func(d time.Duration) { fn(t, d) })
	}
}

// TableCounts counts the tables this Manager runs: those waiting for players and
// those being played.
func (m *Manager) TableCounts() (open, playing int) {
	// Copied under the lock and counted outside it: every request looks
	// a table up under that lock, and a table's status is a pointer away.
	m.mu.RLock()
	tables := make([]*table, 0, len(m.running))
	for _, t := range m.running {
		tables = append(tables, t)
	}
	m.mu.RUnlock()
	for _, t := range tables {
		switch t.snap.Load().summary.Status {
		case game.StatusOpen:
			open++
		case game.StatusLive:
			playing++
		}
	}
	return open, playing
}
