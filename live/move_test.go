package live

import (
	"slices"
	"testing"

	"bullshit/engine"
)

// TestMoveIsOneCallForTheTokensSeat: Move finds the seat from the token
// (whatever seat the action names), answers the seat's frame after the
// move, answers a refusal with the frame as it stands, and refuses a token
// of no seat with no frame.
func TestMoveIsOneCallForTheTokensSeat(t *testing.T) {
	f := newFixture(t)
	id, tokens := f.create(3, 0, "Bea", "Cy")
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	tokenOf := make(map[int]string)
	for _, token := range tokens {
		seat, err := f.m.Authenticate(f.ctx, id, token)
		if err != nil {
			t.Fatal(err)
		}
		tokenOf[seat] = token
	}
	v := f.view(id, engine.Spectator)
	turn := v.Turn
	hand := f.view(id, turn)
	play := engine.Action{Kind: engine.ActPlay, Seat: (turn + 1) % 3, No: hand.Plays, Cards: hand.Hand[:1]}

	fr, err := f.m.Move(f.ctx, id, tokenOf[turn], play)
	if err != nil {
		t.Fatalf("a play by the seat in turn: %v", err)
	}
	if fr.Seat != turn || fr.View == nil || fr.View.Seat != turn || len(fr.View.Hand) != len(hand.Hand)-1 {
		t.Fatalf("the frame after a play: got seat %d with %v, want seat %d's view with one card fewer", fr.Seat, fr.View, turn)
	}
	if want := f.view(id, turn); fr.View.Version != want.Version || fr.Revision < want.Version {
		t.Errorf("the frame after a play: got version %d, revision %d, want the table's version %d", fr.View.Version, fr.Revision, want.Version)
	}

	tests := []struct {
		name      string
		token     string
		a         engine.Action
		wantFrame bool
	}{
		{"the same play again", tokenOf[turn], play, true},
		{"a play out of turn", tokenOf[(turn+2)%3], engine.Action{Kind: engine.ActPlay, No: fr.View.Plays, Cards: f.view(id, (turn+2)%3).Hand[:1]}, true},
		{"a token of no seat", "not-a-token", engine.Action{Kind: engine.ActPass, No: fr.View.Plays}, false},
		{"no token", "", engine.Action{Kind: engine.ActPass, No: fr.View.Plays}, false},
	}
	for _, tt := range tests {
		got, err := f.m.Move(f.ctx, id, tt.token, tt.a)
		if err == nil {
			t.Errorf("%s: got no refusal, want one", tt.name)
			continue
		}
		if hasFrame := got.Game.ID == id && got.View != nil; hasFrame != tt.wantFrame {
			t.Errorf("%s: got a frame %v (%v), want one %v", tt.name, hasFrame, err, tt.wantFrame)
		}
		if tt.wantFrame && got.Seat != seatWith(tokenOf, tt.token) {
			t.Errorf("%s: got seat %d's frame, want the token's seat %d", tt.name, got.Seat, seatWith(tokenOf, tt.token))
		}
	}

	// A game over answers the move as over, with its final frame.
	if err := f.m.End(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	f.sync(id)
	final, err := f.m.Move(f.ctx, id, tokenOf[turn], engine.Action{Kind: engine.ActPass, No: fr.View.Plays})
	if codeOf(err) != string(engine.CodeOver) || !final.Final || final.Seat != turn {
		t.Errorf("a move at a game over: got %v with a frame final %v for seat %d, want over with seat %d's final frame", err, final.Final, final.Seat, turn)
	}
	if slices.Contains(final.View.Can, engine.ActPass) {
		t.Errorf("the final frame: got moves %v, want none", final.View.Can)
	}
}

// seatWith is the seat whose token this is.
func seatWith(seats map[int]string, token string) int {
	for seat, tok := range seats {
		if tok == token {
			return seat
		}
	}
	return -1
}
