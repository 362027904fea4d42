package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/internal/httpx"
)

// The cookies the pages set.
const (
	// seatCookie holds a seat's token, scoped to its game's path.
	seatCookie = "seat"
	// nameCookie remembers the name this browser last played under.
	nameCookie = "name"
	// assistsCookie lists the assists turned off.
	assistsCookie = "assists_off"
	// alertsCookie lists the alerts turned on, once any was changed.
	alertsCookie = "alerts"
)

// seatAge is how long a browser keeps its seat: long enough to come back to
// a game, short enough not to pile up.
const seatAge = 7 * 24 * time.Hour

// setSeat gives the browser the seat's token for this game only.
func (h *Handler) setSeat(c echo.Context, game, token string) {
	h.setCookie(c, &http.Cookie{Name: seatCookie, Value: token, Path: "/games/" + game, MaxAge: int(seatAge.Seconds())})
}

func (h *Handler) setName(c echo.Context, name string) {
	h.setCookie(c, &http.Cookie{Name: nameCookie, Value: url.QueryEscape(name), Path: "/", MaxAge: 365 * 24 * 3600})
}

// setCookie sets one of the pages' cookies, each HttpOnly (no script
// reads them), SameSite=Lax (another site's posts go without them) and
// Secure whenever the browser reached the server over HTTPS.
func (h *Handler) setCookie(c echo.Context, k *http.Cookie) {
	k.HttpOnly, k.SameSite, k.Secure = true, http.SameSiteLaxMode, h.secure(c.Request())
	c.SetCookie(k)
}

// secure reports whether the browser reached the server over HTTPS: always
// with Config.SecureCookies, else when the connection is TLS, or when it
// comes from a trusted proxy that says so in X-Forwarded-Proto (anyone
// else's X-Forwarded-Proto is the client's to forge).
func (h *Handler) secure(r *http.Request) bool {
	return h.secureCookies || r.TLS != nil || httpx.ForwardedHTTPS(h.trusted, r)
}

func lastName(c echo.Context) string {
	if k, err := c.Cookie(nameCookie); err == nil {
		if name, err := url.QueryUnescape(k.Value); err == nil {
			return name
		}
	}
	return ""
}

// identify is the seat this browser holds at the game, or the spectator's,
// and the request's context carrying the token for the table to check again.
func (h *Handler) identify(c echo.Context, id string) (int, context.Context) {
	ctx := c.Request().Context()
	token := h.token(c)
	if token == "" {
		return engine.Spectator, ctx
	}
	seat, err := h.games.Authenticate(ctx, id, token)
	if err != nil {
		return engine.Spectator, ctx
	}
	return seat, game.WithToken(ctx, token)
}

// token is the seat token this browser holds for the game, "" for none.
func (h *Handler) token(c echo.Context) string {
	if k, err := c.Cookie(seatCookie); err == nil {
		return k.Value
	}
	return ""
}

// seated is identify for a change only a seated player may make.
func (h *Handler) seated(c echo.Context, game string) (int, context.Context, error) {
	seat, ctx := h.identify(c, game)
	if seat == engine.Spectator {
		return 0, ctx, errNotSeated
	}
	return seat, ctx, nil
}

var errNotSeated = &pageError{status: http.StatusUnauthorized, title: "Not seated",
	message: "You don't have a seat at this table: take one from the game's page."}

func gameID(c echo.Context) string { return strings.ToLower(strings.TrimSpace(c.Param("id"))) }
