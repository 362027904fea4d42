package live

import (
	"errors"
	"testing"

	"bullshit/errcode"
	"bullshit/game"
)

// TestWaitingRoomBots has the host add and remove bots before the start,
// and refuses everyone else, a seat that holds no bot, and a started game.
func TestWaitingRoomBots(t *testing.T) {
	f := newFixture(t)
	id, tokens := f.create(5, 1, "Ben")
	host := game.WithToken(f.ctx, tokens[0])
	ben := game.WithToken(f.ctx, tokens[1])

	if err := f.m.AddBot(host, id, 0, "hard"); err != nil {
		t.Fatalf("host adds a bot: %v", err)
	}
	s, err := f.m.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Seats[3]; got.Kind != game.SeatBot || got.Bot == nil || got.Bot.Level != "hard" {
		t.Fatalf("seat 3 after AddBot: got %+v, want a hard bot", got)
	}

	refusals := []struct {
		name string
		err  error
		code errcode.Code
	}{
		{"a guest adds a bot", f.m.AddBot(ben, id, 2, ""), errcode.Forbidden},
		{"a guest removes a bot", f.m.RemoveBot(ben, id, 2, 1), errcode.Forbidden},
		{"removing a person", f.m.RemoveBot(host, id, 0, 2), errcode.Conflict},
		{"removing past the seats", f.m.RemoveBot(host, id, 0, 9), errcode.Invalid},
		{"an unknown level", f.m.AddBot(host, id, 0, "genius"), errcode.Invalid},
	}
	for _, r := range refusals {
		var le *game.Error
		if !errors.As(r.err, &le) || le.Code != r.code {
			t.Errorf("%s: got %v, want code %s", r.name, r.err, r.code)
		}
	}

	if err := f.m.RemoveBot(host, id, 0, 1); err != nil {
		t.Fatalf("host removes the first bot: %v", err)
	}
	if err := f.m.AddBot(host, id, 0, ""); err != nil {
		t.Fatalf("host adds a bot in the freed seat: %v", err)
	}
	if err := f.m.AddBot(host, id, 0, ""); err != nil {
		t.Fatalf("host fills the last seat: %v", err)
	}
	var le *game.Error
	if err := f.m.AddBot(host, id, 0, ""); !errors.As(err, &le) || le.Code != errcode.Conflict {
		t.Fatalf("adding to a full table: got %v, want a conflict", err)
	}
	// What the table stored comes back after a restart.
	s, _ = f.m.Get(f.ctx, id)
	m2 := f.open(f.st)
	s2, err := m2.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Seats {
		if s.Seats[i].Kind != s2.Seats[i].Kind || s.Seats[i].Name != s2.Seats[i].Name {
			t.Errorf("seat %d after a restart: got %+v, want %+v", i, s2.Seats[i], s.Seats[i])
		}
	}

	if err := f.m.Start(host, id, 0); err != nil {
		t.Fatalf("start: %v", err)
	}
	if err := f.m.AddBot(host, id, 0, ""); !errors.As(err, &le) || le.Code != errcode.Conflict {
		t.Fatalf("adding a bot after the start: got %v, want a conflict", err)
	}
	v, err := f.m.View(host, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(v.Seats); got != 5 {
		t.Fatalf("seats dealt: got %d, want 5", got)
	}
}
