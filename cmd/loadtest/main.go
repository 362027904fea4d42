// Command loadtest runs many all-bot tables at once through the live
// runtime, with the real SQLite store in a temporary folder and the real
// clock, and reports how the runtime keeps up: actions per second, how late
// deadlines and bot moves happen, memory per table, and how soon views
// reach the Publisher. With -streams it also follows every seat of every
// table over an HTTP event stream on the server's own routes, with the
// seat's token, as browsers (html) or programs (json) would, and times each
// event from its frame's publishing to its reading, counting those read
// inside the measuring window. With -listen the streams are read by a
// second process started with -read, so that the server's CPU is its own:
//
//	loadtest -streams html -listen 127.0.0.1:7070
//	loadtest -read http://127.0.0.1:7070
//
// With -nodes N (and -postgres) the tables run on N cluster nodes in this
// one process, each creating its share, and the figures are per node and
// in all; -takeover then stops the first node as kill -9 would and times
// how soon its peers play on at its tables (cluster.go, takeover.go):
//
//	loadtest -postgres URL -nodes 3 -takeover
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"bullshit/api"
	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/live"
	"bullshit/server"
	"bullshit/store"
)

func main() {
	tables := flag.Int("tables", 1000, "tables playing at once")
	duration := flag.Duration("duration", 60*time.Second, "how long to run")
	seats := flag.Int("seats", 4, "seats at each table (3 to 10)")
	window := flag.Duration("window", 4*time.Second, "the call window")
	warmup := flag.Duration("warmup", 10*time.Second, "how long to run after starting the tables before measuring")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	traceFile := flag.String("trace", "", "write an execution trace of the measured window's first second to this file (go tool trace reads it; the store's statements and commits are regions)")
	heapProfile := flag.String("memprofile", "", "write a heap profile, taken where memory per table is measured, to this file")
	flag.DurationVar(&maxLateness, "max-lateness", live.DefaultMaxLateness, "the node's limit of lateness, past which it is full and refuses new tables (the load test waits and tries again, counting the refusals); negative: never full")
	starters := flag.Int("starters", 64, "tables being started at once, as by that many people")
	postgres := flag.String("postgres", "", "a PostgreSQL URL to run on, in a schema of its own, instead of SQLite")
	followed := flag.Int("followed", 0, "with -streams, follow this many seats of each table (0: every seat); the others are the house's bots")
	format := flag.String("streams", "", "follow every seat over an event stream of this format (json or html) and time the events")
	listen := flag.String("listen", "", "with -streams, serve the server's routes at this address to a reader started with -read, and start once it has connected")
	read := flag.String("read", "", "only read and time the streams of a load test started with -listen at this URL")
	nodes := flag.Int("nodes", 1, "run the tables on this many cluster nodes in this process (above 1 needs -postgres)")
	lease := flag.Duration("lease", server.DefaultLease, "with -nodes, each node's lease (the TTL)")
	clustered := flag.Bool("cluster", false, "run in cluster mode (lease, claims, fence) even with -nodes 1")
	procs := flag.Bool("procs", false, "with -nodes, run each node in a process of its own (this binary again), sharing the PostgreSQL schema and the NATS mesh")
	quota := flag.Float64("quota", 0, "with -procs, hold each node's process to this many cores (a cgroup's CPU quota; needs a writable /sys/fs/cgroup)")
	childName := flag.String("child", "", "(used by -procs) run as the node of this name, told by the parent when to measure")
	childDB := flag.String("child-db", "", "(used by -procs) the child's database")
	childRoute := flag.String("child-route", "", "(used by -procs) the NATS route of the first node")
	takeover := flag.Bool("takeover", false, "with -nodes 2 or more, stop the first node abruptly after measuring and time its tables' takeover")
	flag.Parse()
	if *followed < 0 || *followed > *seats {
		fmt.Fprintf(os.Stderr, "loadtest: -followed is 0 (every seat) to -seats (%d)\n", *seats)
		os.Exit(2)
	}
	if *followed == 0 {
		*followed = *seats
	}
	if *listen != "" && *format == "" {
		fmt.Fprintln(os.Stderr, "loadtest: -listen needs -streams")
		os.Exit(2)
	}
	*clustered = *clustered || *nodes > 1
	if *clustered && (*format != "" || *read != "" || *heapProfile != "") {
		fmt.Fprintln(os.Stderr, "loadtest: the cluster mode runs without -streams, -read and -memprofile")
		os.Exit(2)
	}
	if *takeover && *nodes < 2 {
		fmt.Fprintln(os.Stderr, "loadtest: -takeover needs -nodes 2 or more")
		os.Exit(2)
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	startWorkers = *starters
	var err error
	switch {
	case *childName != "":
		err = runChild(ctx, *childName, *childDB, *childRoute, clusterOpts{tables: *tables, seats: *seats, window: *window, lease: *lease})
	case *read != "":
		_, err = readRemote(ctx, *read)
	case *procs:
		o := clusterOpts{nodes: *nodes, tables: *tables, seats: *seats, window: *window, warmup: *warmup, duration: *duration,
			lease: *lease, postgres: *postgres}
		var r *clusterResult
		if r, err = runProcs(ctx, o, *quota); err == nil {
			r.print(o)
		}
	case *clustered:
		o := clusterOpts{nodes: *nodes, tables: *tables, seats: *seats, window: *window, warmup: *warmup, duration: *duration,
			lease: *lease, postgres: *postgres, takeover: *takeover}
		var r *clusterResult
		if r, err = runCluster(ctx, o); err == nil {
			r.print(o)
		}
	default:
		_, err = run(ctx, runOpts{tables: *tables, seats: *seats, window: *window, warmup: *warmup, duration: *duration,
			format: *format, listen: *listen, heapProfile: *heapProfile, postgres: *postgres, followed: *followed, trace: *traceFile})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// counter is a Publisher that counts, and tells the driver which games
// closed so it can start others in their place. It never blocks.
type counter struct {
	views atomic.Int64
	// closes counts the games closed.
	closes atomic.Int64
	mu     sync.Mutex
	closed []string
	kick   chan struct{}
	// onClose, when set, is also told of each game closed (the takeover's
	// watch).
	onClose atomic.Pointer[func(game string)]
}

func (c *counter) Publish(string, game.Frame) { c.views.Add(1) }

func (c *counter) Close(game string) {
	if fn := c.onClose.Load(); fn != nil {
		(*fn)(game)
	}
	c.closes.Add(1)
	c.mu.Lock()
	c.closed = append(c.closed, game)
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *counter) take() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.closed)
	c.closed = c.closed[:0]
	return n
}

// runOpts are the single node's run's settings (the flags of the same
// names).
type runOpts struct {
	tables, seats            int
	window, warmup, duration time.Duration
	format, listen           string
	heapProfile, postgres    string
	trace                    string
	// followed is how many seats of each table the streams follow.
	followed int
}

// runResult is what a run measured beyond what it prints: the actions
// stored in the window, and the readers in this process (nil without
// -streams, or with -listen).
type runResult struct {
	actions int64
	readers *readers
}

func run(ctx context.Context, o runOpts) (*runResult, error) {
	tables, seats, window, warmup, duration := o.tables, o.seats, o.window, o.warmup, o.duration
	format, listen, heapProfile := o.format, o.listen, o.heapProfile
	st, cleanup, err := openStore(ctx, o.postgres)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	writes := newTimings[store.WriteStage]()
	st.ObserveWrites(writes.record)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()

	pub := &counter{kick: make(chan struct{}, 1)}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The server as serve builds it, its request limits out of the way of
	// one process's many streams; the counter (or the streams, which tell
	// it) is told of every frame the tables publish.
	settings := loadSettings()
	settings.Observer = pub
	var follow *streams
	if format != "" {
		if follow, err = newStreams(format, pub); err != nil {
			return nil, err
		}
		settings.Observer, settings.Stamp = follow, follow.stamped
	}
	site, err := server.Assemble(mctx, st, nil, logger, settings)
	if err != nil {
		return nil, err
	}
	m := site.Manager
	if follow != nil {
		if err := follow.serve(mctx, listen, site); err != nil {
			_ = site.Close(context.Background())
			return nil, err
		}
		if listen != "" {
			fmt.Printf("serving the server and its %s streams at http://%s: waiting for a reader (loadtest -read http://%[2]s)\n", format, listen)
			if err := follow.awaitReader(ctx); err != nil {
				_ = site.Close(context.Background())
				return nil, err
			}
		}
	}
	var committing atomic.Int64
	m.Observe(func(t live.Timing, d time.Duration) {
		if t == live.TimeCommits {
			committing.Add(int64(d))
		}
	})
	opts := engine.Standard(seats)
	opts.Window = window
	start := func(ctx context.Context) error {
		if follow != nil {
			return startCovered(ctx, m, opts, o.followed, follow.to)
		}
		req := game.CreateRequest{Options: opts, HostName: "Load"}
		for range seats - 1 {
			req.Bots = append(req.Bots, game.BotSpec{Level: "medium", Style: "cautious"})
		}
		j, err := m.Create(ctx, req)
		if err != nil {
			return err
		}
		if err := m.Start(ctx, j.Game.ID, 0); err != nil {
			return err
		}
		return m.HandToBot(ctx, j.Game.ID, 0, 0)
	}

	fmt.Printf("starting %d tables of %d bots (brisk, %v window)...\n", tables, seats, window)
	began := time.Now()
	if err := startMany(mctx, tables, start); err != nil {
		return nil, err
	}
	fmt.Printf("started in %v; warming up for %v, then measuring for %v\n", time.Since(began).Round(time.Millisecond), warmup, duration)
	select {
	case <-time.After(warmup):
	case <-ctx.Done():
	}
	m.ResetStats()
	writes.reset()
	committing.Store(0)
	pub.views.Store(0)
	if follow != nil {
		follow.to.measure()
	}
	cpu0 = cpuTime()
	began = time.Now()
	if o.trace != "" {
		stopTrace, err := startTrace(o.trace)
		if err != nil {
			return nil, err
		}
		t := time.AfterFunc(time.Second, stopTrace)
		defer func() {
			if t.Stop() {
				stopTrace()
			}
		}()
	}

	// Keep the number of tables up: a finished game is replaced, by a
	// goroutine of the run's so that starting tables (slow with streams to
	// open) never holds up the window's clock.
	closed0 := pub.closes.Load()
	replacing, stopReplacing := context.WithCancel(mctx)
	replaced := make(chan error, 1)
	go func() { replaced <- replace(replacing, pub, start) }()
	deadline := time.After(duration)
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	var failed error
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-deadline:
			break loop
		case <-tick.C:
			s := m.Stats()
			fmt.Printf("  %5.0fs  %8d actions  deadlines p99 %-8v bots p99 %-8v  %d games finished\n",
				time.Since(began).Seconds(), s.Actions, s.Deadlines.P99, s.Bots.P99, pub.closes.Load()-closed0)
		case failed = <-replaced:
			break loop
		}
	}
	finished := pub.closes.Load() - closed0
	if failed == nil {
		stopReplacing()
		failed = <-replaced
	}
	stopReplacing()
	if failed != nil && !errors.Is(failed, context.Canceled) {
		return nil, failed
	}
	elapsed := time.Since(began)
	cpu := cpuTime() - cpu0
	s := m.Stats()
	res := &runResult{actions: s.Actions}
	if follow != nil {
		res.readers, _ = follow.to.(*readers)
		// Events read from here on (the final GC, the shutdown, the
		// restart) are outside the window.
		follow.to.stop()
		defer follow.report()
	}

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	goroutines := runtime.NumGoroutine()
	if heapProfile != "" {
		if err := writeHeapProfile(heapProfile); err != nil {
			return nil, err
		}
	}

	closeCtx, done := context.WithTimeout(context.Background(), 30*time.Second)
	defer done()
	closing := time.Now()
	if err := site.Close(closeCtx); err != nil {
		return nil, err
	}
	closed := time.Since(closing)

	// A restart: the server assembled again, every live game rebuilt from
	// its log.
	reopening := time.Now()
	again, err := server.Assemble(ctx, st, nil, logger, loadSettings())
	if err != nil {
		return nil, err
	}
	reopened := time.Since(reopening)
	rebuilt, err := again.Manager.List(ctx, game.StatusLive, 0)
	if err != nil {
		return nil, err
	}
	if err := again.Close(closeCtx); err != nil {
		return nil, err
	}

	fmt.Printf("\n%d tables of %d seats for %v (%d games finished, %d goroutines)\n", tables, seats, elapsed.Round(time.Second), finished, goroutines)
	fmt.Printf("actions stored:      %d (%.0f a second)\n", s.Actions, float64(s.Actions)/elapsed.Seconds())
	fmt.Printf("views published:     %d\n", pub.views.Load())
	fmt.Printf("commits:             %d (%.1f a second)\n", s.Commits.Count, float64(s.Commits.Count)/elapsed.Seconds())
	fmt.Printf("actions per commit:  %.1f\n", s.Batch)
	fmt.Printf("committing:          %.0f%% of the time (summed over the group commits)\n", 100*float64(committing.Load())/float64(elapsed))
	fmt.Printf("full:                %d new tables refused while the node was full (%s at the end)\n", refusedFull.Load(), map[bool]string{true: "full", false: "open"}[s.Full])
	fmt.Printf("CPU:                 %.2f of %d cores\n", cpu.Seconds()/elapsed.Seconds(), runtime.NumCPU())
	fmt.Printf("shutdown:            %v\n", closed.Round(time.Millisecond))
	fmt.Printf("restart:             %v to rebuild %d live games from their logs\n", reopened.Round(time.Millisecond), len(rebuilt))
	perTable := func(a, b uint64) float64 { return float64(int64(a)-int64(b)) / float64(tables) / 1024 }
	fmt.Printf("heap per table:      %.1f KiB (and %.1f KiB of goroutine stacks)\n",
		perTable(after.HeapAlloc, before.HeapAlloc), perTable(after.StackInuse, before.StackInuse))
	fmt.Printf("memory per table:    %.1f KiB (heap and stacks; %.1f goroutines a table)\n",
		perTable(after.HeapAlloc+after.StackInuse, before.HeapAlloc+before.StackInuse), float64(goroutines)/float64(tables))
	fmt.Printf("%-20s %10s %10s %10s %10s\n", "lateness", "count", "p50", "p99", "max")
	for _, row := range []struct {
		name string
		l    live.Latency
	}{
		{"deadlines", s.Deadlines},
		{"bot moves", s.Bots},
		{"action to publish", s.Publish},
		{"writer queue", s.Queued},
		{"group commit", s.Commits},
		{"  store queue", writes.latency(store.WriteQueued)},
		{"  statements", writes.latency(store.WriteStatements)},
		{"  commit", writes.latency(store.WriteCommit)},
	} {
		fmt.Printf("%-20s %10d %10v %10v %10v\n", row.name, row.l.Count, short(row.l.P50), short(row.l.P99), short(row.l.Max))
	}
	return res, nil
}

// loadSettings are the server's settings for a load test: one process
// opens every stream and table, so the limits per address are lifted. The
// pages' streams count against the API's limit of streams (web.Limits'
// Stream is the API's OpenStream), so StreamsPerAddress lifts both.
func loadSettings() server.Settings {
	unlimited := api.Rate{PerSecond: 1e9, Burst: 1e9}
	return server.Settings{PerAddress: unlimited, PerToken: unlimited, StreamsPerAddress: 1 << 30, MaxLateness: maxLateness}
}

// startWorkers is how many tables startMany starts at once.
var startWorkers = 64

// maxLateness is the -max-lateness flag: the nodes' limit (see live.Config).
var maxLateness time.Duration

// refusedFull counts the tables a full node refused to start; each is
// tried again after the wait the refusal asks for.
var refusedFull atomic.Int64

// replace starts a new table for each one closed, until ctx ends.
func replace(ctx context.Context, pub *counter, start func(context.Context) error) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-pub.kick:
			if err := startMany(ctx, pub.take(), start); err != nil {
				return err
			}
		}
	}
}

// startMany starts n tables, startWorkers at once, as many people would; a
// table a full node refuses is tried again once the node asks, as a person
// would.
func startMany(ctx context.Context, n int, start func(context.Context) error) error {
	start = waitWhileFull(start)
	workers := startWorkers
	var next atomic.Int64
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				if err := start(ctx); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// waitWhileFull tries start again while the node refuses it as full,
// waiting as the refusal asks.
func waitWhileFull(start func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		for {
			err := start(ctx)
			if code, _, _ := errcode.Of(err); code != errcode.Busy {
				return err
			}
			refusedFull.Add(1)
			select {
			case <-time.After(time.Duration(errcode.RetryAfter(err)) * time.Second):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// startCovered starts a table to follow over the streams: the host and
// followed-1 more seats join as people (0: every seat), the rest are bots
// as at the tables without streams, the game starts, and each person's seat
// is handed to the house bot (a medium bot plays it from then on), so the
// table plays as an all-bot one while the followed seats keep their tokens;
// then to follows those seats with them. The followed tables are made of covered person seats, not
// bots' seats, because the server's stream routes serve a seat's stream only
// to the holder of its token, and a bot's seat has none.
func startCovered(ctx context.Context, m *live.Manager, opts engine.Options, followed int, to follower) error {
	if followed <= 0 || followed > opts.Seats {
		followed = opts.Seats
	}
	req := game.CreateRequest{Options: opts, HostName: "Load"}
	for range opts.Seats - followed {
		req.Bots = append(req.Bots, game.BotSpec{Level: "medium", Style: "cautious"})
	}
	host, err := m.Create(ctx, req)
	if err != nil {
		return err
	}
	id := host.Game.ID
	tokens, seats := []string{host.Token}, []int{host.Seat}
	for i := 2; i <= followed; i++ {
		var j game.Joined
		// A full node refuses the join as it does the table: wait and
		// join again, rather than leave the table open.
		join := waitWhileFull(func(ctx context.Context) (err error) {
			j, err = m.Join(ctx, id, fmt.Sprint("Load ", i), 0)
			return err
		})
		if err := join(ctx); err != nil {
			return err
		}
		tokens = append(tokens, j.Token)
		seats = append(seats, j.Seat)
	}
	if err := m.Start(ctx, id, host.Seat); err != nil {
		return err
	}
	for _, seat := range seats {
		if err := m.HandToBot(ctx, id, seat, seat); err != nil {
			return err
		}
	}
	return to.follow(ctx, id, tokens)
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeHeapProfile writes the heap's profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// startTrace starts an execution trace into a new file at path; the
// function it returns stops it and closes the file.
func startTrace(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		trace.Stop()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "loadtest: trace: %v\n", err)
		}
	}, nil
}
