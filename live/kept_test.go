package live

import (
	"reflect"
	"testing"
	"time"

	"bullshit/engine"
)

func TestKeptActions(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 123456789, time.UTC)
	cards := []engine.Card{engine.NewCard(engine.Ace, 0, 0), engine.NewCard(engine.King, 3, 1), engine.NewCard(engine.Ten, 1, 0)}
	tests := []engine.Action{
		{Kind: engine.ActPlay, Seat: 1, No: 0, Cards: cards[:2], Claim: 1},
		{Kind: engine.ActCall, Seat: 2, No: 1},
		{Kind: engine.ActPass, Seat: 0, No: 1},
		{Kind: engine.ActGive, Seat: 9, No: 299, Cards: cards},
		{Kind: engine.ActResume, Seat: -1, No: 299, Since: at.Add(-time.Hour)},
		{Kind: engine.ActPlay, Seat: 3, No: 300, Cards: cards[2:]},
	}
	var k kept
	for i, a := range tests {
		k.add(engine.Timed{Action: a, At: at.Add(time.Duration(i) * time.Second)})
	}
	if got, want := k.len(), len(tests); got != want {
		t.Fatalf("got %d actions, want %d", got, want)
	}
	for i, want := range tests {
		got, gotAt := k.action(i).Action, k.action(i).At
		if !reflect.DeepEqual(got, want) || !gotAt.Equal(at.Add(time.Duration(i)*time.Second)) {
			t.Errorf("action %d: got %+v at %v, want %+v at %v", i, got, gotAt, want, at.Add(time.Duration(i)*time.Second))
		}
	}
}
