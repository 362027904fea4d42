package ops

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Ready is the node's readiness: a list of named checks, each an answer to
// "can this node serve?" (the database answers, the tables are recovered, in
// a cluster the lease is held and NATS connected), failing all at once while
// the node drains. Others add their checks with Add as they are built.
type Ready struct {
	log *slog.Logger

	mu     sync.Mutex
	checks []check
	// draining is set by Drain and never cleared: a draining node is on
	// its way out.
	draining atomic.Bool
	// failing is the name of the check that failed last time, "" when
	// ready, so only a change is logged, not every probe.
	failing atomic.Pointer[string]

	now func() time.Time
	// running is held by the one probe running the checks; the probes
	// that come meanwhile wait for its answer rather than run their own.
	running sync.Mutex
	last    atomic.Pointer[answered]
}

// answered is one run of the checks, and when it finished.
type answered struct {
	at      time.Time
	failing string
	results []Result
}

type check struct {
	name string
	fn   func(ctx context.Context) error
}

// Draining is the name /readyz gives while the node drains.
const Draining = "draining"

// checkTimeout bounds one probe's checks: a load balancer polls every few
// seconds, and a check that hangs (a database that doesn't answer) is a
// failure, not a reason to hang the probe.
const checkTimeout = 2 * time.Second

// CacheFor is how long one run of the checks answers the probes: a probe
// costs a database round trip, and however often the probes come, the
// database sees at most one a second from this node.
const CacheFor = time.Second

// NewReady is a readiness with no checks yet, logging to log when it
// changes.
func NewReady(log *slog.Logger) *Ready {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Ready{log: log, now: time.Now}
	none := ""
	r.failing.Store(&none)
	return r
}

// Add adds the check named name: fn returns nil while the node can serve in
// that respect. fn must be cheap (a probe runs every check) and follow its
// context. A name added already keeps its first check: two parts of the
// server may both ask for one.
func (r *Ready) Add(name string, fn func(ctx context.Context) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.checks {
		if c.name == name {
			return
		}
	}
	r.checks = append(r.checks, check{name: name, fn: fn})
}

// Drain makes the node not ready from now on, whatever the checks say.
func (r *Ready) Drain() { r.draining.Store(true) }

// Result is one check's outcome.
type Result struct {
	Name string
	Err  error
}

// Check returns the first failing check's name ("" when ready) with every
// outcome, in the order the checks were added, from a run at most CacheFor
// old. One run at a time: a probe that finds the answer stale runs the
// checks, the ones that come meanwhile share its answer. While draining it
// answers Draining at once, running nothing.
func (r *Ready) Check(ctx context.Context) (failing string, results []Result) {
	if r.draining.Load() {
		return Draining, []Result{{Name: Draining, Err: errDraining}}
	}
	if a := r.fresh(); a != nil {
		return a.failing, a.results
	}
	r.running.Lock()
	defer r.running.Unlock()
	if a := r.fresh(); a != nil {
		return a.failing, a.results
	}
	// The run answers every probe waiting on it, so one probe's hanging
	// up must not fail it.
	failing, results = r.run(context.WithoutCancel(ctx))
	r.last.Store(&answered{at: r.now(), failing: failing, results: results})
	return failing, results
}

var errDraining = fmt.Errorf("the node is shutting down")

// fresh is the last run of the checks while it may still answer.
func (r *Ready) fresh() *answered {
	a := r.last.Load()
	if a == nil || r.now().Sub(a.at) >= CacheFor {
		return nil
	}
	return a
}

// run runs every check.
func (r *Ready) run(ctx context.Context) (failing string, results []Result) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	r.mu.Lock()
	checks := append([]check(nil), r.checks...)
	r.mu.Unlock()
	for _, c := range checks {
		results = append(results, Result{Name: c.name, Err: c.fn(ctx)})
	}
	for _, res := range results {
		if res.Err != nil {
			return res.Name, results
		}
	}
	return "", results
}

// ServeReady answers /readyz: 200 "ok" when every check passes, else 503
// naming the first that failed. With ?verbose every check is listed. The
// checks' errors are logged (when the failing check changes), never
// answered: the probe is unauthenticated, and an error can name a host.
func (r *Ready) ServeReady(w http.ResponseWriter, req *http.Request) {
	if !probeMethod(w, req) {
		return
	}
	failing, results := r.Check(req.Context())
	if was := r.failing.Swap(&failing); *was != failing {
		if failing == "" {
			r.log.Info("ready")
		} else {
			for _, res := range results {
				if res.Name == failing {
					r.log.Warn("not ready", "check", failing, "err", res.Err)
				}
			}
		}
	}
	var b strings.Builder
	if _, verbose := req.URL.Query()["verbose"]; verbose {
		for _, res := range results {
			mark := "+"
			if res.Err != nil {
				mark = "-"
			}
			fmt.Fprintf(&b, "[%s]%s\n", mark, res.Name)
		}
	}
	status := http.StatusOK
	if failing == "" {
		b.WriteString("ok\n")
	} else {
		status = http.StatusServiceUnavailable
		fmt.Fprintf(&b, "not ready: %s\n", failing)
	}
	answer(w, status, b.String())
}

// ServeLive answers /livez: 200 whenever the process can answer at all. It
// reads nothing, the database least: a node whose database is down should
// be taken out of the load balancer (by /readyz), not restarted.
func ServeLive(w http.ResponseWriter, req *http.Request) {
	if probeMethod(w, req) {
		answer(w, http.StatusOK, "ok\n")
	}
}

func probeMethod(w http.ResponseWriter, req *http.Request) bool {
	if req.Method == http.MethodGet || req.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	answer(w, http.StatusMethodNotAllowed, "method not allowed\n")
	return false
}

func answer(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
