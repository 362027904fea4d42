// Package api serves the game over HTTP: a JSON API under /api/v1 for
// clients and bots, and a server-sent event stream of each seat's view.
package api

import (
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/internal/httpx"
	"bullshit/internal/ratelimit"
	"bullshit/push"
)

// Config configures a Server. Zero fields take the defaults.
type Config struct {
	Games  game.Service
	Hub    *push.Hub
	Logger *slog.Logger
	// Players finds the account of an API token; nil refuses account
	// tokens.
	Players Players
	// Standings reads the leaderboard and the player pages; nil answers
	// those routes with a refusal.
	Standings Standings
	// PerAddress and PerToken limit how fast one client address, and one
	// seat's token, may make requests.
	PerAddress Rate
	PerToken   Rate
	// StreamsPerAddress bounds the event streams one client address may
	// hold open at once.
	StreamsPerAddress int
	// TrustedProxies are the proxies (a TLS terminator, a load balancer)
	// whose X-Forwarded-For is believed for the client's address; none by
	// default, when the connection's own address is the client's.
	TrustedProxies []netip.Prefix
	// Now is the limiters' clock; nil is the real one.
	Now func() time.Time
}

// Rate is a limit's refill rate and burst.
type Rate = ratelimit.Rate

// The default limits: a person clicks a few times a second at most, and a bot
// polling its view once a second with moves between stays far inside them.
var (
	DefaultPerAddress = Rate{PerSecond: 30, Burst: 60}
	DefaultPerToken   = Rate{PerSecond: 10, Burst: 20}
)

// maxBuckets bounds each limiter's memory.
const maxBuckets = 10000

// DefaultStreamsPerAddress is enough for a household watching a few tables
// from a few devices, and small enough that no one client can hold a large
// share of the server's connections.
const DefaultStreamsPerAddress = 32

// Server is the HTTP API.
type Server struct {
	games  game.Service
	hub    *push.Hub
	log    *slog.Logger
	byAddr *ratelimit.Limiter
	byTok  *ratelimit.Limiter
	echo   *echo.Echo

	players   Players
	standings Standings

	trusted    []netip.Prefix
	maxStreams int
	mu         sync.Mutex
	streams    map[string]int // open event streams by client address
}

// New builds the server and its routes.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PerAddress == (Rate{}) {
		cfg.PerAddress = DefaultPerAddress
	}
	if cfg.PerToken == (Rate{}) {
		cfg.PerToken = DefaultPerToken
	}
	if cfg.StreamsPerAddress <= 0 {
		cfg.StreamsPerAddress = DefaultStreamsPerAddress
	}
	s := &Server{
		games:  cfg.Games,
		hub:    cfg.Hub,
		log:    cfg.Logger,
		byAddr: ratelimit.New(cfg.PerAddress, maxBuckets, cfg.Now),
		byTok:  ratelimit.New(cfg.PerToken, maxBuckets, cfg.Now),

		players:   cfg.Players,
		standings: cfg.Standings,

		trusted:    slices.Clone(cfg.TrustedProxies),
		maxStreams: cfg.StreamsPerAddress,
		streams:    make(map[string]int),
	}
	s.echo = s.routes()
	return s
}

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Routes lists every method and path served, for the OpenAPI check.
func (s *Server) Routes() [][2]string {
	var out [][2]string
	for _, r := range s.echo.Routes() {
		out = append(out, [2]string{r.Method, r.Path})
	}
	return out
}

// routes is the API alone on a router of its own, as the tests and a bare
// API server use it.
func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.HandleError
	e.IPExtractor = s.IPExtractor()
	e.Use(Observe(s.log)...)
	s.Register(e)
	return e
}

// IPExtractor is how the API reads a request's client address: the
// connection's, or behind a trusted proxy the client's address it forwards;
// otherwise headers such as X-Forwarded-For are the client's to forge. The
// router the API is registered on must use it, so the per-address limits
// count clients rather than proxies.
func (s *Server) IPExtractor() echo.IPExtractor { return httpx.ClientIP(s.trusted) }

// Register adds the API's routes to e: /healthz and everything under
// /api/v1, each behind the per-address limit and, with a game code in its
// path, the check that the code could be one. The router's error handler
// must send errors on those paths to HandleError.
func (s *Server) Register(e *echo.Echo) {
	e.GET("/healthz", s.healthz, s.LimitAddress)
	// The middleware is each route's own: a group's would also answer every
	// unknown path under it, turning a wrong method's 405 into 404.
	g := e.Group("/api/v1")
	add := func(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
		g.Add(method, path, h, append([]echo.MiddlewareFunc{s.LimitAddress, httpx.CheckGameID}, m...)...)
	}
	add(http.MethodGet, "/me", s.me, s.withAccount)
	add(http.MethodPost, "/games", s.create, s.maybeAccount)
	add(http.MethodGet, "/games", s.list)
	add(http.MethodGet, "/games/:id", s.get)
	add(http.MethodPost, "/games/:id/join", s.join, s.maybeAccount)
	add(http.MethodPost, "/games/:id/start", s.start, s.seated)
	add(http.MethodPost, "/games/:id/leave", s.leave, s.seated)
	add(http.MethodPost, "/games/:id/end", s.end, s.seated)
	add(http.MethodPost, "/games/:id/seats/:seat/bot", s.handToBot, s.seated)
	add(http.MethodGet, "/games/:id/seats", s.seats)
	add(http.MethodGet, "/games/:id/view", s.view, s.maybeSeated)
	add(http.MethodGet, "/games/:id/log", s.gameLog, s.maybeSeated)
	add(http.MethodGet, "/games/:id/record", s.record)
	add(http.MethodPost, "/games/:id/play", s.act(engine.ActPlay), s.tokened)
	add(http.MethodPost, "/games/:id/call", s.act(engine.ActCall), s.tokened)
	add(http.MethodPost, "/games/:id/pass", s.act(engine.ActPass), s.tokened)
	add(http.MethodPost, "/games/:id/give", s.act(engine.ActGive), s.tokened)
	add(http.MethodGet, "/games/:id/events", s.events, s.maybeSeated)
	s.registerStandings(add)
}

// Serves reports whether a path is the API's: its errors are JSON.
func Serves(path string) bool {
	return path == "/healthz" || path == "/api" || strings.HasPrefix(path, "/api/")
}

// OpenStream counts an event stream opened by the request's client
// address, refusing one past the limit; the returned func counts it closed.
// The pages' streams are counted here too (see server.New), so one address
// holds at most StreamsPerAddress of the two together.
func (s *Server) OpenStream(c echo.Context) (closeStream func(), err error) {
	addr := ratelimit.AddressKey(c.RealIP())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streams[addr] >= s.maxStreams {
		return nil, &httpx.Error{Code: errcode.RateLimited, Wait: 5 * time.Second,
			Message: "Too many event streams open from your address: close some and try again."}
	}
	s.streams[addr]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.streams[addr]--; s.streams[addr] == 0 {
			delete(s.streams, addr)
		}
	}, nil
}
