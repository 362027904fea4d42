package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"bullshit/api"
	"bullshit/live"
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
}

func newSite(t *testing.T) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	s := &site{t: t, clock: live.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}
	runCtx, stop := context.WithCancel(ctx)
	s.mgr, err = live.New(runCtx, live.Config{Store: st, Clock: s.clock})
	if err != nil {
		stop()
		st.Close()
		t.Fatal(err)
	}
	s.pages = web.New(web.Config{Games: s.mgr, Now: s.clock.Now})
	fast := api.Rate{PerSecond: 1e6, Burst: 1e6}
	s.srv = httptest.NewServer(server.New(server.Config{API: api.New(api.Config{Games: s.mgr, PerAddress: fast, PerToken: fast}), Web: s.pages}))
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

// browser is one browser: its own cookies, and the CSRF token its pages gave.
type browser struct {
	t    *testing.T
	site *site
	c    *http.Client
	csrf string
}

func (s *site) browser() *browser {
	jar, _ := cookiejar.New(nil)
	b := &browser{t: s.t, site: s, c: &http.Client{Jar: jar}}
	p := b.get("/")
	in := find(p.doc, func(n *html.Node) bool { return n.Data == "input" && attr(n, "name") == "_csrf" })
	if in == nil {
		s.t.Fatal("the lobby has no CSRF field")
	}
	b.csrf = attr(in, "value")
	return b
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

// form posts a form as a page does without htmx, with the CSRF field.
func (b *browser) form(path string, v url.Values) page {
	b.t.Helper()
	if v == nil {
		v = url.Values{}
	}
	if !v.Has("_csrf") {
		v.Set("_csrf", b.csrf)
	}
	req, _ := http.NewRequest(http.MethodPost, b.site.srv.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// htmx posts as htmx does: the token in its header.
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
	req.Header.Set("X-CSRF-Token", b.csrf)
	return b.do(req)
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

// The HTML helpers.

func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && ok(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

func findAll(n *html.Node, ok func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && ok(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func byID(n *html.Node, id string) *html.Node {
	return find(n, func(n *html.Node) bool { return attr(n, "id") == id })
}

func attr(n *html.Node, key string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func has(n *html.Node, key string) bool {
	if n == nil {
		return false
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func text(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}
