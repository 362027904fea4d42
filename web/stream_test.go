package web_test

import (
	"bufio"
	"context"
	"net/http"
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
	s := newSiteWith(t, siteOptions{streams: true})
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
