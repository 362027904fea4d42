package ops_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"bullshit/live"
	"bullshit/ops"
)

// fakeRuntime stands for the tables: counts set by the test, and the
// timings' observer it was handed.
type fakeRuntime struct {
	mu            sync.Mutex
	open, playing int
	stored        int64
	observe       func(live.Timing, time.Duration)
}

func (f *fakeRuntime) TableCounts() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.open, f.playing
}

func (f *fakeRuntime) Stats() live.Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return live.Stats{Actions: f.stored}
}

func (f *fakeRuntime) Observe(fn func(live.Timing, time.Duration)) { f.observe = fn }

// router is a small site under the ops routes and the request metrics: a
// move, a page, an event stream and a failing handler.
// Its allowance is timed by a clock a second on at every read, so no test
// or benchmark through it is ever turned away.
func router(m *ops.Metrics, ready *ops.Ready) *echo.Echo {
	e := echo.New()
	e.Pre(ops.RoutesAt(m, ready, ticking()))
	e.Use(m.Requests(e), middleware.Recover())
	routes(e)
	return e
}

// uncountedRouter is router without the metrics, to compare with.
func uncountedRouter() *echo.Echo {
	e := echo.New()
	routes(e)
	return e
}

func routes(e *echo.Echo) {
	e.POST("/games/:id/play", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	e.GET("/games/:id", func(c echo.Context) error { return c.String(http.StatusOK, "a page") })
	e.GET("/games/:id/events", func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderContentType, "text/event-stream")
		c.Response().WriteHeader(http.StatusOK)
		_, err := io.WriteString(c.Response(), ": hello\n\n")
		return err
	})
	e.GET("/broken", func(c echo.Context) error { return echo.NewHTTPError(http.StatusInternalServerError) })
	e.GET("/panics", func(c echo.Context) error { panic("a bug") })
}

// ticking is a clock that moves a second on every time it is read.
func ticking() func() time.Time {
	var reads atomic.Int64
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { return start.Add(time.Duration(reads.Add(1)) * time.Second) }
}

func do(t *testing.T, h http.Handler, method, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
	return w
}

// TestMetricsMove: every metric is named as Prometheus wants (the linter
// finds no problem), and each moves with what it measures.
func TestMetricsMove(t *testing.T) {
	m := ops.NewMetrics(ops.Config{IsMove: func(method, route string) bool {
		return method == http.MethodPost && strings.HasSuffix(route, "/play")
	}})
	rt := &fakeRuntime{open: 2, playing: 5, stored: 40}
	m.Watch(rt)
	streams := 3
	m.Streams(func() int { return streams })
	m.Recovered(1500 * time.Millisecond)
	e := router(m, ops.NewReady(nil))

	for _, r := range []struct {
		method, path string
		status       int
	}{
		{"POST", "/games/abc/play", 204},
		{"POST", "/games/def/play", 204},
		{"GET", "/games/abc", 200},
		{"GET", "/games/abc/events", 200},
		{"GET", "/broken", 500},
		{"GET", "/panics", 500},
		{"GET", "/no/such/page/abc123", 404},
		{"GET", "/games/abc/nothing", 404},
		{"BREW", "/games/abc", 405},
	} {
		if w := do(t, e, r.method, r.path); w.Code != r.status {
			t.Errorf("%s %s: got %d, want %d", r.method, r.path, w.Code, r.status)
		}
	}
	rt.observe(live.TimeCommits, 2*time.Millisecond)
	rt.observe(live.TimeCommits, 3*time.Millisecond)
	rt.observe(live.TimePublish, time.Millisecond)
	rt.observe(live.TimeDeadlines, 4*time.Millisecond)
	rt.observe(live.TimeBots, 5*time.Millisecond)
	rt.observe(live.TimeBots, 6*time.Millisecond)

	w := do(t, e, "GET", ops.PathMetrics)
	if w.Code != 200 {
		t.Fatalf("GET /metrics: got %d, want 200", w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{
		`bullshit_tables{state="open"} 2`,
		`bullshit_tables{state="playing"} 5`,
		`bullshit_actions_stored_total 40`,
		`bullshit_streams_open 3`,
		`bullshit_recovery_duration_seconds 1.5`,
		`bullshit_move_ack_duration_seconds_count 2`,
		`bullshit_commit_duration_seconds_count 2`,
		`bullshit_commit_duration_seconds_sum 0.005`,
		`bullshit_publish_duration_seconds_count 1`,
		`bullshit_timer_lateness_seconds_count{timer="deadline"} 1`,
		`bullshit_timer_lateness_seconds_count{timer="bot"} 2`,
		`bullshit_http_requests_total{code="204",method="POST",route="/games/:id/play"} 2`,
		`bullshit_http_requests_total{code="200",method="GET",route="/games/:id"} 1`,
		`bullshit_http_requests_total{code="200",method="GET",route="/games/:id/events"} 1`,
		`bullshit_http_requests_total{code="500",method="GET",route="/broken"} 1`,
		`bullshit_http_requests_total{code="500",method="GET",route="/panics"} 1`,
		`bullshit_http_requests_total{code="404",method="GET",route="unmatched"} 2`,
		`bullshit_http_requests_total{code="405",method="other",route="/games/:id"} 1`,
		`bullshit_http_request_duration_seconds_count{method="POST",route="/games/:id/play"} 2`,
		`bullshit_http_request_duration_seconds_count{method="GET",route="/games/:id"} 1`,
		"go_goroutines ",
		"process_cpu_seconds_total ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q", want)
		}
	}
	if strings.Contains(body, `bullshit_http_request_duration_seconds_count{method="GET",route="/games/:id/events"}`) {
		t.Error("an event stream is among the request durations")
	}
	for _, never := range []string{"abc", "/no/such", ops.PathMetrics, ops.PathLive} {
		if strings.Contains(body, never) {
			t.Errorf("the scrape has %q: a game code, a client's path or the ops routes in a label", never)
		}
	}

	// The counts follow their sources at each scrape.
	rt.mu.Lock()
	rt.open, rt.stored = 1, 41
	rt.mu.Unlock()
	streams = 0
	body = do(t, e, "GET", ops.PathMetrics).Body.String()
	for _, want := range []string{`bullshit_tables{state="open"} 1`, `bullshit_actions_stored_total 41`, `bullshit_streams_open 0`} {
		if !strings.Contains(body, want) {
			t.Errorf("the second scrape lacks %q", want)
		}
	}

	problems, err := testutil.GatherAndLint(m.Registry())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
}
