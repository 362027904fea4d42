// Package push sends each seat's frames to the clients following it, as
// server-sent events, in the format each client asked for: the API's JSON
// views for programs, rendered HTML fragments for browsers.
package push

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/r3labs/sse/v2"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
)

// Event is one server-sent event as an Encoder makes it.
type Event struct {
	// Name is the event's type ("" for the default, message).
	Name string
	// ID is the event's id.
	ID string
	// Key orders a stream's events: one is sent only if its key is higher
	// than the last one sent (a view's version, a frame's revision).
	Key  int
	Data []byte
	// Parts, when set, are Data's pieces that a client can take alone (a
	// screen's regions), and Shape names how they are laid out: a stream
	// whose last event had the same Shape gets only the Parts that changed.
	Parts [][]byte
	Shape string
}

// since is what of ev a stream must send when prev is the last event it
// sent: the Parts that changed, or all of Data. ok is false when nothing
// changed. An event of another name (a game's final frame) goes whole, so
// it is always sent.
func (ev Event) since(prev Event) (data []byte, ok bool) {
	if ev.Shape == "" || ev.Shape != prev.Shape || ev.Name != prev.Name || len(ev.Parts) != len(prev.Parts) {
		return ev.Data, true
	}
	for i, p := range ev.Parts {
		if !bytes.Equal(p, prev.Parts[i]) {
			data = append(data, p...)
		}
	}
	return data, len(data) > 0
}

// Encoder renders a frame as one event for one kind of client. ok is false
// when the frame has nothing for that kind of client (a JSON stream has no
// view before the start).
type Encoder interface {
	Encode(f game.Frame, now time.Time) (ev Event, ok bool, err error)
}

// EncoderFunc is a func that is an Encoder.
type EncoderFunc func(f game.Frame, now time.Time) (Event, bool, error)

// Encode calls fn.
func (fn EncoderFunc) Encode(f game.Frame, now time.Time) (Event, bool, error) { return fn(f, now) }

// Config configures a Hub. Zero fields take the defaults.
type Config struct {
	Logger *slog.Logger
	// Formats are the encoders by format name; a stream asks for one.
	Formats map[string]Encoder
	// LobbyEvery is the least time between two lobby renders.
	LobbyEvery time.Duration
	// Ping is the longest a stream goes without an event or a comment, so
	// proxies keep it open and a vanished client is noticed: an idle stream
	// gets a comment at a moment of its own in the last quarter of that.
	Ping time.Duration
	// WriteTimeout is how long one write to a subscriber may take before it
	// is dropped: a client that stops reading cannot hold a stream forever.
	WriteTimeout time.Duration
	// Retry is how often events that could not be queued are tried again.
	Retry time.Duration
	// Ends are the formats whose clients are told, in an "end" event, that
	// a waiting room's stream ends because the game started: reconnect now,
	// as the seat's number may have changed. A browser's EventSource would
	// otherwise see an error. (A finished game's last frame is its own
	// event, views.FinalEvent for the pages, on which a client stops.)
	Ends map[string]bool
}

// Hub sends every seat's frames to the clients watching it. Every connection
// has an event stream of its own: the library hands an event to a stream's
// subscribers one after another, so a shared stream would let one client
// that stops reading hold up the others (every spectator of a game, or a
// player's other tab). A frame is encoded once per format however many
// clients follow the seat. It implements game.Publisher: Publish never
// blocks on a client, so a stalled client can only lose its own events,
// never hold up its table.
//
// It is built on r3labs/sse with its traps avoided: nothing is replayed (a
// subscriber gets the current frame on connecting instead), streams are
// created only by the Hub and named by it, never from the request, and a
// stream is removed only once no subscriber is left on it, since the
// library's deregistration blocks forever on a removed stream.
type Hub struct {
	srv   *sse.Server
	log   *slog.Logger
	cfg   Config
	hooks Hooks
	ctx   context.Context // ends every subscriber when Run ends
	stop  context.CancelFunc
	clock func() time.Time

	mu      sync.Mutex
	streams map[string]*stream            // by stream name
	watched map[string]map[string]*stream // by seat (watchKey), then stream name
	nextID  uint64
	closed  map[string]time.Time // games closed lately, to refuse late subscribers
	subs    int
	done    bool
	// lobbies are the lobby streams; lobbyDirty says the lists changed
	// since they were last rendered; tables is what the lobby last knew of
	// each table, to tell a change it shows from one it doesn't.
	lobbies    map[string]*stream
	lobbyDirty bool
	lobbyKey   int
	tables     map[string]string
}

// stream is the Hub's record of one connection's stream.
type stream struct {
	game   string
	seatNo int
	seat   string // watchKey(game, seat)
	token  string // the seat's token the request was authenticated with
	format string
	event  Event // the latest event
	rev    int   // the revision of the frame event was encoded from
	sent   Event // the last event queued, which the client has or will have
	// beforeStart: the stream was opened before the game started. The start
	// numbers the seats afresh, so its seat may now be someone else's: it
	// is ended at the start, and the client reconnects as its new seat.
	beforeStart bool
	missed      bool // the latest event couldn't be queued: try again
	closing     bool // the game is over: end every subscriber after its final event
	told        bool // the "end" event is queued, or the stream needs none
	marked      bool // the end marker is queued
	subs        int  // subscribers from attaching until the library lets go
	// wrote is when an event or a comment was last queued; ping comes to
	// look at the stream again when the next comment could be due.
	wrote time.Time
	ping  *time.Timer
}

var _ game.Publisher = (*Hub)(nil)

// The Hub's defaults.
const (
	DefaultPing         = 15 * time.Second
	DefaultWriteTimeout = 30 * time.Second
	DefaultLobbyEvery   = time.Second
	defaultRetry        = time.Second
	closedMemory        = time.Minute
	// streamBuffer is how many events a stream queues before it drops: a
	// table sends one per change, so only a stalled client fills it.
	streamBuffer = 32
	// reconnectMillis is how soon a browser reconnects a stream the Hub
	// ended (at the start): the library's default is seconds.
	reconnectMillis = "250"
)

// New makes a Hub; Run drives its pings, retries and lobby and ends it.
func New(cfg Config) *Hub {
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
	if cfg.LobbyEvery <= 0 {
		cfg.LobbyEvery = DefaultLobbyEvery
	}
	h := &Hub{log: cfg.Logger, cfg: cfg, clock: time.Now,
		streams: make(map[string]*stream), watched: make(map[string]map[string]*stream),
		closed: make(map[string]time.Time), lobbies: make(map[string]*stream), tables: make(map[string]string)}
	h.ctx, h.stop = context.WithCancel(context.Background())
	srv := sse.New()
	srv.AutoReplay = false // its log would grow forever; the current frame is sent on connect instead
	srv.AutoStream = false
	srv.SplitData = true // HTML fragments span lines
	srv.BufferSize = streamBuffer
	srv.Headers = map[string]string{"X-Accel-Buffering": "no"}
	srv.OnSubscribe = h.subscribed
	srv.OnUnsubscribe = h.unsubscribed
	h.srv = srv
	return h
}

func watchKey(game string, seat int) string { return game + "/" + strconv.Itoa(seat) }

// Publish encodes a seat's new frame once for each format its clients follow
// and queues it for each of them.
func (h *Hub) Publish(game string, f game.Frame) {
	if f.Seat == engine.Spectator && h.noteTable(game, f.Game) && h.hooks.Lobbied != nil {
		h.hooks.Lobbied(game, f.Game)
	}
	key := watchKey(game, f.Seat)
	h.mu.Lock()
	formats := make(map[string]bool)
	for _, st := range h.watched[key] {
		// A stream that has this frame (a connecting client read it
		// again) needs no new encoding, unless the start ends it.
		if st.rev < f.Revision || (st.beforeStart && f.View != nil) {
			formats[st.format] = true
		}
	}
	h.mu.Unlock()
	if len(formats) == 0 {
		return
	}
	events := make(map[string]Event, len(formats))
	now := h.clock()
	for format := range formats {
		ev, ok, err := h.cfg.Formats[format].Encode(f, now)
		if err != nil {
			h.log.Error("encoding a frame", "game", game, "seat", f.Seat, "format", format, "err", err)
			continue
		}
		if ok {
			events[format] = ev
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, st := range h.watched[key] {
		if st.closing {
			continue
		}
		if st.beforeStart && f.View != nil {
			h.end(name, st)
			continue
		}
		ev, ok := events[st.format]
		if !ok || ev.Key <= st.event.Key {
			continue
		}
		st.event, st.rev = ev, f.Revision
		h.send(name, st)
	}
}

// Close ends a game's streams once each has had its final event.
func (h *Hub) Close(game string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed[game] = h.clock()
	for name, st := range h.streams {
		if st.game != game {
			continue
		}
		h.end(name, st)
	}
}

// end ends a stream's subscribers after the event they have. Called with
// h.mu held.
func (h *Hub) end(name string, st *stream) {
	st.closing = true
	if st.subs == 0 {
		h.remove(name)
		return
	}
	h.finish(name, st)
}

// send queues the stream's latest event. Called with h.mu held.
func (h *Hub) send(name string, st *stream) {
	if st.event.Data == nil {
		return
	}
	data, changed := st.event.since(st.sent)
	if !changed {
		st.sent, st.missed = st.event, false
		return
	}
	ev := &sse.Event{ID: []byte(st.event.ID), Data: data}
	if st.event.Name != "" {
		ev.Event = []byte(st.event.Name)
	}
	if st.beforeStart {
		ev.Retry = []byte(reconnectMillis)
	}
	st.missed = !h.srv.TryPublish(name, ev)
	if !st.missed {
		st.sent, st.wrote = st.event, h.clock()
	}
}

// finish queues the end marker, after the latest event. An event with
// neither data nor a comment makes the library end each subscriber's
// response. Called with h.mu held.
func (h *Hub) finish(name string, st *stream) {
	if st.missed {
		h.send(name, st)
	}
	if !st.missed && !st.told {
		started := st.beforeStart && h.closed[st.game].IsZero()
		st.told = !started || !h.cfg.Ends[st.format] || h.srv.TryPublish(name, startedEvent)
	}
	if !st.missed && st.told {
		st.marked = h.srv.TryPublish(name, &sse.Event{})
	}
}

// startedEvent tells a client its waiting room's stream ends because the
// game started, so it follows its seat afresh at once.
var startedEvent = &sse.Event{Event: []byte("end"), Data: []byte("again")}

// remove drops a stream nobody is subscribed to. Called with h.mu held.
func (h *Hub) remove(name string) {
	h.srv.RemoveStream(name)
	if st := h.streams[name]; st != nil {
		st.ping.Stop()
		delete(h.watched[st.seat], name)
		if _, ok := h.watched[st.seat]; ok && len(h.watched[st.seat]) == 0 {
			delete(h.watched, st.seat)
			if h.hooks.Watch != nil {
				h.hooks.Watch(st.game, st.seatNo, st.token, 0, false)
			}
		}
	}
	delete(h.streams, name)
	delete(h.lobbies, name)
}

// subscribed sends a new subscriber the current event, whole: whatever
// was queued before it came may never have reached it.
func (h *Hub) subscribed(name string, _ *sse.Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.streams[name]
	if st == nil {
		return
	}
	st.sent = Event{}
	h.send(name, st)
	if st.closing {
		st.told = false // the newcomer is told too
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
	errShuttingDown = &game.Error{Code: errcode.Unavailable, Message: "The server is shutting down: try again in a moment."}
	errGameClosed   = &game.Error{Code: errcode.Conflict, Message: "The game is over."}
	errNoFormat     = &game.Error{Code: errcode.Invalid, Message: "No such stream format."}
	errNoLobby      = &game.Error{Code: errcode.NotFound, Message: "There is no lobby stream."}
)

// attach records a new subscriber with the event it starts from and makes
// sure its stream exists. With game "" it is a lobby stream.
func (h *Hub) attach(game string, seat int, token, format string, ev Event, epoch int64, rev int, beforeStart bool) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.done:
		return "", errShuttingDown
	case game != "" && !h.closed[game].IsZero():
		return "", errGameClosed
	}
	h.nextID++
	st := &stream{game: game, seatNo: seat, token: token, format: format, event: ev, rev: rev, beforeStart: beforeStart, subs: 1}
	var name string
	if game == "" {
		name = "lobby/" + strconv.FormatUint(h.nextID, 10)
		h.lobbies[name] = st
	} else {
		st.seat = watchKey(game, seat)
		name = st.seat + "/" + strconv.FormatUint(h.nextID, 10)
		others := h.watched[st.seat]
		if others == nil {
			others = make(map[string]*stream)
			h.watched[st.seat] = others
		}
		if h.hooks.Watch != nil && (len(others) == 0 || token != "" && !sameToken(others, token)) {
			h.hooks.Watch(game, seat, token, epoch, true)
		}
		others[name] = st
	}
	h.streams[name] = st
	h.subs++
	h.srv.CreateStream(name)
	st.wrote = h.clock()
	st.ping = time.AfterFunc(pingWait(h.cfg.Ping, 0, rand.Float64()), func() { h.ping(name, st) })
	return name, nil
}

// sameToken reports whether one of streams was authenticated with token.
func sameToken(streams map[string]*stream, token string) bool {
	for _, st := range streams {
		if st.token == token {
			return true
		}
	}
	return false
}

// Run retries events that couldn't be queued and sends the lobby's changes,
// until ctx ends; then it ends every subscriber and removes every stream.
// Each stream is pinged by a timer of its own.
func (h *Hub) Run(ctx context.Context) {
	retry := time.NewTicker(h.cfg.Retry)
	defer retry.Stop()
	lobby := time.NewTicker(h.cfg.LobbyEvery)
	defer lobby.Stop()
	for {
		select {
		case <-ctx.Done():
			h.shutdown()
			return
		case <-retry.C:
			h.retry()
		case <-lobby.C:
			h.sendLobby(ctx)
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
	for _, st := range h.streams {
		st.ping.Stop()
	}
	clear(h.streams)
	clear(h.watched)
	clear(h.lobbies)
}

// Subscribers is how many clients are subscribed, for tests and metrics.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.subs
}
