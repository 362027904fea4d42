package ops_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"bullshit/ops"
)

// TestRoutesWithoutMetrics: with no registry the probes still answer and
// /metrics is the router's, which has no such route.
func TestRoutesWithoutMetrics(t *testing.T) {
	e := echo.New()
	e.Pre(ops.Routes(nil, ops.NewReady(nil)))
	for _, tt := range []struct {
		path   string
		status int
	}{
		{ops.PathLive, http.StatusOK},
		{ops.PathReady, http.StatusOK},
		{ops.PathMetrics, http.StatusNotFound},
	} {
		if w := do(t, e, "GET", tt.path); w.Code != tt.status {
			t.Errorf("GET %s: got %d, want %d", tt.path, w.Code, tt.status)
		}
	}
}

// TestTwiceAdded: a count or a check added twice under one name is there
// once, the first one, and registering it again doesn't panic.
func TestTwiceAdded(t *testing.T) {
	m := ops.NewMetrics(ops.Config{})
	m.Counter("things_total", "Things.", func() int64 { return 1 })
	m.Counter("things_total", "Things again.", func() int64 { return 2 })
	m.Gauge("level", "A level.", func() int64 { return 3 })
	m.Gauge("level", "A level again.", func() int64 { return 4 })
	ready := ops.NewReady(nil)
	ready.Add("first", func(context.Context) error { return nil })
	ready.Add("first", func(context.Context) error { return errors.New("the second") })
	e := echo.New()
	e.Pre(ops.Routes(m, ready))
	body := do(t, e, "GET", ops.PathMetrics).Body.String()
	for _, want := range []string{"\nbullshit_things_total 1\n", "\nbullshit_level 3\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q", want)
		}
	}
	if w := do(t, e, "GET", ops.PathReady+"?verbose"); w.Code != 200 || w.Body.String() != "[+]first\nok\n" {
		t.Errorf("GET /readyz?verbose: got %d %q, want 200 \"[+]first\\nok\\n\"", w.Code, w.Body)
	}
}
