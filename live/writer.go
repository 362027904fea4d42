package live

import (
	"context"

	"bullshit/internal/clocks"
	"bullshit/store"
)

// batchStore is a store that can write several actions in one commit.
type batchStore interface {
	AppendActions(ctx context.Context, actions []store.Action) error
}

// maxBatch bounds one group commit.
const maxBatch = 256

type writeReq struct {
	a    store.Action
	done chan error
}

// writer is the group commit: tables hand it their actions and wait, and it
// writes every action queued while the previous commit ran in one commit.
// Each action is still stored before its table goes on. Under light load a
// batch is one action, so nothing waits for a batch to fill.
type writer struct {
	st    batchStore
	clock clocks.Clock
	timed *histogram
	one   func(ctx context.Context, a store.Action) error
	// context bounds one commit (see Manager.writeContext).
	context func() (context.Context, context.CancelFunc)
	reqs    chan writeReq
}

// append stores a and returns once it is stored (or failed).
func (w *writer) append(a store.Action) error {
	r := writeReq{a: a, done: make(chan error, 1)}
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
		if len(batch) == 1 {
			first.done <- w.write(first)
			w.timed.record(w.clock.Now().Sub(began))
			continue
		}
		ctx, cancel := w.context()
		err := guard(func() error { return w.st.AppendActions(ctx, actions) })
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
