package api_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/api/client"
)

// clock is a limiter clock the test moves by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestRateLimits(t *testing.T) {
	clk := &clock{now: time.Unix(1e9, 0)}
	w := newWorld(t, worldOptions{
		perAddress: api.Rate{PerSecond: 1, Burst: 8},
		perToken:   api.Rate{PerSecond: 0.5, Burst: 2},
		now:        clk.Now,
	})
	ctx := context.Background()
	host, err := w.client("").Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	path := "/api/v1/games/" + host.Game.ID + "/seats"
	tests := []struct {
		name       string
		advance    time.Duration
		token      string
		limited    bool
		retryAfter string
	}{
		// The create took one of the address's 8; a token's 2 go first.
		{"token 1", 0, host.Token, false, ""},
		{"token 2", 0, host.Token, false, ""},
		{"token held back", 0, host.Token, true, "2"},
		{"no token, same address", 0, "", false, ""},
		{"address 5", 0, "", false, ""},
		{"address 6", 0, "", false, ""},
		{"address 7", 0, "", false, ""},
		{"address held back", 0, "", true, "1"},
		{"address refilled", time.Second, "", false, ""},
		{"token refilled", 2 * time.Second, host.Token, false, ""},
	}
	// Requests with the token start the game, then are refused as a start
	// of a live game: what matters here is whether they get that far.
	for _, tt := range tests {
		clk.advance(tt.advance)
		method := "GET"
		p := path
		if tt.token != "" {
			method, p = "POST", "/api/v1/games/"+host.Game.ID+"/start"
		}
		a := w.do(method, p, tt.token, "")
		if tt.limited {
			if a.status != 429 || a.problem().Code != "rate_limited" || a.header.Get("Retry-After") != tt.retryAfter {
				t.Errorf("%s: %d %s Retry-After %q, want 429 rate_limited Retry-After %q", tt.name, a.status, a.body, a.header.Get("Retry-After"), tt.retryAfter)
			}
			continue
		}
		if a.status == 429 {
			t.Errorf("%s: refused as too fast, want it through", tt.name)
		}
	}
}

// TestRateLimitBehindProxy checks whose address the per-address limit counts:
// X-Forwarded-For only from a trusted proxy, and an IPv6 client by its /64.
func TestRateLimitBehindProxy(t *testing.T) {
	type step struct {
		xff     string
		limited bool
	}
	tests := []struct {
		name    string
		trusted string
		steps   []step
	}{
		{"forged by a client that isn't a proxy", "10.0.0.0/8", []step{
			{"198.51.100.1", false}, {"198.51.100.2", false}, {"198.51.100.3", true}, {"", true},
		}},
		{"no proxies trusted", "", []step{
			{"198.51.100.1", false}, {"198.51.100.2", false}, {"198.51.100.3", true},
		}},
		{"from a trusted proxy", "127.0.0.0/8", []step{
			{"198.51.100.1", false}, {"198.51.100.1", false}, {"198.51.100.1", true},
			{"198.51.100.2", false}, {"198.51.100.2", false}, {"198.51.100.2", true},
			// The client forging the leftmost hop is still counted by
			// the hop the proxy added.
			{"198.51.100.9, 198.51.100.1", true},
		}},
		{"IPv6 clients by their /64", "127.0.0.0/8", []step{
			{"2001:db8:1:2::1", false}, {"2001:db8:1:2::2", false}, {"2001:db8:1:2:ffff::3", true},
			{"2001:db8:1:3::1", false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &clock{now: time.Unix(1e9, 0)}
			w := newWorld(t, worldOptions{
				perAddress:     api.Rate{PerSecond: 0.001, Burst: 2},
				now:            clk.Now,
				trustedProxies: tt.trusted,
			})
			for i, s := range tt.steps {
				req, err := http.NewRequest("GET", w.srv.URL+"/healthz", nil)
				if err != nil {
					t.Fatal(err)
				}
				if s.xff != "" {
					req.Header.Set("X-Forwarded-For", s.xff)
				}
				resp, err := w.http.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if got := resp.StatusCode == http.StatusTooManyRequests; got != s.limited {
					t.Errorf("step %d (X-Forwarded-For %q): got status %d, want limited %v", i, s.xff, resp.StatusCode, s.limited)
				}
			}
		})
	}
}

func TestBodyLimit(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	host, err := w.client("").Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.client(host.Token).Start(ctx, host.Game.ID); err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat(" ", api.MaxBody)
	tests := []struct {
		name, path, body string
		status           int
	}{
		{"create", "/api/v1/games", `{"seats":3,"name":"Al"}` + pad, http.StatusRequestEntityTooLarge},
		{"join", "/api/v1/games/" + host.Game.ID + "/join", `{"name":"Al"}` + pad, http.StatusRequestEntityTooLarge},
		{"play", "/api/v1/games/" + host.Game.ID + "/play", `{"no":0,"cards":["AS"]}` + pad, http.StatusRequestEntityTooLarge},
		{"just under", "/api/v1/games", `{"seats":3,"name":"Al"}` + pad[:api.MaxBody-len(`{"seats":3,"name":"Al"}`)], http.StatusCreated},
	}
	for _, tt := range tests {
		a := w.do("POST", tt.path, host.Token, tt.body)
		if a.status != tt.status {
			t.Errorf("%s with a %d-byte body: %d %s, want %d", tt.name, len(tt.body), a.status, a.body, tt.status)
		}
	}
	// A body sent without a length is cut off at the limit too.
	req, err := http.NewRequest("POST", w.srv.URL+"/api/v1/games", &endless{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := w.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an endless body: %d, want 413", resp.StatusCode)
	}
}

// endless is a request body that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
