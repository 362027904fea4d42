package browser

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserRefusesForgedPosts sends a player's move the wrong ways: from a
// page on another site that the player's browser opens (a script's post and
// a form's), and from a client that never had the seat's cookie though it
// has a form token of its own. Each is refused and the game does not change;
// then the same move made from the page itself is taken. (A post from the
// player's own page is the player's, token or not: the browser marks it
// same-origin, which the CSRF check trusts.)
func TestBrowserRefusesForgedPosts(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	s := newSite(t, personSpeed)
	b := newBrowser(ctx, t, s.base, phoneWidth, phoneHeight)
	// The forged posts this test sends from the page are refused, as it
	// wants.
	b.expectConsole(`status of 403 \(Forbidden\) .*/games/[a-z0-9]+/play`)
	id := createTable(b, tableSettings{name: "Ada", bots: 3, window: "10"})
	startGame(b)
	p := &person{b: b, s: s, game: id, seat: 0}
	// Play until it is the person's turn to play: nothing moves at the
	// table until they do (the bots wait, and the clock is slowed to real
	// time so the seat isn't marked away meanwhile).
	for {
		v := s.view(id, 0)
		if len(v.Can) > 0 && v.Can[0] == engine.ActPlay {
			break
		}
		if !p.step() {
			time.Sleep(15 * time.Millisecond)
		}
	}
	s.setSpeed(1)
	before := s.view(id, 0)
	card := choose(before)[0]
	move := url.Values{"no": {fmt.Sprint(before.Plays)}, "card": {card.String()}}
	target := s.base + "/games/" + id + "/play"
	unchanged := func(how string) {
		t.Helper()
		// Give a wrongly taken move time to show.
		time.Sleep(200 * time.Millisecond)
		if v := s.view(id, 0); v.Version != before.Version || len(v.Hand) != len(before.Hand) {
			t.Fatalf("after %s the game changed: version %d, %d cards in hand; want version %d, %d cards",
				how, v.Version, len(v.Hand), before.Version, len(before.Hand))
		}
	}

	// 1. A page on another site (localhost is another site than 127.0.0.1)
	// posts the move with a script, then in a form that sends itself.
	evil := startEvilSite(t, target, move)
	b.open(evil)
	b.wait("the forged post's answer", `location.pathname.endsWith('/play')`)
	if st := b.lastStatus("/games/" + id + "/play"); st < 400 {
		t.Errorf("the cross-site post was answered %d, want a refusal", st)
	}
	unchanged("a cross-site form post")

	// 2. A client without the seat's cookie, with a token of its own from
	// the page it was given as a spectator, posts the move.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := client.Get(s.base + "/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	form := url.Values{}
	for k, v := range move {
		form[k] = v
	}
	u, _ := url.Parse(s.base + "/games/" + id)
	var token string
	for _, c := range jar.Cookies(u) {
		if strings.Contains(strings.ToLower(c.Name), "csrf") {
			token = c.Value
			form.Set("_csrf", c.Value)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	if token != "" {
		req.Header.Set("X-CSRF-Token", token)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", s.base)
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Errorf("a post without the seat's cookie was answered %s, want a refusal", resp.Status)
	}
	unchanged("a post without the seat's cookie")

	// The same move from the page itself is taken.
	b.open("/games/" + id)
	b.wait("the table", visible("#hand"))
	p.step()
	if v := s.view(id, 0); v.Plays == before.Plays {
		t.Errorf("the move made from the page wasn't taken either (status line %q)", b.statusLine())
	}
}

// startEvilSite serves, on localhost (another site than 127.0.0.1), a page
// that posts fields to target as soon as it loads, first with a script and
// then with a form, and returns its address.
func startEvilSite(t *testing.T, target string, fields url.Values) string {
	t.Helper()
	var inputs strings.Builder
	for k, vs := range fields {
		for _, v := range vs {
			fmt.Fprintf(&inputs, `<input type="hidden" name="%s" value="%s">`, html.EscapeString(k), html.EscapeString(v))
		}
	}
	page := `<!doctype html><title>Win a prize</title><form method="post" action="` + html.EscapeString(target) + `">` +
		inputs.String() + `</form><script>
		fetch(document.forms[0].action, {method: 'POST', mode: 'no-cors', credentials: 'include', body: new FormData(document.forms[0])})
			.finally(() => document.forms[0].submit());
		</script>`
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return "http://localhost:" + port + "/"
}
