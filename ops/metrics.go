package ops

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"bullshit/live"
)

// namespace starts every metric's name that is the game's own.
const namespace = "bullshit"

// Metrics is the server's registry and the instruments it keeps itself;
// the rest are read from their sources as Prometheus scrapes (see Watch,
// Streams). Never the default registry: two servers in one test binary
// would collide on it, and a library registering there would show up here.
type Metrics struct {
	reg *prometheus.Registry
	// names are those Counter and Gauge registered.
	mu    sync.Mutex
	names map[string]bool
	// isMove tells a move's route from the others (see Config).
	isMove func(method, route string) bool

	requests  *prometheus.CounterVec
	durations *prometheus.HistogramVec
	acks      prometheus.Histogram
	commits   prometheus.Histogram
	publish   prometheus.Histogram
	lateness  *prometheus.HistogramVec
	recovery  prometheus.Gauge
}

// Config says what Metrics cannot find out for itself.
type Config struct {
	// IsMove reports whether a route (the router's pattern, such as
	// /api/v1/games/:id/play) is a player's move, whose answer is timed as
	// an acknowledgement besides as a request.
	IsMove func(method, route string) bool
}

// Buckets, in seconds. A move's answer and a commit take a millisecond or
// so on a quiet server and seconds on a struggling database; a timer is
// late by a millisecond or two, or by the length of a stall.
var (
	fastBuckets = prometheus.ExponentialBuckets(0.00025, 2, 16) // 0.25 ms to 8 s
	lateBuckets = prometheus.ExponentialBuckets(0.0005, 2, 15)  // 0.5 ms to 8 s
)

// NewMetrics builds the registry with the Go runtime's and the process's
// collectors and the server's own instruments.
func NewMetrics(cfg Config) *Metrics {
	if cfg.IsMove == nil {
		cfg.IsMove = func(string, string) bool { return false }
	}
	m := &Metrics{reg: prometheus.NewRegistry(), names: map[string]bool{}, isMove: cfg.IsMove}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Subsystem: "http",
		Name: "requests_total",
		Help: "HTTP requests answered, by method, route pattern and status; an event stream counts when it ends."},
		[]string{"method", "route", "code"})
	m.durations = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Subsystem: "http",
		Name: "request_duration_seconds", Buckets: fastBuckets,
		Help: "Time from a request's arrival to its answer, by method and route pattern; event streams are left out."},
		[]string{"method", "route"})
	m.acks = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace,
		Name: "move_ack_duration_seconds", Buckets: fastBuckets,
		Help: "Time from a move's request arriving to its acceptance being answered (stored first), over the API and the pages."})
	m.commits = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace,
		Name: "commit_duration_seconds", Buckets: fastBuckets,
		Help: "Time one group commit of actions took."})
	m.publish = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace,
		Name: "publish_duration_seconds", Buckets: fastBuckets,
		Help: "Time from a change being stored (or a deadline settled) to its frames being handed to the streams."})
	m.lateness = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace,
		Name: "timer_lateness_seconds", Buckets: lateBuckets,
		Help: "How late a table's timers ran after they fell due: game deadlines, and bot decisions and take-overs."},
		[]string{"timer"})
	m.recovery = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace,
		Name: "recovery_duration_seconds",
		Help: "Time the tables took at start to be loaded and replayed from the store."})
	m.reg.MustRegister(m.requests, m.durations, m.acks, m.commits, m.publish, m.lateness, m.recovery)
	return m
}

// Registry is where the server's metrics are; another part of the server
// (the cluster's) registers its own here.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in Prometheus's text format (or what the
// scraper asks for). A collector's error fails the scrape rather than
// hiding behind a partial answer.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, ErrorHandling: promhttp.HTTPErrorOnError})
}

// Runtime is what the metrics read of the tables (*live.Manager).
type Runtime interface {
	TableCounts() (open, playing int)
	Stats() live.Stats
	Observe(func(live.Timing, time.Duration))
}

// Watch reads the tables' counts and timings from rt: the counts as each
// scrape asks, the timings as each is made. Call it once.
func (m *Metrics) Watch(rt Runtime) {
	m.reg.MustRegister(tablesCollector{rt: rt, desc: prometheus.NewDesc(namespace+"_tables",
		"Tables this node runs: open (waiting for players) and playing.", []string{"state"}, nil)})
	// Live's ResetStats (the load test's) restarts it, which Prometheus
	// reads as a counter's reset.
	m.Counter("actions_stored_total", "Actions stored by this node's tables, people's and bots' alike.",
		func() int64 { return rt.Stats().Actions })
	deadlines, bots := m.lateness.WithLabelValues("deadline"), m.lateness.WithLabelValues("bot")
	rt.Observe(func(t live.Timing, d time.Duration) {
		switch t {
		case live.TimeCommits:
			m.commits.Observe(d.Seconds())
		case live.TimePublish:
			m.publish.Observe(d.Seconds())
		case live.TimeDeadlines:
			deadlines.Observe(d.Seconds())
		case live.TimeBots:
			bots.Observe(d.Seconds())
		}
	})
}

// Streams reports the event streams open on this node, as count says (the
// push hub's Subscribers).
func (m *Metrics) Streams(count func() int) {
	m.Gauge("streams_open", "Event streams open on this node, the browsers' and the API's.",
		func() int64 { return int64(count()) })
}

// Counter registers bullshit_<name>, a counter read from read at each
// scrape: for a count its source keeps anyway. name ends in _total. A name
// registered already by Counter or Gauge is left as it is: two parts of the
// server may both report a count, and the first one's stands.
func (m *Metrics) Counter(name, help string, read func() int64) {
	if m.claim(name) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: namespace, Name: name, Help: help},
			func() float64 { return float64(read()) }))
	}
}

// Gauge registers bullshit_<name>, a gauge read from read at each scrape,
// unless the name is registered already (see Counter).
func (m *Metrics) Gauge(name, help string, read func() int64) {
	if m.claim(name) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: name, Help: help},
			func() float64 { return float64(read()) }))
	}
}

// claim reports whether name is free, and takes it.
func (m *Metrics) claim(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.names[name] {
		return false
	}
	m.names[name] = true
	return true
}

// Recovered records how long the tables took to load and replay at start.
func (m *Metrics) Recovered(d time.Duration) { m.recovery.Set(d.Seconds()) }

type tablesCollector struct {
	rt   Runtime
	desc *prometheus.Desc
}

func (c tablesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c tablesCollector) Collect(ch chan<- prometheus.Metric) {
	open, playing := c.rt.TableCounts()
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(open), "open")
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(playing), "playing")
}

// Requests is router e's middleware that counts and times each request by
// its route's pattern, never its path (a game code in a label would make a
// series per game). It goes inside the router's logging and outside its
// recovery from panics (see api.Observe), and answers a handler's error
// itself, so the status it records is the one sent. An event stream is
// counted but not timed: its length is the client's, and it would swamp
// every bucket.
func (m *Metrics) Requests(e *echo.Echo) echo.MiddlewareFunc {
	// The routes are all registered before the first request.
	known := sync.OnceValue(func() map[string]bool {
		paths := map[string]bool{}
		for _, r := range e.Routes() {
			paths[r.Path] = true
		}
		return paths
	})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			if err := next(c); err != nil {
				c.Error(err)
			}
			took := time.Since(start).Seconds()
			// A request no route matched has the pattern of the
			// nearest node of echo's tree, or none: "unmatched".
			route := c.Path()
			if !known()[route] {
				route = "unmatched"
			}
			method, status := methodLabel(c.Request().Method), c.Response().Status
			m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
			if strings.HasPrefix(c.Response().Header().Get(echo.HeaderContentType), "text/event-stream") {
				return nil
			}
			m.durations.WithLabelValues(method, route).Observe(took)
			if status < http.StatusBadRequest && m.isMove(c.Request().Method, route) {
				m.acks.Observe(took)
			}
			return nil
		}
	}
}

// methodLabel keeps the label's values to the methods there are: the
// client chooses the method too.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}
