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

	"bullshit/api"
	"bullshit/api/push"
	"bullshit/live"
	router "bullshit/server"
	"bullshit/store"
	"bullshit/web"
)

func init() {
	register(command{name: "serve", summary: "run the game server", run: serve})
}

// shutdownGrace bounds how long a stop waits for requests in flight and the
// tables' last writes.
const shutdownGrace = 15 * time.Second

func serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on")
	data := fs.String("data", "data", "the folder for the SQLite database, created if missing")
	db := fs.String("db", os.Getenv("BULLSHIT_DB"), "a PostgreSQL URL to use instead of SQLite (default $BULLSHIT_DB)")
	debug := fs.Bool("debug", false, "log debug lines too")
	speed := fs.Float64("speed", 1, "run the tables' clocks this many times faster than real time (for tests and demos)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *speed < 1 || *speed > 100 {
		return errors.New("--speed is 1 to 100")
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

	// The tables and the streams outlive the signal: they are stopped in
	// order below, after the requests in flight have had their answers.
	hub := push.New(push.Config{Logger: logger, Formats: map[string]push.Encoder{api.FormatJSON: api.JSONEncoder}})
	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	var clock live.Clock = live.RealClock{}
	if *speed != 1 {
		clock = live.ScaledClock{Speed: *speed}
		logger.Warn("the tables' clocks run fast", "speed", *speed)
	}
	mgr, err := live.New(runCtx, live.Config{Store: st, Publisher: hub, Clock: clock, Logger: logger})
	if err != nil {
		return fmt.Errorf("starting the tables: %w", err)
	}
	pages := web.New(web.Config{Games: mgr, Logger: logger, Now: clock.Now})
	handler := router.New(router.Config{API: api.New(api.Config{Games: mgr, Hub: hub, Logger: logger}), Web: pages, Logger: logger})
	hs := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		_ = mgr.Close(context.Background())
		return err
	}
	logger.Info("listening", "addr", "http://"+ln.Addr().String())

	var wg sync.WaitGroup
	hubCtx, stopHub := context.WithCancel(runCtx)
	wg.Go(func() { hub.Run(hubCtx) })
	served := make(chan error, 1)
	wg.Go(func() { served <- hs.Serve(ln) })

	var serveErr error
	select {
	case <-ctx.Done():
		logger.Info("stopping")
	case serveErr = <-served:
	}
	// Stop accepting and wait for the requests in flight, ending the event
	// streams meanwhile (Shutdown would otherwise wait for them), then let
	// the tables finish their writes.
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(sctx) }()
	stopHub()
	shutErr := <-shut
	if shutErr != nil {
		// Out of time: cut the connections still open, which also frees a
		// stream stuck writing to a client that stopped reading.
		_ = hs.Close()
	}
	err = errors.Join(shutErr, mgr.Close(sctx))
	wg.Wait()
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(serveErr, err)
	}
	logger.Info("stopped")
	return err
}
