package live

import (
	"slices"
	"testing"

	"bullshit/errcode"
	"bullshit/game"
)

// The start numbers the seats afresh when someone left before it. A request
// whose token was looked up under the old numbers, and that the table serves
// after the start, must be refused rather than see or act as whoever now sits
// at that number.
func TestSeatLookedUpBeforeTheStartIsCheckedAgain(t *testing.T) {
	f := newFixture(t)
	id, tokens := f.create(5, 0, "Ann", "Bob", "Cid")
	ann, bob, cid := tokens[1], tokens[2], tokens[3]
	annSeat, err := f.m.Authenticate(f.ctx, id, ann)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.m.Leave(game.WithToken(f.ctx, ann), id, annSeat); err != nil {
		t.Fatalf("Ann leaves: %v", err)
	}
	oldBob, err := f.m.Authenticate(f.ctx, id, bob)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.m.Start(game.WithToken(f.ctx, tokens[0]), id, 0); err != nil {
		t.Fatalf("start: %v", err)
	}
	newBob, _ := f.m.Authenticate(f.ctx, id, bob)
	newCid, _ := f.m.Authenticate(f.ctx, id, cid)
	if oldBob != newCid || newBob == oldBob {
		t.Fatalf("got Bob at %d then %d and Cid at %d: want the start to move Bob into a lower seat and Cid into his old one",
			oldBob, newBob, newCid)
	}

	stale := game.WithToken(f.ctx, bob)
	if _, err := f.m.View(stale, id, oldBob); codeOf(err) != string(errcode.Conflict) {
		t.Errorf("view under the old seat number: got %v, want the seats-renumbered conflict", err)
	}
	if _, err := f.m.Log(stale, id, oldBob); codeOf(err) != string(errcode.Conflict) {
		t.Errorf("log under the old seat number: got %v, want the seats-renumbered conflict", err)
	}
	cidView, err := f.m.View(game.WithToken(f.ctx, cid), id, newCid)
	if err != nil {
		t.Fatal(err)
	}
	bobView, err := f.m.View(stale, id, newBob)
	if err != nil {
		t.Fatalf("view under the new seat number: %v", err)
	}
	if bobView.Seat != newBob || slices.Equal(bobView.Hand, cidView.Hand) {
		t.Errorf("got Bob seeing seat %d with %v, want his own seat %d and not Cid's hand", bobView.Seat, bobView.Hand, newBob)
	}
}
