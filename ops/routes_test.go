package ops_test

import (
	"net/http"
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
