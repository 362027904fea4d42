package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/nats-io/nats.go"

	"bullshit/engine"
	"bullshit/game"
)

// TestFollowerTakesOnlyTheNextFrame hands a follower frames over NATS and
// frames read afresh: of those received only the next revision of the
// epoch it has goes to the hub; a first frame, a gap, a new epoch or a
// game's end only asks for a fresh read, and a read's new epoch is taken
// only when the store has reached it. So a forged frame neither restamps
// the streams nor ends them.
func TestFollowerTakesOnlyTheNextFrame(t *testing.T) {
	hub := newRecorder()
	stored := int64(1)
	relay := NewRelay(context.Background(), RelayConfig{Hub: hub,
		Epoch: func(context.Context, string) (int64, error) { return stored, nil }})
	fl := &follower{relay: relay, key: seatKey{"g1", engine.Spectator}, cancel: func() {}, kick: make(chan struct{}, 1), heard: make(chan struct{}, 1)}
	type step struct {
		read     bool // read afresh, rather than received over NATS
		epoch    int64
		revision int
		final    bool
		stored   int64 // the store's epoch for the game, from this step
		taken    bool
		kicked   bool
	}
	steps := []step{
		{epoch: 1, revision: 5, kicked: true}, // the first: only a cue
		{read: true, epoch: 1, revision: 5, taken: true},
		{epoch: 1, revision: 6, taken: true},
		{epoch: 1, revision: 6},               // a repeat
		{epoch: 1, revision: 4},               // late
		{epoch: 1, revision: 9, kicked: true}, // 7 and 8 lost
		{read: true, epoch: 1, revision: 9, taken: true},
		{epoch: 2, revision: 1, kicked: true, stored: 2}, // a new owner counts afresh
		{read: true, epoch: 2, revision: 1, taken: true},
		{epoch: 1, revision: 10},
		{epoch: 9, revision: 1, kicked: true},              // forged: the store is at 2
		{read: true, epoch: 9, revision: 1},                // as a forged answer would be
		{epoch: 2, revision: 2, taken: true},               // the stream goes on
		{epoch: 2, revision: 3, final: true, kicked: true}, // an end over NATS: read it
	}
	for i, s := range steps {
		if s.stored != 0 {
			stored = s.stored
		}
		f := game.Frame{Seat: engine.Spectator, Revision: s.revision, Epoch: s.epoch, Final: s.final}
		before := len(hub.given("g1", engine.Spectator))
		if s.read {
			err := fl.adopt(context.Background(), f)
			if want := s.epoch > stored; errors.Is(err, errForgedEpoch) != want {
				t.Errorf("step %d: adopting epoch %d with the store at %d: got error %v, want forged %v", i, s.epoch, stored, err, want)
			}
		} else {
			body, _ := json.Marshal(frameMsg{Game: "g1", Epoch: s.epoch, Revision: s.revision, Frame: f})
			fl.receive(&nats.Msg{Subject: frameSubject("g1", engine.Spectator), Data: body})
		}
		taken := len(hub.given("g1", engine.Spectator)) > before
		kicked := false
		select {
		case <-fl.kick:
			kicked = true
		default:
		}
		if taken != s.taken || kicked != s.kicked {
			t.Errorf("step %d (read %v, epoch %d, revision %d): got taken %v, read afresh %v; want %v, %v",
				i, s.read, s.epoch, s.revision, taken, kicked, s.taken, s.kicked)
		}
	}
	if got, want := hub.given("g1", engine.Spectator), []int{5, 6, 9, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("revisions handed to the hub: got %v, want %v", got, want)
	}
	if hub.restamped != 1 {
		t.Errorf("restamps: got %d, want 1 (the new owner)", hub.restamped)
	}
	if fl.isFinal() || hub.isClosed("g1") {
		t.Errorf("a final frame over NATS ended the stream: got final %v, closed %v; want neither until a read says so", fl.isFinal(), hub.isClosed("g1"))
	}
	if got := relay.Stats(); got.Stale != 3 || got.Forged != 1 {
		t.Errorf("stale and forged frames: got %d and %d, want 3 and 1", got.Stale, got.Forged)
	}
}
