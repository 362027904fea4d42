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

	"bullshit/api/client"
	"bullshit/game"
	"bullshit/players"
)

// newAccountSite is the site with accounts.
func newAccountSite(t *testing.T) *site {
	t.Helper()
	return newSite(t)
}

// signUp makes an account through the form and returns the page it lands on.
func (b *browser) signUp(name, password string) page {
	b.t.Helper()
	return b.form("/signup", url.Values{"name": {name}, "password": {password}})
}

func (b *browser) signIn(name, password string) page {
	b.t.Helper()
	return b.form("/signin", url.Values{"name": {name}, "password": {password}})
}

// barName is what the site bar's account link says on the lobby.
func (b *browser) barName() string {
	b.t.Helper()
	return text(byID(b.get("/").doc, "account-link"))
}

func alertText(p page) string {
	return text(find(p.doc, func(n *html.Node) bool { return attr(n, "role") == "alert" }))
}

const password = "correct horse battery"

func TestSignUpInAndOut(t *testing.T) {
	s := newAccountSite(t)
	b := s.browser()
	if got := b.barName(); got != "Sign in" {
		t.Errorf("a guest's bar: got %q, want Sign in", got)
	}
	p := b.signUp("Ada", password)
	if p.status != http.StatusOK || p.url != "/account" || text(find(p.doc, func(n *html.Node) bool { return n.Data == "h1" })) != "Ada" {
		t.Fatalf("signing up: got %d at %s: %s", p.status, p.url, alertText(p))
	}
	if got := b.barName(); got != "Ada" {
		t.Errorf("the bar signed in: got %q, want Ada", got)
	}
	if p := b.form("/signout", nil); p.status != http.StatusOK || p.url != "/" {
		t.Fatalf("signing out: got %d at %s", p.status, p.url)
	}
	if got := b.barName(); got != "Sign in" {
		t.Errorf("the bar signed out: got %q, want Sign in", got)
	}
	if p := b.get("/account"); p.url != "/signin" {
		t.Errorf("the account page signed out: got %s, want the sign-in page", p.url)
	}

	// A name taken, a short password: said plainly on the form.
	for _, tt := range []struct {
		name, password string
		status         int
		want           string
	}{
		{"ADA", password, http.StatusConflict, "is taken"},
		{"Bea", "short", http.StatusBadRequest, "at least 8 characters"},
	} {
		p := b.signUp(tt.name, tt.password)
		if p.status != tt.status || !strings.Contains(alertText(p), tt.want) {
			t.Errorf("signing up %q: got %d %q, want %d saying %q", tt.name, p.status, alertText(p), tt.status, tt.want)
		}
	}

	// An unknown name and a wrong password get the same words.
	wrong := b.signIn("Ada", "not the password")
	unknown := b.signIn("Nobody", password)
	if wrong.status != http.StatusUnauthorized || unknown.status != http.StatusUnauthorized {
		t.Errorf("bad sign-ins: got %d and %d, want 401 both", wrong.status, unknown.status)
	}
	if alertText(wrong) == "" || alertText(wrong) != alertText(unknown) {
		t.Errorf("bad sign-ins: got %q for a wrong password and %q for an unknown name, want the same", alertText(wrong), alertText(unknown))
	}
	if p := b.signIn("ada", password); p.status != http.StatusOK || p.url != "/account" {
		t.Fatalf("signing in: got %d at %s: %s", p.status, p.url, alertText(p))
	}
	// Only a path on this site is followed after signing in.
	b2 := s.browser()
	if p := b2.form("/signin", url.Values{"name": {"Ada"}, "password": {password}, "next": {"//evil.example/x"}}); p.url != "/account" {
		t.Errorf("signing in with next=//evil.example: landed on %s, want /account", p.url)
	}
	if p := b2.form("/signin", url.Values{"name": {"Ada"}, "password": {password}, "next": {"/leaderboard"}}); p.url != "/leaderboard" {
		t.Errorf("signing in with next=/leaderboard: landed on %s", p.url)
	}
}

// redirect sends req with the browser's cookies, without following the
// answer (nor parsing its Location, which Go's client would refuse when it
// holds a control character), and returns the status and the Location.
func (b *browser) redirect(req *http.Request) (int, string) {
	b.t.Helper()
	for _, k := range b.c.Jar.Cookies(req.URL) {
		req.AddCookie(k)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		b.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}

// TestSignInStaysOnSite sends the addresses, which a browser would
// follow to another site, as next, posted and as a link signed in.
func TestSignInStaysOnSite(t *testing.T) {
	s := newAccountSite(t)
	b := s.browser()
	b.signUp("Ada", password)
	for i, next := range []string{"/\t/evil.example/", "/\n/evil.example/", "/ /evil.example/", `/\evil.example/`, "//evil.example/"} {
		for _, path := range []string{"/signin", "/signup"} {
			v := url.Values{"name": {"Ada"}, "password": {password}, "next": {next}}
			if path == "/signup" {
				v.Set("name", fmt.Sprintf("Bea %d", i))
			}
			req, _ := http.NewRequest(http.MethodPost, s.srv.URL+path, strings.NewReader(v.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if status, loc := b.redirect(req); status != http.StatusSeeOther || loc != "/account" {
				t.Errorf("POST %s with next=%q: got %d to %q, want 303 to /account", path, next, status, loc)
			}
			b.form("/signout", nil)
		}
	}
	b.signIn("Ada", password)
	req, _ := http.NewRequest(http.MethodGet, s.srv.URL+"/signin?next=%2F%09%2Fevil.example%2F", nil)
	if status, loc := b.redirect(req); status != http.StatusSeeOther || loc != "/account" {
		t.Errorf("GET /signin?next=%%2F%%09%%2Fevil.example%%2F signed in: got %d to %q, want 303 to /account", status, loc)
	}
}

func TestSignInThrottleSaysSo(t *testing.T) {
	// The accounts' clock stands still, so the wait is the throttle's whole
	// first step however slow the machine.
	still := time.Now()
	s := newSiteWith(t, siteOptions{accountsNow: func() time.Time { return still }})
	b := s.browser()
	b.signUp("Ada", password)
	b.form("/signout", nil)
	for i := range players.NameFailures {
		if p := b.signIn("Ada", "wrong password"); p.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: got %d, want 401", i+1, p.status)
		}
	}
	p := b.signIn("Ada", password)
	if p.status != http.StatusTooManyRequests || !strings.Contains(alertText(p), "Too many failed sign-ins: try again in 1 second.") {
		t.Errorf("after %d failures: got %d %q, want 429 and the wait", players.NameFailures, p.status, alertText(p))
	}
	if got := p.header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After: got %q, want 1", got)
	}
	if got := b.barName(); got != "Sign in" {
		t.Errorf("a throttled sign-in signed in as %q", got)
	}
}

func TestAccountFormsRefuseForgery(t *testing.T) {
	s := newAccountSite(t)
	b := s.browser()
	b.signUp("Ada", password)
	forms := []struct {
		path string
		v    url.Values
	}{
		{"/signup", url.Values{"name": {"Eve"}, "password": {password}}},
		{"/signin", url.Values{"name": {"Ada"}, "password": {password}}},
		{"/signout", nil},
		{"/account/password", url.Values{"current": {password}, "password": {"a new password"}}},
		{"/account/everywhere", nil},
		{"/account/bot", url.Values{"bot": {"1"}}},
		{"/account/tokens", url.Values{"name": {"forged"}}},
		{"/account/tokens/1/revoke", nil},
	}
	for _, f := range forms {
		for _, forged := range s.forgeries() {
			req, _ := http.NewRequest(http.MethodPost, s.srv.URL+f.path, strings.NewReader(f.v.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			for k, v := range forged.header {
				req.Header.Set(k, v)
			}
			if p := b.do(req); p.status != http.StatusForbidden {
				t.Errorf("%s, %s: got %d, want 403", f.path, forged.name, p.status)
			}
		}
	}
	// Nothing changed: still signed in, the old password good, no token,
	// not a bot, and no account for Eve.
	if got := b.barName(); got != "Ada" {
		t.Errorf("after the forgeries the bar says %q, want Ada", got)
	}
	ctx := context.Background()
	ns, err := s.players.SignIn(ctx, "Ada", password, "192.0.2.9")
	if err != nil {
		t.Fatalf("the old password after the forgeries: %v", err)
	}
	if _, err := s.players.SignIn(ctx, "Eve", password, "192.0.2.9"); err == nil {
		t.Errorf("a forged sign-up made an account")
	}
	p, err := s.players.Profile(ctx, "Ada")
	if err != nil || p.Bot {
		t.Errorf("Ada after the forgeries: got bot %v, %v; want a person", p.Bot, err)
	}
	toks, err := s.players.Tokens(ctx, ns.Account.ID)
	if err != nil || len(toks) != 0 {
		t.Errorf("tokens after the forgeries: got %v, %v; want none", toks, err)
	}
}

func TestTokenShownOnceAndRevokedAtOnce(t *testing.T) {
	s := newAccountSite(t)
	b := s.browser()
	b.signUp("Ada", password)
	p := b.form("/account/tokens", url.Values{"name": {"my-bot"}})
	secret := attr(byID(p.doc, "new-token-value"), "value")
	if p.status != http.StatusOK || !players.IsToken(secret) {
		t.Fatalf("making a token: got %d, token %q: %s", p.status, secret, alertText(p))
	}
	if got := p.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("the page with the token: Cache-Control %q, want no-store", got)
	}
	c := client.New(s.srv.URL, http.DefaultClient).WithToken(secret)
	ctx := context.Background()
	me, err := c.Me(ctx)
	if err != nil || me.Name != "Ada" {
		t.Fatalf("Me with the new token: got %+v, %v", me, err)
	}
	// Listed by name and use, never shown again.
	list := b.get("/account")
	if strings.Contains(list.body, secret) || strings.Contains(list.body, strings.TrimPrefix(secret, players.TokenPrefix)) {
		t.Errorf("the account page shows the token again")
	}
	rows := findAll(byID(list.doc, "tokens"), func(n *html.Node) bool { return n.Data == "tr" })
	if len(rows) != 2 || !strings.Contains(text(rows[1]), "my-bot") || strings.Contains(text(rows[1]), "never") {
		t.Errorf("the tokens listed: got %d rows, %q; want my-bot, used", len(rows)-1, text(rows[len(rows)-1]))
	}
	// Revoked from the page: the next request with it is refused.
	form := find(rows[1], func(n *html.Node) bool { return n.Data == "form" })
	if p := b.form(attr(form, "action"), nil); p.status != http.StatusOK || !strings.Contains(p.body, "revoked") {
		t.Fatalf("revoking: got %d at %s", p.status, p.url)
	}
	if _, err := c.Me(ctx); client.ErrorCode(err) != "unauthorized" {
		t.Errorf("Me right after revoking: got %v, want unauthorized", err)
	}
	if strings.Contains(s.logs.String(), strings.TrimPrefix(secret, players.TokenPrefix)) {
		t.Errorf("the token is in the log")
	}
	if !strings.Contains(s.logs.String(), "API token revoked") {
		t.Errorf("the log has no line for the revoke: is it logging at all?")
	}
}

func TestAccountPageChanges(t *testing.T) {
	s := newAccountSite(t)
	b := s.browser()
	b.signUp("Ada", password)
	other := s.browser()
	other.signIn("Ada", password)

	if p := b.form("/account/bot", url.Values{"bot": {"1"}}); !has(find(byID(p.doc, "bot-form"), func(n *html.Node) bool { return attr(n, "name") == "bot" }), "checked") {
		t.Errorf("marking as a bot: the switch is off after saving")
	}
	p := b.form("/account/password", url.Values{"current": {"wrong password"}, "password": {"a new password"}})
	if p.status != http.StatusUnauthorized || alertText(p) != "Your current password isn't right." {
		t.Errorf("a wrong current password: got %d %q", p.status, alertText(p))
	}
	p = b.form("/account/password", url.Values{"current": {password}, "password": {"a new password"}})
	if p.status != http.StatusOK || !strings.Contains(p.body, "Your password is changed") {
		t.Fatalf("changing the password: got %d %s", p.status, alertText(p))
	}
	if got := other.barName(); got != "Sign in" {
		t.Errorf("the other browser after a password change: bar %q, want signed out", got)
	}
	if got := b.barName(); got != "Ada" {
		t.Errorf("this browser after a password change: bar %q, want still Ada", got)
	}
	other.signIn("Ada", "a new password")
	if p := b.form("/account/everywhere", nil); p.url != "/signin" {
		t.Errorf("signing out everywhere landed on %s", p.url)
	}
	if a, o := b.barName(), other.barName(); a != "Sign in" || o != "Sign in" {
		t.Errorf("after signing out everywhere: bars %q and %q, want both signed out", a, o)
	}
}

func TestSignedInSeatsTheAccount(t *testing.T) {
	s := newAccountSite(t)
	host := s.browser()
	host.signUp("Ada", password)
	if got := attr(find(byID(host.get("/").doc, "create"), func(n *html.Node) bool { return attr(n, "name") == "name" }), "value"); got != "Ada" {
		t.Errorf("the create form's name signed in: got %q, want Ada", got)
	}
	id := host.create("typed name", "1")
	guest := s.browser()
	if p := guest.form("/games/"+id+"/join", url.Values{"name": {"Gus"}}); p.status != http.StatusOK {
		t.Fatalf("a guest joining: got %d", p.status)
	}
	bea := s.browser()
	bea.signUp("Bea", password)
	if p := bea.form("/join", url.Values{"code": {id}, "name": {""}}); p.status != http.StatusOK {
		t.Fatalf("Bea joining by code: got %d: %s", p.status, alertText(p))
	}
	g, err := s.mgr.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, seat := range g.Seats[:4] {
		if seat.Kind == game.SeatBot {
			got = append(got, "bot")
			continue
		}
		got = append(got, seat.Name+":"+map[bool]string{true: "account", false: "guest"}[seat.Player != 0])
	}
	// Ada's seat takes her account's name, not the name typed.
	if want := "[Ada:account bot Gus:guest Bea:account]"; fmt.Sprint(got) != want {
		t.Errorf("the seats: got %v, want %s", got, want)
	}
}

// playToEnd plays the browser's seat at table id through the pages, with
// the fake clock moving on whenever it can't act, until the result sheet.
func playToEnd(t *testing.T, s *site, b *browser, id string) page {
	t.Helper()
	for step := 0; step < 40000; step++ {
		p := b.htmx(http.MethodGet, "/games/"+id+"/frame", nil)
		if byID(p.doc, "result") != nil {
			return p
		}
		no := attr(byID(p.doc, "dock"), "data-no")
		form := url.Values{"no": {no}}
		var move string
		switch {
		case enabled(p.doc, "claim"):
			move, form["card"] = "play", picked(p.doc)
		case enabled(p.doc, "give"):
			move, form["card"] = "give", picked(p.doc)
		case enabled(p.doc, "call"):
			move = "pass"
		default:
			s.clock.Advance(500 * time.Millisecond)
			continue
		}
		b.htmx(http.MethodPost, "/games/"+id+"/"+move, form)
	}
	t.Fatal("no result sheet")
	return page{}
}

func TestRatedGameThroughThePages(t *testing.T) {
	s := newAccountSite(t)
	b := s.browser()
	b.signUp("Ada", password)
	id := b.create("", "3")
	b.htmx(http.MethodPost, "/games/"+id+"/start", nil)
	sheet := playToEnd(t, s, b, id)

	// The result sheet, pushed as a frame and as a page, shows the change.
	for _, p := range []page{sheet, b.get("/games/" + id)} {
		changes := byID(p.doc, "rating-changes")
		lines := findAll(changes, func(n *html.Node) bool { return n.Data == "li" })
		if len(lines) != 1 || !strings.HasPrefix(text(lines[0]), "You 1500 → ") || !strings.Contains(text(lines[0]), "?") {
			t.Errorf("the result sheet's ratings: got %q, want one line for you from 1500, provisional", text(changes))
		}
	}
	// A spectator sees it too, under the player's name.
	if got := text(byID(s.browser().get("/games/"+id).doc, "rating-changes")); !strings.Contains(got, "Ada 1500 → ") {
		t.Errorf("a spectator's result sheet: got %q", got)
	}

	board := b.get("/leaderboard")
	rows := findAll(byID(board.doc, "leaders"), func(n *html.Node) bool { return n.Data == "tr" })
	if len(rows) != 2 || !strings.Contains(text(rows[1]), "Ada") || find(rows[1], hasClass("provisional")) == nil {
		t.Fatalf("the leaderboard: got %d lines: %q", len(rows)-1, text(byID(board.doc, "leaders")))
	}
	if p := b.get("/leaderboard?show=programs"); byID(p.doc, "leaders") != nil {
		t.Errorf("the programs' leaderboard lists someone")
	}
	if p := b.get("/leaderboard?show=nobody"); p.status != http.StatusBadRequest {
		t.Errorf("an unknown filter: got %d, want 400", p.status)
	}

	player := b.get("/players/Ada")
	if player.status != http.StatusOK {
		t.Fatalf("the player page: got %d", player.status)
	}
	chart := byID(player.doc, "rating-chart")
	if n := len(findAll(chart, func(n *html.Node) bool { return n.Data == "circle" })); n != 1 {
		t.Errorf("the chart after one rated game: got %d points, want 1", n)
	}
	recent := findAll(byID(player.doc, "recent-games"), func(n *html.Node) bool { return n.Data == "a" })
	if len(recent) != 1 || attr(recent[0], "href") != "/games/"+id+"/review" {
		t.Errorf("the recent games: got %d, want one linking to the review", len(recent))
	}
	if p := b.get("/players/Nobody"); p.status != http.StatusNotFound {
		t.Errorf("an unknown player: got %d, want 404", p.status)
	}
}
