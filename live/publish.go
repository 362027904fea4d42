package live

import (
	"sync"
	"time"
)

// batch is every seat's frame (and the spectator's) after a change.
type batch struct {
	frames []Frame
	// at is when the change was accepted, to time the publishing.
	at time.Time
	// final closes the game's streams after its views.
	final bool
}

// outbox hands a table's frames to the Publisher from a goroutine of its own,
// so a Publisher that blocks delays only the pushes of that table, never its
// play. It keeps only the newest batch: each frame is whole, so a newer one
// replaces one not yet sent.
type outbox struct {
	pub   Publisher
	game  string
	clock Clock
	timed *histogram

	mu      sync.Mutex
	pending *batch
	kick    chan struct{}

	// fail is closed when the Publisher panics, with the panic in fault:
	// the table stops, and run has returned.
	fail  chan struct{}
	fault error
}

func newOutbox(pub Publisher, game string, clock Clock, timed *histogram) *outbox {
	return &outbox{pub: pub, game: game, clock: clock, timed: timed, kick: make(chan struct{}, 1), fail: make(chan struct{})}
}

// failed is closed once the Publisher has panicked; never for a table
// without an outbox.
func (o *outbox) failed() <-chan struct{} {
	if o == nil {
		return nil
	}
	return o.fail
}

// put queues b in place of any batch not yet sent. It never blocks.
func (o *outbox) put(b *batch) {
	o.mu.Lock()
	o.pending = b
	o.mu.Unlock()
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// run publishes until it has sent a final batch. Its table always sends one
// as it stops, so run ends with the table (unless the Publisher never
// returns, which is why the Manager's Close takes a deadline). A panic of
// the Publisher ends it too, closing the game's streams if it still can.
func (o *outbox) run() {
	for range o.kick {
		o.mu.Lock()
		b := o.pending
		o.pending = nil
		o.mu.Unlock()
		if b == nil {
			continue
		}
		o.timed.record(o.clock.Now().Sub(b.at))
		if err := guard(func() error { o.send(b); return nil }); err != nil {
			o.fault = err
			close(o.fail)
			_ = guard(func() error { o.pub.Close(o.game); return nil })
			return
		}
		if b.final {
			return
		}
	}
}

// send hands b's views to the Publisher, and closes the game's streams
// after a final batch.
func (o *outbox) send(b *batch) {
	for _, f := range b.frames {
		o.pub.Publish(o.game, f)
	}
	if b.final {
		o.pub.Close(o.game)
	}
}
