package live

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/errcode"
	"bullshit/game"
)

// A node is full when its tables no longer keep their clocks: when, over a
// window of the runtime's clock, more than one sample in a hundred of how
// late a deadline or a bot's move was settled, or how long an action queued
// for the writer, is over the node's limit. A full node refuses new tables
// and joins (they would make every table later still) and keeps the tables
// it has; it takes them again once a whole window has kept to half the
// limit, so that it does not swing at the edge. The limit, not a count of
// tables, is the capacity: what one node holds depends on its cores, its
// store and its tables' pace.
const (
	// DefaultMaxLateness is the limit when Config.MaxLateness is zero: a
	// bot a quarter of a second late is felt at the table.
	DefaultMaxLateness = 250 * time.Millisecond
	// CapacityWindow is how long the samples of one judgement span, and
	// what a refusal asks the client to wait.
	CapacityWindow = 5 * time.Second
	// fullShare is the share of a window's samples over the limit that
	// makes the node full; fullAtLeast keeps a lone pause on a quiet node
	// (a few tables, a few samples) from refusing the next person.
	fullShare   = 0.01
	fullAtLeast = 3
)

// capacity judges, window by window, whether the node is full.
type capacity struct {
	limit time.Duration // never full when <= 0

	mu        sync.Mutex
	windowEnd time.Time
	n         int64 // samples this window
	over      int64 // of them over limit
	overHalf  int64 // of them over limit/2

	full    bool // judged at the last window's end
	refused atomic.Int64
}

func newCapacity(limit time.Duration) *capacity {
	switch {
	case limit == 0:
		limit = DefaultMaxLateness
	case limit < 0:
		limit = 0
	}
	return &capacity{limit: limit}
}

// record adds one sample of lateness taken at now.
func (c *capacity) record(now time.Time, late time.Duration) {
	if c.limit <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.roll(now)
	c.n++
	if late > c.limit/2 {
		c.overHalf++
		if late > c.limit {
			c.over++
		}
	}
}

// isFull reports whether the node is full at now, judging the window that
// has ended by then, if one has. A window without samples is on time.
func (c *capacity) isFull(now time.Time) bool {
	if c.limit <= 0 {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.roll(now)
	return c.full
}

// roll judges the window and starts the next once now has passed its end.
func (c *capacity) roll(now time.Time) {
	if c.windowEnd.IsZero() {
		c.windowEnd = now.Add(CapacityWindow)
	}
	if now.Before(c.windowEnd) {
		return
	}
	if c.full {
		c.full = float64(c.overHalf) > fullShare*float64(c.n)
	} else {
		c.full = c.over >= fullAtLeast && float64(c.over) > fullShare*float64(c.n)
	}
	c.n, c.over, c.overHalf = 0, 0, 0
	c.windowEnd = now.Add(CapacityWindow)
}

// queued is told how long an action waited for its group commit, which is
// one of the node's timings and one of its samples of lateness.
func (m *Manager) queued(now time.Time, waited time.Duration) {
	m.stats.queued.record(waited)
	m.capacity.record(now, waited)
}

// errBusy refuses a new table or a join at a full node.
var errBusy = &game.Error{Code: errcode.Busy, Wait: CapacityWindow, Message: errcode.Message(errcode.Busy)}

// admit refuses what would add to a full node's load, counting the refusal.
func (m *Manager) admit() error {
	if !m.capacity.isFull(m.clock.Now()) {
		return nil
	}
	m.capacity.refused.Add(1)
	return errBusy
}

// Capacity is nil while the node keeps its tables' clocks, and says so when
// it is full: the readiness check that sends new tables to other nodes.
func (m *Manager) Capacity() error {
	if m.capacity.isFull(m.clock.Now()) {
		return fmt.Errorf("full: more than %g%% of the tables' timers or writes over %v late", fullShare*100, m.capacity.limit)
	}
	return nil
}
