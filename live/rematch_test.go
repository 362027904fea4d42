package live

import (
	"errors"
	"testing"

	"bullshit/errcode"
	"bullshit/game"
)

// TestRematch plays again from a game that is over: the first player to ask
// opens the next table with the same settings and bots, the next joins it.
func TestRematch(t *testing.T) {
	f := newFixture(t)
	id, tokens := f.create(4, 2, "Ben")
	host := game.WithToken(f.ctx, tokens[0])
	var le *game.Error
	if _, err := f.m.Rematch(host, id, 0); !errors.As(err, &le) || le.Code != errcode.Conflict {
		t.Fatalf("a rematch before the game is over: got %v, want a conflict", err)
	}
	if err := f.m.Start(host, id, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.m.End(host, id, 0); err != nil {
		t.Fatal(err)
	}
	old, err := f.m.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ben := old.Seats[3].Seat
	if old.Seats[3].Name != "Ben" {
		t.Fatalf("seat 3: got %q, want Ben", old.Seats[3].Name)
	}

	first, err := f.m.Rematch(game.WithToken(f.ctx, tokens[1]), id, ben)
	if err != nil {
		t.Fatalf("Ben asks first: %v", err)
	}
	next := first.Game
	if next.Status != game.StatusOpen || first.Seat != 0 || next.Seats[0].Name != "Ben" {
		t.Fatalf("the next game: got status %s, seat %d, host %q; want open, Ben at 0 as host", next.Status, first.Seat, next.Seats[0].Name)
	}
	if next.Options.Sneak != old.Options.Sneak || next.Options.Window != old.Options.Window || next.Options.Pace != old.Options.Pace {
		t.Errorf("settings: got %+v, want those of %+v", next.Options, old.Options)
	}
	bots := 0
	for _, s := range next.Seats {
		if s.Kind == game.SeatBot {
			bots++
		}
	}
	if bots != 2 {
		t.Errorf("bots at the next table: got %d, want 2", bots)
	}
	if got := f.m.Next(id); got != next.ID {
		t.Errorf("Next: got %q, want %q", got, next.ID)
	}

	second, err := f.m.Rematch(host, id, 0)
	if err != nil {
		t.Fatalf("Ada asks second: %v", err)
	}
	if second.Game.ID != next.ID || second.Game.Seats[second.Seat].Name != "Ada" {
		t.Fatalf("Ada's rematch: got game %s seat %d, want a seat at %s", second.Game.ID, second.Seat, next.ID)
	}
}
