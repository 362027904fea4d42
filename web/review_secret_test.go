package web_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// TestNothingHiddenReviewedInPlay starts a game and, while it is played,
// tries every route that reads a game back (the review, its steps, the
// record, the lists searched by name, the table and its frame, the log and
// the views, the player pages and the leaderboard) as a stranger and as the
// host: the review and the record are refused, and no answer holds a card of
// a hand its reader may not see.
func TestNothingHiddenReviewedInPlay(t *testing.T) {
	s := newAccountSite(t)
	ctx := context.Background()
	host := s.browser()
	// The host plays as an account, so its player page has a game in play.
	if p := host.signUp("Ada", password); p.status != http.StatusOK {
		t.Fatalf("sign up: got %d", p.status)
	}
	id := host.create("Ada", "3")
	if p := host.htmx(http.MethodPost, "/games/"+id+"/start", nil); p.status != http.StatusOK {
		t.Fatalf("start: got %d", p.status)
	}
	// A few plays in, so there is a step 1 to ask for.
	for range 200 {
		v, err := s.mgr.View(ctx, id, engine.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		if v.Plays >= 3 || v.Phase == engine.PhaseOver {
			break
		}
		if v.Phase == engine.PhasePlay && v.Turn == 0 {
			if _, err := s.mgr.Act(ctx, id, engine.Action{Kind: engine.ActPlay, Seat: 0, No: v.Plays, Cards: s.hand(id, 0)[:1]}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		s.clock.Advance(500 * time.Millisecond)
	}
	v, err := s.mgr.View(ctx, id, engine.Spectator)
	if err != nil || v.Phase == engine.PhaseOver || v.Plays < 1 {
		t.Fatalf("want a game in play with a play made: got %d plays, phase %s (%v)", v.Plays, v.Phase, err)
	}
	// Every card in a hand is a secret from a stranger, and the bots' cards
	// from the host too, but those a call turned up for all to see.
	shown := map[engine.Card]bool{}
	log, err := s.mgr.Log(ctx, id, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if e.Showdown != nil {
			for _, c := range e.Showdown.Cards {
				shown[c] = true
			}
		}
	}
	secrets := map[string][]engine.Card{"the host": nil, "a stranger": nil}
	for seat := range v.Seats {
		hand := slices.DeleteFunc(s.hand(id, seat), func(c engine.Card) bool { return shown[c] })
		secrets["a stranger"] = append(secrets["a stranger"], hand...)
		if seat != 0 {
			secrets["the host"] = append(secrets["the host"], hand...)
		}
	}
	stranger := s.browser()
	readers := map[string]*browser{"the host": host, "a stranger": stranger}
	refused := []string{
		"/games/" + id + "/review",
		"/games/" + id + "/review?step=1",
		"/games/" + id + "/review/step?step=0",
		"/games/" + id + "/review/step?step=1",
		"/api/v1/games/" + id + "/record",
	}
	read := []string{
		"/games?player=Ada",
		"/games/" + id,
		"/games/" + id + "/frame",
		"/api/v1/games?player=Ada",
		"/api/v1/games?status=live&player=ada",
		"/api/v1/games/" + id,
		"/api/v1/games/" + id + "/log",
		"/api/v1/games/" + id + "/view",
		"/api/v1/games/" + id + "/seats",
		"/players/Ada",
		"/api/v1/players/Ada",
		"/leaderboard",
		"/api/v1/leaderboard",
	}
	for who, b := range readers {
		for _, path := range append(append([]string{}, refused...), read...) {
			for _, htmx := range []bool{false, true} {
				var p page
				if htmx {
					u, _ := url.Parse(path)
					p = b.htmx(http.MethodGet, u.Path, u.Query())
				} else {
					p = b.get(path)
				}
				isRefused := false
				for _, r := range refused {
					isRefused = isRefused || r == path
				}
				if isRefused && p.status != http.StatusConflict {
					t.Errorf("GET %s as %s (htmx %v) in play: got %d, want 409", path, who, htmx, p.status)
				}
				if !isRefused && p.status != http.StatusOK {
					t.Errorf("GET %s as %s (htmx %v): got %d, want 200", path, who, htmx, p.status)
				}
				body := strings.ToLower(p.body)
				for _, c := range secrets[who] {
					if strings.Contains(body, c.Name()) || strings.Contains(p.body, `"`+c.String()+`"`) || strings.Contains(p.body, `value="`+c.String()) {
						t.Errorf("GET %s as %s (htmx %v): the answer holds %s, a hidden card", path, who, htmx, c.Name())
					}
				}
			}
		}
	}
}

// hand is a seat's hand as the server holds it.
func (s *site) hand(id string, seat int) []engine.Card {
	s.t.Helper()
	v, err := s.mgr.View(context.Background(), id, seat)
	if err != nil {
		s.t.Fatal(err)
	}
	return v.Hand
}
