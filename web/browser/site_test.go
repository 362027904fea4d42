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

	"bullshit/api"
	"bullshit/engine"
	"bullshit/game"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/live"
	"bullshit/players"
	"bullshit/server"
	"bullshit/store"
)

// site is the whole server running in the test, assembled as `bullshit
// serve` assembles it (server.Assemble): SQLite in a temp folder, the real
// tables on a sped-up clock, the push hub and its browser streams, and the
// one router serving pages and the API, on a loopback port.
type site struct {
	t     *testing.T
	base  string // http://127.0.0.1:port
	mgr   *live.Manager
	clock *dialClock

	handler http.Handler
	ln      net.Listener
	hs      *http.Server
	serving sync.WaitGroup
}

// The speeds the tests run the tables' clocks at. A fast game plays its bots'
// think times and windows so quickly that a whole game takes seconds; a
// person's game leaves a browser time to read and click within a window.
const (
	fastSpeed   = 20
	personSpeed = 4
)

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
	unlimited := api.Rate{PerSecond: 1e6, Burst: 1e6}
	// Accounts hash passwords cheaply here; a session's cookie still
	// expires by the browser's clock, the real one.
	whole, err := server.Assemble(ctx, st, s.clock, logger, server.Settings{PerAddress: unlimited, PerToken: unlimited,
		Passwords: players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	s.mgr, s.handler = whole.Manager, whole.Handler
	clockCtx, stopClock := context.WithCancel(ctx)
	var ticking sync.WaitGroup
	ticking.Go(func() { s.clock.run(clockCtx) })
	s.ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.base = "http://" + s.ln.Addr().String()
	s.serve()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.stopServing(sctx, whole.StopStreams)
		if err := whole.Close(sctx); err != nil {
			t.Errorf("closing the tables: %v", err)
		}
		stopClock()
		ticking.Wait()
		st.Close()
	})
	return s
}

// serve serves the site on its listener.
func (s *site) serve() {
	s.hs = &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	hs, ln := s.hs, s.ln
	s.serving.Go(func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.t.Errorf("serving: %v", err)
		}
	})
}

// down stops serving as a server that died would: every connection cut,
// none taken.
func (s *site) down() {
	s.t.Helper()
	if err := s.hs.Close(); err != nil {
		s.t.Fatalf("taking the server down: %v", err)
	}
	s.serving.Wait()
}

// up serves again at the same address.
func (s *site) up() {
	s.t.Helper()
	ln, err := net.Listen("tcp", s.ln.Addr().String())
	if err != nil {
		s.t.Fatalf("serving again at %s: %v", s.ln.Addr(), err)
	}
	s.ln = ln
	s.serve()
}

// stopServing stops the HTTP server as `bullshit serve` does: the requests
// in flight get their answers while the streams are ended (stopStreams),
// and a connection still open after ctx is cut.
func (s *site) stopServing(ctx context.Context, stopStreams func()) {
	shut := make(chan error, 1)
	go func() { shut <- s.hs.Shutdown(ctx) }()
	if stopStreams != nil {
		stopStreams()
	}
	if err := <-shut; err != nil {
		_ = s.hs.Close()
	}
	s.serving.Wait()
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
func (s *site) summary(id string) game.Summary {
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
// than real time, like clocks.Scaled, but its speed can be turned down to
// real time and back. A page plays a reveal's beats and the clock bar in real
// time from the server's times, so a test watching a reveal or a hand-over in
// the browser slows the table to real time for it and plays the rest of the
// game fast.
type dialClock struct {
	*fakeclock.Clock
	mu    sync.Mutex
	speed float64
	held  float64 // the speed to go back to after a hold
}

func newDialClock(speed float64) *dialClock {
	return &dialClock{Clock: fakeclock.New(time.Now()), speed: speed}
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
