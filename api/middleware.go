package api

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/httpx"
	"bullshit/internal/ratelimit"
)

// Observe is every router's first middleware, the API's alone and the
// whole server's alike: one line logged per request when it ends, and a
// panicking handler logged with its stack and answered as the server's
// fault. It never reads or records bodies, so an event stream passes
// through untouched. The inner middleware (the metrics') go between the two,
// so they see a panic as the server's fault too.
func Observe(log *slog.Logger, inner ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
	logRequests := func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			log.LogAttrs(c.Request().Context(), levelFor(c.Response().Status), "request",
				slog.String("method", c.Request().Method), slog.String("route", c.Path()),
				slog.Int("status", c.Response().Status), slog.Duration("took", time.Since(start)),
				slog.String("addr", c.RealIP()))
			return nil
		}
	}
	recover := middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisableStackAll: true,
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			log.Error("handler panicked", "route", c.Path(), "err", err, "stack", string(stack))
			return err
		},
	})
	return append(append([]echo.MiddlewareFunc{logRequests}, inner...), recover)
}

// LimitAddress applies the per-address limit to a request. The API's routes
// all have it, and the pages' share it (see server.New), so one client
// address has one allowance whichever it uses.
func (s *Server) LimitAddress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ok, wait := s.byAddr.Allow(ratelimit.AddressKey(c.RealIP())); !ok {
			return tooFast(wait)
		}
		return next(c)
	}
}

func tooFast(wait int) error {
	return &httpx.Error{Code: errcode.RateLimited, Message: "Too many requests: slow down and try again shortly.", Wait: time.Duration(wait) * time.Second}
}

// seatKey is the context key a handler reads its seat by.
const seatKey = "seat"

var errNoToken = &game.Error{Code: errcode.Unauthorized, Message: "This needs your seat's token: send it as \"Authorization: Bearer <token>\"."}

// seated requires a token for the game and sets the seat it acts for.
func (s *Server) seated(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token, err := requiredBearer(c)
		if err != nil {
			return err
		}
		return s.authenticate(c, token, next)
	}
}

// requiredBearer is the request's bearer token, refused when there is none.
func requiredBearer(c echo.Context) (string, error) {
	token, err := bearer(c, false)
	if err == nil && token == "" {
		err = errNoToken
	}
	return token, err
}

// tokenKey is the context key a move's handler reads the token by.
const tokenKey = "token"

// tokened requires a token and hands it on unchecked, for a call the table
// authenticates as it serves it (a move), so it is one call to the table.
func (s *Server) tokened(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token, err := requiredBearer(c)
		if err != nil {
			return err
		}
		if ok, wait := s.byTok.Allow(token); !ok {
			return tooFast(wait)
		}
		c.Set(tokenKey, token)
		return next(c)
	}
}

// maybeSeated sets the seat when a token is given, else the spectator's. A
// token that is given but wrong is refused rather than quietly ignored. The
// event stream also takes the token as a query parameter, since a browser's
// EventSource can't set headers.
func (s *Server) maybeSeated(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token, err := bearer(c, strings.HasSuffix(c.Path(), "/events"))
		if err != nil {
			return err
		}
		if token == "" {
			c.Set(seatKey, engine.Spectator)
			return next(c)
		}
		return s.authenticate(c, token, next)
	}
}

func (s *Server) authenticate(c echo.Context, token string, next echo.HandlerFunc) error {
	seat, err := s.games.Authenticate(c.Request().Context(), httpx.GameID(c), token)
	if err != nil {
		return err
	}
	if ok, wait := s.byTok.Allow(token); !ok {
		return tooFast(wait)
	}
	c.Set(seatKey, seat)
	// The table checks the token again as it serves the request, in case
	// the start numbered the seats afresh since this look-up.
	c.SetRequest(c.Request().WithContext(game.WithToken(c.Request().Context(), token)))
	return next(c)
}

// bearer reads the token from the Authorization header, or with query set
// from the token parameter too. No token at all is "".
func bearer(c echo.Context, query bool) (string, error) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if h == "" {
		if query {
			return c.QueryParam("token"), nil
		}
		return "", nil
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", errBadAuthHeader
	}
	return strings.TrimSpace(token), nil
}

var errBadAuthHeader = &game.Error{Code: errcode.Unauthorized, Message: "Send the token as \"Authorization: Bearer <token>\"."}

// seatOf is the seat the request acts for, as seated or maybeSeated set it.
// A route registered without either has none, and fails closed: falling back
// to seat 0 would act as the host.
func seatOf(c echo.Context) (int, error) {
	seat, ok := c.Get(seatKey).(int)
	if !ok {
		return 0, fmt.Errorf("route %s has no seat: it lacks the seated or maybeSeated middleware", c.Path())
	}
	return seat, nil
}

// tokenOf is the token a move is made with, as tokened set it; a route
// registered without it has none, and fails closed as seatOf does.
func tokenOf(c echo.Context) (string, error) {
	token, ok := c.Get(tokenKey).(string)
	if !ok {
		return "", fmt.Errorf("route %s has no seat token: it lacks the tokened middleware", c.Path())
	}
	return token, nil
}

// readBody reads at most MaxBody bytes of the request body.
func readBody(c echo.Context) ([]byte, error) {
	r := c.Request()
	if r.ContentLength > MaxBody {
		return nil, errTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return nil, invalid("The request body couldn't be read.")
	}
	if len(b) > MaxBody {
		return nil, errTooLarge
	}
	return b, nil
}

var errTooLarge = &httpx.Error{Code: errcode.TooLarge, Message: "The request body is too large."}

func levelFor(status int) slog.Level {
	if status >= http.StatusInternalServerError {
		return slog.LevelError
	}
	return slog.LevelInfo
}
