package live

import (
	"sync"
	"time"

	"bullshit/game"
	"bullshit/internal/clocks"
)

// batch is every seat's frame (and the spectator's) after a change.
type batch struct {
	frames []game.Frame
	// at is when the change was accepted, to time the publishing.
	at time.Time
	// final closes the game's streams after its views.
	final bool
}

// outbox hands a table's frames to the Publisher from a goroutine other than
// the table's, so a Publisher that blocks delays only the pushes of that
// table, never its play. That goroutine runs only while there is something
// to send: a table between changes has none, so a server holds one
// goroutine per table rather than two. The outbox keeps only the newest
// batch: each frame is whole, so a newer one replaces one not yet sent.
type outbox struct {
	pub   game.Publisher
	game  string
	clock clocks.Clock
	timed *histogram
	// senders counts the sending goroutines, for the Manager's Close.
	senders *sync.WaitGroup

	mu      sync.Mutex
	pending *batch
	// sending: a goroutine is sending, and sends pending before it ends;
	// done: the final batch (or a panic) ended the outbox.
	sending bool
	done    bool

	// fail is closed when the Publisher panics, with the panic in fault:
	// the table stops.
	fail  chan struct{}
	fault error
}

func newOutbox(pub game.Publisher, game string, clock clocks.Clock, timed *histogram, senders *sync.WaitGroup) *outbox {
	return &outbox{pub: pub, game: game, clock: clock, timed: timed, senders: senders, fail: make(chan struct{})}
}

// failed is closed once the Publisher has panicked; never for a table
// without an outbox.
func (o *outbox) failed() <-chan struct{} {
	if o == nil {
		return nil
	}
	return o.fail
}

// put queues b in place of any batch not yet sent, starting a goroutine to
// send it unless one is sending already. It never blocks. It is called only
// from the table's goroutine, which the Manager counts in senders too, so
// the count is never zero as it grows.
func (o *outbox) put(b *batch) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return
	}
	o.pending = b
	if !o.sending {
		o.sending = true
		o.senders.Go(o.drain)
	}
}

// drain sends batches until none is pending. A panic of the Publisher ends
// the outbox, closing the game's streams if it still can; so does a final
// batch. The table always sends a final batch as it stops, so the last
// drain ends with the table (unless the Publisher never returns, which is
// why the Manager's Close takes a deadline).
func (o *outbox) drain() {
	for {
		o.mu.Lock()
		b := o.pending
		o.pending = nil
		if b == nil {
			o.sending = false
			o.mu.Unlock()
			return
		}
		o.done = o.done || b.final
		o.mu.Unlock()
		o.timed.record(o.clock.Now().Sub(b.at))
		if err := guard(func() error { o.send(b); return nil }); err != nil {
			o.mu.Lock()
			o.done, o.pending, o.sending = true, nil, false
			o.mu.Unlock()
			o.fault = err
			close(o.fail)
			_ = guard(func() error { o.pub.Close(o.game); return nil })
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
