package web_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"golang.org/x/net/html"

	"bullshit/engine"
)

// TestWholeGameThroughThePages plays a game against three bots through the
// pages alone, as a browser's htmx would: create, start, then each frame's
// own buttons, calling now and then, until the result sheet. Every frame
// holds the player's own cards and nobody else's.
func TestWholeGameThroughThePages(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	id := b.create("Ada", "3")
	if p := b.htmx(http.MethodPost, "/games/"+id+"/start", nil); byID(p.doc, "hand") == nil {
		t.Fatalf("the start's answer has no hand:\n%s", p.body)
	}
	ctx := context.Background()
	moves, windows, calls, gives, reveals := 0, 0, 0, 0, 0
	for step := 0; ; step++ {
		if step > 40000 {
			t.Fatalf("no result sheet after %d steps and %d moves", step, moves)
		}
		p := b.htmx(http.MethodGet, "/games/"+id+"/frame", nil)
		if p.status != http.StatusOK {
			t.Fatalf("frame: got %d", p.status)
		}
		if byID(p.doc, "result") != nil {
			checkResult(t, p.doc)
			break
		}
		checkOwnCards(t, s, id, p.doc)
		if r := byID(p.doc, "reveal"); r != nil && r.FirstChild != nil {
			reveals++
		}
		no := attr(byID(p.doc, "dock"), "data-no")
		var move string
		form := url.Values{"no": {no}}
		switch {
		case enabled(p.doc, "claim"):
			move = "play"
			form["card"] = picked(p.doc)
		case enabled(p.doc, "give"):
			move = "give"
			form["card"] = picked(p.doc)
			gives++
		case enabled(p.doc, "call"):
			// Call one window in three, let the others go.
			if windows++; windows%3 == 0 {
				move = "call"
				calls++
			} else {
				move = "pass"
			}
		}
		if move == "" {
			s.clock.Advance(500 * time.Millisecond)
			continue
		}
		a := b.htmx(http.MethodPost, "/games/"+id+"/"+move, form)
		// A bot or the clock may get there first: the move is then stale.
		if (a.status != http.StatusOK && a.status != http.StatusConflict) || byID(a.doc, "screen") == nil {
			t.Fatalf("%s: got %d:\n%s", move, a.status, a.body)
		}
		moves++
	}
	v, err := s.mgr.View(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase != engine.PhaseOver {
		t.Fatalf("phase at the result sheet: got %v, want over", v.Phase)
	}
	if moves == 0 || calls == 0 {
		t.Fatalf("got %d moves and %d calls, want some of each", moves, calls)
	}
	t.Logf("%d plays, %d moves of ours, %d calls, %d hand-overs, %d frames during reveals", v.Plays, moves, calls, gives, reveals)
}

// enabled reports whether the button with that id is there and may be pressed.
func enabled(doc *html.Node, id string) bool {
	n := byID(doc, id)
	return n != nil && !has(n, "disabled")
}

// picked is the cards the server picked for the player (the "pick them for
// me" assist and the hand-over's suggestion), else the first card.
func picked(doc *html.Node) []string {
	var out []string
	inputs := findAll(byID(doc, "hand"), func(n *html.Node) bool { return attr(n, "name") == "card" })
	for _, in := range inputs {
		if has(in, "data-pick") {
			out = append(out, attr(in, "value"))
		}
	}
	if len(out) == 0 && len(inputs) > 0 {
		out = append(out, attr(inputs[0], "value"))
	}
	return out
}

// checkOwnCards: the hand in a frame is the seat's own, exactly, and no card
// input names a card the seat doesn't hold.
func checkOwnCards(t *testing.T, s *site, id string, doc *html.Node) {
	t.Helper()
	v, err := s.mgr.View(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var hand []string
	for _, c := range v.Hand {
		hand = append(hand, c.String())
	}
	for _, in := range findAll(doc, func(n *html.Node) bool { return attr(n, "name") == "card" }) {
		if code := attr(in, "value"); !slices.Contains(hand, code) {
			// The hand may have moved on since the frame; only a card
			// never ours is a leak, so look at the log's public lines.
			if !heldOnce(t, s, id, code) {
				t.Fatalf("the frame offers %s, a card seat 0 never held", code)
			}
		}
	}
}

// heldOnce reports whether seat 0 held the card at some point: its private
// log lines and the public ones say what came to it.
func heldOnce(t *testing.T, s *site, id, code string) bool {
	t.Helper()
	events, err := s.mgr.Log(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		for _, c := range e.Cards {
			if c.String() == code {
				return true
			}
		}
	}
	return false
}

func checkResult(t *testing.T, doc *html.Node) {
	t.Helper()
	r := byID(doc, "result")
	rows := findAll(r, func(n *html.Node) bool { return n.Data == "tr" })
	if len(rows) != 5 { // the head and four players
		t.Errorf("result rows: got %d, want 5", len(rows))
	}
	if byID(doc, "play-again") == nil || text(byID(doc, "share-text")) == "" {
		t.Errorf("the result sheet lacks play-again or a share text")
	}
}
