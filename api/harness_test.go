package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/internal/httpx"
	"bullshit/live"
	"bullshit/players"
	"bullshit/push"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// world is a whole server for a test, assembled as `bullshit serve`
// assembles it (server.Assemble): the real store (SQLite in a temp folder,
// or PostgreSQL when BULLSHIT_TEST_POSTGRES is set), the real Manager on a
// fake clock, the Hub, the accounts, and the one router (the API and the
// pages) behind an httptest server.
type world struct {
	t     *testing.T
	clock *fakeclock.Clock
	mgr   *live.Manager
	hub   *push.Hub
	srv   *httptest.Server
	http  *http.Client // checks every answer against openapi.yaml

	// players is the accounts' service, on cheap password hashing.
	players *players.Service
}

type worldOptions struct {
	perAddress, perToken api.Rate
	now                  func() time.Time
	streams              int
	// smallBuffers shrinks each connection's send buffer on the server's
	// side, so a client that doesn't read backs it up quickly.
	smallBuffers bool
	// logger is the server's and the accounts' service's; nil discards
	// their lines.
	logger *slog.Logger
	// trustedProxies are the server's; the test's client connects from
	// 127.0.0.1.
	trustedProxies string
	// maxOpen and maxOpenPerAddress cap the open tables (live's defaults
	// when zero).
	maxOpen, maxOpenPerAddress int
	// prepare fills the store before the server starts on it.
	prepare func(st *store.Store)
}

func newWorld(t *testing.T, o worldOptions) *world {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storeURL(t))
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, clock: fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}
	if o.prepare != nil {
		o.prepare(st)
	}
	if o.perAddress == (api.Rate{}) {
		o.perAddress = api.Rate{PerSecond: 1e6, Burst: 1e6}
	}
	if o.perToken == (api.Rate{}) {
		o.perToken = api.Rate{PerSecond: 1e6, Burst: 1e6}
	}
	proxies, err := httpx.ParseTrustedProxies(o.trustedProxies)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := server.Assemble(ctx, st, w.clock, o.logger, server.Settings{TrustedProxies: proxies,
		PerAddress: o.perAddress, PerToken: o.perToken, StreamsPerAddress: o.streams, LimitsNow: o.now,
		MaxOpen: o.maxOpen, MaxOpenPerAddress: o.maxOpenPerAddress,
		Passwords: players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	w.mgr, w.hub, w.players = whole.Manager, whole.Hub, whole.Accounts
	w.srv = httptest.NewUnstartedServer(whole.Handler)
	if o.smallBuffers {
		w.srv.Listener = smallBufferListener{w.srv.Listener}
	}
	w.srv.Start()
	w.http, _ = newValidatingClient(t)
	t.Cleanup(func() {
		// The streams end first: the test server waits for every request.
		whole.StopStreams()
		w.srv.Close()
		if err := whole.Close(context.Background()); err != nil {
			t.Errorf("closing the manager: %v", err)
		}
		st.Close()
	})
	return w
}

// client is an API client whose answers are checked against openapi.yaml.
func (w *world) client(token string) *client.Client {
	return client.New(w.srv.URL, w.http).WithToken(token)
}

// answer is a raw HTTP answer.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// problem is the answer's error body.
func (a answer) problem() api.Problem {
	var p api.Problem
	_ = json.Unmarshal(a.body, &p)
	return p
}

// do sends a raw request (body as given, token as a bearer token if set).
func (w *world) do(method, path, token, body string) answer {
	w.t.Helper()
	return w.doURL(method, w.srv.URL+path, token, body)
}

// doURL is do to any server.
func (w *world) doURL(method, url, token, body string) answer {
	w.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		w.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := w.http.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: b}
}

// decodeInto reads an answer's JSON body.
func decodeInto[T any](t *testing.T, a answer) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(a.body, &v); err != nil {
		t.Fatalf("answer %d %s: %v", a.status, a.body, err)
	}
	return v
}

// ticker moves the fake clock on in small steps while a test runs, so the
// tables' bots think and their windows close at many times real speed.
func (w *world) ticker(ctx context.Context, step time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				w.clock.Advance(step)
			}
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}

// playPersons plays the person seats (by token) with each view's fallback
// move, advancing the clock when none of them can act, until the game is
// over. It returns every view the persons' moves were answered with.
func (w *world) playPersons(game string, tokens []string) []engine.View {
	w.t.Helper()
	ctx := context.Background()
	var answers []engine.View
	for range 100000 {
		acted := false
		for _, tok := range tokens {
			c := w.client(tok)
			v, err := c.View(ctx, game)
			if err != nil {
				w.t.Fatalf("reading the view: %v", err)
			}
			if v.Phase == engine.PhaseOver {
				return answers
			}
			a, ok := v.Fallback()
			if !ok {
				continue
			}
			nv, err := c.Act(ctx, game, a)
			switch client.ErrorCode(err) {
			case "":
				answers = append(answers, nv)
				acted = true
			case "stale", "over":
				// The clock or a bot got there first; the move changed nothing.
			default:
				w.t.Fatalf("seat %d's move %+v from version %d: %v", v.Seat, a, v.Version, err)
			}
		}
		if !acted {
			w.clock.Advance(250 * time.Millisecond)
		}
	}
	w.t.Fatal("the game didn't end")
	return nil
}

// storeURL is a new empty database: a schema of its own on PostgreSQL when
// BULLSHIT_TEST_POSTGRES is set, else a SQLite file.
func storeURL(tb testing.TB) string { return storetest.URL(tb) }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// smallBufferListener shrinks the send buffer of every accepted connection.
type smallBufferListener struct{ net.Listener }

func (l smallBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(2048)
	}
	return c, err
}
