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

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/api/push"
	"bullshit/internal/htmltest"
	"bullshit/live"
	"bullshit/players"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
	"bullshit/web"
)

// site is the whole server for a test: a real store, the real Manager on a
// fake clock, and the router with the API and the pages behind httptest.
type site struct {
	t     *testing.T
	clock *live.FakeClock
	mgr   *live.Manager
	pages *web.Handler
	srv   *httptest.Server
	// players is the accounts' service, with siteOptions.accounts.
	players *players.Service
	// logs has every line the server logged, with siteOptions.accounts.
	logs *lockedBuffer
}

// siteOptions change how a site is built.
type siteOptions struct {
	// streams has the pages follow their seats over the push hub, wired
	// as the binary wires it.
	streams bool
	// accounts adds the players service (on cheap hashing and the real
	// clock, which the cookies' expiry is judged by) and a logger writing
	// to site.logs.
	accounts bool
	// accountsNow, if set, is the players service's clock instead.
	accountsNow func() time.Time
	// web and api change the pages' and the API's configuration last.
	web func(*web.Config)
	api func(*api.Config)
}

func newSite(t *testing.T) *site { return newSiteWith(t, siteOptions{}) }

func newSiteWith(t *testing.T, o siteOptions) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	s := &site{t: t, clock: live.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}
	var logger *slog.Logger
	if o.accounts {
		s.logs = &lockedBuffer{}
		logger = slog.New(slog.NewTextHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	runCtx, stop := context.WithCancel(ctx)
	var hub *push.Hub
	var pub live.Publisher
	if o.streams {
		hub = push.New(push.Config{
			Formats: map[string]push.Encoder{web.FormatHTML: push.EncoderFunc(func(f live.Frame, _ time.Time) (push.Event, bool, error) {
				return s.pages.FrameEvent(f, s.clock.Now())
			}), api.FormatJSON: api.JSONEncoder},
			Lobby: func(ctx context.Context) (push.Event, error) { return s.pages.LobbyEvent(ctx) },
		})
		pub = hub
	}
	s.mgr, err = live.New(runCtx, live.Config{Store: st, Clock: s.clock, Publisher: pub, Logger: logger})
	if err != nil {
		stop()
		st.Close()
		t.Fatal(err)
	}
	cfg := web.Config{Games: s.mgr, Now: s.clock.Now, Logger: logger}
	fast := api.Rate{PerSecond: 1e6, Burst: 1e6}
	acfg := api.Config{Games: s.mgr, Hub: hub, PerAddress: fast, PerToken: fast, Logger: logger}
	if o.accounts {
		s.players, err = players.New(players.Config{Store: st, Logger: logger, Now: o.accountsNow,
			Params: players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Accounts, acfg.Players, acfg.Standings = s.players, s.players, s.players
	}
	if o.streams {
		cfg.Stream = func(c echo.Context, game string, seat int) error {
			read := func() (live.Frame, error) { return s.mgr.Frame(c.Request().Context(), game, seat) }
			f, err := read()
			if err != nil {
				return err
			}
			return hub.Serve(c, game, seat, web.FormatHTML, f, read)
		}
		cfg.LobbyStream = hub.ServeLobby
		hubDone := make(chan struct{})
		go func() {
			defer close(hubDone)
			hub.Run(runCtx)
		}()
		t.Cleanup(func() { <-hubDone })
	}
	if o.web != nil {
		o.web(&cfg)
	}
	if o.api != nil {
		o.api(&acfg)
	}
	s.pages = web.New(cfg)
	s.srv = httptest.NewServer(server.New(server.Config{API: api.New(acfg), Web: s.pages, Logger: logger}))
	t.Cleanup(func() {
		s.srv.Close()
		stop()
		if err := s.mgr.Close(context.Background()); err != nil {
			t.Errorf("closing the manager: %v", err)
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
