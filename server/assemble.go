package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/api"
	"bullshit/game"
	"bullshit/live"
	"bullshit/ops"
	"bullshit/players"
	"bullshit/push"
	"bullshit/store"
	"bullshit/web"
)

// Settings are the server's choices that differ from host to host, or in a
// test. Zero fields take the defaults.
type Settings struct {
	// TrustedProxies are the proxies whose X-Forwarded-For is believed (see
	// api.Config).
	TrustedProxies []netip.Prefix
	// PerAddress and PerToken are the API's request limits.
	PerAddress, PerToken api.Rate
	// TrustedOrigins and SecureCookies are the pages' (see web.Config).
	TrustedOrigins []string
	SecureCookies  bool
	// Passwords are the password hash's costs; tests lower them.
	Passwords players.Params
	// StreamsPerAddress bounds the event streams one client address holds
	// open (api's default when 0).
	StreamsPerAddress int
	// MaxOpen and MaxOpenPerAddress cap the tables waiting for players
	// (live's defaults when 0).
	MaxOpen, MaxOpenPerAddress int
	// MaxLateness is how late the tables may run before the node is full
	// and refuses new tables and joins (live's default when 0, never full
	// when negative).
	MaxLateness time.Duration
	// LimitsNow is the request limiters' clock and AccountsNow the
	// accounts' (the real one when nil, as a session's cookie expires by
	// the browser's clock, not the tables'); tests hold them still.
	LimitsNow, AccountsNow func() time.Time
	// Cluster makes the site a node of a cluster; nil runs it alone.
	Cluster *Cluster
}

// Site is the whole server, put together once by Assemble: `bullshit serve`
// serves it and the browser tests drive it.
type Site struct {
	// Handler is the one router: the API, the pages and their streams.
	Handler http.Handler
	// Manager runs the tables.
	Manager *live.Manager
	// Accounts signs people in.
	Accounts *players.Service
	// Hub sends the tables' frames to every stream; Pages are the browser
	// pages, whose assets' addresses a test may want.
	Hub   *push.Hub
	Pages *web.Handler
	// Metrics is served on /metrics; Ready answers /readyz, and is told
	// when the node drains.
	Metrics *ops.Metrics
	Ready   *ops.Ready
	// Mesh is the node's part in a cluster; nil on a single node.
	Mesh *Mesh

	stopWork   context.CancelFunc // ends the hub and the session sweep
	stopTables context.CancelFunc // the tables' own context, after their Close
	work       sync.WaitGroup
	stopOnce   sync.Once
}

// Assemble builds the server on a store and a clock: the frame renderer, the
// push hub that sends its frames, the tables that publish to the hub, the
// accounts, the pages and the API, and the router over them; then, with
// every reference the tables call set, starts the tables (replaying every
// unfinished game), the hub and the hourly sweep of expired sessions. The tables outlive ctx's cancellation: Close stops
// everything, in order. The store stays the caller's, to close after Close.
func Assemble(ctx context.Context, st *store.Store, clock live.Clock, logger *slog.Logger, s Settings) (*Site, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if clock == nil {
		clock = live.RealClock{}
	}
	// The browsers' frames are rendered once per seat per change however
	// many tabs follow the seat; the API's stay JSON. The renderer needs
	// nothing else, so the order is renderer, hub, tables, pages. The one
	// reference filled in later is the lobby's: its lists are the tables',
	// which publish to the hub that sends the lists, a cycle in the data
	// itself. The hub asks for them only once it runs (started last, below)
	// or serves a stream, by which time the pages exist.
	mesh, err := startMesh(ctx, st, s.Cluster, logger)
	if err != nil {
		return nil, err
	}
	frames := web.NewFrames()
	var pages *web.Handler
	hub := push.New(push.Config{Logger: logger,
		Formats: map[string]push.Encoder{
			api.FormatJSON: api.JSONEncoder,
			web.FormatHTML: push.EncoderFunc(func(f game.Frame, _ time.Time) (push.Event, bool, error) {
				return frames.FrameEvent(f, clock.Now())
			}),
		},
		Lobby: func(ctx context.Context) (push.Event, error) { return pages.LobbyEvent(ctx) },
		Ends:  map[string]bool{web.FormatHTML: true},
		Watch: mesh.follow(), Lobbied: mesh.lobbied(),
	})
	mesh.withHub(hub, logger)
	runCtx, stopTables := context.WithCancel(context.WithoutCancel(ctx))
	mgr, err := live.New(runCtx, live.Config{Store: st, Publisher: mesh.publisher(hub), Clock: clock, Logger: logger,
		MaxOpen: s.MaxOpen, MaxOpenPerAddress: s.MaxOpenPerAddress, MaxLateness: s.MaxLateness, Cluster: mesh.live()})
	if err != nil {
		stopTables()
		mesh.close()
		return nil, fmt.Errorf("making the tables: %w", err)
	}
	accounts, err := players.New(players.Config{Store: st, Logger: logger, Params: s.Passwords, Now: s.AccountsNow})
	if err != nil {
		_ = mgr.Close(context.Background())
		stopTables()
		mesh.close()
		return nil, err
	}
	games := mesh.games(mgr)
	pages = web.New(web.Config{Games: games, Logger: logger, Now: clock.Now, Frames: frames, Accounts: accounts,
		Stream: func(c echo.Context, id string, seat int) error {
			read := func() (game.Frame, error) { return games.Frame(c.Request().Context(), id, seat) }
			f, err := read()
			if err != nil {
				return err
			}
			return hub.Serve(c, id, seat, web.FormatHTML, f, read)
		},
		LobbyStream:    hub.ServeLobby,
		TrustedOrigins: s.TrustedOrigins,
		TrustedProxies: s.TrustedProxies,
		SecureCookies:  s.SecureCookies,
	})
	apiServer := api.New(api.Config{Games: games, Hub: hub, Logger: logger, TrustedProxies: s.TrustedProxies,
		PerAddress: s.PerAddress, PerToken: s.PerToken, StreamsPerAddress: s.StreamsPerAddress, Now: s.LimitsNow,
		Players: accounts, Standings: accounts})
	// Everything the tables call now exists: they start, taking their games
	// (in a cluster, a node restarted under its name takes its own back and
	// publishes them at once).
	began := time.Now()
	if err := mgr.StartTables(); err != nil {
		_ = mgr.Close(context.Background())
		stopTables()
		mesh.close()
		return nil, fmt.Errorf("starting the tables: %w", err)
	}
	metrics, ready := operations(st, mgr, hub, time.Since(began), logger)
	clusterOperations(metrics, ready, mgr, mesh)
	mesh.operate(metrics, ready, mgr)
	site := &Site{Handler: New(Config{API: apiServer, Web: pages, Logger: logger, Metrics: metrics, Ready: ready}),
		Manager: mgr, Accounts: accounts, Hub: hub, Pages: pages, Metrics: metrics, Ready: ready, Mesh: mesh,
		stopTables: stopTables}
	workCtx, stopWork := context.WithCancel(runCtx)
	site.stopWork = stopWork
	site.work.Go(func() { hub.Run(workCtx) })
	site.work.Go(func() { removeExpiredSessions(workCtx, accounts, logger) })
	return site, nil
}

// StopStreams ends every event stream and the background work. Call it as
// the HTTP server shuts down, which would otherwise wait for the streams.
func (s *Site) StopStreams() {
	s.stopOnce.Do(func() {
		s.stopWork()
		s.work.Wait()
	})
}

// Close stops the site in order: the streams and the background work (if
// StopStreams hasn't), then the tables, which have until ctx ends to store
// their last moves.
func (s *Site) Close(ctx context.Context) error {
	s.StopStreams()
	err := s.Mesh.handOver(ctx, s.Manager)
	err = errors.Join(err, s.Manager.Close(ctx))
	s.stopTables()
	s.Mesh.close()
	return err
}

// operations builds what an operator sees of the site: the metrics, fed by
// the tables and the hub, with recovered the time the tables took to load
// and replay; and the readiness checks. Migrations need none: the store is
// migrated as it opens, before the site exists to answer a probe.
func operations(st *store.Store, mgr *live.Manager, hub *push.Hub, recovered time.Duration, logger *slog.Logger) (*ops.Metrics, *ops.Ready) {
	metrics := NewMetrics()
	metrics.Watch(mgr)
	metrics.Streams(hub.Subscribers)
	metrics.Recovered(recovered)
	ready := ops.NewReady(logger)
	ready.Add("database", func(ctx context.Context) error { return st.DB().PingContext(ctx) })
	return metrics, ready
}

// sessionSweep is how often the sessions nobody came back to are deleted.
const sessionSweep = time.Hour

// removeExpiredSessions deletes expired sessions every sessionSweep until
// ctx ends.
func removeExpiredSessions(ctx context.Context, accounts *players.Service, logger *slog.Logger) {
	t := time.NewTicker(sessionSweep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := accounts.RemoveExpired(ctx); err != nil {
				logger.Warn("removing expired sessions failed", "err", err)
			} else if n > 0 {
				logger.Info("expired sessions removed", "sessions", n)
			}
		}
	}
}
