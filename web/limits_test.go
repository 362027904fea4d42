package web_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/engine"
	"bullshit/game"
	"bullshit/server"
)

// TestPagesShareTheAPIsLimits: the pages count against the API's
// allowances for a client address, one bucket of requests and one count of
// open event streams for both, so neither is a way round the other's.
func TestPagesShareTheAPIsLimits(t *testing.T) {
	const burst, streams = 6, 2
	var s *site
	s = newSiteWith(t, siteOptions{settings: func(c *server.Settings) {
		// The limiter's clock stands still, so nothing refills.
		c.PerAddress, c.StreamsPerAddress = api.Rate{PerSecond: 1, Burst: burst}, streams
		c.LimitsNow = func() time.Time { return s.clock.Now() }
	}})
	j, err := s.mgr.Create(context.Background(), game.CreateRequest{Options: engine.Options{Seats: 4}, HostName: "Ada",
		Bots: []game.BotSpec{{Level: "easy", Style: "cautious"}, {Level: "easy", Style: "bold"}, {Level: "easy", Style: "caller"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := j.Game.ID
	if err := s.mgr.Start(game.WithToken(context.Background(), j.Token), id, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	get := func(path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.srv.URL+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for i, tt := range []struct {
		path string
		want int
	}{
		// A page's stream and the API's fill the address's two.
		{"/games/" + id + "/events", http.StatusOK},
		{"/api/v1/games/" + id + "/events", http.StatusOK},
		{"/lobby/events", http.StatusTooManyRequests},
		// Pages and the API draw on one bucket: six requests in all.
		{"/games/" + id + "/frame", http.StatusOK},
		{"/api/v1/games/" + id, http.StatusOK},
		{"/games/" + id + "/frame", http.StatusOK},
		{"/games/" + id + "/frame", http.StatusTooManyRequests},
		{"/api/v1/games/" + id, http.StatusTooManyRequests},
		{"/", http.StatusTooManyRequests},
	} {
		resp := get(tt.path)
		if resp.StatusCode != tt.want {
			t.Errorf("request %d, %s: got %d, want %d", i+1, tt.path, resp.StatusCode, tt.want)
		}
		if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
			t.Errorf("request %d, %s: a 429 without Retry-After", i+1, tt.path)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			resp.Body.Close()
		} else {
			defer resp.Body.Close()
		}
	}
}
