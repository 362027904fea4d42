package client

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"bullshit/engine"
)

// TestDecisionKeepsAListenerThinkingIntoTheGrace: a call window and the
// grace after its first call are one decision, so a listener's think time
// runs on from the play rather than starting again at the first call.
func TestDecisionKeepsAListenerThinkingIntoTheGrace(t *testing.T) {
	view := func(p engine.Phase) engine.View {
		return engine.View{Seat: 2, Phase: p, Plays: 7, Can: []engine.ActionKind{engine.ActCall, engine.ActPass},
			Deciding: []engine.Decider{{Seat: 2, Think: engine.Listen1}}}
	}
	call, _, ok1 := decision(view(engine.PhaseCall))
	shout, think, ok2 := decision(view(engine.PhaseShout))
	if !ok1 || !ok2 || call != shout || think != engine.Listen1 {
		t.Errorf("got keys %+v and %+v (%v, %v, %s), want one decision, listen1", call, shout, ok1, ok2, think)
	}
}

// passer always passes.
type passer struct{}

func (passer) Choose(v engine.View) (engine.Action, bool) {
	return engine.Action{Kind: engine.ActPass, No: v.Plays}, true
}

// TestMoveWhoseOutcomeIsUnknownIsNotMadeAgain: a move answered
// outcome_unknown may stand, so the seat neither counts it as accepted nor
// makes it again at once: it reads the view until the table shows it moved
// on, and decides from that.
func TestMoveWhoseOutcomeIsUnknownIsNotMadeAgain(t *testing.T) {
	var posts, views atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/games/g/pass":
			posts.Add(1)
			w.WriteHeader(http.StatusServiceUnavailable)
			json.NewEncoder(w).Encode(map[string]string{"error": "We couldn't tell.", "code": CodeOutcomeUnknown})
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/games/g/view":
			// The table settles the write by the third read: the pass stood.
			v := engine.View{Seat: 1, Version: 3, Plays: 2}
			if views.Add(1) >= 3 {
				v.Version = 4
			}
			json.NewEncoder(w).Encode(v)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	var acked []engine.Action
	p := player{c: New(srv.URL, srv.Client()).WithToken("t"), game: "g", ch: passer{}, log: slog.New(slog.DiscardHandler),
		moved: func(a engine.Action) { acked = append(acked, a) }, tried: -1, poll: time.Millisecond}
	v, err := p.move(context.Background(), engine.View{Seat: 1, Version: 3, Plays: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := posts.Load(); got != 1 {
		t.Errorf("got %d posts of the move, want 1: not made again while its outcome is unknown", got)
	}
	if v.Version != 4 {
		t.Errorf("got the view at version %d, want 4: read again until the table moved on", v.Version)
	}
	if len(acked) != 0 {
		t.Errorf("got %v counted as accepted, want none", acked)
	}
}
