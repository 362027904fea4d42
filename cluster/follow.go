package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/game"

	"github.com/nats-io/nats.go"
)

// follower follows one seat of a game from its owner for the local hub.
type follower struct {
	relay *Relay
	key   seatKey
	sub   *nats.Subscription
	// token is the seat's, from the streams that follow it: the owner
	// answers no read of a seat's frame without it.
	token  atomic.Pointer[string]
	cancel context.CancelFunc
	// kick asks for a fresh read now; heard says a frame came in time.
	kick, heard chan struct{}

	mu    sync.Mutex
	last  stamp
	known bool
	done  bool // the seat's final frame was handed to the hub
}

func (fl *follower) stop() {
	fl.cancel()
	if fl.sub != nil {
		if err := fl.sub.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) && !errors.Is(err, nats.ErrBadSubscription) {
			fl.relay.log.Debug("no longer following a seat", "game", fl.key.game, "seat", fl.key.seat, "err", err)
		}
	}
}

func (fl *follower) isFinal() bool {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	return fl.done
}

func (fl *follower) poke() {
	select {
	case fl.kick <- struct{}{}:
	default:
	}
}

// receive takes a frame from the owner, on the subscription's goroutine.
// Only the next revision of the epoch the follower last read or took is
// taken as it comes: a first frame, a gap, a new epoch or a game's end is
// only a cue to read the seat's frame afresh (see read), which checks a new
// epoch against the store. So a frame forged by whoever reached NATS can
// neither restamp the game's streams nor end them. The follower's lock is
// held while the hub takes the frame, so a frame read afresh and one
// received never reach the hub out of order.
func (fl *follower) receive(m *nats.Msg) {
	var msg frameMsg
	if err := json.Unmarshal(m.Data, &msg); err != nil {
		fl.relay.log.Warn("an unreadable frame from another node", "subject", m.Subject, "err", err)
		return
	}
	fl.relay.received.Add(1)
	s := stamp{msg.Epoch, msg.Revision}
	fl.mu.Lock()
	if fl.done || fl.known && !s.after(fl.last) {
		fl.mu.Unlock()
		fl.relay.stale.Add(1)
		return
	}
	next := fl.known && s.epoch == fl.last.epoch && s.revision == fl.last.revision+1 && !msg.Frame.Final
	if next {
		fl.last = s
		fl.relay.deliver(fl.key.game, msg.Epoch, msg.Frame)
	}
	fl.mu.Unlock()
	if !next {
		fl.poke()
		return
	}
	select {
	case fl.heard <- struct{}{}:
	default:
	}
}

// run reads the seat's frame afresh soon after it is followed, on every
// gap, and after every quiet spell, until ctx ends.
func (fl *follower) run(ctx context.Context) {
	t := time.NewTimer(firstRead)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-fl.heard:
			t.Reset(fl.relay.quiet)
			continue
		case <-fl.kick:
		case <-t.C:
		}
		fl.read(ctx)
		t.Reset(fl.relay.quiet)
	}
}

// read reads the seat's frame through the Service (from its owner, or from the
// store once the game is over) and adopts it.
func (fl *follower) read(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, fl.relay.quiet)
	defer cancel()
	if token := fl.token.Load(); token != nil {
		ctx = game.WithToken(ctx, *token)
	}
	f, err := fl.relay.tables.Frame(ctx, fl.key.game, fl.key.seat)
	if err == nil {
		fl.relay.reads.Add(1)
		err = fl.adopt(ctx, f)
	}
	if err != nil && ctx.Err() == nil {
		fl.relay.log.Debug("reading a followed seat's frame", "game", fl.key.game, "seat", fl.key.seat, "err", err)
	}
}

// adopt hands the hub a frame read afresh if it is newer than the last. An
// epoch newer than the game's streams have is taken only once the store
// says the game has reached it.
func (fl *follower) adopt(ctx context.Context, f game.Frame) error {
	if err := fl.relay.checkEpoch(ctx, fl.key.game, f.Epoch); err != nil {
		return err
	}
	s := stamp{f.Epoch, f.Revision}
	fl.mu.Lock()
	switch {
	case fl.done:
		fl.mu.Unlock()
		return nil
	case f.Final:
		// A game over is read from the store, numbered apart from the
		// table's frames: it goes whatever its revision.
		fl.done = true
		fl.relay.hub.Restamp(fl.key.game)
		fl.relay.deliver(fl.key.game, s.epoch, f)
		fl.mu.Unlock()
		fl.relay.final(fl.key.game)
		return nil
	case fl.known && !s.after(fl.last):
		fl.mu.Unlock()
		return nil
	}
	fl.last, fl.known = s, true
	fl.relay.deliver(fl.key.game, s.epoch, f)
	fl.mu.Unlock()
	return nil
}
