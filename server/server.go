// Package server builds the one HTTP router the binary serves: the JSON API
// under /api/v1 (and /healthz) and the browser pages, each registering its
// own routes, with one error handler that answers the API's paths in JSON
// and every other path with an HTML page.
package server

import (
	"log/slog"

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/web"
)

// Config is what the router is built from.
type Config struct {
	API    *api.Server
	Web    *web.Handler
	Logger *slog.Logger
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
	e.Use(api.Observe(cfg.Logger)...)
	cfg.API.Register(e)
	cfg.Web.Register(e, web.Limits{Requests: cfg.API.LimitAddress, Stream: cfg.API.OpenStream})
	return e
}
