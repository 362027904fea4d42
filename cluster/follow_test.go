package cluster

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/nats-io/nats.go"

	"bullshit/engine"
	"bullshit/live"
)

// TestFollowerDropsStaleStamps hands a follower frames out of order and
// from an older owner: only those after the last taken reach the hub, and
// a gap or a new epoch asks for a fresh read.
func TestFollowerDropsStaleStamps(t *testing.T) {
	hub := newRecorder()
	fs := NewFrames(context.Background(), FramesConfig{Hub: hub, Conn: nil, Tables: nil})
	fl := &follower{fs: fs, key: seatKey{"g1", engine.Spectator}, cancel: func() {}, kick: make(chan struct{}, 1), heard: make(chan struct{}, 1)}
	steps := []struct {
		epoch    int64
		revision int
		taken    bool
		kicked   bool
	}{
		{1, 5, true, false},
		{1, 6, true, false},
		{1, 6, false, false}, // a repeat
		{1, 4, false, false}, // late
		{1, 9, true, true},   // 7 and 8 lost
		{2, 1, true, true},   // a new owner counts afresh
		{1, 10, false, false},
		{2, 2, true, false},
	}
	for i, s := range steps {
		body, _ := json.Marshal(frameMsg{Game: "g1", Epoch: s.epoch, Revision: s.revision,
			Frame: live.Frame{Seat: engine.Spectator, Revision: s.revision, Epoch: s.epoch}})
		before := len(hub.given("g1", engine.Spectator))
		fl.receive(&nats.Msg{Subject: frameSubject("g1", engine.Spectator), Data: body})
		taken := len(hub.given("g1", engine.Spectator)) > before
		kicked := false
		select {
		case <-fl.kick:
			kicked = true
		default:
		}
		if taken != s.taken || kicked != s.kicked {
			t.Errorf("step %d (epoch %d, revision %d): got taken %v, read afresh %v; want %v, %v",
				i, s.epoch, s.revision, taken, kicked, s.taken, s.kicked)
		}
	}
	if got, want := hub.given("g1", engine.Spectator), []int{5, 6, 9, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("revisions handed to the hub: got %v, want %v", got, want)
	}
	if hub.restamped != 1 {
		t.Errorf("restamps: got %d, want 1 (the new owner)", hub.restamped)
	}
	if got := fs.Stats().Stale; got != 3 {
		t.Errorf("stale frames: got %d, want 3", got)
	}
}
