// Package server builds the one HTTP router the binary serves: the JSON API
// under /api/v1 (and /healthz) and the browser pages, each registering its
// own routes, with one error handler that answers the API's paths in JSON
// and every other path with an HTML page.
package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

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
	e.Use(logRequests(cfg.Logger), middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisableStackAll: true,
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			cfg.Logger.Error("handler panicked", "route", c.Path(), "err", err, "stack", string(stack))
			return err
		},
	}))
	cfg.API.Register(e)
	cfg.Web.Register(e, web.Limits{Requests: cfg.API.LimitAddress, Stream: cfg.API.OpenStream})
	return e
}

// logRequests writes one line per request when it ends. It never reads or
// records bodies, so an event stream passes through untouched.
func logRequests(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			level := slog.LevelInfo
			if c.Response().Status >= http.StatusInternalServerError {
				level = slog.LevelError
			}
			log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", c.Request().Method), slog.String("route", c.Path()),
				slog.Int("status", c.Response().Status), slog.Duration("took", time.Since(start)),
				slog.String("addr", c.RealIP()))
			return nil
		}
	}
}
