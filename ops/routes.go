package ops

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// The paths the operator's endpoints are served on.
const (
	PathMetrics = "/metrics"
	PathLive    = "/livez"
	PathReady   = "/readyz"
)

// Routes is a router's Pre middleware serving /metrics (when metrics is not
// nil), /livez and /readyz ahead of the routing and of every other
// middleware, so none of them logs, limits, authenticates or counts them.
func Routes(metrics *Metrics, ready *Ready) echo.MiddlewareFunc {
	var scrape http.Handler
	if metrics != nil {
		scrape = metrics.Handler()
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			w, r := c.Response(), c.Request()
			switch r.URL.Path {
			case PathLive:
				ServeLive(w, r)
			case PathReady:
				ready.ServeReady(w, r)
			case PathMetrics:
				if scrape == nil {
					return next(c)
				}
				scrape.ServeHTTP(w, r)
			default:
				return next(c)
			}
			return nil
		}
	}
}
