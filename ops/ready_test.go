package ops_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"bullshit/ops"
)

// TestReady: /readyz names the first failing check, in the order they were
// added, answers 503 for it, and while draining names the drain whatever
// the checks say; /livez answers throughout; neither tells a check's error.
func TestReady(t *testing.T) {
	var dbDown, recovering atomic.Bool
	ready := ops.NewReady(nil)
	ready.SetClock(ticking())
	ready.Add("database", func(ctx context.Context) error {
		if dbDown.Load() {
			return errors.New("dial tcp 10.1.2.3:5432: connection refused")
		}
		return ctx.Err()
	})
	ready.Add("recovery", func(context.Context) error {
		if recovering.Load() {
			return errors.New("replaying")
		}
		return nil
	})
	e := router(ops.NewMetrics(ops.Config{}), ready)

	steps := []struct {
		name          string
		change        func()
		status        int
		body, verbose string
	}{
		{"all pass", func() {}, 200, "ok\n", "[+]database\n[+]recovery\nok\n"},
		{"recovering", func() { recovering.Store(true) }, 503, "not ready: recovery\n", "[+]database\n[-]recovery\nnot ready: recovery\n"},
		{"the database down too", func() { dbDown.Store(true) }, 503, "not ready: database\n", "[-]database\n[-]recovery\nnot ready: database\n"},
		{"both back", func() { dbDown.Store(false); recovering.Store(false) }, 200, "ok\n", "[+]database\n[+]recovery\nok\n"},
		{"draining", ready.Drain, 503, "not ready: draining\n", "[-]draining\nnot ready: draining\n"},
	}
	for _, s := range steps {
		s.change()
		w := do(t, e, "GET", ops.PathReady)
		if w.Code != s.status || w.Body.String() != s.body {
			t.Errorf("%s: got %d %q, want %d %q", s.name, w.Code, w.Body, s.status, s.body)
		}
		if strings.Contains(w.Body.String(), "10.1.2.3") {
			t.Errorf("%s: the probe tells the check's error: %q", s.name, w.Body)
		}
		if w := do(t, e, "GET", ops.PathReady+"?verbose"); w.Code != s.status || w.Body.String() != s.verbose {
			t.Errorf("%s, verbose: got %d %q, want %d %q", s.name, w.Code, w.Body, s.status, s.verbose)
		}
		if w := do(t, e, "GET", ops.PathLive); w.Code != 200 || w.Body.String() != "ok\n" {
			t.Errorf("%s: /livez: got %d %q, want 200 \"ok\\n\"", s.name, w.Code, w.Body)
		}
	}
}

// TestProbeMethods: a probe may GET or HEAD; anything else is refused
// without running a check.
func TestProbeMethods(t *testing.T) {
	var ran atomic.Int32
	ready := ops.NewReady(nil)
	ready.SetClock(ticking())
	ready.Add("counted", func(context.Context) error { ran.Add(1); return nil })
	e := router(ops.NewMetrics(ops.Config{}), ready)
	tests := []struct {
		method, path string
		status       int
		runs         int32
	}{
		{http.MethodGet, ops.PathReady, 200, 1},
		{http.MethodHead, ops.PathReady, 200, 2},
		{http.MethodPost, ops.PathReady, 405, 2},
		{http.MethodHead, ops.PathLive, 200, 2},
		{http.MethodDelete, ops.PathLive, 405, 2},
	}
	for _, tt := range tests {
		w := do(t, e, tt.method, tt.path)
		if w.Code != tt.status {
			t.Errorf("%s %s: got %d, want %d", tt.method, tt.path, w.Code, tt.status)
		}
		if got := ran.Load(); got != tt.runs {
			t.Errorf("%s %s: got %d checks run so far, want %d", tt.method, tt.path, got, tt.runs)
		}
	}
}

// TestReadyBoundsAHangingCheck: a check that never answers (a database
// that doesn't) fails the probe when its budget ends instead of hanging it.
func TestReadyBoundsAHangingCheck(t *testing.T) {
	ready := ops.NewReady(nil)
	ready.Add("database", func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	})
	w := do(t, router(ops.NewMetrics(ops.Config{}), ready), "GET", ops.PathReady)
	if w.Code != 503 || w.Body.String() != "not ready: database\n" {
		t.Errorf("got %d %q, want 503 \"not ready: database\\n\"", w.Code, w.Body)
	}
}
