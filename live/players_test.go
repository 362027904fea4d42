package live

import (
	"slices"
	"testing"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/store"
)

// account stores an account for a seat to belong to.
func (f *fixture) account(name string) int64 {
	f.t.Helper()
	a := &store.Account{Name: name, NameKey: name, PasswordHash: "-", CreatedAt: epoch}
	if err := f.st.CreateAccount(f.ctx, a); err != nil {
		f.t.Fatalf("create account %s: %v", name, err)
	}
	return a.ID
}

// players is each seat's account as the game's summary shows it.
func (f *fixture) players(id string) []int64 {
	f.t.Helper()
	s, err := f.m.Get(f.ctx, id)
	if err != nil {
		f.t.Fatalf("get: %v", err)
	}
	var out []int64
	for _, seat := range s.Seats {
		out = append(out, seat.Player)
	}
	return out
}

func TestSeatsOwnedByAccounts(t *testing.T) {
	f := newFixture(t)
	ada, bea := f.account("ada"), f.account("bea")
	j, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Ada", HostPlayer: ada})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	id := j.Game.ID
	if _, err := f.m.Join(f.ctx, id, "Ada again", ada); codeOf(err) != string(errcode.Conflict) {
		t.Errorf("the host's account joining again: got %v, want code %s", err, errcode.Conflict)
	}
	if _, err := f.m.Join(f.ctx, id, "Guest", 0); err != nil {
		t.Fatalf("a guest joining: %v", err)
	}
	bj, err := f.m.Join(f.ctx, id, "Bea", bea)
	if err != nil {
		t.Fatalf("Bea joining with her account: %v", err)
	}
	if got, want := f.players(id), []int64{ada, 0, bea, 0}; !slices.Equal(got, want) {
		t.Errorf("players before leaving: got %v, want %v", got, want)
	}
	// Bea leaves, and the seat forgets her account; she may sit again.
	if err := f.m.Leave(game.WithToken(f.ctx, bj.Token), id, bj.Seat); err != nil {
		t.Fatalf("Leave: %v", err)
	}
	if got, want := f.players(id), []int64{ada, 0, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("players after Bea left: got %v, want %v", got, want)
	}
	if _, err := f.m.Join(f.ctx, id, "Bea", bea); err != nil {
		t.Fatalf("Bea joining again: %v", err)
	}
	if _, err := f.m.Join(f.ctx, id, "Cy", 0); err != nil {
		t.Fatal(err)
	}
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatalf("Start: %v", err)
	}
	want := []int64{ada, 0, bea, 0}
	if got := f.players(id); !slices.Equal(got, want) {
		t.Errorf("players after the start: got %v, want %v", got, want)
	}
	_, seats, err := f.st.Game(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range seats {
		if s.PlayerID != want[i] {
			t.Errorf("stored seat %d: got player %d, want %d", i, s.PlayerID, want[i])
		}
	}
	// A restart rebuilds the table with its seats' accounts.
	if err := f.m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.m = f.open(f.st)
	if got := f.players(id); !slices.Equal(got, want) {
		t.Errorf("players after a restart: got %v, want %v", got, want)
	}
}
