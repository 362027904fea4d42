package browser

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/api/push"
	"bullshit/engine"
	"bullshit/live"
	"bullshit/players"
	"bullshit/server"
	"bullshit/store"
	"bullshit/web"
)

// site is the whole server running in the test, as `bullshit serve` runs it:
// SQLite in a temp folder, the real tables on a sped-up clock, the event
// streams, and the one router serving pages and the API, on a loopback port.
type site struct {
	t     *testing.T
	base  string // http://127.0.0.1:port
	mgr   *live.Manager
	clock *dialClock
}

// The speeds the tests run the tables' clocks at. A fast game plays its bots'
// think times and windows so quickly that a whole game takes seconds; a
// person's game leaves a browser time to read and click within a window.
const (
	fastSpeed   = 20
	personSpeed = 4
)

// formatHTML is the browsers' stream format.
const formatHTML = "html"

// newSite starts the server; it stops at the end of the test.
func newSite(t *testing.T, speed float64) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "bullshit.db"))
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := &site{t: t, clock: newDialClock(speed)}
	// The pages render each seat's frames for the browsers' streams (the
	// format "html"), as the server does; the API's streams stay JSON.
	var pages *web.Handler
	hub := push.New(push.Config{Logger: logger,
		Formats: map[string]push.Encoder{
			api.FormatJSON: api.JSONEncoder,
			formatHTML: push.EncoderFunc(func(f live.Frame, _ time.Time) (push.Event, bool, error) {
				return pages.FrameEvent(f, s.clock.Now())
			}),
		},
		Lobby: func(ctx context.Context) (push.Event, error) {
			data, err := pages.RenderLobby(ctx)
			return push.Event{Name: "lobby", Data: data}, err
		},
	})
	runCtx, stop := context.WithCancel(ctx)
	s.mgr, err = live.New(runCtx, live.Config{Store: st, Publisher: hub, Clock: s.clock, Logger: logger})
	if err != nil {
		stop()
		st.Close()
		t.Fatal(err)
	}
	// Accounts, on the real clock as the server's: a session's cookie
	// expires by the browser's clock.
	accounts, err := players.New(players.Config{Store: st, Logger: logger,
		Params: players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}})
	if err != nil {
		t.Fatal(err)
	}
	pages = web.New(web.Config{Games: s.mgr, Logger: logger, Now: s.clock.Now, Accounts: accounts,
		Stream: func(c echo.Context, game string, seat int) error {
			read := func() (live.Frame, error) { return s.mgr.Frame(c.Request().Context(), game, seat) }
			f, err := read()
			if err != nil {
				return err
			}
			return hub.Serve(c, game, seat, formatHTML, f, read)
		},
		LobbyStream: hub.ServeLobby,
	})
	unlimited := api.Rate{PerSecond: 1e6, Burst: 1e6}
	handler := server.New(server.Config{API: api.New(api.Config{Games: s.mgr, Hub: hub, Logger: logger,
		PerAddress: unlimited, PerToken: unlimited, Players: accounts, Standings: accounts}), Web: pages, Logger: logger})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.base = "http://" + ln.Addr().String()
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	var wg sync.WaitGroup
	wg.Go(func() { s.clock.run(runCtx) })
	wg.Go(func() { hub.Run(runCtx) })
	wg.Go(func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serving: %v", err)
		}
	})
	t.Cleanup(func() {
		stop() // ends the streams, so the shutdown below doesn't wait for them
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			_ = hs.Close()
		}
		wg.Wait()
		if err := s.mgr.Close(sctx); err != nil {
			t.Errorf("closing the tables: %v", err)
		}
		st.Close()
	})
	return s
}

// setSpeed sets how many times faster than real time the tables' clock runs
// from now on.
func (s *site) setSpeed(speed float64) { s.clock.set(speed) }

// hold runs the clock at real time until release, which puts back the speed
// it had.
func (s *site) hold() {
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	s.clock.held, s.clock.speed = s.clock.speed, 1
}

func (s *site) release() {
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	if s.clock.held > 0 {
		s.clock.speed, s.clock.held = s.clock.held, 0
	}
}

// view is a seat's view of a game as the server holds it: what the test
// compares the pages with, and where it learns a seat's cards.
func (s *site) view(id string, seat int) engine.View {
	s.t.Helper()
	v, err := s.mgr.View(context.Background(), id, seat)
	if err != nil {
		s.t.Fatalf("reading seat %d's view of %s: %v", seat, id, err)
	}
	return v
}

// summary is the game as the lobby sees it.
func (s *site) summary(id string) live.Summary {
	s.t.Helper()
	g, err := s.mgr.Get(context.Background(), id)
	if err != nil {
		s.t.Fatalf("reading game %s: %v", id, err)
	}
	return g
}

// testWriter sends the server's log to the test's.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("server: %s", p)
	return len(p), nil
}

// dialClock is the tables' clock in these tests: it runs speed times faster
// than real time, like live.ScaledClock, but its speed can be turned down to
// real time and back. A page plays a reveal's beats and the clock bar in real
// time from the server's times, so a test watching a reveal or a hand-over in
// the browser slows the table to real time for it and plays the rest of the
// game fast.
type dialClock struct {
	*live.FakeClock
	mu    sync.Mutex
	speed float64
	held  float64 // the speed to go back to after a hold
}

func newDialClock(speed float64) *dialClock {
	return &dialClock{FakeClock: live.NewFakeClock(time.Now()), speed: speed}
}

func (c *dialClock) set(speed float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.speed = speed
}

// run moves the clock on with real time until ctx ends.
func (c *dialClock) run(ctx context.Context) {
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			c.mu.Lock()
			speed := c.speed
			c.mu.Unlock()
			c.Advance(time.Duration(float64(now.Sub(last)) * speed))
			last = now
		}
	}
}
