package cluster

import (
	"testing"

	"bullshit/engine"
	"bullshit/game"
)

// TestCallsFollowATableToItsNewOwner: the node running a table hands it
// over; a move sent through the other node waits for the new owner (here,
// that node itself) and is made there, and the stream followed there
// takes the new owner's frames, of a newer epoch.
func TestCallsFollowATableToItsNewOwner(t *testing.T) {
	p := newPair(t, 0)
	first, second := p.tables[0], p.tables[1]
	ctx := t.Context()
	host, err := first.Create(ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	joined := []game.Joined{host}
	for _, name := range []string{"Bob", "Cy"} {
		j, err := second.Join(ctx, id, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		joined = append(joined, j)
	}
	if err := second.Start(game.WithToken(ctx, host.Token), id, 0); err != nil {
		t.Fatal(err)
	}
	people := seatsOf(t, second, id, joined...)
	p.relays[1].Follow(id, engine.Spectator, "", 0, true)
	defer p.relays[1].Follow(id, engine.Spectator, "", 0, false)
	play(t, second, id, people)
	before, err := second.Frame(ctx, id, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}

	if err := p.mgrs[0].Drain(ctx); err != nil {
		t.Fatalf("handing the tables over: %v", err)
	}
	if first.runs(id) {
		t.Fatal("the first node still runs the table after handing it over")
	}
	p.mgrs[1].ClaimNow()
	// The move is retried until the table runs again: here, once claimed.
	play(t, second, id, people)
	if !second.runs(id) {
		t.Fatalf("runs on the second node: got false, want true")
	}
	after, err := second.Frame(ctx, id, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	if after.Epoch <= before.Epoch {
		t.Errorf("the epoch after the handover: got %d, want above %d", after.Epoch, before.Epoch)
	}
	if after.View.Version <= before.View.Version {
		t.Errorf("the view's version after the handover: got %d, want above %d", after.View.Version, before.View.Version)
	}
	waitFor(t, "the followed stream restamped for the new owner", func() bool {
		p.hubs[1].mu.Lock()
		defer p.hubs[1].mu.Unlock()
		frames := p.hubs[1].frames[seatKey{id, engine.Spectator}]
		return p.hubs[1].restamped > 0 && len(frames) > 0 && frames[len(frames)-1].Epoch == after.Epoch
	})
}
