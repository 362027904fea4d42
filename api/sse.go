package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/r3labs/sse/v2"

	"bullshit/engine"
	"bullshit/live"
)

// HubConfig configures a Hub. Zero fields take the defaults.
type HubConfig struct {
	Logger *slog.Logger
	// Ping is how often an idle stream gets a comment, so proxies keep it
	// open and a vanished client is noticed.
	Ping time.Duration
	// WriteTimeout is how long one write to a subscriber may take before it
	// is dropped: a client that stops reading cannot hold a stream forever.
	WriteTimeout time.Duration
	// Retry is how often views that could not be queued are tried again.
	Retry time.Duration
}

// Hub sends every seat's view to the clients watching it, each event's id
// the view's version. Every connection has an event stream of its own: the
// library hands an event to a stream's subscribers one after another, so a
// shared stream would let one client that stops reading hold up the others
// (every spectator of a game, or a player's other tab). It implements
// live.Publisher: Publish never blocks, so a stalled client can only lose its
// own events, never hold up its table.
//
// It is built on r3labs/sse with its traps avoided: nothing is replayed
// (a subscriber gets the current view on connecting instead), streams are
// created only by the Hub and named by it, never from the request, and a
// stream is removed only once no subscriber is left on it, since the
// library's deregistration blocks forever on a removed stream.
type Hub struct {
	srv   *sse.Server
	log   *slog.Logger
	cfg   HubConfig
	ctx   context.Context // ends every subscriber when Run ends
	stop  context.CancelFunc
	clock func() time.Time

	mu      sync.Mutex
	streams map[string]*stream            // by stream name
	watched map[string]map[string]*stream // by seat (seatKey), then stream name
	nextID  uint64
	closed  map[string]time.Time // games closed lately, to refuse late subscribers
	subs    int
	done    bool
}

// stream is the Hub's record of one connection's stream.
type stream struct {
	game    string
	seat    string // watchKey(game, seat)
	view    []byte // the latest view's JSON
	version int
	missed  bool // the latest view couldn't be queued: try again
	closing bool // the game is over: end every subscriber after its final view
	marked  bool // the end marker is queued
	subs    int  // subscribers from attaching until the library lets go
}

var _ live.Publisher = (*Hub)(nil)

// The Hub's defaults.
const (
	DefaultPing         = 15 * time.Second
	DefaultWriteTimeout = 30 * time.Second
	defaultRetry        = time.Second
	closedMemory        = time.Minute
	// streamBuffer is how many events a stream queues before it drops: a
	// table sends one per change, so only a stalled client fills it.
	streamBuffer = 32
)

// NewHub makes a Hub; Run drives its pings and retries and ends it.
func NewHub(cfg HubConfig) *Hub {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Ping <= 0 {
		cfg.Ping = DefaultPing
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.Retry <= 0 {
		cfg.Retry = defaultRetry
	}
	h := &Hub{log: cfg.Logger, cfg: cfg, clock: time.Now,
		streams: make(map[string]*stream), watched: make(map[string]map[string]*stream), closed: make(map[string]time.Time)}
	h.ctx, h.stop = context.WithCancel(context.Background())
	srv := sse.New()
	srv.AutoReplay = false // its log would grow forever; the current view is sent on connect instead
	srv.AutoStream = false
	srv.BufferSize = streamBuffer
	srv.Headers = map[string]string{"X-Accel-Buffering": "no"}
	srv.OnSubscribe = h.subscribed
	srv.OnUnsubscribe = h.unsubscribed
	h.srv = srv
	return h
}

func watchKey(game string, seat int) string { return game + "/" + strconv.Itoa(seat) }

// Publish queues a seat's new view for each of its subscribers.
func (h *Hub) Publish(game string, seat int, v engine.View) {
	key := watchKey(game, seat)
	h.mu.Lock()
	watched := len(h.watched[key]) > 0
	h.mu.Unlock()
	if !watched {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		h.log.Error("encoding a view", "game", game, "seat", seat, "err", err)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, st := range h.watched[key] {
		if st.closing || v.Version <= st.version {
			continue
		}
		st.view, st.version = data, v.Version
		h.send(name, st)
	}
}

// Close ends a game's streams once each has had its final view.
func (h *Hub) Close(game string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed[game] = h.clock()
	for name, st := range h.streams {
		if st.game != game {
			continue
		}
		st.closing = true
		if st.subs == 0 {
			h.remove(name)
			continue
		}
		h.finish(name, st)
	}
}

// send queues the stream's latest view. Called with h.mu held.
func (h *Hub) send(name string, st *stream) {
	if st.view == nil {
		return
	}
	st.missed = !h.srv.TryPublish(name, &sse.Event{ID: []byte(strconv.Itoa(st.version)), Data: st.view})
}

// finish queues the end marker, after the final view. An event with neither
// data nor a comment makes the library end each subscriber's response.
// Called with h.mu held.
func (h *Hub) finish(name string, st *stream) {
	if st.missed {
		h.send(name, st)
	}
	if !st.missed {
		st.marked = h.srv.TryPublish(name, &sse.Event{})
	}
}

// remove drops a stream nobody is subscribed to. Called with h.mu held.
func (h *Hub) remove(name string) {
	h.srv.RemoveStream(name)
	if st := h.streams[name]; st != nil {
		delete(h.watched[st.seat], name)
		if len(h.watched[st.seat]) == 0 {
			delete(h.watched, st.seat)
		}
	}
	delete(h.streams, name)
}

// subscribed sends a new subscriber the current view (the others on the
// stream get it again, which changes nothing for them).
func (h *Hub) subscribed(name string, _ *sse.Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.streams[name]
	if st == nil {
		return
	}
	h.send(name, st)
	if st.closing {
		h.finish(name, st)
	}
}

// unsubscribed runs once the library has let a subscriber go: only then may
// its stream be removed.
func (h *Hub) unsubscribed(name string, _ *sse.Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subs--
	st := h.streams[name]
	if st == nil {
		return
	}
	st.subs--
	if st.subs == 0 {
		h.remove(name)
	}
}

var (
	errShuttingDown = &live.Error{Code: live.CodeUnavailable, Message: "The server is shutting down: try again in a moment."}
	errGameClosed   = &live.Error{Code: live.CodeConflict, Message: "The game is over."}
)

// attach records a new subscriber with the view it starts from and makes
// sure its stream exists.
func (h *Hub) attach(game string, seat int, v engine.View) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encoding a view: %w", err)
	}
	key := watchKey(game, seat)
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.done:
		return "", errShuttingDown
	case !h.closed[game].IsZero():
		return "", errGameClosed
	}
	h.nextID++
	name := key + "/" + strconv.FormatUint(h.nextID, 10)
	st := &stream{game: game, seat: key, view: data, version: v.Version, subs: 1}
	h.streams[name] = st
	if h.watched[key] == nil {
		h.watched[key] = make(map[string]*stream)
	}
	h.watched[key][name] = st
	h.subs++
	h.srv.CreateStream(name)
	return name, nil
}

// serve streams a seat's views until the client goes, the game ends or the
// Hub stops. v is the view when the client connected; fresh, if not nil,
// reads it again once the stream exists, since a change published between
// the first reading and the attaching reached no stream.
func (h *Hub) serve(c echo.Context, game string, seat int, v engine.View, fresh func() (engine.View, error)) error {
	name, err := h.attach(game, seat, v)
	if err == errGameClosed {
		return serveOnce(c, v)
	}
	if err != nil {
		return err
	}
	if fresh != nil {
		if nv, err := fresh(); err == nil {
			h.Publish(game, seat, nv)
		}
	}
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	defer context.AfterFunc(h.ctx, cancel)()

	// The library reads the stream's name from the query: it is set here,
	// never taken from the client, and nothing the client sent is replayed.
	r := c.Request().Clone(ctx)
	r.URL.RawQuery = url.Values{"stream": {name}}.Encode()
	r.Header.Del("Last-Event-ID")
	w := newDeadlineWriter(c.Response(), h.cfg.WriteTimeout)
	// The server's read and write timeouts are for ordinary requests: a
	// stream lives on, with a deadline per write instead.
	if err := w.rc.SetWriteDeadline(time.Time{}); err != nil {
		h.log.Debug("clearing the write deadline", "err", err)
	}
	if err := w.rc.SetReadDeadline(time.Time{}); err != nil {
		h.log.Debug("clearing the read deadline", "err", err)
	}
	h.srv.ServeHTTP(w, r)
	return nil
}

// serveOnce answers a finished game's stream with its final view alone.
func serveOnce(c echo.Context, v engine.View) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding a view: %w", err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	c.Response().WriteHeader(http.StatusOK)
	_, err = fmt.Fprintf(c.Response(), "id: %d\ndata: %s\n\n", v.Version, data)
	return err
}

// Run pings the streams and retries views that couldn't be queued, until
// ctx ends; then it ends every subscriber and removes every stream.
func (h *Hub) Run(ctx context.Context) {
	retry := time.NewTicker(h.cfg.Retry)
	defer retry.Stop()
	ping := time.NewTicker(h.cfg.Ping)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			h.shutdown()
			return
		case <-retry.C:
			h.retry()
		case <-ping.C:
			h.pingAll()
		}
	}
}

func (h *Hub) retry() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, st := range h.streams {
		switch {
		case st.closing && !st.marked:
			h.finish(name, st)
		case st.missed:
			h.send(name, st)
		}
	}
	now := h.clock()
	for game, at := range h.closed {
		if now.Sub(at) > closedMemory {
			delete(h.closed, game)
		}
	}
}

var pingEvent = []byte("ping")

func (h *Hub) pingAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, st := range h.streams {
		if !st.closing && st.subs > 0 {
			h.srv.TryPublish(name, &sse.Event{Comment: pingEvent})
		}
	}
}

// shutdown ends every subscriber, waits (a bounded time) for the library to
// let each go, then closes every stream.
func (h *Hub) shutdown() {
	h.mu.Lock()
	h.done = true
	h.mu.Unlock()
	h.stop()
	deadline := time.Now().Add(h.cfg.WriteTimeout)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		left := h.subs
		h.mu.Unlock()
		if left == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.srv.Close()
	clear(h.streams)
	clear(h.watched)
}

// Subscribers is how many clients are subscribed, for tests and metrics.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.subs
}

// deadlineWriter gives each write to a subscriber its own deadline, so a
// client that stops reading is dropped instead of holding its stream.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func newDeadlineWriter(w http.ResponseWriter, timeout time.Duration) *deadlineWriter {
	return &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout}
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout)) // unsupported only on writers that never block
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	_ = w.rc.Flush()
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
