package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"bullshit/internal/clocks"
	"bullshit/internal/httpx"
	"bullshit/live"
	"bullshit/server"
	"bullshit/store"
	"bullshit/web"
)

func init() {
	register(command{name: "serve", summary: "run the game server", run: serve})
}

// The default budgets of a stop. Requests in flight get the first: an answer
// takes milliseconds, so what is left after it is a client that stopped
// sending or reading, and its connection is cut. The tables then get the
// second, all of it, to store their last moves: a table's write takes
// milliseconds too, unless the database is struggling, when waiting longer
// beats losing a move.
const (
	defaultShutdownHTTP   = 10 * time.Second
	defaultShutdownTables = 20 * time.Second
)

// defaultDrainWait is how long a stopping node answers /readyz with 503
// while it still serves, before it stops taking requests: long enough for a
// load balancer polling every second or so to see it and send no more.
const defaultDrainWait = 2 * time.Second

func serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on")
	data := fs.String("data", "data", "the folder for the SQLite database, created if missing")
	db := fs.String("db", os.Getenv("BULLSHIT_DB"), "a PostgreSQL URL to use instead of SQLite (default $BULLSHIT_DB)")
	debug := fs.Bool("debug", false, "log debug lines too")
	speed := fs.Float64("speed", 1, "run the tables' clocks this many times faster than real time (for tests and demos)")
	proxies := fs.String("trusted-proxies", os.Getenv("BULLSHIT_TRUSTED_PROXIES"),
		"comma-separated CIDRs of the proxies in front of the server, whose X-Forwarded-For (for rate limits) and X-Forwarded-Proto (for Secure cookies) are believed (default $BULLSHIT_TRUSTED_PROXIES, else none)")
	origins := fs.String("trusted-origins", os.Getenv("BULLSHIT_TRUSTED_ORIGINS"),
		"comma-separated origins (https://game.example) that may post to the pages besides the request's own, such as the public origin when a proxy rewrites the Host header (default $BULLSHIT_TRUSTED_ORIGINS, else none)")
	secureCookies := fs.Bool("secure-cookies", os.Getenv("BULLSHIT_SECURE_COOKIES") == "1",
		"mark every cookie Secure, for a server only ever reached over HTTPS (default on when $BULLSHIT_SECURE_COOKIES is 1)")
	shutdownHTTP := fs.Duration("shutdown-http", defaultShutdownHTTP, "on a stop, how long requests in flight may take before their connections are cut")
	shutdownTables := fs.Duration("shutdown-tables", defaultShutdownTables, "on a stop, how long the tables then have to store their last moves")
	drainWait := fs.Duration("drain-wait", defaultDrainWait, "on a stop, how long the server reports not ready (/readyz answers 503) while still serving, before it stops taking requests, so a load balancer sends them elsewhere (0 for none)")
	maxLateness := fs.Duration("max-lateness", live.DefaultMaxLateness, "how late the tables' timers and writes may run before the server is full: it then refuses new tables and joins (503 with Retry-After) and /readyz fails, until its tables keep time again (negative: never full)")
	clusterSettings := clusterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	clustered, err := clusterSettings(*db)
	if err != nil {
		return err
	}
	if *speed < 1 || *speed > 100 {
		return errors.New("--speed is 1 to 100")
	}
	if *shutdownHTTP <= 0 || *shutdownTables <= 0 {
		return errors.New("--shutdown-http and --shutdown-tables are more than 0")
	}
	if *drainWait < 0 {
		return errors.New("--drain-wait is 0 or more")
	}
	trusted, err := httpx.ParseTrustedProxies(*proxies)
	if err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	trustedOrigins, err := web.ParseTrustedOrigins(*origins)
	if err != nil {
		return fmt.Errorf("--trusted-origins: %w", err)
	}
	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	url := *db
	if url == "" {
		if err := os.MkdirAll(*data, 0o750); err != nil {
			return fmt.Errorf("making the data folder: %w", err)
		}
		url = filepath.Join(*data, "bullshit.db")
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		return fmt.Errorf("opening the store: %w", err)
	}
	defer st.Close()
	logger.Info("store open", "dialect", st.Dialect())

	var clock clocks.Clock = clocks.Real{}
	if *speed != 1 {
		clock = clocks.Scaled{Speed: *speed}
		logger.Warn("the tables' clocks run fast", "speed", *speed)
	}
	// The tables and the streams outlive the signal: they are stopped in
	// order below, after the requests in flight have had their answers.
	site, err := server.Assemble(ctx, st, clock, logger, server.Settings{TrustedProxies: trusted,
		TrustedOrigins: trustedOrigins, SecureCookies: *secureCookies, MaxLateness: *maxLateness, Cluster: clustered})
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           site.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		_ = site.Close(context.Background())
		return err
	}
	logger.Info("listening", "addr", "http://"+ln.Addr().String())

	var wg sync.WaitGroup
	served := make(chan error, 1)
	wg.Go(func() { served <- hs.Serve(ln) })

	var serveErr error
	select {
	case <-ctx.Done():
		logger.Info("stopping")
		// Not ready from the first probe after the signal, before the
		// hand-over takes its time.
		site.Ready.Drain()
		handed := handOver(site, *shutdownTables, logger)
		serveErr = drain(site, *drainWait, served, logger)
		<-handed
	case serveErr = <-served:
	}
	// Stop accepting and wait for the requests in flight, ending the event
	// streams meanwhile (Shutdown would otherwise wait for them), then let
	// the tables finish their writes, each in a budget of its own, so a
	// client holding a request open can't eat the tables' time.
	stopHTTP(hs, site.StopStreams, *shutdownHTTP, logger)
	tctx, cancel := context.WithTimeout(context.Background(), *shutdownTables)
	defer cancel()
	err = site.Close(tctx)
	if err != nil {
		logger.Error("the tables didn't finish their writes in time", "budget", *shutdownTables, "err", err)
	}
	wg.Wait()
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(serveErr, err)
	}
	logger.Info("stopped")
	return err
}

// drain takes the node out of service before it stops: /readyz answers 503
// at once, and for wait the node goes on serving what still reaches it (the
// requests a load balancer sent before it saw the 503, the streams open)
// while the balancer turns new ones away. The wait ends early, with its
// error, if the server stops serving anyway.
func drain(site *server.Site, wait time.Duration, served <-chan error, logger *slog.Logger) error {
	site.Ready.Drain()
	if wait <= 0 {
		return nil
	}
	logger.Info("draining: reporting not ready before the stop", "wait", wait)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case err := <-served:
		return err
	}
}

// handOver gives a cluster node's tables to its peers as its drain begins
// (live's Drain: no new table, each stops after its write under way, then
// the lease ends so the peers claim them at once), while the node goes on
// serving: a call about a table handed over is sent to its new owner. The
// returned channel is closed once it is done, or budget has run out. A
// single node keeps its tables to the end of the stop: nobody could take
// them, and they come back at the next start.
func handOver(site *server.Site, budget time.Duration, logger *slog.Logger) <-chan struct{} {
	done := make(chan struct{})
	if site.Mesh == nil {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		defer cancel()
		if err := site.HandOver(ctx); err != nil {
			logger.Error("handing the tables over failed: the peers claim them once the lease runs out", "err", err)
		}
	}()
	return done
}

// stopHTTP stops the server taking requests and waits up to budget for those
// in flight. A client still sending or reading then is one that stopped
// (every answer takes milliseconds), so its connection is cut: that is not a
// failure of the stop. Cutting also frees a stream stuck writing to a client
// that stopped reading.
func stopHTTP(hs *http.Server, stopStreams func(), budget time.Duration, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(ctx) }()
	stopStreams()
	if err := <-shut; err != nil {
		logger.Warn("requests still open after the budget: cutting their connections", "budget", budget, "err", err)
		_ = hs.Close()
	}
}
