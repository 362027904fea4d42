package live

import (
	"testing"
	"time"
)

// TestQuietTableHoldsNoSender: the outbox's sending goroutine ends once the
// frames are out, so a table between changes is one goroutine, and the
// next change starts a sender again and reaches the Publisher.
func TestQuietTableHoldsNoSender(t *testing.T) {
	f := newFixture(t)
	id := f.botGame(4)
	tb, err := f.m.table(id)
	if err != nil || tb == nil {
		t.Fatalf("table %s: got %v, %v", id, tb, err)
	}
	sending := func() bool {
		tb.out.mu.Lock()
		defer tb.out.mu.Unlock()
		return tb.out.sending
	}
	calls := func() int {
		f.pub.mu.Lock()
		defer f.pub.mu.Unlock()
		return f.pub.calls[id]
	}
	for step := range 3 {
		before := calls()
		f.step(id, 5*time.Second) // a bot moves, so the table publishes
		var quiet bool
		for range 1000 {
			if quiet = !sending() && calls() > before; quiet {
				break
			}
			time.Sleep(time.Millisecond)
		}
		if !quiet {
			t.Fatalf("step %d: got a sender still running (%v) or no frames published (%d, was %d), want the frames out and no sender", step, sending(), calls(), before)
		}
	}
}
