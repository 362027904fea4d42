package web_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"bullshit/api"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/internal/htmltest"
	"bullshit/live"
	"bullshit/players"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
	"bullshit/web"
)

// site is the whole server for a test, assembled as `bullshit serve`
// assembles it (server.Assemble): a real store, the real Manager on a fake
// clock, the push hub with the pages' and the API's streams, the accounts,
// and the one router behind httptest.
type site struct {
	t     *testing.T
	clock *fakeclock.Clock
	mgr   *live.Manager
	pages *web.Handler
	srv   *httptest.Server
	// players is the accounts' service, on cheap hashing.
	players *players.Service
	// logs has every line the server logged.
	logs *lockedBuffer
}

// siteOptions change how a site is built.
type siteOptions struct {
	// accountsNow, if set, is the players service's clock instead of the
	// real one, which the cookies' expiry is judged by.
	accountsNow func() time.Time
	// settings changes the server's settings last.
	settings func(*server.Settings)
}

func newSite(t *testing.T) *site { return newSiteWith(t, siteOptions{}) }

func newSiteWith(t *testing.T, o siteOptions) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	s := &site{t: t, clock: fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)), logs: &lockedBuffer{}}
	logger := slog.New(slog.NewTextHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	fast := api.Rate{PerSecond: 1e6, Burst: 1e6}
	settings := server.Settings{PerAddress: fast, PerToken: fast, AccountsNow: o.accountsNow,
		Passwords: players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}}
	if o.settings != nil {
		o.settings(&settings)
	}
	whole, err := server.Assemble(ctx, st, s.clock, logger, settings)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	s.mgr, s.pages, s.players = whole.Manager, whole.Pages, whole.Accounts
	s.srv = httptest.NewServer(whole.Handler)
	t.Cleanup(func() {
		// The streams end first: the test server waits for every request.
		whole.StopStreams()
		s.srv.Close()
		if err := whole.Close(context.Background()); err != nil {
			t.Errorf("closing the tables: %v", err)
		}
		st.Close()
	})
	return s
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// browser is one browser: its own cookies.
type browser struct {
	t    *testing.T
	site *site
	c    *http.Client
}

func (s *site) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: s.t, site: s, c: &http.Client{Jar: jar}}
}

// forgery is a post's headers as a browser sends them from a page that is
// not this site's own origin.
type forgery struct {
	name   string
	header map[string]string
}

// forgeries are the posts every page refuses with 403, whatever cookies
// they carry: from another site, from a page of this site on another port
// (same-site, so it could have set this site's cookies), and from an opaque
// origin ("null": a sandboxed frame, or a redirect from elsewhere); each as
// a current browser sends it (Sec-Fetch-Site) and as an older one (Origin
// alone).
func (s *site) forgeries() []forgery {
	u, _ := url.Parse(s.srv.URL)
	otherPort := "http://" + u.Hostname() + ":1"
	return []forgery{
		{"cross-site", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}},
		{"cross-site, Origin only", map[string]string{"Origin": "https://evil.example"}},
		{"same site, another port", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": otherPort}},
		{"same site, another port, Origin only", map[string]string{"Origin": otherPort}},
		{"a null origin", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "null"}},
		{"a null origin, Origin only", map[string]string{"Origin": "null"}},
	}
}

// page is an answer, parsed.
type page struct {
	status int
	header http.Header
	body   string
	doc    *html.Node
	url    string
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		b.t.Fatal(err)
	}
	return page{status: resp.StatusCode, header: resp.Header, body: string(body), doc: doc, url: resp.Request.URL.Path}
}

func (b *browser) get(path string) page {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.site.srv.URL+path, nil)
	return b.do(req)
}

// form posts a form as a page does without htmx, with the headers a
// browser sends on a post from the site's own page.
func (b *browser) form(path string, v url.Values) page {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.site.srv.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	b.sameOrigin(req)
	return b.do(req)
}

// htmx sends a request as htmx does from the site's own page.
func (b *browser) htmx(method, path string, v url.Values) page {
	b.t.Helper()
	var body io.Reader
	if method == http.MethodGet {
		path += "?" + v.Encode()
	} else {
		body = strings.NewReader(v.Encode())
	}
	req, _ := http.NewRequest(method, b.site.srv.URL+path, body)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	b.sameOrigin(req)
	return b.do(req)
}

// sameOrigin marks req as a browser marks a fetch from the site's own page.
func (b *browser) sameOrigin(req *http.Request) {
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", b.site.srv.URL)
}

// create opens a table from the lobby's form and returns its id.
func (b *browser) create(name string, bots string) string {
	b.t.Helper()
	p := b.form("/games", url.Values{"name": {name}, "bots": {bots}, "sneak": {"2"}, "window": {"6"}, "pace": {"brisk"}, "bot_level": {"medium"}})
	if p.status != http.StatusOK || !strings.HasPrefix(p.url, "/games/") {
		b.t.Fatalf("creating a table: got %d at %s: %s", p.status, p.url, text(byID(p.doc, "status")))
	}
	return strings.TrimPrefix(p.url, "/games/")
}

// The HTML helpers the views' tests share.
var (
	find    = htmltest.Find
	findAll = htmltest.FindAll
	byID    = htmltest.ByID
	attr    = htmltest.Attr
	has     = htmltest.Has
	text    = htmltest.Text
)
