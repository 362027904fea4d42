package push

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/game"
)

// viewJSON is the API's encoding, as the tests of the Hub need one: the
// view as JSON, its id and key the view's version.
var viewJSON = EncoderFunc(func(f game.Frame, _ time.Time) (Event, bool, error) {
	if f.View == nil {
		return Event{}, false, nil
	}
	data, err := json.Marshal(f.View)
	return Event{ID: strconv.Itoa(f.View.Version), Key: f.View.Version, Data: data}, err == nil, err
})

func withJSON(cfg Config) Config {
	if cfg.Formats == nil {
		cfg.Formats = map[string]Encoder{"json": viewJSON}
	}
	return cfg
}

// frame is a started game's frame for the view's seat.
func frame(v engine.View) game.Frame { return game.Frame{Seat: v.Seat, View: &v, Revision: v.Version} }

// hubHarness serves a Hub's streams at /s/:game/:seat, each subscriber
// starting from the view the test set as current.
type hubHarness struct {
	hub *Hub
	srv *httptest.Server
	mu  sync.Mutex
	cur map[int]engine.View
}

func newHubHarness(t *testing.T, cfg Config, hooks Hooks) *hubHarness {
	t.Helper()
	h := &hubHarness{hub: New(withJSON(cfg)), cur: make(map[int]engine.View)}
	h.hub.Connect(hooks)
	e := echo.New()
	e.GET("/s/:game/:seat", func(c echo.Context) error {
		seat, _ := strconv.Atoi(c.Param("seat"))
		h.mu.Lock()
		v := h.cur[seat]
		h.mu.Unlock()
		if token := c.QueryParam("token"); token != "" {
			c.SetRequest(c.Request().WithContext(game.WithToken(c.Request().Context(), token)))
		}
		return h.hub.Serve(c, c.Param("game"), seat, "json", frame(v), nil)
	})
	h.srv = httptest.NewServer(e)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.hub.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		h.srv.Close()
	})
	return h
}

// publish makes v the current view of its seat and publishes it, as a table
// does.
func (h *hubHarness) publish(game string, v engine.View) {
	h.mu.Lock()
	h.cur[v.Seat] = v
	h.mu.Unlock()
	h.hub.Publish(game, frame(v))
}

// sseEvent is one event read from a stream.
type sseEvent struct {
	id   string
	view engine.View
}

// subscribe opens a stream and returns its events on a channel, closed when
// the stream ends.
func subscribe(t *testing.T, ctx context.Context, url string) <-chan sseEvent {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s: %s %q, want 200 text/event-stream", url, resp.Status, resp.Header.Get("Content-Type"))
	}
	out := make(chan sseEvent, 1024)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		_ = scanEvents(resp.Body, func(id, data string) {
			var v engine.View
			if err := json.Unmarshal([]byte(data), &v); err != nil {
				t.Errorf("event %s isn't a view: %v", id, err)
				return
			}
			out <- sseEvent{id: id, view: v}
		})
	}()
	return out
}

// scanEvents reads a text/event-stream, calling fn for each event with data.
func scanEvents(r io.Reader, fn func(id, data string)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var id, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != "" {
				fn(id, data)
			}
			id, data = "", ""
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			data += strings.TrimPrefix(line, "data: ")
		}
	}
	return sc.Err()
}

func next(t *testing.T, events <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case e, ok := <-events:
		if !ok {
			t.Fatal("the stream ended, want another event")
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return sseEvent{}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestHubSendsCurrentViewThenNewer(t *testing.T) {
	h := newHubHarness(t, Config{}, Hooks{})
	h.publish("g1", engine.View{Version: 5, Seat: 1}) // nobody is watching: dropped
	h.mu.Lock()
	h.cur[1] = engine.View{Version: 7, Seat: 1, Doubt: "current"}
	h.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := subscribe(t, ctx, h.srv.URL+"/s/g1/1")

	first := next(t, events)
	if first.id != "7" || first.view.Version != 7 || first.view.Doubt != "current" {
		t.Fatalf("first event = id %s %+v, want the current view, version 7", first.id, first.view)
	}
	h.publish("g1", engine.View{Version: 8, Seat: 1})
	h.publish("g1", engine.View{Version: 6, Seat: 1}) // older than what was sent: dropped
	h.publish("g1", engine.View{Version: 9, Seat: 1})
	h.publish("g1", engine.View{Version: 9, Seat: 2}) // another seat's stream
	var ids []string
	for len(ids) == 0 || ids[len(ids)-1] != "9" {
		e := next(t, events)
		if e.id != strconv.Itoa(e.view.Version) {
			t.Fatalf("event id %s carries version %d, want them equal", e.id, e.view.Version)
		}
		if e.view.Seat != 1 {
			t.Fatalf("seat 1's stream carried seat %d's view", e.view.Seat)
		}
		ids = append(ids, e.id)
	}
	// The connect-time view may be sent twice; nothing older is ever sent.
	for i, id := range ids {
		if v, _ := strconv.Atoi(id); v < 7 || (i > 0 && id < ids[i-1]) {
			t.Errorf("events after the first = %v, want versions rising from 7 to 9", ids)
		}
	}
}

func TestHubCloseEndsStreamsAfterTheFinalView(t *testing.T) {
	h := newHubHarness(t, Config{}, Hooks{})
	h.mu.Lock()
	h.cur[0] = engine.View{Version: 3, Seat: 0}
	h.cur[engine.Spectator] = engine.View{Version: 3, Seat: engine.Spectator}
	h.mu.Unlock()
	ctx := t.Context()
	seat := subscribe(t, ctx, h.srv.URL+"/s/g2/0")
	watcher := subscribe(t, ctx, h.srv.URL+"/s/g2/-1")
	next(t, seat)
	next(t, watcher)
	waitFor(t, "two subscribers", func() bool { return h.hub.Subscribers() == 2 })

	h.publish("g2", engine.View{Version: 4, Seat: 0, Phase: engine.PhaseOver})
	h.publish("g2", engine.View{Version: 4, Seat: engine.Spectator, Phase: engine.PhaseOver})
	h.hub.Close("g2")
	for name, events := range map[string]<-chan sseEvent{"seat": seat, "spectator": watcher} {
		var last sseEvent
		for e := range events {
			last = e
		}
		if last.view.Version != 4 || last.view.Phase != engine.PhaseOver {
			t.Errorf("the %s stream ended on %+v, want the final view", name, last.view)
		}
	}
	waitFor(t, "no subscribers", func() bool { return h.hub.Subscribers() == 0 })
	h.hub.mu.Lock()
	left := len(h.hub.streams)
	h.hub.mu.Unlock()
	if left != 0 {
		t.Errorf("after the game closed the hub keeps %d streams, want 0", left)
	}

	// A late subscriber gets the final view alone.
	late := subscribe(t, ctx, h.srv.URL+"/s/g2/0")
	var got []int
	for e := range late {
		got = append(got, e.view.Version)
	}
	if len(got) != 1 || got[0] != 4 {
		t.Errorf("a late subscriber got versions %v, want just [4]", got)
	}
}

// stall connects to a stream as a client that never reads.
func stall(t *testing.T, h *hubHarness, path string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.(*net.TCPConn).SetReadBuffer(4096); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path); err != nil {
		t.Fatal(err)
	}
	return conn
}

// flood publishes far more than any buffer holds to seat 0 and the spectator.
func flood(h *hubHarness, game string, views int) {
	big := strings.Repeat("x", 16<<10)
	for i := 1; i <= views; i++ {
		h.publish(game, engine.View{Version: i, Seat: 0, Doubt: big})
		h.publish(game, engine.View{Version: i, Seat: engine.Spectator, Doubt: big})
	}
}

// TestHubStalledClientCannotStallOthers connects a client that never reads
// and publishes far more than any buffer holds: every Publish must return
// (as the table's goroutine needs; the write timeout is too long to rescue a
// blocking one), and another subscriber must keep up, whether it watches
// another seat or the same one (spectators, or one player's two tabs: every
// connection has a stream of its own).
func TestHubStalledClientCannotStallOthers(t *testing.T) {
	tests := []struct {
		name           string
		stalled, watch int
	}{
		{"another seat", 0, engine.Spectator},
		{"the same seat", engine.Spectator, engine.Spectator},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHubHarness(t, Config{WriteTimeout: time.Hour, Retry: 10 * time.Millisecond}, Hooks{})
			h.mu.Lock()
			h.cur[0] = engine.View{Version: 0, Seat: 0}
			h.cur[engine.Spectator] = engine.View{Version: 0, Seat: engine.Spectator}
			h.mu.Unlock()
			conn := stall(t, h, fmt.Sprintf("/s/g3/%d", tt.stalled))
			waitFor(t, "the stalled client to subscribe", func() bool { return h.hub.Subscribers() == 1 })
			watcher := subscribe(t, t.Context(), fmt.Sprintf("%s/s/g3/%d", h.srv.URL, tt.watch))

			const views = 2000
			flood(h, "g3", views)
			for e := next(t, watcher); e.view.Version != views; e = next(t, watcher) {
			}
			conn.Close()
			h.hub.Close("g3")
			waitFor(t, "every subscriber to go", func() bool { return h.hub.Subscribers() == 0 })
		})
	}
}

// TestHubDropsStalledClient checks a client that stops reading but stays
// connected is dropped once a write to it times out.
func TestHubDropsStalledClient(t *testing.T) {
	h := newHubHarness(t, Config{WriteTimeout: 200 * time.Millisecond, Retry: 10 * time.Millisecond}, Hooks{})
	stall(t, h, "/s/g6/0")
	waitFor(t, "the stalled client to subscribe", func() bool { return h.hub.Subscribers() == 1 })
	flood(h, "g6", 1000)
	waitFor(t, "the stalled client to be dropped", func() bool { return h.hub.Subscribers() == 0 })
}

func TestHubPings(t *testing.T) {
	h := newHubHarness(t, Config{Ping: 10 * time.Millisecond}, Hooks{})
	resp, err := http.Get(h.srv.URL + "/s/g4/0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if sc.Text() == ": ping" {
			return
		}
	}
	t.Fatalf("the stream ended without a ping: %v", sc.Err())
}

// TestHubNoGoroutineLeak connects and drops many subscribers, ends the game
// with others still connected, and checks every goroutine is gone.
func TestHubNoGoroutineLeak(t *testing.T) {
	h := newHubHarness(t, Config{}, Hooks{})
	http.DefaultClient.CloseIdleConnections()
	base := runtime.NumGoroutine()
	for round := range 5 {
		game := "leak" + strconv.Itoa(round)
		var stay []<-chan sseEvent
		for i := range 40 {
			ctx, cancel := context.WithCancel(context.Background())
			events := subscribe(t, ctx, h.srv.URL+"/s/"+game+"/"+strconv.Itoa(i%4-1))
			next(t, events)
			if i%3 == 0 {
				stay = append(stay, events)
				defer cancel()
				continue
			}
			cancel()
			for range events {
			}
		}
		h.publish(game, engine.View{Version: 1, Seat: 0})
		h.hub.Close(game)
		for _, events := range stay {
			for range events {
			}
		}
	}
	waitFor(t, "no subscribers", func() bool { return h.hub.Subscribers() == 0 })
	http.DefaultClient.CloseIdleConnections()
	var now int
	waitFor(t, "the goroutines to end", func() bool {
		now = runtime.NumGoroutine()
		return now <= base
	})
	h.hub.mu.Lock()
	defer h.hub.mu.Unlock()
	if len(h.hub.streams) != 0 {
		t.Errorf("the hub keeps %d streams, want 0", len(h.hub.streams))
	}
}

func TestHubRunEndsSubscribers(t *testing.T) {
	hub := New(withJSON(Config{}))
	e := echo.New()
	e.GET("/s", func(c echo.Context) error { return hub.Serve(c, "g5", 0, "json", frame(engine.View{Version: 1}), nil) })
	srv := httptest.NewServer(e)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		hub.Run(ctx)
	}()
	events := subscribe(t, t.Context(), srv.URL+"/s")
	next(t, events)
	cancel()
	<-done
	for range events {
	}
	if n := hub.Subscribers(); n != 0 {
		t.Errorf("after Run ended %d subscribers are left, want 0", n)
	}
	if _, err := hub.attach("g5", 0, "", "json", Event{}, 0, 0, false); err != errShuttingDown {
		t.Errorf("attaching after Run ended = %v, want %v", err, errShuttingDown)
	}
}

// A view published between the handler reading the current view and the
// stream existing reaches no stream: serve reads it again after attaching,
// so the subscriber starts from the newer one.
func TestHubSendsAViewThatChangedWhileConnecting(t *testing.T) {
	hub := New(withJSON(Config{}))
	e := echo.New()
	e.GET("/s", func(c echo.Context) error {
		old := engine.View{Version: 4}
		hub.Publish("g6", frame(engine.View{Version: 5})) // the table moves on: no stream yet
		return hub.Serve(c, "g6", 0, "json", frame(old), func() (game.Frame, error) { return frame(engine.View{Version: 5}), nil })
	})
	srv := httptest.NewServer(e)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		hub.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	events := subscribe(t, t.Context(), srv.URL+"/s")
	if got := next(t, events); got.view.Version != 5 || got.id != "5" {
		t.Errorf("got first event %s with version %d, want the newer view, 5", got.id, got.view.Version)
	}
}
