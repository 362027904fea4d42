package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"bullshit/cluster"
	"bullshit/engine"
	"bullshit/game"
	"bullshit/live"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// The cluster mode (-nodes N): N nodes in this one process on one
// PostgreSQL schema, each the server as serve assembles it on a cluster
// node, with its own name, its own store (its own connections, as separate
// processes have), its own lease and its own embedded NATS server routed to
// the first's, the tables spread over them, each node creating its share.
// The figures are per node and in all; CPU is the whole process's, since
// the nodes share it.

// clusterOpts are the cluster mode's settings.
type clusterOpts struct {
	nodes, tables, seats     int
	window, warmup, duration time.Duration
	lease                    time.Duration
	postgres                 string
	takeover                 bool
	// quiet leaves out the progress lines (the test's run).
	quiet bool
}

// node is one server of the cluster and what it was asked to run.
type node struct {
	name   string
	st     *store.Store
	site   *server.Site
	m      *live.Manager // the site's tables
	pub    *counter
	frozen atomic.Bool
	// committing sums the node's group commits' durations: how busy its
	// one writer is.
	committing atomic.Int64
	// stopped: the node was stopped abruptly (-takeover) and takes no
	// more tables.
	stopped bool

	mu    sync.Mutex
	games []string // every game created here, in order
}

// clusterResult is what a cluster run measured.
type clusterResult struct {
	elapsed  time.Duration
	finished int
	cpu      time.Duration
	// nodes are each node's Stats over the measuring window, all the
	// timings of every node together.
	nodes []live.Stats
	names []string
	// committing is each node's time spent in group commits.
	committing []time.Duration
	all        map[live.Timing]live.Latency
	// takeover is nil without -takeover.
	takeover *takeoverResult
	// cpuOf says whose CPU time cpu is.
	cpuOf string
}

func runCluster(ctx context.Context, o clusterOpts) (*clusterResult, error) {
	if o.postgres == "" {
		return nil, errors.New("the cluster mode needs -postgres: SQLite has one writer")
	}
	if o.takeover && o.nodes < 2 {
		return nil, errors.New("-takeover needs -nodes 2 or more: a peer takes the tables over")
	}
	url, drop, err := storetest.NewSchema(ctx, o.postgres, "loadtest_")
	if err != nil {
		return nil, err
	}
	defer drop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// Every node's counter kicks the one driver, which replaces each
	// node's finished games on that node.
	kick := make(chan struct{}, 1)
	all := newTimings[live.Timing]()
	var nodes []*node
	defer func() {
		closeCtx, done := context.WithTimeout(context.Background(), 30*time.Second)
		defer done()
		for _, nd := range nodes {
			// A node stopped abruptly was halted: its Close does nothing.
			if err := nd.site.Close(closeCtx); err != nil {
				fmt.Fprintf(os.Stderr, "loadtest: node %s: %v\n", nd.name, err)
			}
			nd.st.Close()
		}
	}()
	secret, err := routeSecret()
	if err != nil {
		return nil, err
	}
	var routes []string
	for i := range o.nodes {
		nd := &node{name: fmt.Sprint("n", i), pub: &counter{kick: kick}}
		if nd.st, err = store.Open(ctx, url); err != nil {
			return nil, err
		}
		settings := loadSettings()
		settings.Observer = nd.pub
		settings.Cluster = &server.Cluster{Node: nd.name, Lease: o.lease, FreezeRenewal: nd.frozen.Load,
			NATS: cluster.NATSConfig{Listen: "127.0.0.1:0", Routes: routes, RouteSecret: secret}}
		if nd.site, err = server.Assemble(mctx, nd.st, nil, logger, settings); err != nil {
			nd.st.Close()
			return nil, fmt.Errorf("node %s: %w", nd.name, err)
		}
		if i == 0 {
			routes = []string{nd.site.Mesh.NATS.ClusterAddr()}
		}
		nd.m = nd.site.Manager
		nd.m.Observe(func(t live.Timing, d time.Duration) {
			all.record(t, d)
			if t == live.TimeCommits {
				nd.committing.Add(int64(d))
			}
		})
		nodes = append(nodes, nd)
	}
	if err := awaitReady(ctx, nodes, 30*time.Second); err != nil {
		return nil, err
	}

	say := func(format string, args ...any) {
		if !o.quiet {
			fmt.Printf(format, args...)
		}
	}
	say("starting %d tables of %d bots (brisk, %v window) over %d nodes, lease %v...\n", o.tables, o.seats, o.window, o.nodes, o.lease)
	began := time.Now()
	for i, nd := range nodes {
		// Each node creates its share, the first ones one more if the
		// tables don't divide evenly.
		share := o.tables / o.nodes
		if i < o.tables%o.nodes {
			share++
		}
		if err := startMany(mctx, share, nd.starter(o.seats, o.window)); err != nil {
			return nil, fmt.Errorf("node %s: %w", nd.name, err)
		}
	}
	say("started in %v; warming up for %v, then measuring for %v\n", time.Since(began).Round(time.Millisecond), o.warmup, o.duration)
	select {
	case <-time.After(o.warmup):
	case <-ctx.Done():
	}
	for _, nd := range nodes {
		nd.m.ResetStats()
		nd.committing.Store(0)
	}
	all.reset()
	cpu0 := cpuTime()
	began = time.Now()
	d := &driver{nodes: nodes, kick: kick, seats: o.seats, window: o.window}
	progress := func() {
		var actions int64
		for _, nd := range nodes {
			actions += nd.m.Stats().Actions
		}
		say("  %5.0fs  %8d actions  deadlines p99 %-8v bots p99 %-8v  %d games finished\n",
			time.Since(began).Seconds(), actions, all.latency(live.TimeDeadlines).P99, all.latency(live.TimeBots).P99, d.finished)
	}
	if err := d.play(mctx, o.duration, nil, progress); err != nil {
		return nil, err
	}
	r := &clusterResult{elapsed: time.Since(began), cpu: cpuTime() - cpu0, finished: d.finished, all: map[live.Timing]live.Latency{},
		cpuOf: "the whole process, all nodes"}
	for _, nd := range nodes {
		r.names = append(r.names, nd.name)
		r.nodes = append(r.nodes, nd.m.Stats())
		r.committing = append(r.committing, time.Duration(nd.committing.Load()))
	}
	for _, t := range timingsShown {
		r.all[t.timing] = all.latency(t.timing)
	}
	if o.takeover && ctx.Err() == nil {
		if r.takeover, err = takeover(ctx, d, nodes[0], nodes[1:], o.lease, say); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// routeSecret is a fresh password for the nodes' NATS routes.
func routeSecret() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// awaitReady waits for every node to hold its lease.
func awaitReady(ctx context.Context, nodes []*node, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for _, nd := range nodes {
		for nd.m.Ready() != nil {
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("node %s not ready: %v", nd.name, nd.m.Ready())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// starter starts one all-bot table on the node, as the one-node run does.
func (nd *node) starter(seats int, window time.Duration) func(context.Context) error {
	opts := engine.Standard(seats)
	opts.Window = window
	return func(ctx context.Context) error {
		req := game.CreateRequest{Options: opts, HostName: "Load"}
		for range seats - 1 {
			req.Bots = append(req.Bots, game.BotSpec{Level: "medium", Style: "cautious"})
		}
		j, err := nd.m.Create(ctx, req)
		if err != nil {
			return err
		}
		nd.mu.Lock()
		nd.games = append(nd.games, j.Game.ID)
		nd.mu.Unlock()
		if err := nd.m.Start(ctx, j.Game.ID, 0); err != nil {
			return err
		}
		return nd.m.HandToBot(ctx, j.Game.ID, 0, 0)
	}
}

// driver keeps the number of tables up: a finished game is replaced on the
// node that closed it, unless that node was stopped.
type driver struct {
	nodes    []*node
	kick     chan struct{}
	seats    int
	window   time.Duration
	finished int
}

// play replaces finished games for d, or until done (checked every 20 ms)
// says so, calling progress every 10 s.
func (dr *driver) play(ctx context.Context, d time.Duration, done func() bool, progress func()) error {
	deadline := time.After(d)
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	check := time.NewTicker(20 * time.Millisecond)
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-deadline:
			return nil
		case <-tick.C:
			if progress != nil {
				progress()
			}
		case <-check.C:
			if done != nil && done() {
				return nil
			}
		case <-dr.kick:
			for _, nd := range dr.nodes {
				n := nd.pub.take()
				dr.finished += n
				if nd.stopped || n == 0 {
					continue
				}
				if err := startMany(ctx, n, nd.starter(dr.seats, dr.window)); err != nil && ctx.Err() == nil {
					return fmt.Errorf("node %s: %w", nd.name, err)
				}
			}
		}
	}
}

// timings gathers every duration of every node's Stats (Manager.Observe),
// or of the store's writes (Store.ObserveWrites), so the figures in all are
// quantiles of all the nodes' durations together, not an average of the
// nodes' quantiles.
type timings[K comparable] struct {
	mu sync.Mutex
	d  map[K][]time.Duration
}

func newTimings[K comparable]() *timings[K] { return &timings[K]{d: map[K][]time.Duration{}} }

func (t *timings[K]) record(which K, d time.Duration) {
	t.mu.Lock()
	t.d[which] = append(t.d[which], d)
	t.mu.Unlock()
}

func (t *timings[K]) reset() {
	t.mu.Lock()
	clear(t.d)
	t.mu.Unlock()
}

func (t *timings[K]) latency(which K) live.Latency {
	t.mu.Lock()
	d := slices.Clone(t.d[which])
	t.mu.Unlock()
	return latencyOf(d)
}

// latencyOf is the p50, p99 and max of d, exact.
func latencyOf(d []time.Duration) live.Latency {
	if len(d) == 0 {
		return live.Latency{}
	}
	slices.Sort(d)
	at := func(q float64) time.Duration { return d[int(q*float64(len(d)-1))] }
	return live.Latency{Count: int64(len(d)), P50: at(0.50), P99: at(0.99), Max: d[len(d)-1]}
}

// timingsShown are the rows of the lateness tables, in order.
var timingsShown = []struct {
	name   string
	timing live.Timing
	of     func(live.Stats) live.Latency
}{
	{"deadlines", live.TimeDeadlines, func(s live.Stats) live.Latency { return s.Deadlines }},
	{"bot moves", live.TimeBots, func(s live.Stats) live.Latency { return s.Bots }},
	{"action to publish", live.TimePublish, func(s live.Stats) live.Latency { return s.Publish }},
	{"writer queue", live.TimeQueued, func(s live.Stats) live.Latency { return s.Queued }},
	{"group commit", live.TimeCommits, func(s live.Stats) live.Latency { return s.Commits }},
}

// print writes the run's figures: a line per node and one in all, then
// the lateness of each node and of all.
func (r *clusterResult) print(o clusterOpts) {
	secs := r.elapsed.Seconds()
	fmt.Printf("\n%d tables of %d seats on %d nodes for %v (%d games finished)\n", o.tables, o.seats, o.nodes, r.elapsed.Round(time.Second), r.finished)
	fmt.Printf("CPU (%s): %.2f of %d cores\n", r.cpuOf, r.cpu.Seconds()/secs, runtime.NumCPU())
	fmt.Printf("%-6s %12s %12s %12s %12s %10s %8s %8s\n", "node", "actions/s", "commits/s", "per commit", "committing", "claims", "fenced", "late")
	var sum live.Stats
	sumBusy := 0.0
	for i, s := range r.nodes {
		busy := r.committing[i].Seconds() / secs
		fmt.Printf("%-6s %12.0f %12.1f %12.1f %11.0f%% %10d %8d %8d\n", r.names[i], float64(s.Actions)/secs, float64(s.Commits.Count)/secs, s.Batch, 100*busy, s.Claims, s.Fenced, s.LateRenewals)
		sumBusy += busy
		sum.Actions += s.Actions
		sum.Commits.Count += s.Commits.Count
		sum.Claims += s.Claims
		sum.Fenced += s.Fenced
		sum.LateRenewals += s.LateRenewals
	}
	batch := 0.0
	if sum.Commits.Count > 0 {
		batch = float64(sum.Actions) / float64(sum.Commits.Count)
	}
	fmt.Printf("%-6s %12.0f %12.1f %12.1f %11.0f%% %10d %8d %8d\n", "all", float64(sum.Actions)/secs, float64(sum.Commits.Count)/secs, batch, 100*sumBusy/float64(len(r.nodes)), sum.Claims, sum.Fenced, sum.LateRenewals)
	fmt.Printf("%-20s %-6s %10s %10s %10s %10s\n", "lateness", "node", "count", "p50", "p99", "max")
	for _, row := range timingsShown {
		for i, s := range r.nodes {
			l := row.of(s)
			fmt.Printf("%-20s %-6s %10d %10v %10v %10v\n", row.name, r.names[i], l.Count, short(l.P50), short(l.P99), short(l.Max))
		}
		l := r.all[row.timing]
		fmt.Printf("%-20s %-6s %10d %10v %10v %10v\n", row.name, "all", l.Count, short(l.P50), short(l.P99), short(l.Max))
	}
	if r.takeover != nil {
		r.takeover.print()
	}
}

// short rounds d to three or four figures, as the one-node run's buckets
// read.
func short(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}
