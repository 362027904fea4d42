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
	"bullshit/internal/clocks"
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
	// Observer, when set, is told of every frame and closing the tables
	// publish, before the hub is; Stamp, when set, wraps each stream
	// format's encoder. The load test counts the frames and times the
	// events with them, on the server as it runs.
	Observer game.Publisher
	Stamp    func(format string, enc push.Encoder) push.Encoder
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
	closeOnce  sync.Once
}

// Assemble builds the server on a store and a clock, in three phases, so
// that nothing runs before what it calls is there:
//
//  1. build, each part over the parts below it: on a node of a cluster
//     the NATS connection, then the frame renderer, the push hub, the
//     tables, the cluster's parts over the tables (on a node
//     of a cluster), the accounts, the pages, the API, the router and the
//     operator's checks;
//  2. connect the calls that go back up, to parts built over their caller:
//     the hub's to the pages (the lobby) and the cluster's Relay, the
//     tables' to the hub or the cluster;
//  3. start: the peers' checks, the tables (replaying every unfinished
//     game; in a cluster, taking the node's own back and claiming), the
//     hub and the hourly sweep of expired sessions.
//
// The tables outlive ctx's cancellation: Close stops everything, in order.
// The store stays the caller's, to close after Close.
func Assemble(ctx context.Context, st *store.Store, clock clocks.Clock, logger *slog.Logger, s Settings) (*Site, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if clock == nil {
		clock = clocks.Real{}
	}
	// Build.
	mesh, err := newMesh(ctx, st, s.Cluster, logger)
	if err != nil {
		return nil, err
	}
	// The browsers' frames are rendered once per seat per change however
	// many tabs follow the seat; the API's stay JSON.
	renderer := web.NewRenderer()
	formats := map[string]push.Encoder{
		api.FormatJSON: api.JSONEncoder,
		web.FormatHTML: push.EncoderFunc(func(f game.Frame, _ time.Time) (push.Event, bool, error) {
			return renderer.FrameEvent(f, clock.Now())
		}),
	}
	if s.Stamp != nil {
		for name, enc := range formats {
			formats[name] = s.Stamp(name, enc)
		}
	}
	hub := push.New(push.Config{Logger: logger, Formats: formats, Ends: map[string]bool{web.FormatHTML: true}})
	runCtx, stopTables := context.WithCancel(context.WithoutCancel(ctx))
	mgr, err := live.New(runCtx, live.Config{Store: st, Clock: clock, Logger: logger,
		MaxOpen: s.MaxOpen, MaxOpenPerAddress: s.MaxOpenPerAddress, MaxLateness: s.MaxLateness, Node: mesh.live()})
	if err != nil {
		stopTables()
		mesh.close()
		return nil, fmt.Errorf("making the tables: %w", err)
	}
	games := mesh.build(mgr, hub)
	accounts, err := players.New(players.Config{Store: st, Logger: logger, Params: s.Passwords, Now: s.AccountsNow})
	if err != nil {
		stopTables()
		mesh.close()
		return nil, err
	}
	pages := web.New(web.Config{Games: games, Logger: logger, Now: clock.Now, Renderer: renderer, Accounts: accounts,
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
	metrics, ready := operations(st, mgr, hub, mesh, logger)
	site := &Site{Handler: New(Config{API: apiServer, Web: pages, Logger: logger, Metrics: metrics, Ready: ready}),
		Manager: mgr, Accounts: accounts, Hub: hub, Pages: pages, Metrics: metrics, Ready: ready, Mesh: mesh,
		stopTables: stopTables}

	// Connect.
	hub.Connect(mesh.hubHooks(pages.LobbyEvent))
	hooks := mesh.tableHooks(hub)
	if s.Observer != nil {
		hooks.Publisher = observed{s.Observer, hooks.Publisher}
	}
	mgr.Connect(hooks)

	// Start. A node restarted under its name takes its own games back
	// here and publishes them at once.
	if err := mesh.start(); err != nil {
		stopTables()
		mesh.close()
		return nil, err
	}
	began := time.Now()
	if err := mgr.StartTables(); err != nil {
		stopTables()
		mesh.close()
		return nil, fmt.Errorf("starting the tables: %w", err)
	}
	metrics.Recovered(time.Since(began))
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

// HandOver, on a node of a cluster, hands its tables to its peers at
// once rather than leave them until its lease runs out; the node serves
// none after. The first call hands over; Close calls it too.
func (s *Site) HandOver(ctx context.Context) error { return s.Mesh.handOver(ctx, s.Manager) }

// Close stops the site in order: the streams and the background work (if
// StopStreams hasn't), the hand-over (if HandOver hasn't), then the tables,
// which have until ctx ends to store their last moves. Only the first
// Close or Halt stops anything.
func (s *Site) Close(ctx context.Context) error { return s.stop(ctx, true) }

// Halt stops the site as a crash would, without the hand-over: on a node
// of a cluster its lease is left to run out, and its peers claim its
// tables only then. The restart tests and the load test's takeover stop a
// node so.
func (s *Site) Halt(ctx context.Context) error { return s.stop(ctx, false) }

func (s *Site) stop(ctx context.Context, handOver bool) error {
	var err error
	s.closeOnce.Do(func() {
		s.StopStreams()
		if handOver {
			err = s.HandOver(ctx)
		}
		err = errors.Join(err, s.Manager.Close(ctx))
		s.stopTables()
		s.Mesh.close()
	})
	return err
}

// operations builds what an operator sees of the site: the metrics, fed by
// the tables, the hub and the mesh (the time the tables took to load and
// replay is added once they have); and the readiness checks, each once.
// Migrations need none: the store is migrated as it opens, before the site
// exists to answer a probe.
func operations(st *store.Store, mgr *live.Manager, hub *push.Hub, mesh *Mesh, logger *slog.Logger) (*ops.Metrics, *ops.Ready) {
	metrics := NewMetrics()
	metrics.Watch(mgr)
	metrics.Streams(hub.Subscribers)
	ready := ops.NewReady(logger)
	ready.Add("database", func(ctx context.Context) error { return st.DB().PingContext(ctx) })
	clusterOperations(metrics, ready, mgr, mesh)
	mesh.operate(metrics, ready)
	return metrics, ready
}

// observed tells the observer of each frame and closing, then the
// publisher.
type observed struct{ observer, next game.Publisher }

func (o observed) Publish(id string, f game.Frame) {
	o.observer.Publish(id, f)
	o.next.Publish(id, f)
}

func (o observed) Close(id string) {
	o.observer.Close(id)
	o.next.Close(id)
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
