package web_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"bullshit/engine"
	"bullshit/game"
)

// finishedGames opens a table for each host with three bots, starts them
// all, hands the hosts' seats to bots and lets the clock run until every
// game is over. The ids come back in the order of hosts.
func finishedGames(t *testing.T, s *site, hosts ...string) []string {
	t.Helper()
	var ids []string
	for _, host := range hosts {
		ids = append(ids, startBotGame(t, s, s.browser(), host))
	}
	for _, id := range ids {
		playOut(t, s, id)
	}
	return ids
}

// startBotGame opens a table for host in b with three bots, starts it and
// hands the host's seat to a bot.
func startBotGame(t *testing.T, s *site, b *browser, host string) string {
	t.Helper()
	id := b.create(host, "3")
	if p := b.htmx(http.MethodPost, "/games/"+id+"/start", nil); p.status != http.StatusOK {
		t.Fatalf("starting %s: got %d", id, p.status)
	}
	if err := s.mgr.HandToBot(context.Background(), id, 0, 0); err != nil {
		t.Fatalf("handing %s's seat to a bot: %v", id, err)
	}
	return id
}

// playOut lets the clock run until the game is over and stored as finished.
func playOut(t *testing.T, s *site, id string) {
	t.Helper()
	ctx := context.Background()
	for step := 0; ; step++ {
		// A view is read through the table, once it has caught up
		// with the clock.
		v, err := s.mgr.View(ctx, id, engine.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		if v.Phase == engine.PhaseOver {
			break
		}
		if step > 100000 {
			t.Fatalf("game %s still in play after %d steps", id, step)
		}
		s.clock.Advance(250 * time.Millisecond)
	}
	// The table stores the finish as it stops.
	for {
		g, err := s.mgr.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status == game.StatusFinished {
			break
		}
		time.Sleep(time.Millisecond)
	}
}

// step is the step a review page or fragment shows.
func step(p page) (no, last int) {
	st := byID(p.doc, "review-step")
	if st == nil {
		return -1, -1
	}
	no, _ = strconv.Atoi(attr(st, "data-step"))
	last, _ = strconv.Atoi(attr(st, "data-last"))
	return no, last
}

func classed(class string) func(*html.Node) bool {
	return func(n *html.Node) bool { return strings.Contains(" "+attr(n, "class")+" ", " "+class+" ") }
}

// TestReviewPage: a finished game's review opens at the deal with every
// hand, steps by ?step= to each play with its cards and answers, answers
// htmx with the step alone and the address to show, and refuses steps out
// of bounds and unknown games.
func TestReviewPage(t *testing.T) {
	s := newSite(t)
	id := finishedGames(t, s, "Ada")[0]
	b := s.browser()
	p := b.get("/games/" + id + "/review")
	if p.status != http.StatusOK {
		t.Fatalf("review: got %d:\n%s", p.status, p.body)
	}
	no, last := step(p)
	if no != 0 || last < 1 {
		t.Fatalf("the review opens at step %d of %d, want the deal (0) of at least 1", no, last)
	}
	hands := findAll(p.doc, classed("rv-hand"))
	if len(hands) != 4 {
		t.Errorf("the deal shows %d hands, want 4", len(hands))
	}
	for _, h := range hands {
		if n := len(findAll(h, classed("rv-card"))); n < 10 {
			t.Errorf("a dealt hand shows %d cards, want the whole hand (%q)", n, text(h))
		}
	}
	for _, want := range []string{"Ada", "won in", "Download the record", "Result", "The game in numbers"} {
		if !strings.Contains(text(p.doc), want) {
			t.Errorf("the review page lacks %q", want)
		}
	}
	if a := find(p.doc, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "/api/v1/games/"+id+"/record" }); a == nil || !has(a, "download") {
		t.Errorf("no download link to the record")
	}
	if byID(p.doc, "rv-prev").Data == "a" || byID(p.doc, "rv-next").Data != "a" || byID(p.doc, "rv-slider") == nil {
		t.Errorf("at the deal: want no way back, a link on and the slider")
	}
	if rows := findAll(byID(p.doc, "rv-stats-title").Parent, func(n *html.Node) bool { return n.Data == "tr" }); len(rows) != 5 {
		t.Errorf("the numbers have %d rows, want a head and 4 seats", len(rows))
	}

	for _, n := range []int{1, last} {
		q := b.get("/games/" + id + "/review?step=" + strconv.Itoa(n))
		if got, _ := step(q); q.status != http.StatusOK || got != n {
			t.Fatalf("step %d: got %d at step %d", n, q.status, got)
		}
		for _, want := range []string{"Play " + strconv.Itoa(n) + " of " + strconv.Itoa(last), "claimed", "The cards put down", "What the counts showed", "Cards in hand after it"} {
			if !strings.Contains(text(q.doc), want) {
				t.Errorf("step %d lacks %q", n, want)
			}
		}
		if len(findAll(q.doc, classed("rv-hand"))) != 0 {
			t.Errorf("step %d shows the dealt hands, want them at the deal only", n)
		}
	}

	frag := b.htmx(http.MethodGet, "/games/"+id+"/review/step", url.Values{"step": {"2"}})
	if got, _ := step(frag); frag.status != http.StatusOK || got != 2 || strings.Contains(frag.body, "<html") {
		t.Errorf("the step for htmx: got %d at step %d, want step 2 alone", frag.status, got)
	}
	if u := frag.header.Get("HX-Push-Url"); u != "/games/"+id+"/review?step=2" {
		t.Errorf("the step for htmx pushes %q, want the page's address at that step", u)
	}

	for _, tt := range []struct {
		path string
		want int
	}{
		{"/games/" + id + "/review?step=-1", http.StatusNotFound},
		{"/games/" + id + "/review?step=" + strconv.Itoa(last+1), http.StatusNotFound},
		{"/games/" + id + "/review/step?step=" + strconv.Itoa(last+1), http.StatusNotFound},
		{"/games/" + id + "/review?step=two", http.StatusBadRequest},
		{"/games/zzzzzzzz/review", http.StatusNotFound},
		{"/games/zzzzzzzz/review/step?step=1", http.StatusNotFound},
	} {
		if q := b.get(tt.path); q.status != tt.want {
			t.Errorf("GET %s: got %d, want %d", tt.path, q.status, tt.want)
		}
	}
}

// TestGamesListSearches: the finished games' list pages twenty at a time,
// links each game's review, and finds a player's games by name whatever the
// case, as a plain page and as the list alone for htmx.
func TestGamesListSearches(t *testing.T) {
	s := newSite(t)
	hosts := make([]string, 23)
	for i := range hosts {
		hosts[i] = "Ben"
	}
	hosts[3], hosts[10], hosts[20] = "Ada", "Ada", "Ada"
	ids := finishedGames(t, s, hosts...)
	b := s.browser()
	listed := func(p page) []string {
		var out []string
		for _, li := range findAll(byID(p.doc, "games-list"), func(n *html.Node) bool { return n.Data == "li" }) {
			out = append(out, strings.TrimPrefix(attr(li, "id"), "game-"))
		}
		return out
	}
	first := b.get("/games")
	if got := listed(first); first.status != http.StatusOK || len(got) != 20 {
		t.Fatalf("the first page: got %d with %d games, want 20", first.status, len(got))
	}
	next := find(first.doc, func(n *html.Node) bool { return attr(n, "rel") == "next" })
	if next == nil || attr(next, "href") != "/games?page=2" {
		t.Fatalf("the first page's link on: got %v", next)
	}
	second := b.get("/games?page=2")
	if got := listed(second); len(got) != 3 || find(second.doc, func(n *html.Node) bool { return attr(n, "rel") == "next" }) != nil {
		t.Errorf("the second page: got %v, want the 3 oldest and no link on", got)
	}
	seen := map[string]bool{}
	for _, id := range append(listed(first), listed(second)...) {
		seen[id] = true
	}
	for _, id := range ids {
		if !seen[id] {
			t.Errorf("game %s is on neither page", id)
		}
	}
	if a := find(first.doc, func(n *html.Node) bool { return n.Data == "a" && strings.HasSuffix(attr(n, "href"), "/review") }); a == nil {
		t.Errorf("the list links no review")
	}

	// The games began at one moment of the test's clock: the newest first
	// is then the last code first.
	want := []string{ids[20], ids[10], ids[3]}
	slices.Sort(want)
	slices.Reverse(want)
	for _, p := range []page{b.get("/games?player=ada"), b.htmx(http.MethodGet, "/games", url.Values{"player": {" ADA"}})} {
		got := listed(p)
		if p.status != http.StatusOK || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("Ada's games: got %d %v, want %v", p.status, got, want)
		}
	}
	if p := b.htmx(http.MethodGet, "/games", url.Values{"player": {"Ada"}}); strings.Contains(p.body, "<html") || byID(p.doc, "games-list") == nil {
		t.Errorf("to htmx the search answers the whole page, want the list alone")
	}
	req, _ := http.NewRequest(http.MethodGet, s.srv.URL+"/games?player=Ada", nil)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-History-Restore-Request", "true")
	if p := b.do(req); !strings.Contains(p.body, "<html") || len(listed(p)) != 3 {
		t.Errorf("restoring the page from htmx's history: got %d games, want the whole page", len(listed(p)))
	}
	if p := b.get("/games?player=Nobody"); len(listed(p)) != 0 || !strings.Contains(text(byID(p.doc, "games-list")), "Nobody") {
		t.Errorf("a name nobody has: got %v", listed(p))
	}
	for _, q := range []string{"?page=0", "?page=x", "?player=" + strings.Repeat("a", 33)} {
		if p := b.get("/games" + q); p.status != http.StatusBadRequest {
			t.Errorf("GET /games%s: got %d, want 400", q, p.status)
		}
	}
}
