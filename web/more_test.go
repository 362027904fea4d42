package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"bullshit/engine"
)

type htmlNode = html.Node

// startedWithTurn starts a game of Ada and three bots and lets the bots play
// until it is Ada's turn.
func startedWithTurn(t *testing.T, s *site) (b *browser, id string, v engine.View) {
	t.Helper()
	b = s.browser()
	id = b.create("Ada", "3")
	b.htmx(http.MethodPost, "/games/"+id+"/start", nil)
	// Let the bots play until it is seat 0's turn.
	for range 10000 {
		var err error
		v, err = s.mgr.View(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v.Phase == engine.PhasePlay && v.Turn == 0 {
			return b, id, v
		}
		s.clock.Advance(250 * time.Millisecond)
	}
	t.Fatal("seat 0's turn never came")
	return
}

// TestHintAnswersTheDock: the hint answers the status line and the claim
// button for the cards picked and the sneak switch; off the player's turn it
// answers nothing.
func TestHintAnswersTheDock(t *testing.T) {
	s := newSite(t)
	b, id, v := startedWithTurn(t, s)
	p := b.htmx(http.MethodGet, "/games/"+id+"/hint", url.Values{"card": {v.Hand[0].String(), v.Hand[1].String()}, "sneak": {"1"}})
	if p.status != http.StatusOK {
		t.Fatalf("hint: got %d", p.status)
	}
	claim := byID(p.doc, "claim")
	if attr(claim, "hx-swap-oob") != "morph" || !has(claim, "data-hint") || !strings.Contains(text(claim), "Claim one "+v.Rank.Name(false)+" +1") {
		t.Errorf("the claim button: got %q (oob %q)", text(claim), attr(claim, "hx-swap-oob"))
	}
	if st := text(byID(p.doc, "status")); !strings.Contains(st, "neaking 1") {
		t.Errorf("the status line: got %q, want it to judge the sneak", st)
	}
	other := s.browser()
	if p := other.htmx(http.MethodGet, "/games/"+id+"/hint", nil); p.status != http.StatusUnauthorized || !strings.Contains(text(byID(p.doc, "status")), "seat") {
		t.Errorf("a hint without a seat: got %d %q, want 401 and why in the status line", p.status, text(byID(p.doc, "status")))
	}
	// With nothing picked the claim stays on: a hint landing after the
	// click must not turn it off, and claiming nothing gets the engine's
	// own refusal in the status line.
	p = b.htmx(http.MethodGet, "/games/"+id+"/hint", nil)
	if claim := byID(p.doc, "claim"); has(claim, "disabled") || text(claim) == "" {
		t.Errorf("the claim with nothing picked: got disabled %v, label %q; want it on", has(claim, "disabled"), text(claim))
	}
	p = b.htmx(http.MethodPost, "/games/"+id+"/play", url.Values{"no": {fmt.Sprint(v.Plays)}})
	if got := text(byID(p.doc, "status")); !strings.Contains(got, "Pick the cards to play.") {
		t.Errorf("claiming nothing: got %d %q, want the engine's refusal", p.status, got)
	}
	// A card not in the hand is not counted.
	p = b.htmx(http.MethodGet, "/games/"+id+"/hint", url.Values{"card": {"ZZ", v.Hand[0].String()}})
	if got := text(byID(p.doc, "claim")); !strings.Contains(got, "Claim one "+v.Rank.Name(false)) {
		t.Errorf("with a bad card: got %q, want one claimed", got)
	}
}

// TestOptionsKeepAssistsPerBrowser: turning an assist off is kept in a
// cookie, and the pages render with it.
func TestOptionsKeepAssistsPerBrowser(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	p := b.form("/options", url.Values{"light": {"1"}, "count": {"1"}})
	if p.status != http.StatusOK {
		t.Fatalf("saving options: got %d", p.status)
	}
	p = b.get("/options")
	html := find(p.doc, func(n *htmlNode) bool { return n.Data == "html" })
	if got := attr(html, "class"); got != "assist assist-light assist-count" {
		t.Errorf("the page's assists: got %q, want light and count only", got)
	}
	pick := find(p.doc, func(n *htmlNode) bool { return attr(n, "name") == "pick" })
	if has(pick, "checked") {
		t.Error("the pick switch is still on")
	}
	if fresh := s.browser().get("/options"); attr(find(fresh.doc, func(n *htmlNode) bool { return n.Data == "html" }), "class") != "assist assist-light assist-pick assist-count alert-title alert-vibrate alert-notify" {
		t.Error("another browser's assists changed")
	}
}

// TestStaticAssets: hashed URLs, cached for a year, gzipped only for a client
// that takes it; anything else under /static/ is a 404 page.
func TestStaticAssets(t *testing.T) {
	s := newSite(t)
	url := s.pages.Assets().URL("htmx.min.js")
	tests := []struct {
		path, encoding string
		status         int
		gzip           bool
	}{
		{url, "gzip, deflate", 200, true},
		{url, "", 200, false},
		{url, "gzip;q=0", 200, false},
		{"/static/000000000000/htmx.min.js", "", 404, false},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(http.MethodGet, s.srv.URL+tt.path, nil)
		req.Header.Set("Accept-Encoding", tt.encoding)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.status || (resp.Header.Get("Content-Encoding") == "gzip") != tt.gzip {
			t.Errorf("%s with %q: got %d, encoding %q", tt.path, tt.encoding, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		if tt.status == 200 && resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", tt.path, resp.Header.Get("Cache-Control"))
		}
	}
}

// TestStartMovesEveryoneToTheTable: the start turns a guest's waiting room
// into the table on their next frame, and a second browser at the same seat
// (a reload) sees the same hand.
func TestStartMovesEveryoneToTheTable(t *testing.T) {
	s := newSite(t)
	host := s.browser()
	id := host.create("Ada", "2")
	guest := s.browser()
	guest.htmx(http.MethodPost, "/games/"+id+"/join", url.Values{"name": {"Ben"}})
	if p := guest.htmx(http.MethodGet, "/games/"+id+"/frame", nil); attr(byID(p.doc, "screen"), "data-status") != "open" {
		t.Fatal("the guest's frame before the start is not the waiting room")
	}
	if p := guest.htmx(http.MethodPost, "/games/"+id+"/start", nil); !strings.Contains(text(byID(p.doc, "status")), "host") {
		t.Errorf("a guest's start: got status %q, want the table's refusal", text(byID(p.doc, "status")))
	}
	host.htmx(http.MethodPost, "/games/"+id+"/start", nil)
	p := guest.htmx(http.MethodGet, "/games/"+id+"/frame", nil)
	if attr(byID(p.doc, "screen"), "data-status") != "live" || byID(p.doc, "hand") == nil {
		t.Fatalf("the guest's frame after the start: status %q", attr(byID(p.doc, "screen"), "data-status"))
	}
	first := findAll(byID(p.doc, "hand"), func(n *htmlNode) bool { return attr(n, "name") == "card" })
	again := guest.get("/games/" + id)
	second := findAll(byID(again.doc, "hand"), func(n *htmlNode) bool { return attr(n, "name") == "card" })
	if len(first) == 0 || len(first) != len(second) || attr(first[0], "value") != attr(second[0], "value") {
		t.Errorf("a reload's hand: got %d cards, want the same %d", len(second), len(first))
	}
	spectator := s.browser().get("/games/" + id)
	if n := findAll(spectator.doc, func(n *htmlNode) bool { return attr(n, "name") == "card" }); len(n) != 0 || byID(spectator.doc, "take-seat") != nil {
		t.Errorf("a spectator of a live game: got %d cards and take-seat %v, want none", len(n), byID(spectator.doc, "take-seat") != nil)
	}
}
