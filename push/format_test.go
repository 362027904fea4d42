package push

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"bullshit/engine"
	"bullshit/game"
)

// rawEvent is an event as a browser's EventSource reads it.
type rawEvent struct {
	name, id, data, retry string
}

// subscribeRaw opens a stream and returns its events, data lines joined by
// newlines as EventSource joins them; the channel closes when the stream ends.
func subscribeRaw(t *testing.T, ctx context.Context, url string) <-chan rawEvent {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, want 200", url, resp.Status)
	}
	out := make(chan rawEvent, 64)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var ev rawEvent
		var data []string
		for sc.Scan() {
			line := sc.Text()
			field, value, _ := strings.Cut(line, ": ")
			switch field {
			case "":
				if len(data) > 0 {
					ev.data = strings.Join(data, "\n")
					out <- ev
				}
				ev, data = rawEvent{}, nil
			case "event":
				ev.name = value
			case "id":
				ev.id = value
			case "retry":
				ev.retry = value
			case "data":
				data = append(data, value)
			}
		}
	}()
	return out
}

func nextRaw(t *testing.T, events <-chan rawEvent) rawEvent {
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
	return rawEvent{}
}

// pageFormat renders a frame as several lines of markup, counting its calls.
type pageFormat struct{ calls atomic.Int64 }

func (p *pageFormat) Encode(f game.Frame, _ time.Time) (Event, bool, error) {
	p.calls.Add(1)
	data := "<div id=\"a\" hx-swap-oob=\"true\">seat " + strconv.Itoa(f.Seat) + "</div>\r\n" +
		"<div id=\"b\" hx-swap-oob=\"true\">revision " + strconv.Itoa(f.Revision) + "</div>"
	return Event{Name: "frame", ID: strconv.Itoa(f.Revision), Key: f.Revision, Data: []byte(data)}, true, nil
}

// formatServer serves a Hub's streams at /s/:game/:seat/:format, each
// starting from the frame the test set as current, and the lobby at /lobby.
func formatServer(t *testing.T, hub *Hub, current func(seat int) game.Frame) string {
	t.Helper()
	e := echo.New()
	e.GET("/s/:game/:seat/:format", func(c echo.Context) error {
		seat, _ := strconv.Atoi(c.Param("seat"))
		return hub.Serve(c, c.Param("game"), seat, c.Param("format"), current(seat), nil)
	})
	e.GET("/lobby", hub.ServeLobby)
	srv := httptest.NewServer(e)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		hub.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		srv.Close()
	})
	return srv.URL
}

// TestHubEncodesOncePerSeatPerChange follows one seat from three browser tabs
// and a program: each change is rendered once per format, and every tab gets
// the same multi-line event, its lines intact.
func TestHubEncodesOncePerSeatPerChange(t *testing.T) {
	page := &pageFormat{}
	hub := New(Config{Formats: map[string]Encoder{"json": viewJSON, "page": page}})
	started := game.Frame{Revision: 1, Seat: 0, View: &engine.View{Version: 1}}
	url := formatServer(t, hub, func(int) game.Frame { return started })

	var tabs []<-chan rawEvent
	for range 3 {
		tab := subscribeRaw(t, t.Context(), url+"/s/g1/0/page")
		nextRaw(t, tab)
		tabs = append(tabs, tab)
	}
	program := subscribeRaw(t, t.Context(), url+"/s/g1/0/json")
	nextRaw(t, program)
	waitFor(t, "four subscribers", func() bool { return hub.Subscribers() == 4 })

	before := page.calls.Load()
	hub.Publish("g1", game.Frame{Revision: 2, Seat: 0, View: &engine.View{Version: 2}})
	if got := page.calls.Load() - before; got != 1 {
		t.Errorf("got %d renders of one change for three tabs, want 1", got)
	}
	want := "<div id=\"a\" hx-swap-oob=\"true\">seat 0</div>\n<div id=\"b\" hx-swap-oob=\"true\">revision 2</div>"
	for i, tab := range tabs {
		got := nextRaw(t, tab)
		if got.name != "frame" || got.id != "2" || got.data != want {
			t.Errorf("tab %d: got event %q id %q data %q, want frame 2 with %q", i, got.name, got.id, got.data, want)
		}
	}
	if got := nextRaw(t, program); got.name != "" || got.id != "2" || !strings.HasPrefix(got.data, "{") {
		t.Errorf("program: got event %q id %q data %q, want the view as JSON, version 2", got.name, got.id, got.data)
	}

	// A change the view doesn't see (someone marked away) moves the page on,
	// but is not sent to the program again.
	hub.Publish("g1", game.Frame{Revision: 3, Seat: 0, View: &engine.View{Version: 2}})
	if got := nextRaw(t, tabs[0]); got.id != "3" {
		t.Errorf("tab: got event %q after an away mark, want 3", got.id)
	}
	hub.Publish("g1", game.Frame{Revision: 4, Seat: 0, View: &engine.View{Version: 3}})
	if got := nextRaw(t, program); got.id != "3" {
		t.Errorf("program: got event %q, want version 3 next, with nothing between", got.id)
	}
}

// TestHubRendersASpectatorsFrameOnce: spectators who come to a table
// together, each read the frame and read it again once subscribed (as the
// server's handlers do), cost one render between them, and every change one
// more, however many watch.
func TestHubRendersASpectatorsFrameOnce(t *testing.T) {
	page := &pageFormat{}
	hub := New(Config{Formats: map[string]Encoder{"page": page}})
	var mu sync.Mutex
	cur := game.Frame{Revision: 1, Seat: engine.Spectator, View: &engine.View{Version: 1, Seat: engine.Spectator}}
	read := func() (game.Frame, error) { mu.Lock(); defer mu.Unlock(); return cur, nil }
	e := echo.New()
	e.GET("/s", func(c echo.Context) error {
		f, _ := read()
		return hub.Serve(c, "g4", engine.Spectator, "page", f, read)
	})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		hub.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })

	const crowd = 5
	var watchers []<-chan rawEvent
	for range crowd {
		w := subscribeRaw(t, t.Context(), srv.URL+"/s")
		if got := nextRaw(t, w); got.id != "1" {
			t.Fatalf("a spectator's first event: got %q, want 1", got.id)
		}
		watchers = append(watchers, w)
	}
	waitFor(t, "the spectators", func() bool { return hub.Subscribers() == crowd })
	if got := page.calls.Load(); got != 1 {
		t.Errorf("renders for %d spectators coming to one frame: got %d, want 1", crowd, got)
	}
	mu.Lock()
	cur = game.Frame{Revision: 2, Seat: engine.Spectator, View: &engine.View{Version: 2, Seat: engine.Spectator}}
	mu.Unlock()
	hub.Publish("g4", cur)
	for i, w := range watchers {
		if got := nextRaw(t, w); got.id != "2" {
			t.Errorf("spectator %d after a change: got event %q, want 2", i, got.id)
		}
	}
	if got := page.calls.Load(); got != 2 {
		t.Errorf("renders after one change for %d spectators: got %d, want 2", crowd, got)
	}
}

// TestHubEndsWaitingRoomStreamsAtTheStart: the start numbers the seats afresh,
// so a stream opened for seat 2 in the waiting room must never be sent the
// new seat 2's cards. It is ended instead, told to reconnect soon.
func TestHubEndsWaitingRoomStreamsAtTheStart(t *testing.T) {
	page := &pageFormat{}
	hub := New(Config{Formats: map[string]Encoder{"page": page}})
	waiting := game.Frame{Revision: 1, Seat: 2, Game: game.Summary{Status: game.StatusOpen}}
	url := formatServer(t, hub, func(int) game.Frame { return waiting })
	tab := subscribeRaw(t, t.Context(), url+"/s/g2/2/page")
	if got := nextRaw(t, tab); got.retry == "" {
		t.Errorf("got a waiting-room event with no retry field, want one so the browser reconnects soon")
	}
	waitFor(t, "the subscriber", func() bool { return hub.Subscribers() == 1 })

	hub.Publish("g2", game.Frame{Revision: 2, Seat: 2, Game: game.Summary{Status: game.StatusOpen}})
	if got := nextRaw(t, tab); got.id != "2" {
		t.Errorf("got event %q for a join, want 2", got.id)
	}
	hub.Publish("g2", game.Frame{Revision: 3, Seat: 2, Game: game.Summary{Status: game.StatusLive},
		View: &engine.View{Version: 1, Seat: 2, Hand: []engine.Card{1, 2, 3}}})
	for e := range tab {
		t.Errorf("got event %q after the start, want the stream ended before it", e.id)
	}
	waitFor(t, "no subscribers", func() bool { return hub.Subscribers() == 0 })
}

// TestHubLobby renders the lobby once a second at most, only when a table
// opens, fills, starts or ends, and sends it to every lobby stream.
func TestHubLobby(t *testing.T) {
	var renders atomic.Int64
	hub := New(Config{LobbyEvery: 10 * time.Millisecond})
	hub.Connect(Hooks{Lobby: func(context.Context) (Event, error) {
		n := renders.Add(1)
		return Event{Name: "lobby", Data: []byte("render " + strconv.FormatInt(n, 10))}, nil
	}})
	url := formatServer(t, hub, nil)
	a := subscribeRaw(t, t.Context(), url+"/lobby")
	b := subscribeRaw(t, t.Context(), url+"/lobby")
	nextRaw(t, a)
	nextRaw(t, b)
	waitFor(t, "two lobby subscribers", func() bool { return hub.Subscribers() == 2 })
	base := renders.Load()

	open := game.Summary{Status: game.StatusOpen, Seats: []game.SeatInfo{{Kind: game.SeatPerson, Name: "Ada"}, {Kind: game.SeatEmpty}}}
	hub.Publish("g3", game.Frame{Seat: engine.Spectator, Game: open})
	for _, tab := range []<-chan rawEvent{a, b} {
		if got := nextRaw(t, tab); got.name != "lobby" || !strings.HasPrefix(got.data, "render ") {
			t.Errorf("got %+v, want a lobby render", got)
		}
	}
	if got := renders.Load() - base; got != 1 {
		t.Errorf("got %d renders for a new table and two streams, want 1", got)
	}
	// Plays alone don't show in the lobby: nothing is rendered.
	playing := open
	playing.Plays = 12
	hub.Publish("g3", game.Frame{Seat: engine.Spectator, Game: playing})
	hub.sendLobby(t.Context())
	if got := renders.Load() - base; got != 1 {
		t.Errorf("got %d renders after a play, want still 1", got)
	}
}

// regionFormat renders a frame as three regions: one that never changes,
// one holding the revision and one holding the seat's hand size.
type regionFormat struct{}

func (regionFormat) Encode(f game.Frame, _ time.Time) (Event, bool, error) {
	parts := [][]byte{
		[]byte(`<p id="bar">Bullshit</p>`),
		[]byte(`<p id="middle">revision ` + strconv.Itoa(f.Revision) + `</p>`),
		[]byte(`<p id="hand">` + strconv.Itoa(len(f.View.Hand)) + ` cards</p>`),
	}
	var data []byte
	for _, p := range parts {
		data = append(data, p...)
	}
	// Slices of data, as a real encoder cuts them.
	at := 0
	for i, p := range parts {
		parts[i] = data[at : at+len(p)]
		at += len(p)
	}
	shape := "table"
	if f.Final {
		shape = "table with result"
	}
	return Event{Name: "frame", ID: strconv.Itoa(f.Revision), Key: f.Revision, Data: data, Parts: parts, Shape: shape}, true, nil
}

// TestHubSendsOnlyChangedParts: a stream's first event is whole; after it,
// only the parts that changed since the stream's last event go, nothing at
// all when none did, and everything again when the shape changes. A tab
// that joins later starts whole.
func TestHubSendsOnlyChangedParts(t *testing.T) {
	hub := New(Config{Formats: map[string]Encoder{"page": regionFormat{}}})
	cur := game.Frame{Revision: 1, Seat: 0, View: &engine.View{Version: 1, Hand: make([]engine.Card, 5)}}
	var mu sync.Mutex
	url := formatServer(t, hub, func(int) game.Frame { mu.Lock(); defer mu.Unlock(); return cur })
	publish := func(f game.Frame) {
		mu.Lock()
		cur = f
		mu.Unlock()
		hub.Publish("g1", f)
	}
	tab := subscribeRaw(t, t.Context(), url+"/s/g1/0/page")
	whole := `<p id="bar">Bullshit</p><p id="middle">revision 1</p><p id="hand">5 cards</p>`
	if got := nextRaw(t, tab); got.data != whole {
		t.Fatalf("the first event: got %q, want it whole: %q", got.data, whole)
	}
	waitFor(t, "the subscriber", func() bool { return hub.Subscribers() == 1 })

	steps := []struct {
		name  string
		frame game.Frame
		want  string
	}{
		{"the revision moves", game.Frame{Revision: 2, View: &engine.View{Hand: make([]engine.Card, 5)}},
			`<p id="middle">revision 2</p>`},
		{"the hand changes too", game.Frame{Revision: 3, View: &engine.View{Hand: make([]engine.Card, 4)}},
			`<p id="middle">revision 3</p><p id="hand">4 cards</p>`},
		{"a new shape", game.Frame{Revision: 4, Final: true, View: &engine.View{Hand: make([]engine.Card, 4)}},
			`<p id="bar">Bullshit</p><p id="middle">revision 4</p><p id="hand">4 cards</p>`},
	}
	for _, s := range steps {
		publish(s.frame)
		if got := nextRaw(t, tab); got.id != strconv.Itoa(s.frame.Revision) || got.data != s.want {
			t.Errorf("%s: got event %q %q, want %d %q", s.name, got.id, got.data, s.frame.Revision, s.want)
		}
	}
	late := subscribeRaw(t, t.Context(), url+"/s/g1/0/page")
	if got := nextRaw(t, late); got.data != `<p id="bar">Bullshit</p><p id="middle">revision 4</p><p id="hand">4 cards</p>` {
		t.Errorf("a later tab's first event: got %q, want it whole", got.data)
	}
}

func TestEventSince(t *testing.T) {
	ev := func(shape string, parts ...string) Event {
		e := Event{Shape: shape}
		for _, p := range parts {
			e.Parts = append(e.Parts, []byte(p))
			e.Data = append(e.Data, p...)
		}
		return e
	}
	named := func(name string, e Event) Event { e.Name = name; return e }
	tests := []struct {
		name      string
		prev, now Event
		want      string
		ok        bool
	}{
		{"nothing sent yet", Event{}, ev("t", "a", "b"), "ab", true},
		{"one part changed", ev("t", "a", "b"), ev("t", "a", "c"), "c", true},
		{"nothing changed", ev("t", "a", "b"), ev("t", "a", "b"), "", false},
		{"another shape", ev("t", "a", "b"), ev("u", "a", "b"), "ab", true},
		{"no parts", Event{Data: []byte("x")}, Event{Data: []byte("x")}, "x", true},
		{"another name, nothing changed", ev("t", "a", "b"), named("final", ev("t", "a", "b")), "ab", true},
	}
	for _, tt := range tests {
		got, ok := tt.now.since(tt.prev)
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("%s: got %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
