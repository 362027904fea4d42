package store

import (
	"sync/atomic"
	"time"
)

// WriteStage is one part of a write's way through the store, as
// ObserveWrites reports it.
type WriteStage int8

const (
	// WriteQueued is how long a write waited for a SQLite transaction to
	// take it: the committer's gap between commits and the commit under
	// way. PostgreSQL has no such queue.
	WriteQueued WriteStage = iota
	// WriteStatements is how long a transaction's statements ran: on
	// SQLite every write of a shared transaction together, on PostgreSQL
	// each write's (a lone statement commits as it runs).
	WriteStatements
	// WriteCommit is how long a transaction's commit took: on SQLite, its
	// sync to disk.
	WriteCommit
)

func (s WriteStage) String() string {
	return [...]string{WriteQueued: "store queue", WriteStatements: "statements", WriteCommit: "commit"}[s]
}

// writeTimings holds the function ObserveWrites set, shared by every copy
// of a Store (see WithQueryHook) and its committer.
type writeTimings struct {
	fn atomic.Pointer[func(WriteStage, time.Duration)]
}

func (w *writeTimings) record(stage WriteStage, d time.Duration) {
	if fn := w.fn.Load(); fn != nil {
		(*fn)(stage, d)
	}
}

// since records the time from began to now as stage and returns now, so
// the next stage can start from it.
func (w *writeTimings) since(stage WriteStage, began time.Time) time.Time {
	now := time.Now()
	w.record(stage, now.Sub(began))
	return now
}

// ObserveWrites has fn called with the time each write spends in each of
// its stages from now on, replacing any function set before: the load test
// uses it to say where a move waits. fn is called on the writing goroutine,
// so it must be quick and never block.
func (s *Store) ObserveWrites(fn func(WriteStage, time.Duration)) { s.timings.fn.Store(&fn) }
