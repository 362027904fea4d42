package clustertest

import (
	"strings"
	"testing"

	"bullshit/engine"
	"bullshit/store"
)

// TestChecksFindFaults checks that the stored-log checks report a gap, a
// move stored twice, an acknowledged move lost and a move nobody sent.
func TestChecksFindFaults(t *testing.T) {
	act := func(seq, seat int, kind engine.ActionKind, no int) store.Action {
		return store.Action{GameID: "g", Seq: seq, Action: engine.Action{Seat: seat, Kind: kind, No: no}}
	}
	sent := func(seat int, kind engine.ActionKind, no int, o outcome) op {
		return op{move: move{Game: "g", Seat: seat, Kind: kind, No: no}, Outcome: o}
	}
	tests := []struct {
		name    string
		actions []store.Action
		ops     []op
		want    string // a piece of the report, or "" for none
	}{
		{"clean", []store.Action{act(1, 0, engine.ActPlay, 0), act(2, 1, engine.ActCall, 1)},
			[]op{sent(0, engine.ActPlay, 0, ok)}, ""},
		{"a gap", []store.Action{act(1, 0, engine.ActPlay, 0), act(3, 1, engine.ActCall, 1)}, nil,
			"has sequence number 3"},
		{"stored twice", []store.Action{act(1, 0, engine.ActPlay, 0), act(2, 0, engine.ActPlay, 0)}, nil,
			"stored twice"},
		{"acknowledged, lost", []store.Action{act(1, 1, engine.ActPlay, 0)},
			[]op{sent(0, engine.ActCall, 1, ok)}, "is stored 0 times"},
		{"stored, never sent", []store.Action{act(1, 0, engine.ActPlay, 0), act(2, 0, engine.ActPass, 1)},
			[]op{sent(0, engine.ActPlay, 0, ok)}, "never sent"},
		{"stored after an unknown answer", []store.Action{act(1, 0, engine.ActPlay, 0)},
			[]op{sent(0, engine.ActPlay, 0, unknown)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := storedGame{game: &store.Game{ID: "g", Status: "finished"}, actions: tt.actions,
				seats: []store.Seat{{No: 0, Kind: "person"}, {No: 1, Kind: "bot"}}}
			var report []string
			for _, bad := range append(checkStored(s), checkOnce(s, tt.ops)...) {
				// The fake log replays to nothing: only the other checks
				// are judged here.
				if !strings.Contains(bad, "replay") {
					report = append(report, bad)
				}
			}
			got := strings.Join(report, "; ")
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want a report holding %q", got, tt.want)
			}
		})
	}
}
