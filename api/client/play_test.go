package client

import (
	"testing"

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
