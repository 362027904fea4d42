package live

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

func TestRecordReplaysToTheGame(t *testing.T) {
	for _, seats := range []int{3, 6} {
		f := newFixture(t)
		id := f.botGame(seats)
		if _, err := f.m.Record(f.ctx, id); codeOf(err) != string(errcode.Conflict) {
			t.Errorf("%d seats: got %v for a game in play, want a conflict", seats, err)
		}
		f.playOut(id, 3*time.Hour)
		rec, err := f.m.Record(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		// Through JSON, as a program downloads it.
		var got game.Record
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got.Version != game.RecordVersion || len(got.Dealt) != seats {
			t.Fatalf("%d seats: got version %d with %d hands, want %d and %d", seats, got.Version, len(got.Dealt), game.RecordVersion, seats)
		}
		g, err := got.ReviewGame()
		if err != nil {
			t.Fatal(err)
		}
		s, err := engine.New(g.Options, g.Seed, g.Start)
		if err != nil {
			t.Fatal(err)
		}
		for seat, hand := range got.Dealt {
			if !reflect.DeepEqual(s.View(seat).Hand, hand) {
				t.Errorf("%d seats: seat %d's dealt hand differs from the deal the seed gives", seats, seat)
			}
		}
		if s, err = g.State(); err != nil {
			t.Fatalf("%d seats: replaying: %v", seats, err)
		}
		want := f.view(id, engine.Spectator)
		if a, b := mustJSON(t, s.View(engine.Spectator)), mustJSON(t, want); a != b {
			t.Errorf("%d seats: the replayed record's final view\n%s\nwant\n%s", seats, a, b)
		}
		log, err := f.m.Log(f.ctx, id, engine.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(mustJSON(t, s.Log(engine.Spectator)), mustJSON(t, log)) {
			t.Errorf("%d seats: the replayed record's log differs from the game's", seats)
		}
		if !reflect.DeepEqual(s.Result(), got.Game.Result) {
			t.Errorf("%d seats: got results %v from the record, want %v as stored", seats, s.Result(), got.Game.Result)
		}
		r, err := f.m.Review(f.ctx, id)
		if err != nil || len(r.Plays) != want.Plays {
			t.Errorf("%d seats: got a review with %v plays (%v), want %d", seats, r, err, want.Plays)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
