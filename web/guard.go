package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Limits are the per-client-address limits, the API's own (api.Server's
// LimitAddress and OpenStream): the pages count against the same
// allowances, not copies of them, so a client has one allowance whichever
// it uses.
type Limits struct {
	// Requests refuses a request from an address sending too fast.
	Requests echo.MiddlewareFunc
	// Stream counts an event stream opened by the request's address,
	// refusing one past the limit; the func it returns counts it closed.
	Stream func(c echo.Context) (func(), error)
}

// countStream holds a count of the event stream a request opens while it
// is served.
func countStream(open func(echo.Context) (func(), error)) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			done, err := open(c)
			if err != nil {
				return err
			}
			defer done()
			return next(c)
		}
	}
}

// crossOrigin refuses a post (any method but GET, HEAD and OPTIONS) that a
// browser sent from another origin, by the standard library's check: a
// Sec-Fetch-Site other than same-origin (every current browser sends it),
// or else an Origin whose host isn't the request's Host, unless it is one of
// the trusted origins. A post with neither header is not a browser's on
// another site's behalf (browsers send one of them on every post), so it
// goes on, as a script's or curl's does. The pages keep no token for this:
// a token in a cookie can be overwritten by a page of the same site on
// another port, which the origin check refuses anyway.
func (h *Handler) crossOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := h.origins.Check(c.Request()); err != nil {
			return errCrossOrigin
		}
		return next(c)
	}
}

var errCrossOrigin = &pageError{status: http.StatusForbidden, title: "Refused",
	message: "That request came from another site, so nothing was changed."}

// ParseTrustedOrigins reads a comma-separated list of origins
// ("https://game.example") that may post to the pages although they aren't
// the request's own, for Config.TrustedOrigins.
func ParseTrustedOrigins(s string) ([]string, error) {
	var out []string
	check := http.NewCrossOriginProtection()
	for o := range strings.SplitSeq(s, ",") {
		if o = strings.TrimSpace(o); o == "" {
			continue
		}
		if err := check.AddTrustedOrigin(o); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}
