package push

import (
	"context"
	"slices"
	"sync"
	"testing"

	"bullshit/engine"
	"bullshit/game"
)

// watchLog records the Hub's Watch calls.
type watchLog struct {
	mu    sync.Mutex
	calls []string
}

func (w *watchLog) watch(game string, seat int, token string, _ int64, on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	what := "stop"
	if on {
		what = "start"
	}
	w.calls = append(w.calls, what+" "+watchKey(game, seat)+" "+token)
}

func (w *watchLog) got() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.calls)
}

func TestHubWatchesASeatWhileItHasStreams(t *testing.T) {
	var log watchLog
	h := newHubHarness(t, Config{}, Hooks{Watch: log.watch})
	h.mu.Lock()
	h.cur[1] = engine.View{Version: 3, Seat: 1}
	h.mu.Unlock()
	ctx1, cancel1 := context.WithCancel(context.Background())
	defer cancel1()
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	first := subscribe(t, ctx1, h.srv.URL+"/s/g1/1?token=a")
	next(t, first)
	second := subscribe(t, ctx2, h.srv.URL+"/s/g1/1?token=a")
	next(t, second)
	if got, want := log.got(), []string{"start g1/1 a"}; !slices.Equal(got, want) {
		t.Fatalf("Watch calls with two streams: got %v, want %v", got, want)
	}
	// The start numbered the seats afresh: seat 1 is now another token's,
	// and the follower's reads must carry that one.
	third := subscribe(t, ctx3, h.srv.URL+"/s/g1/1?token=b")
	next(t, third)
	if got, want := log.got(), []string{"start g1/1 a", "start g1/1 b"}; !slices.Equal(got, want) {
		t.Fatalf("Watch calls after a stream with another token: got %v, want %v", got, want)
	}
	cancel1()
	cancel3()
	waitFor(t, "one subscriber", func() bool { return h.hub.Subscribers() == 1 })
	if got, want := log.got(), []string{"start g1/1 a", "start g1/1 b"}; !slices.Equal(got, want) {
		t.Fatalf("Watch calls with one stream left: got %v, want %v", got, want)
	}
	cancel2()
	want := []string{"start g1/1 a", "start g1/1 b", "stop g1/1 a"}
	waitFor(t, "the seat unwatched", func() bool { return slices.Equal(log.got(), want) })
}

func TestHubRestampTakesALowerRevision(t *testing.T) {
	h := newHubHarness(t, Config{}, Hooks{})
	h.mu.Lock()
	h.cur[0] = engine.View{Version: 9, Seat: 0}
	h.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := subscribe(t, ctx, h.srv.URL+"/s/g1/0")
	next(t, events)
	// Another node took the table over and counts afresh: without the
	// restamp its version 4 would be dropped as stale.
	h.hub.Restamp("g1")
	h.publish("g1", engine.View{Version: 4, Seat: 0, Doubt: "new owner"})
	if e := next(t, events); e.view.Version != 4 || e.view.Doubt != "new owner" {
		t.Errorf("after a restamp: got version %d %q, want version 4 from the new owner", e.view.Version, e.view.Doubt)
	}
}

func TestHubTellsOfLobbyChanges(t *testing.T) {
	var mu sync.Mutex
	var told []string
	h := New(withJSON(Config{}))
	h.Connect(Hooks{Lobbied: func(game string, s game.Summary) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, game+" "+string(s.Status))
	}})
	open := game.Summary{ID: "g1", Status: game.StatusOpen, Seats: []game.SeatInfo{{Kind: game.SeatPerson, Name: "Ann"}}}
	h.Publish("g1", game.Frame{Seat: engine.Spectator, Game: open, Revision: 1})
	h.Publish("g1", game.Frame{Seat: engine.Spectator, Game: open, Revision: 2}) // nothing the lobby shows changed
	h.Publish("g1", game.Frame{Seat: 0, Game: open, Revision: 2})                // a seat's frame: the spectator's speaks for the table
	started := open
	started.Status = game.StatusLive
	h.Publish("g1", game.Frame{Seat: engine.Spectator, Game: started, Revision: 3})
	h.NoteTable("g2", open) // a table run elsewhere: its owner tells
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"g1 open", "g1 live"}; !slices.Equal(told, want) {
		t.Errorf("Lobbied calls: got %v, want %v", told, want)
	}
}
