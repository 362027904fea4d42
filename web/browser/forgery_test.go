package browser

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
)

// TestBrowserRefusesForgedPosts sends a player's move the wrong ways: from a
// page on another site that the player's browser opens (a script's post and
// a form's), from a page of the same site on another port, and from a client
// that never had the seat's cookie. Each is refused and the game does not
// change; then the same move made from the page itself is taken (the
// browser marks it same-origin, which is all the cross-origin check asks).
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
	// posts the move with a script, then in a form that sends itself; then
	// a page of the same site on another port (which could set the site's
	// cookies, so no cookie-borne token would stop it) does the same.
	for _, host := range []string{"localhost", "127.0.0.1"} {
		evil := startEvilSite(t, host, target, move)
		b.open(evil)
		b.wait("the forged post's answer", `location.pathname.endsWith('/play')`)
		if st := b.lastStatus("/games/" + id + "/play"); st != http.StatusForbidden {
			t.Errorf("the post from %s was answered %d, want 403", evil, st)
		}
		unchanged("a form post from " + evil)
	}

	// 2. A client without the seat's cookie posts the move.
	client := &http.Client{Timeout: 10 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(move.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", s.base)
	resp, err := client.Do(req)
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

// startEvilSite serves, on a port of its own at host, a page that posts
// fields to target as soon as it loads, first with a script and then with a
// form, and returns its address.
func startEvilSite(t *testing.T, host, target string, fields url.Values) string {
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
	return "http://" + host + ":" + port + "/"
}
