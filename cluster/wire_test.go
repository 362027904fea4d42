package cluster

import (
	"encoding/json"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/httpx"
)

// TestRefusalsCrossTheWireWhole sends refusals of each kind through their
// JSON and finds the code, the words and the wait the owner gave them.
func TestRefusalsCrossTheWireWhole(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"the engine's", &engine.Error{Code: engine.CodeNotYourTurn, Message: "It isn't your turn."}},
		{"the runtime's", &game.Error{Code: errcode.Forbidden, Message: "Only the host can do that."}},
		{"a full node's", &game.Error{Code: errcode.Busy, Message: "The server is busy.", Wait: 5 * time.Second}},
		{"another's, with a wait", &httpx.Error{Code: errcode.RateLimited, Message: "Slow down.", Wait: 1500 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(refusalOf(tt.err))
			if err != nil {
				t.Fatal(err)
			}
			var r refusal
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			got := r.err()
			gotCode, gotMsg, _ := errcode.Of(got)
			wantCode, wantMsg, _ := errcode.Of(tt.err)
			if gotCode != wantCode || gotMsg != wantMsg {
				t.Errorf("got %q %q, want %q %q", gotCode, gotMsg, wantCode, wantMsg)
			}
			if got, want := errcode.RetryAfter(got), errcode.RetryAfter(tt.err); got != want {
				t.Errorf("Retry-After: got %d s, want %d s", got, want)
			}
		})
	}
}
