package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/trace"
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// maxShared bounds the writes one SQLite transaction carries.
const maxShared = 512

// commitGap is the least time between the starts of two SQLite commits.
// Each commit costs the same whatever it carries (a sync to disk, the
// write-ahead log's header, the transaction's own statements): without a
// gap, a steady load commits as fast as the disk allows, a handful of
// writes each, and spends a core doing it; with it, a write waits at most
// this long for more to join it. A write after a quiet spell commits at
// once.
const commitGap = 2 * time.Millisecond

var (
	// errClosed refuses a write to a store already closed.
	errClosed = errors.New("store: closed")
	// errPanicked is a write that panicked.
	errPanicked = errors.New("store: a write panicked")
)

// writeTx runs fn, whose statements stand or fall together, in a
// transaction. On PostgreSQL, which takes writers side by side and syncs
// their commits together, each write has a transaction of its own. On
// SQLite, which takes one writer at a time and syncs each commit to disk,
// writes go through the committer: those queued while a commit is under way
// share the next one. A write still queued when ctx ends gives up.
func (s *Store) writeTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	if s.commits == nil {
		began := time.Now()
		var ran time.Time
		err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			defer func() { ran = s.timings.since(WriteStatements, began) }()
			return fn(ctx, tx)
		})
		if !ran.IsZero() {
			s.timings.since(WriteCommit, ran)
		}
		return err
	}
	return s.commits.write(ctx, fn)
}

// write runs fn, a single statement, which stands or falls by itself: on
// PostgreSQL outside any transaction, saving the round trips of one; on
// SQLite through the committer, as writeTx.
func (s *Store) write(ctx context.Context, fn func(ctx context.Context, db bun.IDB) error) error {
	if s.commits == nil {
		defer s.timings.since(WriteStatements, time.Now())
		return fn(ctx, s.db)
	}
	return s.commits.write(ctx, func(ctx context.Context, tx bun.Tx) error { return fn(ctx, tx) })
}

// committer is SQLite's only writer of the store's tables. Writers meeting
// in SQLite itself would wait in its busy handler, which sleeps and polls,
// and would each pay a sync to disk: starting ten thousand tables took half
// a minute. Here they queue in order, and every write waiting when a commit
// ends goes into the next transaction, each in a savepoint of its own, so
// that one refused (a duplicate id, say) rolls back only its own changes.
type committer struct {
	db      *bun.DB
	timings *writeTimings
	reqs    chan *writeReq
	// stop ends run; stopped is closed once it has.
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
	// ready is commit's scratch list of the writes still wanted.
	ready []*writeReq
	// committing, when set (by tests), runs just before each commit.
	committing func()
}

type writeReq struct {
	ctx    context.Context
	fn     func(ctx context.Context, tx bun.Tx) error
	queued time.Time
	done   chan error
}

func newCommitter(db *bun.DB, timings *writeTimings) *committer {
	c := &committer{db: db, timings: timings, reqs: make(chan *writeReq), stop: make(chan struct{}), stopped: make(chan struct{})}
	go c.run()
	return c
}

// close stops the committer once the write under way has committed.
func (c *committer) close() {
	c.once.Do(func() { close(c.stop) })
	<-c.stopped
}

// write queues fn and waits for its commit. A write taken into a
// transaction is always answered, so its caller never mistakes a write
// committed for one lost.
func (c *committer) write(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	r := &writeReq{ctx: ctx, fn: fn, queued: time.Now(), done: make(chan error, 1)}
	select {
	case c.reqs <- r:
	case <-ctx.Done():
		return fmt.Errorf("waiting to write: %w", ctx.Err())
	case <-c.stopped:
		return errClosed
	}
	return <-r.done
}

func (c *committer) run() {
	defer close(c.stopped)
	batch := make([]*writeReq, 0, maxShared)
	var last time.Time
	for {
		// Commits are paced: a steady stream of writes waits for the
		// next one to start at least commitGap after the last began.
		if wait := commitGap - time.Since(last); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-c.stop:
				t.Stop()
				return
			}
		}
		var first *writeReq
		select {
		case first = <-c.reqs:
		case <-c.stop:
			return
		}
		last = time.Now()
		batch = append(batch[:0], first)
	fill:
		for len(batch) < maxShared {
			select {
			case r := <-c.reqs:
				batch = append(batch, r)
			default:
				break fill
			}
		}
		c.commit(batch)
	}
}

// commit runs a batch of writes in one transaction and answers each. A
// write whose context ended while it queued is answered without running.
func (c *committer) commit(batch []*writeReq) {
	c.ready = c.ready[:0]
	taken := time.Now()
	for _, r := range batch {
		c.timings.record(WriteQueued, taken.Sub(r.queued))
		if err := r.ctx.Err(); err != nil {
			r.done <- fmt.Errorf("waiting to write: %w", err)
			continue
		}
		c.ready = append(c.ready, r)
	}
	batch = c.ready
	switch len(batch) {
	case 0:
		return
	case 1:
		r := batch[0]
		r.done <- c.alone(r)
		return
	}
	errs, err := c.shared(batch)
	if err != nil {
		// The transaction itself failed (a full disk, say): nothing of it
		// stands, so each write is tried again alone and answered for
		// itself.
		for _, r := range batch {
			r.done <- c.alone(r)
		}
		return
	}
	for i, r := range batch {
		r.done <- errs[i]
	}
}

// alone runs one write in its own transaction.
func (c *committer) alone(r *writeReq) error {
	began := time.Now()
	var ran time.Time
	err := guardPanic(func() error {
		return c.db.RunInTx(r.ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			defer trace.StartRegion(ctx, "store statements").End()
			if err := r.fn(ctx, tx); err != nil {
				return err
			}
			ran = c.beforeCommit(began)
			return nil
		})
	})
	if !ran.IsZero() {
		c.timings.since(WriteCommit, ran)
	}
	return err
}

// beforeCommit runs as a transaction's statements have all run, which
// began then, and returns when the commit begins.
func (c *committer) beforeCommit(began time.Time) time.Time {
	ran := c.timings.since(WriteStatements, began)
	if c.committing != nil {
		c.committing()
	}
	return ran
}

// shared runs the batch in one transaction, each write in a savepoint, and
// commits what did not fail. errs are the writes' own answers; err is the
// transaction's failure, when nothing was committed.
func (c *committer) shared(batch []*writeReq) (errs []error, err error) {
	// The transaction follows no one write's context: one write's caller
	// giving up must not undo the others'. Each write's statements follow
	// its own.
	ctx := context.Background()
	began := time.Now()
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	trace.WithRegion(ctx, "store statements", func() { errs, err = c.each(ctx, tx, batch) })
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	ran := c.beforeCommit(began)
	trace.WithRegion(ctx, "store commit", func() { err = tx.Commit() })
	if err != nil {
		return nil, err
	}
	c.timings.since(WriteCommit, ran)
	return errs, nil
}

// each runs the batch's writes in tx, each in a savepoint, and returns
// their answers; err is a failure of the transaction itself.
func (c *committer) each(ctx context.Context, tx bun.Tx, batch []*writeReq) (errs []error, err error) {
	// Prepared once a transaction rather than parsed for every write.
	var marks [3]*sql.Stmt
	for i, q := range []string{"SAVEPOINT w", "ROLLBACK TO w", "RELEASE w"} {
		if marks[i], err = tx.Tx.PrepareContext(ctx, q); err != nil {
			return nil, err
		}
		defer marks[i].Close()
	}
	mark, undo, release := marks[0], marks[1], marks[2]
	errs = make([]error, len(batch))
	for i, r := range batch {
		if _, err := mark.ExecContext(ctx); err != nil {
			return nil, err
		}
		errs[i] = guardPanic(func() error { return r.fn(r.ctx, tx) })
		if errs[i] != nil {
			if _, err := undo.ExecContext(ctx); err != nil {
				return nil, err
			}
		}
		if _, err := release.ExecContext(ctx); err != nil {
			return nil, err
		}
	}
	return errs, nil
}

// guardPanic turns a panic in fn into an error, so that one broken write
// fails itself and not the committer every table writes through.
func guardPanic(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", errPanicked, p)
		}
	}()
	return fn()
}
