// Package httpx is what both front ends, the JSON API and the pages, need
// of a request before either asks the tables anything: the client's address
// behind trusted proxies, whether it came over HTTPS, a route's game code
// checked, and the refusals made at the HTTP layer itself.
package httpx

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/errcode"
	"bullshit/naming"
)

// Error is a refusal made before the tables are asked, such as a body that
// isn't JSON or a client sending too fast.
type Error struct {
	Code    errcode.Code
	Message string
	// Wait is how long the client is asked to wait, for a rate limit.
	Wait time.Duration
}

func (e *Error) Error() string { return e.Message }

// ErrorCode is the refusal's code, for errcode's table.
func (e *Error) ErrorCode() errcode.Code { return e.Code }

// RetryAfter is how long the client is asked to wait; see errcode.RetryAfter.
func (e *Error) RetryAfter() time.Duration { return e.Wait }

// ErrNoGame is the refusal of a game code no game has.
var ErrNoGame = &Error{Code: errcode.NotFound, Message: "There's no game with that code."}

// GameID is the route's game code, as games are stored (lower case).
func GameID(c echo.Context) string { return strings.ToLower(c.Param("id")) }

// CheckGameID answers "no such game" for a route's game code that no game
// can have, before anything looks it up: a NUL byte or a page of text is the
// client's mistake, not a database's failure to report.
func CheckGameID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if slices.Contains(c.ParamNames(), "id") && !naming.ValidGameID(GameID(c)) {
			return ErrNoGame
		}
		return next(c)
	}
}

// SetRetryAfter sets the Retry-After header to the whole seconds err's
// refusal asks the client to wait, if it asks any (see errcode.RetryAfter):
// the API's answers and the pages' alike.
func SetRetryAfter(h http.Header, err error) {
	if wait := errcode.RetryAfter(err); wait > 0 {
		h.Set("Retry-After", strconv.Itoa(wait))
	}
}
