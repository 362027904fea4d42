package ops_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/internal/clocks/fakeclock"
	"bullshit/ops"
)

func from(t *testing.T, h http.Handler, method, path, addr string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, nil)
	r.RemoteAddr = addr
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestOpsEndpointsTakeGetAndHead: each of the operator's endpoints answers
// GET and HEAD and refuses every other method with 405 and Allow.
func TestOpsEndpointsTakeGetAndHead(t *testing.T) {
	e := router(ops.NewMetrics(ops.Config{}), ops.NewReady(nil))
	for _, path := range []string{ops.PathMetrics, ops.PathLive, ops.PathReady} {
		for _, tt := range []struct {
			method string
			status int
		}{
			{http.MethodGet, 200},
			{http.MethodHead, 200},
			{http.MethodPost, 405},
			{http.MethodPut, 405},
			{http.MethodDelete, 405},
			{http.MethodOptions, 405},
		} {
			w := do(t, e, tt.method, path)
			if w.Code != tt.status {
				t.Errorf("%s %s: got %d, want %d", tt.method, path, w.Code, tt.status)
			}
			if allow := w.Header().Get("Allow"); tt.status == 405 && allow != "GET, HEAD" {
				t.Errorf("%s %s: got Allow %q, want \"GET, HEAD\"", tt.method, path, allow)
			}
		}
	}
}

// TestOpsAllowance: one address may ask a burst of requests and then a few
// a second; the next is turned away with Retry-After, runs no check and is
// counted, while another address is answered as before.
func TestOpsAllowance(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var ran atomic.Int32
	ready := ops.NewReady(nil)
	ready.SetClock(ticking()) // every probe let through runs the checks
	ready.Add("counted", func(context.Context) error { ran.Add(1); return nil })
	m := ops.NewMetrics(ops.Config{})
	e := echo.New()
	e.Pre(ops.RoutesAt(m, ready, clock.Now))

	const flooder, other = "198.51.100.7:40000", "203.0.113.9:40000"
	paths := []string{ops.PathLive, ops.PathReady, ops.PathMetrics}
	for i := range ops.Allowance.Burst {
		if w := from(t, e, "GET", paths[i%len(paths)], flooder); w.Code != 200 {
			t.Fatalf("request %d of the burst: got %d, want 200", i+1, w.Code)
		}
	}
	runs := ran.Load()
	if runs == 0 {
		t.Fatal("the burst ran no check")
	}
	w := from(t, e, "GET", ops.PathReady, flooder)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Errorf("past the burst: got %d Retry-After %q, want 429 Retry-After \"1\"", w.Code, w.Header().Get("Retry-After"))
	}
	if got := ran.Load(); got != runs {
		t.Errorf("a turned-away probe ran the checks: got %d runs, want %d", got, runs)
	}
	if w := from(t, e, "GET", ops.PathReady, other); w.Code != 200 {
		t.Errorf("another address: got %d, want 200", w.Code)
	}
	clock.Advance(time.Second)
	for i := range int(ops.Allowance.PerSecond) {
		if w := from(t, e, "GET", ops.PathLive, flooder); w.Code != 200 {
			t.Errorf("request %d a second later: got %d, want 200", i+1, w.Code)
		}
	}
	if w := from(t, e, "GET", ops.PathLive, flooder); w.Code != http.StatusTooManyRequests {
		t.Errorf("past the second's allowance: got %d, want 429", w.Code)
	}
	w = from(t, e, "GET", ops.PathMetrics, other)
	if want := "bullshit_ops_requests_limited_total 2\n"; !strings.Contains(w.Body.String(), want) {
		t.Errorf("the scrape lacks %q", want)
	}
}

// TestReadyProbesShareOneRun: probes that come together share one run of
// the checks, a change shows once the answer is CacheFor old, and a
// draining node says so at once, running nothing.
func TestReadyProbesShareOneRun(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var ran atomic.Int32
	var down atomic.Bool
	release := make(chan struct{})
	ready := ops.NewReady(nil)
	ready.SetClock(clock.Now)
	ready.Add("database", func(context.Context) error {
		ran.Add(1)
		<-release
		if down.Load() {
			return context.DeadlineExceeded
		}
		return nil
	})

	const probes = 10
	var wg sync.WaitGroup
	answers := make([]string, probes)
	for i := range probes {
		wg.Go(func() { answers[i], _ = ready.Check(context.Background()) })
	}
	close(release)
	wg.Wait()
	if got := ran.Load(); got != 1 {
		t.Errorf("%d probes together: got %d runs, want 1", probes, got)
	}
	for i, a := range answers {
		if a != "" {
			t.Errorf("probe %d: got %q, want ready", i, a)
		}
	}

	down.Store(true)
	if failing, _ := ready.Check(context.Background()); failing != "" || ran.Load() != 1 {
		t.Errorf("within CacheFor: got %q after %d runs, want the cached ready after 1", failing, ran.Load())
	}
	clock.Advance(ops.CacheFor)
	if failing, _ := ready.Check(context.Background()); failing != "database" || ran.Load() != 2 {
		t.Errorf("CacheFor later: got %q after %d runs, want \"database\" after 2", failing, ran.Load())
	}

	down.Store(false)
	clock.Advance(ops.CacheFor)
	ready.Check(context.Background())
	ready.Drain()
	if failing, results := ready.Check(context.Background()); failing != ops.Draining || len(results) != 1 || ran.Load() != 3 {
		t.Errorf("draining with a fresh ready answer: got %q %v after %d runs, want %q alone after 3", failing, results, ran.Load(), ops.Draining)
	}
}
