package push

import (
	"bufio"
	"context"
	"net/http"
	"testing"
	"time"

	"bullshit/engine"
)

func TestPingWait(t *testing.T) {
	const every = 16 * time.Second
	tests := []struct {
		name   string
		idle   time.Duration
		jitter float64
		want   time.Duration
	}{
		{"just written, earliest", 0, 1, 12 * time.Second},
		{"just written, latest", 0, 0, 16 * time.Second},
		{"just written, between", 0, 0.5, 14 * time.Second},
		{"idle a while", 10 * time.Second, 0.5, 4 * time.Second},
		{"overdue", 20 * time.Second, 0, 0},
	}
	for _, tt := range tests {
		if got := pingWait(every, tt.idle, tt.jitter); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// lines opens a stream and sends every line it reads, comments included.
func lines(t *testing.T, ctx context.Context, url string) <-chan string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan string, 64)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			out <- sc.Text()
		}
	}()
	return out
}

// upTo reads lines until one starting with prefix, and returns them all.
func upTo(t *testing.T, in <-chan string, prefix string) []string {
	t.Helper()
	var got []string
	for {
		select {
		case l, ok := <-in:
			if !ok {
				t.Fatalf("the stream ended after %q, want a line starting %q", got, prefix)
			}
			got = append(got, l)
			if len(l) >= len(prefix) && l[:len(prefix)] == prefix {
				return got
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no line starting %q within 10 s after %q", prefix, got)
		}
	}
}

// TestHubPingsIdleStreamsOnly: a stream nothing was written to for most of
// the ping interval gets a comment when its timer comes; one that has just
// had an event does not, and its timer waits for the next moment a comment
// could be due. Every stream has a timer of its own, its moment drawn anew.
func TestHubPingsIdleStreamsOnly(t *testing.T) {
	const every = time.Hour // the timers never fire in the test: it calls them
	h := newHubHarness(t, Config{Ping: every}, Hooks{})
	h.mu.Lock()
	h.cur[0] = engine.View{Version: 1, Seat: 0}
	h.cur[1] = engine.View{Version: 1, Seat: 1}
	h.mu.Unlock()
	idle := lines(t, t.Context(), h.srv.URL+"/s/g7/0")
	busy := lines(t, t.Context(), h.srv.URL+"/s/g7/1")
	upTo(t, idle, "data: ")
	upTo(t, busy, "data: ")
	waitFor(t, "both subscribers", func() bool { return h.hub.Subscribers() == 2 })

	h.hub.mu.Lock()
	names := map[int]string{}
	for name, st := range h.hub.streams {
		names[map[string]int{"g7/0": 0, "g7/1": 1}[st.seat]] = name
	}
	idleStream, busyStream := h.hub.streams[names[0]], h.hub.streams[names[1]]
	idleStream.wrote = idleStream.wrote.Add(-every * 3 / 4)
	h.hub.mu.Unlock()

	h.hub.ping(names[0], idleStream)
	if got := upTo(t, idle, ":"); got[len(got)-1] != ": ping" {
		t.Errorf("the idle stream after its timer: got %q, want a ping", got)
	}
	h.hub.ping(names[1], busyStream)
	h.publish("g7", engine.View{Version: 2, Seat: 1})
	for _, l := range upTo(t, busy, "data: ") {
		if l == ": ping" {
			t.Errorf("the stream that had just had an event got a ping")
		}
	}
	h.hub.mu.Lock()
	defer h.hub.mu.Unlock()
	if idleStream.ping == busyStream.ping || idleStream.ping == nil {
		t.Errorf("the streams' ping timers: got %p and %p, want one each", idleStream.ping, busyStream.ping)
	}
}
