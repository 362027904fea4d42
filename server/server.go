// Package server builds the one HTTP router the binary serves: the JSON API
// under /api/v1 (and /healthz) and the browser pages, each registering its
// own routes, with one error handler that answers the API's paths in JSON
// and every other path with an HTML page; and ahead of them the operator's
// /metrics, /livez and /readyz (package ops).
package server

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/engine"
	"bullshit/ops"
	"bullshit/web"
)

// Config is what the router is built from.
type Config struct {
	API    *api.Server
	Web    *web.Handler
	Logger *slog.Logger
	// Metrics, when not nil, counts and times the requests and is served
	// on /metrics; Ready answers /readyz (always ready when nil).
	Metrics *ops.Metrics
	Ready   *ops.Ready
}

// New builds the router.
func New(cfg Config) *echo.Echo {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// The API's rule for a client's address, trusted proxies and all, holds
	// for the pages too.
	e.IPExtractor = cfg.API.IPExtractor()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		if api.Serves(c.Request().URL.Path) {
			cfg.API.HandleError(err, c)
			return
		}
		cfg.Web.ErrorPage(err, c)
	}
	if cfg.Ready == nil {
		cfg.Ready = ops.NewReady(cfg.Logger)
	}
	// Before the routing, so no other middleware sees the probes.
	e.Pre(ops.Routes(cfg.Metrics, cfg.Ready))
	var counted []echo.MiddlewareFunc
	if cfg.Metrics != nil {
		counted = append(counted, cfg.Metrics.Requests(e))
	}
	e.Use(api.Observe(cfg.Logger, counted...)...)
	cfg.API.Register(e)
	cfg.Web.Register(e, web.Limits{Requests: cfg.API.LimitAddress, Stream: cfg.API.OpenStream})
	return e
}

// NewMetrics is the server's registry, which times the moves of the API and
// of the pages as acknowledgements.
func NewMetrics() *ops.Metrics { return ops.NewMetrics(ops.Config{IsMove: isMove}) }

// isMove reports whether a route is a player's move: the API's and the
// pages' routes for the four actions.
func isMove(method, route string) bool {
	if method != http.MethodPost {
		return false
	}
	for _, prefix := range []string{"/api/v1/games/:id/", "/games/:id/"} {
		if a, ok := strings.CutPrefix(route, prefix); ok {
			switch engine.ActionKind(a) {
			case engine.ActPlay, engine.ActCall, engine.ActPass, engine.ActGive:
				return true
			}
		}
	}
	return false
}
