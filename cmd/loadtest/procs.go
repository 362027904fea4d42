package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"bullshit/cluster"
	"bullshit/live"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// The process mode (-nodes N -procs): each node is a process of its own,
// this binary started again as a child (-child), so that each can be held
// to a CPU quota of its own (-quota, a cgroup's), as nodes on machines of
// their own would be, while they share one PostgreSQL schema and one NATS
// mesh as in production. The parent starts the children, tells them when
// the window opens and closes (a line on their standard input), and
// gathers what each measured (a line of JSON on their standard output).

// childEnv carries the NATS route secret to a child, out of its command
// line.
const childEnv = "BULLSHIT_LOADTEST_ROUTE_SECRET"

// childReport is what a child measured in the window.
type childReport struct {
	Name       string                          `json:"name"`
	Stats      live.Stats                      `json:"stats"`
	Committing time.Duration                   `json:"committing"`
	CPU        time.Duration                   `json:"cpu"`
	Elapsed    time.Duration                   `json:"elapsed"`
	Finished   int                             `json:"finished"`
	Timings    map[live.Timing][]time.Duration `json:"timings"`
}

// runProcs runs o's nodes as child processes, each at quota cores (0: no
// quota), and gathers their figures as a cluster run's.
func runProcs(ctx context.Context, o clusterOpts, quota float64) (*clusterResult, error) {
	if o.postgres == "" {
		return nil, errors.New("the process mode needs -postgres: SQLite has one writer")
	}
	url, drop, err := storetest.NewSchema(ctx, o.postgres, "loadtest_")
	if err != nil {
		return nil, err
	}
	defer drop()
	// Migrated once here, so the children don't race to.
	st, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	st.Close()
	secret, err := routeSecret()
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var kids []*child
	defer func() {
		for _, k := range kids {
			k.end()
		}
	}()
	route := ""
	for i := range o.nodes {
		share := o.tables / o.nodes
		if i < o.tables%o.nodes {
			share++
		}
		k, err := startChild(ctx, self, fmt.Sprint("n", i), url, route, secret, share, o, quota)
		if err != nil {
			return nil, err
		}
		kids = append(kids, k)
		if i == 0 {
			if route, err = k.expect("route"); err != nil {
				return nil, err
			}
		} else if _, err := k.expect("route"); err != nil {
			return nil, err
		}
	}
	for _, k := range kids {
		if _, err := k.expect("ready"); err != nil {
			return nil, err
		}
	}
	if !o.quiet {
		fmt.Printf("%d nodes in processes of their own, %s; %d tables started; warming up for %v, then measuring for %v\n",
			o.nodes, quotaWords(quota), o.tables, o.warmup, o.duration)
	}
	if err := sleep(ctx, o.warmup); err != nil {
		return nil, err
	}
	for _, k := range kids {
		k.say("measure")
	}
	if err := sleep(ctx, o.duration); err != nil {
		return nil, err
	}
	for _, k := range kids {
		k.say("stop")
	}
	r := &clusterResult{all: map[live.Timing]live.Latency{}, cpuOf: "the nodes' processes together, " + quotaWords(quota)}
	all := map[live.Timing][]time.Duration{}
	for _, k := range kids {
		line, err := k.expect("report")
		if err != nil {
			return nil, err
		}
		var rep childReport
		if err := json.Unmarshal([]byte(line), &rep); err != nil {
			return nil, fmt.Errorf("node %s: %w", k.name, err)
		}
		r.names = append(r.names, rep.Name)
		r.nodes = append(r.nodes, rep.Stats)
		r.committing = append(r.committing, rep.Committing)
		r.cpu += rep.CPU
		r.elapsed = max(r.elapsed, rep.Elapsed)
		r.finished += rep.Finished
		for t, d := range rep.Timings {
			all[t] = append(all[t], d...)
		}
	}
	for _, t := range timingsShown {
		r.all[t.timing] = latencyOf(all[t.timing])
	}
	return r, nil
}

func quotaWords(quota float64) string {
	if quota <= 0 {
		return "no CPU quota"
	}
	return fmt.Sprintf("each at a CPU quota of %.2f cores", quota)
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// child is a node's process.
type child struct {
	name   string
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	cgroup string
}

func startChild(ctx context.Context, self, name, url, route, secret string, tables int, o clusterOpts, quota float64) (*child, error) {
	args := []string{"-child", name, "-child-db", url, "-child-route", route, "-tables", strconv.Itoa(tables),
		"-seats", strconv.Itoa(o.seats), "-window", o.window.String(), "-lease", o.lease.String(),
		"-max-lateness", maxLateness.String(), "-starters", strconv.Itoa(startWorkers)}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(os.Environ(), childEnv+"="+secret)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	k := &child{name: name, cmd: cmd, in: in, lines: make(chan string, 16)}
	go func() {
		defer close(k.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			k.lines <- sc.Text()
		}
	}()
	if quota > 0 {
		if k.cgroup, err = limitCPU(name, cmd.Process.Pid, quota); err != nil {
			k.end()
			return nil, err
		}
	}
	return k, nil
}

// expect waits for the child's next line of the given kind and returns the
// rest of it.
func (k *child) expect(kind string) (string, error) {
	for line := range k.lines {
		if rest, ok := strings.CutPrefix(line, kind+" "); ok || line == kind {
			return rest, nil
		}
		fmt.Println(k.name + ": " + line)
	}
	return "", fmt.Errorf("node %s ended before saying %q", k.name, kind)
}

func (k *child) say(line string) { _, _ = fmt.Fprintln(k.in, line) }

// end closes the child's input, which stops it, waits for it, and removes
// its cgroup.
func (k *child) end() {
	_ = k.in.Close()
	_ = k.cmd.Wait()
	if k.cgroup != "" {
		_ = os.Remove(k.cgroup)
	}
}

// limitCPU puts the process pid in a cgroup of its own held to quota cores
// (cgroup v2's cpu.max, or v1's CFS quota) and returns the cgroup's folder.
// The quota is counted over 10 ms periods, not the kernel's default 100
// ms, so a node that used up its share waits at most the rest of 10 ms, as
// a node on a smaller machine of its own would, not a tenth of a second.
func limitCPU(name string, pid int, quota float64) (string, error) {
	const period = 10_000 // µs
	us := int(quota * period)
	group := fmt.Sprintf("bullshit-loadtest-%d-%s", os.Getpid(), name)
	var dir string
	var limits map[string]string
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		dir = filepath.Join("/sys/fs/cgroup", group)
		limits = map[string]string{"cpu.max": fmt.Sprintf("%d %d", us, period)}
	} else {
		dir = filepath.Join("/sys/fs/cgroup/cpu", group)
		limits = map[string]string{"cpu.cfs_period_us": strconv.Itoa(period), "cpu.cfs_quota_us": strconv.Itoa(us)}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", fmt.Errorf("a CPU quota needs a writable cgroup folder: %w", err)
	}
	for _, file := range []string{"cpu.cfs_period_us", "cpu.cfs_quota_us", "cpu.max"} {
		v, ok := limits[file]
		if !ok {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(v), 0o644); err != nil {
			_ = os.Remove(dir)
			return "", fmt.Errorf("set the CPU quota: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		_ = os.Remove(dir)
		return "", fmt.Errorf("put node %s in its cgroup: %w", name, err)
	}
	return dir, nil
}

// runChild is a child's whole life: one cluster node on url, routed to
// route (none for the first), starting its tables and replacing those
// that finish, measuring between the parent's "measure" and "stop".
func runChild(ctx context.Context, name, url, route string, o clusterOpts) error {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	kick := make(chan struct{}, 1)
	nd := &node{name: name, pub: &counter{kick: kick}}
	var err error
	if nd.st, err = store.Open(ctx, url); err != nil {
		return err
	}
	defer nd.st.Close()
	settings := loadSettings()
	settings.Observer = nd.pub
	var routes []string
	if route != "" {
		routes = []string{route}
	}
	settings.Cluster = &server.Cluster{Node: name, Lease: o.lease,
		NATS: cluster.NATSConfig{Listen: "127.0.0.1:0", Routes: routes, RouteSecret: os.Getenv(childEnv)}}
	if nd.site, err = server.Assemble(mctx, nd.st, nil, logger, settings); err != nil {
		return err
	}
	defer func() {
		closeCtx, done := context.WithTimeout(context.Background(), 30*time.Second)
		defer done()
		_ = nd.site.Close(closeCtx)
	}()
	nd.m = nd.site.Manager
	times := newTimings[live.Timing]()
	nd.m.Observe(func(t live.Timing, d time.Duration) {
		times.record(t, d)
		if t == live.TimeCommits {
			nd.committing.Add(int64(d))
		}
	})
	fmt.Println("route " + nd.site.Mesh.NATS.ClusterAddr())
	if err := awaitReady(ctx, []*node{nd}, 30*time.Second); err != nil {
		return err
	}
	if err := startMany(mctx, o.tables, nd.starter(o.seats, o.window)); err != nil {
		return err
	}
	fmt.Println("ready")

	var measuring, stopped atomic.Bool
	var finished atomic.Int64
	counted := func(string) {
		if measuring.Load() {
			finished.Add(1)
		}
	}
	nd.pub.onClose.Store(&counted)
	said := make(chan string)
	go func() {
		defer close(said)
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			said <- sc.Text()
		}
	}()
	d := &driver{nodes: []*node{nd}, kick: kick, seats: o.seats, window: o.window}
	played := make(chan error, 1)
	go func() { played <- d.play(mctx, 24*time.Hour, stopped.Load, nil) }()
	var began time.Time
	var cpu0 time.Duration
	for line := range said {
		switch line {
		case "measure":
			nd.m.ResetStats()
			nd.committing.Store(0)
			times.reset()
			began, cpu0 = time.Now(), cpuTime()
			measuring.Store(true)
		case "stop":
			if !measuring.Load() {
				return errors.New("told to stop before measuring")
			}
			rep := childReport{Name: name, Stats: nd.m.Stats(), Committing: time.Duration(nd.committing.Load()),
				CPU: cpuTime() - cpu0, Elapsed: time.Since(began), Finished: int(finished.Load()),
				Timings: map[live.Timing][]time.Duration{}}
			measuring.Store(false)
			stopped.Store(true)
			if err := <-played; err != nil {
				return err
			}
			for _, t := range timingsShown {
				times.mu.Lock()
				rep.Timings[t.timing] = append([]time.Duration(nil), times.d[t.timing]...)
				times.mu.Unlock()
			}
			b, err := json.Marshal(rep)
			if err != nil {
				return err
			}
			fmt.Println("report " + string(b))
		}
	}
	// The parent closed the input: the run is over.
	return nil
}
