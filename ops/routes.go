package ops

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/internal/ratelimit"
)

// The paths the operator's endpoints are served on.
const (
	PathMetrics = "/metrics"
	PathLive    = "/livez"
	PathReady   = "/readyz"
)

// Allowance is how often one client address may ask the operator's
// endpoints. A scraper every few seconds and a load balancer probing every
// second stay far inside it; a flood from one address is turned away before
// it costs a scrape or a check.
var Allowance = ratelimit.Rate{PerSecond: 5, Burst: 20}

// maxAddresses bounds the allowance's memory.
const maxAddresses = 10000

// Routes is a router's Pre middleware serving /metrics (when metrics is not
// nil), /livez and /readyz ahead of the routing and of every other
// middleware, so none of them logs or authenticates them or counts them as
// requests. Each takes GET and HEAD only, within Allowance per client
// address (by the router's IPExtractor); the requests turned away are
// counted as bullshit_ops_requests_limited_total.
func Routes(metrics *Metrics, ready *Ready) echo.MiddlewareFunc {
	return routes(metrics, ready, time.Now)
}

func routes(metrics *Metrics, ready *Ready, now func() time.Time) echo.MiddlewareFunc {
	var scrape http.Handler
	var limited atomic.Int64
	if metrics != nil {
		scrape = metrics.Handler()
		metrics.Counter("ops_requests_limited_total", "Requests to the metrics, liveness and readiness endpoints turned away for coming too often from one address.",
			limited.Load)
	}
	allowance := ratelimit.New(Allowance, maxAddresses, now)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			w, r := c.Response(), c.Request()
			switch r.URL.Path {
			case PathLive, PathReady:
			case PathMetrics:
				if scrape == nil {
					return next(c)
				}
			default:
				return next(c)
			}
			if !probeMethod(w, r) {
				return nil
			}
			if ok, wait := allowance.Allow(ratelimit.AddressKey(c.RealIP())); !ok {
				limited.Add(1)
				w.Header().Set("Retry-After", strconv.Itoa(wait))
				answer(w, http.StatusTooManyRequests, "too many requests\n")
				return nil
			}
			switch r.URL.Path {
			case PathLive:
				ServeLive(w, r)
			case PathReady:
				ready.ServeReady(w, r)
			default:
				scrape.ServeHTTP(w, r)
			}
			return nil
		}
	}
}
