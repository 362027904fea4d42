package browser

import (
	"context"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserNoToastOverTheResultSheet: at 320x640 a person calls until a
// call goes against them, and the host ends the game while the pile is
// still on its way to their hand: the result sheet shows, and the line
// saying they take the pile, due when the sweep lands, never shows over it.
func TestBrowserNoToastOverTheResultSheet(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	s := newSite(t, fastSpeed)
	b := newBrowser(ctx, t, s.base, 320, 640)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "4"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0, callIf: func(engine.View) bool { return true }}
	for {
		if p.over() {
			t.Fatal("the game ended before a call went against the person")
		}
		if r := s.view(id, 0).Reveal; r != nil && r.Loser == 0 {
			break
		}
		if !p.step() {
			time.Sleep(5 * time.Millisecond)
		}
	}
	s.setSpeed(1)
	b.wait("the line the sweep will say", exists("[data-say-key]"))
	eval[bool](b, `(() => { const n = document.querySelector('#notice'); window.__overResult = 0;
		new MutationObserver(() => { if (!n.hidden && document.querySelector('#result')) window.__overResult++; })
			.observe(n, {attributes: true, childList: true, characterData: true, subtree: true});
		return true; })()`)
	if err := s.mgr.End(context.Background(), id, 0); err != nil {
		t.Fatalf("the host ending the game: %v", err)
	}
	b.wait("the result sheet", visible("#result"))
	// Past the moment the sweep would have landed, with room.
	time.Sleep(4 * time.Second)
	if n := eval[int](b, `window.__overResult`); n != 0 {
		t.Errorf("a toast showed over the result sheet %d times (%q)", n, b.text("#notice"))
	}
}
