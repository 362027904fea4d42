package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/server"
)

// TestAFullNodeSaysSo runs the whole site on a clock that jumps by more than
// the node's limit between the tables' timers, so every table wakes late as
// at a node with more tables than it can serve: a new table asked of the
// API and of the lobby is refused with 503, Retry-After and the lobby's
// words, /readyz names the capacity, and /metrics shows the node full and
// the refusals counted.
func TestAFullNodeSaysSo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	clock := fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	site, srv := serveSite(t, ctx, clock, nil, server.Settings{MaxLateness: 100 * time.Millisecond})

	c := client.New(srv.URL, nil)
	for range 3 {
		host, err := c.Create(ctx, client.CreateBody{Seats: 5, Name: "Ann", FillBots: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.WithToken(host.Token).Start(ctx, host.Game.ID); err != nil {
			t.Fatal(err)
		}
		if err := site.Manager.HandToBot(ctx, host.Game.ID, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	for tries := 0; site.Manager.Capacity() == nil; tries++ {
		if tries == 100 {
			t.Fatal("the node never said it was full with its clock jumping 20 times its limit")
		}
		clock.Advance(2 * time.Second)
		time.Sleep(10 * time.Millisecond) // the tables catch up on their own goroutines
	}

	_, err := c.Create(ctx, client.CreateBody{Seats: 4, Name: "Bea", FillBots: true})
	var refused *client.Error
	if !errors.As(err, &refused) || refused.Status != http.StatusServiceUnavailable || refused.Code != "busy" || refused.RetryAfter != 5 {
		t.Errorf("a new table over the API at a full node: got %+v (%v), want 503 busy with Retry-After 5", refused, err)
	}
	resp, err := http.PostForm(srv.URL+"/games", url.Values{"name": {"Bea"}, "seats": {"4"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "5" || !strings.Contains(page, "The server is busy") {
		t.Errorf("a new table from the lobby at a full node: got %d, Retry-After %q, want 503, 5 and the words busy:\n%s",
			resp.StatusCode, resp.Header.Get("Retry-After"), page)
	}

	for tries := 0; ; tries++ {
		status, body := get(t, srv.URL+"/readyz")
		if status == http.StatusServiceUnavailable && body == "not ready: capacity\n" {
			break
		}
		if tries == 300 {
			t.Fatalf("GET /readyz at a full node: got %d %q, want 503 \"not ready: capacity\\n\"", status, body)
		}
		time.Sleep(10 * time.Millisecond) // readiness is answered from a cache a second old
	}
	_, body := get(t, srv.URL+"/metrics")
	for _, want := range []string{"bullshit_full 1", "bullshit_refused_full_total 2"} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q", want)
		}
	}
}
