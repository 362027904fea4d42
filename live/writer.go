package live

import (
	"context"
	"hash/fnv"
	"runtime/trace"
	"time"

	"bullshit/internal/clocks"
	"bullshit/store"
)

// batchStore is a store that can write several actions in one commit, and
// commit from as many writers at once as Writers says.
type batchStore interface {
	AppendActions(ctx context.Context, actions []store.Action) error
	Writers() int
}

// maxBatch bounds one group commit: large enough that a writer behind its
// tables catches up in few commits, each one sync to disk, and within both
// databases' limits on a statement's parameters.
const maxBatch = 1024

// shardOf is the writer of a game's actions among n: always the same one,
// so a game's actions are stored in the order its table made them.
func shardOf(game string, n int) int {
	if n == 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(game))
	return int(h.Sum32() % uint32(n))
}

type writeReq struct {
	a      store.Action
	queued time.Time
	done   chan error
}

// writer is a group commit: tables hand it their actions and wait, and it
// writes every action queued while the previous commit ran in one commit.
// Each action is still stored before its table goes on. Under light load a
// batch is one action, so nothing waits for a batch to fill.
type writer struct {
	st    batchStore
	clock clocks.Clock
	timed *histogram
	// queued is told, as each batch begins, how long each of its actions
	// waited for it (see capacity).
	queued func(now time.Time, waited time.Duration)
	one    func(ctx context.Context, a store.Action) error
	// context bounds one commit (see Manager.writeContext).
	context func() (context.Context, context.CancelFunc)
	reqs    chan writeReq
}

// append stores a and returns once it is stored (or failed).
func (w *writer) append(a store.Action) error {
	r := writeReq{a: a, queued: w.clock.Now(), done: make(chan error, 1)}
	w.reqs <- r
	return <-r.done
}

// run writes until reqs is closed, which the Manager does once every table
// has stopped.
func (w *writer) run() {
	batch := make([]writeReq, 0, maxBatch)
	actions := make([]store.Action, 0, maxBatch)
	for first := range w.reqs {
		batch, actions = append(batch[:0], first), append(actions[:0], first.a)
	fill:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-w.reqs:
				if !ok {
					break fill
				}
				batch, actions = append(batch, r), append(actions, r.a)
			default:
				break fill
			}
		}
		began := w.clock.Now()
		for _, r := range batch {
			w.queued(began, began.Sub(r.queued))
		}
		if len(batch) == 1 {
			first.done <- w.write(first)
			w.timed.record(w.clock.Now().Sub(began))
			continue
		}
		ctx, cancel := w.context()
		var err error
		trace.WithRegion(ctx, "group commit", func() {
			err = guard(func() error { return w.st.AppendActions(ctx, actions) })
		})
		cancel()
		w.timed.record(w.clock.Now().Sub(began))
		if err != nil {
			// One bad action must not fail the others: write each alone.
			for _, r := range batch {
				r.done <- w.write(r)
			}
			continue
		}
		for _, r := range batch {
			r.done <- nil
		}
	}
}

// write stores one action alone. A panic in the store fails that write, as
// an error its table handles, rather than every table with the server.
func (w *writer) write(r writeReq) error {
	ctx, cancel := w.context()
	defer cancel()
	return guard(func() error { return w.one(ctx, r.a) })
}
