package clustertest

import (
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/store"
)

// TestLinearModel checks that the model tells a history the stored log
// allows from one it doesn't, so the failover test's check can fail.
func TestLinearModel(t *testing.T) {
	act := func(seat int, kind engine.ActionKind, no int) store.Action {
		return store.Action{GameID: "g", Action: engine.Action{Seat: seat, Kind: kind, No: no}}
	}
	// The log: seat 0 plays, seat 1 (a bot) lets it go, seat 2 plays.
	s := storedGame{game: &store.Game{ID: "g"}, actions: []store.Action{
		act(0, engine.ActPlay, 0), act(1, engine.ActPass, 1), act(2, engine.ActPlay, 1),
	}}
	mv := func(seat int, kind engine.ActionKind, no int) move {
		return move{Game: "g", Seat: seat, Kind: kind, No: no}
	}
	at := func(m move, call, ret int, o outcome) op {
		return op{move: m, Call: time.Duration(call), Return: time.Duration(ret), Outcome: o}
	}
	play0, play2 := mv(0, engine.ActPlay, 0), mv(2, engine.ActPlay, 1)
	tests := []struct {
		name string
		ops  []op
		ok   bool
	}{
		{"in order", []op{at(play0, 1, 2, ok), at(play2, 3, 4, ok)}, true},
		{"overlapping", []op{at(play0, 1, 4, ok), at(play2, 2, 3, ok)}, true},
		{"acknowledged before the other was sent, stored after it", []op{at(play2, 1, 2, ok), at(play0, 3, 4, ok)},
			false},
		{"acknowledged, never stored", []op{at(mv(0, engine.ActCall, 0), 1, 2, ok)}, false},
		{"refused, then stored", []op{at(play0, 1, 2, refused), at(play2, 3, 4, ok)}, false},
		{"refused as already done", []op{at(play0, 1, 2, ok), at(play0, 3, 4, refused)}, true},
		{"refused, never stored", []op{at(mv(1, engine.ActCall, 1), 1, 2, refused), at(play2, 3, 4, ok)}, true},
		{"unknown, stored", []op{at(play0, 1, 2, unknown), at(play2, 3, 4, ok)}, true},
		{"unknown, not stored", []op{at(mv(2, engine.ActCall, 0), 1, 2, unknown), at(play2, 3, 4, ok)}, true},
		{"unknown, then its retry acknowledged", []op{at(play0, 1, 2, unknown), at(play0, 3, 4, ok)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkLinear(s, tt.ops, 5*time.Second)
			if got := err == nil; got != tt.ok {
				t.Errorf("linearizable: got %v, want %v (%v)", got, tt.ok, err)
			}
		})
	}
}
