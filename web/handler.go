package web

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/httpx"
	"bullshit/views"
)

// Config configures a Handler.
type Config struct {
	Games  game.Service
	Logger *slog.Logger
	// Stream serves a seat's (or a spectator's) event stream of rendered
	// frames; LobbyStream the lobby's. Either may be nil: the page then
	// asks for its frame every second instead.
	Stream      func(c echo.Context, game string, seat int) error
	LobbyStream func(c echo.Context) error
	// Now is the clock the reveal and the clock bar are timed by; nil is
	// the real one. It must be the tables' clock.
	Now func() time.Time
	// Accounts signs people in and reads the leaderboard and the player
	// pages; nil leaves everyone a guest.
	Accounts Accounts
	// TrustedOrigins may post to the pages besides the request's own
	// origin (see ParseTrustedOrigins): another site of the operator's, or
	// the public origin when a proxy in front rewrites the Host header.
	TrustedOrigins []string
	// TrustedProxies are the proxies whose X-Forwarded-Proto is believed
	// (the API's, see api.Config); SecureCookies marks every cookie Secure
	// whatever the request says, for a server only ever reached over HTTPS.
	TrustedProxies []netip.Prefix
	SecureCookies  bool
	// Renderer renders the streams' frames; nil makes one.
	Renderer *Renderer
}

// Handler serves the browser pages.
type Handler struct {
	games  game.Service
	log    *slog.Logger
	assets *Assets
	stream func(c echo.Context, game string, seat int) error
	lobby  func(c echo.Context) error
	now    func() time.Time

	accounts Accounts
	origins  *http.CrossOriginProtection

	trusted       []netip.Prefix
	secureCookies bool
	renderer      *Renderer

	reviewCache reviewCache
}

// New builds the handler; it panics if the embedded assets are broken,
// which only a bad build can cause, or a trusted origin is malformed (read
// them with ParseTrustedOrigins).
func New(cfg Config) *Handler {
	a, err := loadAssets()
	if err != nil {
		panic(err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	origins := http.NewCrossOriginProtection()
	for _, o := range cfg.TrustedOrigins {
		if err := origins.AddTrustedOrigin(o); err != nil {
			panic(fmt.Errorf("web: trusted origin: %w", err))
		}
	}
	if cfg.Renderer == nil {
		cfg.Renderer = NewRenderer()
	}
	return &Handler{games: cfg.Games, log: cfg.Logger, assets: a, stream: cfg.Stream, lobby: cfg.LobbyStream, now: cfg.Now,
		accounts: cfg.Accounts, origins: origins, trusted: slices.Clone(cfg.TrustedProxies), secureCookies: cfg.SecureCookies,
		renderer: cfg.Renderer}
}

// Assets are the handler's static files.
func (h *Handler) Assets() *Assets { return h.assets }

// Register adds the browser routes to e, every one behind the limits, and
// each with a game code in its path behind the API's check that the code
// could be one. Every route but the static files and the event streams
// refuses a cross-origin post (see crossOrigin).
func (h *Handler) Register(e *echo.Echo, limits Limits) {
	e.GET(staticPrefix+"*", h.assets.serve, limits.Requests)
	e.GET("/favicon.ico", h.assets.serveFavicon, limits.Requests)
	e.GET("/manifest.webmanifest", h.assets.serveManifest, limits.Requests)
	e.GET("/games/:id/events", h.events, limits.Requests, httpx.CheckGameID, countStream(limits.Stream))
	e.GET("/lobby/events", h.lobbyEvents, limits.Requests, countStream(limits.Stream))

	// The checks are each route's own: a group's middleware would also
	// answer every unknown path, the API's included.
	g := routes{e: e, mw: []echo.MiddlewareFunc{limits.Requests, httpx.CheckGameID, h.crossOrigin, h.signedIn}}
	g.GET("/", h.lobbyPage)
	g.GET("/lobby/lists", h.lobbyLists)
	g.GET("/rules", h.rulesPage)
	g.GET("/options", h.optionsPage)
	g.POST("/options", h.saveOptions)
	g.POST("/games", h.create)
	g.POST("/join", h.joinByCode)
	g.GET("/games/:id", h.gamePage)
	g.GET("/games/:id/frame", h.framePart)
	g.GET("/games/:id/hint", h.hint)
	g.POST("/games/:id/join", h.join)
	g.POST("/games/:id/start", h.start)
	g.POST("/games/:id/bots", h.addBot)
	g.POST("/games/:id/bots/:seat/remove", h.removeBot)
	g.POST("/games/:id/again", h.again)
	h.registerReview(g)
	for _, a := range []engine.ActionKind{engine.ActPlay, engine.ActCall, engine.ActPass, engine.ActGive} {
		g.POST("/games/:id/"+string(a), h.move(a))
	}
	h.registerAccounts(g)
}

// routes adds routes with the same middleware.
type routes struct {
	e  *echo.Echo
	mw []echo.MiddlewareFunc
}

func (r routes) GET(path string, h echo.HandlerFunc)  { r.e.GET(path, h, r.mw...) }
func (r routes) POST(path string, h echo.HandlerFunc) { r.e.POST(path, h, r.mw...) }

// shell is every page's frame for this request.
func (h *Handler) shell(c echo.Context, title, main string) views.Shell {
	var signedIn string
	if a, ok := account(c); ok {
		signedIn = a.Name
	}
	return views.Shell{
		Title: title, Account: signedIn,
		Assets: views.Assets{CSS: h.assets.URL("site.css"), HTMX: h.assets.URL("htmx.min.js"), SSE: h.assets.URL("sse.js"),
			Morph: h.assets.URL("idiomorph-ext.min.js"), Table: h.assets.URL("table.js"),
			Icon: h.assets.URL("icon.svg"), TouchIcon: h.assets.URL("icon-180.png")},
		Main: main,
	}
}

// render writes a component as the answer.
func render(c echo.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	return writeHTML(c, status, buf.Bytes())
}

// gzipFrom is the smallest page worth compressing.
const gzipFrom = 1024

// writeHTML answers with HTML that no cache keeps, gzipped when the client
// takes it and it is big enough to gain.
func writeHTML(c echo.Context, status int, b []byte) error {
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "Accept-Encoding")
	if len(b) < gzipFrom || !acceptsGzip(c.Request()) {
		return c.HTMLBlob(status, b)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(b); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	h.Set("Content-Encoding", "gzip")
	return c.HTMLBlob(status, z.Bytes())
}

// pageError is a refusal shown as a page (or, to htmx, in the status line).
type pageError struct {
	status         int
	title, message string
}

func (e *pageError) Error() string { return e.message }

// ErrorPage writes err as the browser's error page, or to an htmx request
// as the status line. It is the router's error handler for browser paths.
func (h *Handler) ErrorPage(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, title, msg := describe(err)
	httpx.SetRetryAfter(c.Response().Header(), err)
	if status >= 500 {
		h.log.Error("page failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	var werr error
	if c.Request().Header.Get("HX-Request") == "true" {
		// To htmx the refusal is the status line; the page swaps error
		// answers too (see the htmx-config in the layout).
		werr = render(c, status, views.StatusLine(msg, true))
	} else {
		p := views.ErrorPage{Shell: h.shell(c, title+" · Bullshit", "error"), Status: status, Title: title, Message: msg}
		werr = render(c, status, views.ErrorView(p))
	}
	if werr != nil {
		h.log.Debug("writing an error page failed", "err", werr)
	}
}

// describe words any error for a person, with the status errcode's table
// gives a refusal.
func describe(err error) (status int, title, msg string) {
	var (
		pe *pageError
		ee *engine.Error
		le *game.Error
		he *echo.HTTPError
	)
	code, msg, refused := errcode.Of(err)
	switch {
	case errors.As(err, &pe):
		return pe.status, pe.title, pe.message
	case errors.As(err, &ee):
		return errcode.Status(code), "Not allowed", msg
	case errors.As(err, &le):
		return errcode.Status(code), "Not possible", msg
	case refused && errcode.Status(code) == http.StatusTooManyRequests:
		// The API's own limits, which the pages share.
		return http.StatusTooManyRequests, "Slow down", msg
	case refused && errcode.Known(code):
		return errcode.Status(code), "Not possible", msg
	case errors.As(err, &he):
		switch he.Code {
		case http.StatusNotFound:
			return he.Code, "Nothing here", "There's no page at that address."
		case http.StatusMethodNotAllowed:
			return he.Code, "Not allowed", "That page can't be used that way."
		case http.StatusForbidden:
			return he.Code, "Refused", "That request was refused."
		}
		if he.Code < 500 {
			return he.Code, "That didn't work", "The request couldn't be read."
		}
	}
	return http.StatusInternalServerError, "Something went wrong", "Something went wrong on our side. Try again in a moment."
}
