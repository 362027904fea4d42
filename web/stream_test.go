package web_test

import (
	"bufio"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// firstEvent opens the browser's event stream at path and returns the data
// of its first event of that name, parsed.
func (b *browser) firstEvent(path, name string) *html.Node {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, b.site.srv.URL+path, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		b.t.Fatalf("%s: got %d %s, want an event stream", path, resp.StatusCode, ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var event string
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ") + "\n")
		case line == "" && event == name && data.Len() > 0:
			doc, err := html.Parse(strings.NewReader(data.String()))
			if err != nil {
				b.t.Fatal(err)
			}
			return doc
		case line == "":
			event = ""
			data.Reset()
		}
	}
	b.t.Fatalf("%s: no %q event: %v", path, name, sc.Err())
	return nil
}

// TestStreamsCarryEachSeatsFrame: a seat's stream carries its own screen,
// hand included; a spectator's carries no cards; the lobby's, its lists.
func TestStreamsCarryEachSeatsFrame(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	if doc := b.firstEvent("/lobby/events", "lobby"); byID(doc, "open-tables") == nil {
		t.Error("the lobby's event has no open tables list")
	}
	id := b.create("Ada", "3")
	if doc := b.firstEvent("/games/"+id+"/events", "frame"); attr(byID(doc, "screen"), "data-status") != "open" || byID(doc, "start") == nil {
		t.Errorf("the host's first frame is not their waiting room")
	}
	b.htmx(http.MethodPost, "/games/"+id+"/start", nil)
	doc := b.firstEvent("/games/"+id+"/events", "frame")
	if attr(byID(doc, "screen"), "hx-swap-oob") != "morph" || len(findAll(byID(doc, "hand"), func(n *html.Node) bool { return attr(n, "name") == "card" })) == 0 {
		t.Fatal("the seat's frame after the start has no hand to morph in")
	}
	page := b.get("/games/" + id)
	if got := attr(byID(page.doc, "live"), "sse-connect"); got != "/games/"+id+"/events" {
		t.Errorf("the page's stream: got %q", got)
	}
	spec := s.browser().firstEvent("/games/"+id+"/events", "frame")
	if n := findAll(spec, func(n *html.Node) bool { return attr(n, "name") == "card" }); len(n) != 0 {
		t.Errorf("a spectator's frame holds %d cards", len(n))
	}
}

// streamEvent is one event read from a stream.
type streamEvent struct{ name, id, data string }

// stream opens the browser's event stream at path, as a reconnecting
// EventSource does when lastID is set, and sends its events on the channel
// until the stream ends. status is the answer's code.
func (b *browser) stream(path, lastID string) (status int, events <-chan streamEvent) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, b.site.srv.URL+path, nil)
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		cancel()
		b.t.Fatal(err)
	}
	out := make(chan streamEvent, 1024)
	go func() {
		defer cancel()
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev streamEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.data != "" {
					out <- ev
				}
				ev = streamEvent{}
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "id: "):
				ev.id = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "data: "):
				ev.data += strings.TrimPrefix(line, "data: ") + "\n"
			}
		}
	}()
	return resp.StatusCode, out
}

// all is every event of a stream, once it has ended.
func all(events <-chan streamEvent) []streamEvent {
	var got []streamEvent
	for ev := range events {
		got = append(got, ev)
	}
	return got
}

// TestFinishedStreamClosesForGood: a page following a game to its end gets
// the final frame as the final event, which its stream closes on, and then
// the stream ends; a browser that reconnects gets that frame alone, and one
// whose last event was the final one gets 204, the answer after which an
// EventSource stops reconnecting.
func TestFinishedStreamClosesForGood(t *testing.T) {
	s := newSite(t)
	b := s.browser()
	id := startBotGame(t, s, b, "Ada")
	path := "/games/" + id + "/events"
	live := byID(b.get("/games/"+id).doc, "live")
	if swap := strings.Split(attr(live, "sse-swap"), ","); attr(live, "sse-close") != "final" || !slices.Contains(swap, "final") {
		t.Errorf("the page's stream element: got sse-swap %q and sse-close %q, want the final event swapped and closing it",
			attr(live, "sse-swap"), attr(live, "sse-close"))
	}
	status, following := b.stream(path, "")
	if status != http.StatusOK {
		t.Fatalf("the stream of a game in play: got %d, want 200", status)
	}
	playOut(t, s, id)
	seen := all(following)
	if len(seen) < 2 {
		t.Fatalf("the stream that followed the game: got %d events, want its frames and the final one", len(seen))
	}
	final := seen[len(seen)-1]
	isFinal := func(ev streamEvent) bool {
		doc, err := html.Parse(strings.NewReader(ev.data))
		return err == nil && ev.name == "final" && byID(doc, "result") != nil
	}
	if !isFinal(final) {
		t.Errorf("the stream's last event: got %q (id %q), want the final one with the result sheet", final.name, final.id)
	}
	for _, ev := range seen[:len(seen)-1] {
		if ev.name != "frame" {
			t.Errorf("an event before the end: got %q (id %q), want a frame", ev.name, ev.id)
		}
	}

	tests := []struct {
		name   string
		lastID string
		status int
		events int
	}{
		{"a new page's stream", "", http.StatusOK, 1},
		{"a reconnect from before the end", seen[0].id, http.StatusOK, 1},
		{"a reconnect after the final event", final.id, http.StatusNoContent, 0},
	}
	for _, tt := range tests {
		status, events := b.stream(path, tt.lastID)
		got := all(events)
		if status != tt.status || len(got) != tt.events {
			t.Errorf("%s: got %d with %d events, want %d with %d", tt.name, status, len(got), tt.status, tt.events)
			continue
		}
		if len(got) == 1 && !isFinal(got[0]) {
			t.Errorf("%s: got event %q (id %q), want the final one with the result sheet", tt.name, got[0].name, got[0].id)
		}
	}
}
