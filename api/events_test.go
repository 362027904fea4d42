package api_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/game"
)

// startBotGame makes and starts a table of the host and bots.
func startBotGame(t *testing.T, w *world, seats int) client.Joined {
	t.Helper()
	ctx := context.Background()
	host, err := w.client("").Create(ctx, client.CreateBody{Seats: seats, Name: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.client(host.Token).Start(ctx, host.Game.ID); err != nil {
		t.Fatal(err)
	}
	return host
}

// rawEvent is an event as it came over the wire.
type rawEvent struct{ id, data string }

// openStream opens the events route and returns the answer and a reader of
// its events.
func openStream(t *testing.T, ctx context.Context, url, token string) (*http.Response, <-chan rawEvent) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan rawEvent, 256)
	go func() {
		defer close(events)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var e rawEvent
		for sc.Scan() {
			switch line := sc.Text(); {
			case line == "":
				if e.data != "" {
					events <- e
				}
				e = rawEvent{}
			case strings.HasPrefix(line, "id: "):
				e.id = line[4:]
			case strings.HasPrefix(line, "data: "):
				e.data += line[6:]
			}
		}
	}()
	return resp, events
}

func TestEvents(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	host := startBotGame(t, w, 3)
	id := host.Game.ID
	// Bots play every seat, so moving the clock always changes the table.
	if err := w.mgr.HandToBot(ctx, id, host.Seat, host.Seat); err != nil {
		t.Fatal(err)
	}
	base := w.srv.URL + "/api/v1/games/" + id + "/events"
	open, err := w.client("").Create(ctx, client.CreateBody{Seats: 3, Name: "Cy"})
	if err != nil {
		t.Fatal(err)
	}

	refusals := []struct {
		name, url, token string
		status           int
	}{
		{"a wrong token", base, "0123456789abcdef0123456789abcdef", 401},
		{"a wrong token in the query", base + "?token=nope", "", 401},
		{"no such game", w.srv.URL + "/api/v1/games/zzzzzzzz/events", "", 404},
		{"a game not started", w.srv.URL + "/api/v1/games/" + open.Game.ID + "/events", "", 409},
	}
	for _, r := range refusals {
		resp, _ := openStream(t, ctx, r.url, r.token)
		if resp.StatusCode != r.status {
			t.Errorf("%s: %s, want %d", r.name, resp.Status, r.status)
		}
	}

	views := []struct {
		name, url, token string
		seat             int
	}{
		{"spectator", base, "", engine.Spectator},
		{"token in the header", base, host.Token, host.Seat},
		{"token in the query", base + "?token=" + host.Token, "", host.Seat},
		// The query can't choose someone else's stream: the name is the server's.
		{"a stream name in the query", base + "?stream=" + id + "/1", "", engine.Spectator},
	}
	for _, tt := range views {
		t.Run(tt.name, func(t *testing.T) {
			sctx, cancel := context.WithCancel(ctx)
			defer cancel()
			resp, events := openStream(t, sctx, tt.url, tt.token)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("%s %q, want 200 text/event-stream", resp.Status, resp.Header.Get("Content-Type"))
			}
			want, err := w.mgr.View(ctx, id, tt.seat)
			if err != nil {
				t.Fatal(err)
			}
			e, ok := <-events
			if !ok {
				t.Fatal("the stream ended before its first event")
			}
			if e.id != strconv.Itoa(want.Version) || e.data != string(mustJSON(t, want)) {
				t.Errorf("first event id %s\n%s\nwant the current view, id %d\n%s", e.id, e.data, want.Version, mustJSON(t, want))
			}
			// Every change after that is an event whose id is its version.
			w.clock.Advance(10 * time.Second)
			for e := range events {
				v, err := w.mgr.View(ctx, id, tt.seat)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(e.data, `"version":`+e.id+`,`) {
					t.Fatalf("event id %s doesn't match the version in %.80s", e.id, e.data)
				}
				if e.id == strconv.Itoa(v.Version) {
					break
				}
			}
		})
	}
}

// TestStalledSubscriberDoesNotStallTheTable plays a whole bot game while a
// client subscribed to a seat's stream never reads a byte.
func TestStalledSubscriberDoesNotStallTheTable(t *testing.T) {
	w := newWorld(t, worldOptions{smallBuffers: true})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host := startBotGame(t, w, 5)
	id := host.Game.ID
	conn, err := net.Dial("tcp", strings.TrimPrefix(w.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(2048)
	fmt.Fprintf(conn, "GET /api/v1/games/%s/events?token=%s HTTP/1.1\r\nHost: x\r\n\r\n", id, host.Token)
	waitUntil(t, "the stalled client to subscribe", func() bool { return w.hub.Subscribers() == 1 })
	// The host's seat goes to a bot, so the table plays itself to the end.
	if err := w.mgr.HandToBot(ctx, id, host.Seat, host.Seat); err != nil {
		t.Fatal(err)
	}
	stop := w.ticker(ctx, 100*time.Millisecond)
	defer stop()
	waitUntil(t, "the game to finish", func() bool {
		s, err := w.mgr.Get(ctx, id)
		return err == nil && s.Status == game.StatusFinished
	})
}

// TestEventsNoGoroutineLeak connects and drops many subscribers during a
// game, ends it with others still connected, and checks the goroutines
// come back to where they were.
func TestEventsNoGoroutineLeak(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	// One game first, so whatever the server starts once and keeps (a
	// writer, a pool's connection) is in the baseline.
	warm := startBotGame(t, w, 3)
	if err := w.mgr.End(ctx, warm.Game.ID, warm.Seat); err != nil {
		t.Fatal(err)
	}
	http.DefaultClient.CloseIdleConnections()
	before := runtime.NumGoroutine()
	for round := range 3 {
		host := startBotGame(t, w, 4)
		url := w.srv.URL + "/api/v1/games/" + host.Game.ID + "/events"
		var stay []<-chan rawEvent
		for i := range 30 {
			sctx, cancel := context.WithCancel(ctx)
			token := ""
			if i%2 == 0 {
				token = host.Token
			}
			_, events := openStream(t, sctx, url, token)
			if _, ok := <-events; !ok {
				t.Fatalf("round %d, subscriber %d: the stream ended before its first event", round, i)
			}
			if i%3 == 0 {
				stay = append(stay, events)
				defer cancel()
				continue
			}
			cancel()
			for range events {
			}
		}
		if err := w.mgr.End(ctx, host.Game.ID, host.Seat); err != nil {
			t.Fatal(err)
		}
		for _, events := range stay {
			for range events {
			}
		}
	}
	waitUntil(t, "every subscriber to go", func() bool { return w.hub.Subscribers() == 0 })
	var now int
	waitUntil(t, "the goroutines to end", func() bool {
		http.DefaultClient.CloseIdleConnections()
		now = runtime.NumGoroutine()
		return now <= before
	})
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStreamsPerAddress(t *testing.T) {
	w := newWorld(t, worldOptions{streams: 2})
	host := startBotGame(t, w, 3)
	url := w.srv.URL + "/api/v1/games/" + host.Game.ID + "/events"
	ctx := context.Background()
	first, cancelFirst := context.WithCancel(ctx)
	defer cancelFirst()
	second, cancelSecond := context.WithCancel(ctx)
	defer cancelSecond()
	for _, sctx := range []context.Context{first, second} {
		if resp, _ := openStream(t, sctx, url, ""); resp.StatusCode != 200 {
			t.Fatalf("a stream within the limit: %s, want 200", resp.Status)
		}
	}
	a := w.do("GET", "/api/v1/games/"+host.Game.ID+"/events", "", "")
	if a.status != 429 || a.problem().Code != "rate_limited" || a.header.Get("Retry-After") == "" {
		t.Errorf("a third stream: %d %s, want 429 rate_limited with Retry-After", a.status, a.body)
	}
	cancelFirst()
	waitUntil(t, "a stream to be free again", func() bool {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		resp, _ := openStream(t, sctx, url, "")
		return resp.StatusCode == 200
	})
}
