package web_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/server"
	"bullshit/web"
)

// TestCreateSeatsTheHost opens a table from the lobby's form: the browser
// gets the seat's token in a cookie scoped to the game, and a reload of the
// game's page finds the seat again.
func TestCreateSeatsTheHost(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	// Without following the redirect, to read the Set-Cookie header.
	b.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	p := b.form("/games", url.Values{"name": {"Ada"}, "bots": {"3"}, "sneak": {"1"}, "window": {"10"}, "pace": {"relaxed"}, "bot_level": {"hard"}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("create: got %d, want 303", p.status)
	}
	id := strings.TrimPrefix(p.header.Get("Location"), "/games/")
	var seat *http.Cookie
	for _, c := range (&http.Response{Header: p.header}).Cookies() {
		if c.Name == "seat" {
			seat = c
		}
	}
	switch {
	case seat == nil:
		t.Fatal("no seat cookie")
	case seat.Path != "/games/"+id || !seat.HttpOnly || seat.SameSite != http.SameSiteLaxMode || seat.Secure:
		t.Fatalf("seat cookie: got path %q httponly %v samesite %v secure %v; want /games/%s, HttpOnly, Lax, not Secure over plain HTTP",
			seat.Path, seat.HttpOnly, seat.SameSite, seat.Secure, id)
	}
	g, err := s.mgr.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Options.Sneak != 1 || g.Options.Window.Seconds() != 10 || g.Options.Pace != engine.Relaxed {
		t.Errorf("options: got %+v, want sneak 1, 10 s, relaxed", g.Options)
	}
	bots := 0
	for _, st := range g.Seats {
		if st.Kind == game.SeatBot {
			bots++
			if st.Bot.Level != "hard" {
				t.Errorf("bot level: got %s, want hard", st.Bot.Level)
			}
		}
	}
	if bots != 3 {
		t.Errorf("bots: got %d, want 3", bots)
	}

	b.c.CheckRedirect = nil
	w := b.get("/games/" + id)
	if byID(w.doc, "start") == nil || byID(w.doc, "add-bot") == nil {
		t.Fatalf("the host's waiting room has no start or add-bot control:\n%s", w.body)
	}
	if n := len(findAll(w.doc, hasClass("remove-bot"))); n != 3 {
		t.Errorf("remove-bot buttons: got %d, want 3", n)
	}
	if link := attr(byID(w.doc, "share-link"), "value"); !strings.HasSuffix(link, "/games/"+id) {
		t.Errorf("share link: got %q, want one ending /games/%s", link, id)
	}
}

// TestJoinAndTakeASeat: a second browser opens the link as a spectator, sees
// "Take a seat", takes it, and the host's waiting room shows them.
func TestJoinAndTakeASeat(t *testing.T) {
	s := newSite(t)
	host := s.browser()
	id := host.create("Ada", "1")

	guest := s.browser()
	p := guest.get("/games/" + id)
	if byID(p.doc, "take-seat") == nil || byID(p.doc, "start") != nil {
		t.Fatalf("a spectator's waiting room: want #take-seat and no #start:\n%s", p.body)
	}
	p = guest.htmx(http.MethodPost, "/games/"+id+"/join", url.Values{"name": {"Ben"}})
	if got := p.header.Get("HX-Redirect"); got != "/games/"+id {
		t.Fatalf("taking a seat: got HX-Redirect %q (status %d), want /games/%s", got, p.status, id)
	}
	p = guest.get("/games/" + id)
	if byID(p.doc, "take-seat") != nil {
		t.Fatal("a seated guest is still offered a seat")
	}
	hp := host.htmx(http.MethodGet, "/games/"+id+"/frame", nil)
	seats := findAll(byID(hp.doc, "waiting"), hasClass("seat"))
	if len(seats) < 3 || !strings.Contains(text(seats[2]), "Ben") {
		t.Fatalf("the host's frame after Ben joined: seats %d, third %q", len(seats), text(seats[2]))
	}

	// Joining by code from the lobby seats a third browser.
	third := s.browser()
	p = third.form("/join", url.Values{"code": {strings.ToUpper(id)}, "name": {"Cy"}})
	if p.url != "/games/"+id || byID(p.doc, "take-seat") != nil {
		t.Fatalf("joining by code: landed on %s with take-seat %v", p.url, byID(p.doc, "take-seat") != nil)
	}
	p = third.form("/join", url.Values{"code": {"nosuchgame"}, "name": {"Cy"}})
	if p.status != http.StatusNotFound || !strings.Contains(text(find(p.doc, hasClass("alert"))), "no game") {
		t.Fatalf("joining a game that doesn't exist: got %d %q", p.status, text(find(p.doc, hasClass("alert"))))
	}
}

// TestForgedPostsChangeNothing: posts from another origin or without the
// seat's cookie are refused and change nothing; a post with neither
// Sec-Fetch-Site nor Origin (no browser sends one on another site's behalf)
// is a script's, and only its cookies count.
func TestForgedPostsChangeNothing(t *testing.T) {
	s := newSite(t)
	host := s.browser()
	id := host.create("Ada", "3")
	if p := host.htmx(http.MethodPost, "/games/"+id+"/start", nil); p.status != http.StatusOK {
		t.Fatalf("start: got %d", p.status)
	}
	ctx := context.Background()
	before, err := s.mgr.View(ctx, id, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	games := func() int {
		l, err := s.mgr.List(ctx, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		return len(l)
	}
	n := games()
	stranger := s.browser()
	move := url.Values{"no": {"0"}, "card": {"AS"}}
	post := func(b *browser, path string, form url.Values, header map[string]string) int {
		req, _ := http.NewRequest(http.MethodPost, s.srv.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		return b.do(req).status
	}
	for _, f := range s.forgeries() {
		for _, path := range []string{"/games/" + id + "/call", "/games/" + id + "/pass", "/games"} {
			if got := post(host, path, url.Values{"no": {"0"}, "name": {"Eve"}}, f.header); got != http.StatusForbidden {
				t.Errorf("%s to %s: got %d, want 403", f.name, path, got)
			}
		}
	}
	for _, tt := range []struct {
		name   string
		path   string
		header map[string]string
	}{
		{"no seat cookie", "/games/" + id + "/play", nil},
		{"no seat cookie, start", "/games/" + id + "/start", nil},
		{"no seat cookie, same origin", "/games/" + id + "/play", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": s.srv.URL}},
	} {
		if got := post(stranger, tt.path, move, tt.header); got != http.StatusUnauthorized {
			t.Errorf("%s: got %d, want 401", tt.name, got)
		}
	}
	after, err := s.mgr.View(ctx, id, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version {
		t.Errorf("the game's version: got %d, want %d (unchanged)", after.Version, before.Version)
	}
	if got := games(); got != n {
		t.Errorf("games: got %d, want %d (none created)", got, n)
	}
	// Without either header the post is taken on its cookies alone.
	if got := post(host, "/games", url.Values{"name": {"Ada"}}, nil); got != http.StatusOK {
		t.Errorf("a post without Sec-Fetch-Site or Origin: got %d, want 200", got)
	}
	if got := games(); got != n+1 {
		t.Errorf("games after a post without Sec-Fetch-Site or Origin: got %d, want %d", got, n+1)
	}
}

// TestTrustedOriginMayPost: behind a proxy that rewrites the Host header,
// the public origin differs from the Host the server sees; set as trusted,
// it may post, and other origins still may not.
func TestTrustedOriginMayPost(t *testing.T) {
	s := newSiteWith(t, siteOptions{settings: func(c *server.Settings) { c.TrustedOrigins = []string{"https://game.example"} }})
	b := s.browser()
	for _, tt := range []struct {
		origin string
		want   int
	}{
		{"https://game.example", http.StatusOK},
		{"https://other.example", http.StatusForbidden},
	} {
		req, _ := http.NewRequest(http.MethodPost, s.srv.URL+"/options", strings.NewReader("light=1"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", tt.origin)
		if p := b.do(req); p.status != tt.want {
			t.Errorf("a post from %s: got %d, want %d", tt.origin, p.status, tt.want)
		}
	}
	if _, err := web.ParseTrustedOrigins("https://game.example, game.example"); err == nil {
		t.Errorf("ParseTrustedOrigins took an origin without a scheme")
	}
}

// TestRefusedMoveSaysWhy: a move the engine refuses answers htmx with 200,
// its status in X-Refused, and the engine's own words in the status line to
// swap in: a browser logs every 4xx answer as a console error.
func TestRefusedMoveSaysWhy(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	id := b.create("Ada", "3")
	b.htmx(http.MethodPost, "/games/"+id+"/start", nil)
	p := b.htmx(http.MethodPost, "/games/"+id+"/play", url.Values{"no": {"7"}, "card": {"AS"}})
	if p.status != http.StatusOK || p.header.Get("X-Refused") != "409" || attr(byID(p.doc, "screen"), "hx-swap-oob") != "morph" {
		t.Fatalf("a stale play: got %d (X-Refused %q) with screen %v, want 200, X-Refused 409 and the screen to morph",
			p.status, p.header.Get("X-Refused"), byID(p.doc, "screen") != nil)
	}
	if got, want := text(byID(p.doc, "status")), "Too late: the table has moved on."; got != want {
		t.Errorf("the status line: got %q, want the engine's %q", got, want)
	}
	v, err := s.mgr.View(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v.Plays != 0 {
		t.Fatalf("plays after a refused move: got %d, want 0", v.Plays)
	}
}

func hasClass(c string) func(*html.Node) bool {
	return func(n *html.Node) bool { return slices.Contains(strings.Fields(attr(n, "class")), c) }
}

// TestJoinByCodeTwiceKeepsOneSeat: the lobby's join form, sent again by a
// browser already seated, keeps its seat rather than taking another.
func TestJoinByCodeTwiceKeepsOneSeat(t *testing.T) {
	s := newSite(t)
	host := s.browser()
	id := host.create("Ada", "0")
	guest := s.browser()
	for range 2 {
		if p := guest.form("/join", url.Values{"code": {" " + strings.ToUpper(id) + " "}, "name": {"Ben"}}); p.url != "/games/"+id {
			t.Fatalf("joining by code: landed on %s (%d)", p.url, p.status)
		}
	}
	g, err := s.mgr.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	people := 0
	for _, st := range g.Seats {
		if st.Kind == game.SeatPerson {
			people++
		}
	}
	if people != 2 {
		t.Errorf("people seated: got %d, want 2 (Ada and Ben once)", people)
	}
}

// TestCreateWithTableOptions opens tables from the lobby's form with and
// without its "More options": a form that leaves them alone gets the
// standard grace and ends at the first out; one that sets them gets them,
// and a chosen deal makes a practice table that says so on its page.
func TestCreateWithTableOptions(t *testing.T) {
	tests := []struct {
		name string
		form url.Values
		want engine.Options
	}{
		{"standard", url.Values{}, engine.Options{Grace: engine.StandardGrace}},
		{"every option", url.Values{"grace": {"0"}, "play_on": {"1"}, "seed": {"42"}},
			engine.Options{Grace: 0, PlayOn: true, Practice: true}},
		{"longest grace", url.Values{"grace": {"500"}}, engine.Options{Grace: engine.MaxGrace}},
	}
	for _, tt := range tests {
		s := newSite(t)
		b := s.browser()
		b.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		form := url.Values{"name": {"Ada"}, "bots": {"2"}}
		for k, v := range tt.form {
			form[k] = v
		}
		p := b.form("/games", form)
		if p.status != http.StatusSeeOther {
			t.Fatalf("%s: create: got %d, want 303", tt.name, p.status)
		}
		id := strings.TrimPrefix(p.header.Get("Location"), "/games/")
		g, err := s.mgr.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		o := g.Options
		if o.Grace != tt.want.Grace || o.PlayOn != tt.want.PlayOn || o.Practice != tt.want.Practice {
			t.Errorf("%s: got grace %v, play on %v, practice %v; want %v, %v, %v", tt.name, o.Grace, o.PlayOn, o.Practice,
				tt.want.Grace, tt.want.PlayOn, tt.want.Practice)
		}
		page := b.get("/games/" + id)
		if tt.want.Practice && !strings.Contains(page.body, "not rated") {
			t.Errorf("%s: the table's page doesn't say a practice deal is not rated", tt.name)
		}
	}
	// A deal that isn't a number is the form's mistake, said plainly.
	b := newSite(t).browser()
	if p := b.form("/games", url.Values{"name": {"Ada"}, "seed": {"forty-two"}}); p.status != http.StatusBadRequest {
		t.Errorf("a deal in words: got %d (%s), want 400", p.status, p.body)
	}
}
