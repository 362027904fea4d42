package live

import (
	"strings"
	"testing"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/naming/lookalike"
	"bullshit/store"
)

// TestNamesAreCleanEverywhere checks the one rule holds for the host's name
// and for a name joining.
func TestNamesAreCleanEverywhere(t *testing.T) {
	f := newFixture(t)
	if _, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Ann\u200b"}); codeOf(err) != string(errcode.Invalid) {
		t.Errorf("creating as %q: got %v, want invalid", "Ann\u200b", err)
	}
	j, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: " Ａnn "})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.Game.Seats[0].Name; got != "Ann" {
		t.Errorf("got the host's name %q, want %q", got, "Ann")
	}
	if _, err := f.m.Join(f.ctx, j.Game.ID, "Bo\u202e", 0); codeOf(err) != string(errcode.Invalid) {
		t.Errorf("joining as %q: got %v, want invalid", "Bo\u202e", err)
	}
	b, err := f.m.Join(f.ctx, j.Game.ID, "Zoe\u0308 ", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Game.Seats[1].Name; got != "Zoë" {
		t.Errorf("got the joiner's name %q, want %q", got, "Zoë")
	}
}

// TestGuestCantTakeAnAccountsName: with an account named Alice, a guest
// can't open or join a table as Alice or as a name that looks like it; the
// account itself can, and a guest's other name can.
func TestGuestCantTakeAnAccountsName(t *testing.T) {
	f := newFixture(t)
	alice := &store.Account{Name: "Alice", NameKey: "alice", Lookalike: lookalike.Key("Alice"), PasswordHash: "h", CreatedAt: epoch}
	if err := f.st.CreateAccount(f.ctx, alice); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Alice", "alice", "AIice", "A1ice"} {
		if _, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: name}); codeOf(err) != string(errcode.Conflict) {
			t.Errorf("a guest opening a table as %q: got %v, want conflict", name, err)
		}
	}
	j, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(4), HostName: "Alice", HostPlayer: alice.ID})
	if err != nil {
		t.Fatalf("Alice's account opening a table: %v", err)
	}
	for _, name := range []string{"ALICE", "AIice"} {
		if _, err := f.m.Join(f.ctx, j.Game.ID, name, 0); codeOf(err) != string(errcode.Conflict) || !strings.Contains(err.Error(), "an account's") {
			t.Errorf("a guest joining as %q: got %v, want conflict saying it is an account's", name, err)
		}
	}
	if _, err := f.m.Join(f.ctx, j.Game.ID, "Alicia", 0); err != nil {
		t.Errorf("a guest joining as Alicia: %v", err)
	}
}
