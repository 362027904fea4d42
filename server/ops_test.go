package server_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"bullshit/api"
	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/internal/clocks"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/players"
	"bullshit/server"
	"bullshit/store"
	"bullshit/store/storetest"
)

// lockedBuffer is a log's destination the test reads while the server
// writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// serveSite assembles the site on a store of the test's own, without request
// limits and with quick password hashes, and serves it until the test ends.
func serveSite(t *testing.T, ctx context.Context, clock clocks.Clock, logger *slog.Logger, s server.Settings) (*server.Site, *httptest.Server) {
	t.Helper()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	unlimited := api.Rate{PerSecond: 1e6, Burst: 1e6}
	s.PerAddress, s.PerToken = unlimited, unlimited
	s.Passwords = players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	site, err := server.Assemble(ctx, st, clock, logger, s)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler)
	t.Cleanup(func() {
		site.StopStreams()
		srv.Close()
		_ = site.Close(context.Background())
		st.Close()
	})
	return site, srv
}

// TestOperations runs the whole site with the real tables: a move made
// over the API shows in the scrape as an acknowledgement, a commit, an
// action stored and a table playing; the metrics lint clean; the probes
// answer without being logged or counted; and /readyz fails once the
// database is gone, and while the node drains.
func TestOperations(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var logs lockedBuffer
	site, srv := serveSite(t, ctx, fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)),
		slog.New(slog.NewTextHandler(&logs, nil)), server.Settings{})

	c := client.New(srv.URL, nil)
	host, err := c.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	tokens := []string{host.Token}
	for _, name := range []string{"Bob", "Cid"} {
		j, err := c.Join(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, j.Token)
	}
	if _, err := c.WithToken(host.Token).Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	v, err := c.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	player := c.WithToken(tokens[v.Turn])
	mine, err := player.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := player.Act(ctx, id, engine.Action{Kind: engine.ActPlay, Seat: mine.Seat, No: mine.Plays, Cards: mine.Hand[:1]}); err != nil {
		t.Fatal(err)
	}

	// A stream is counted open while it is, and as a request once it ends,
	// but never timed.
	streamCtx, endStream := context.WithCancel(ctx)
	streamed := make(chan error, 1)
	go func() {
		streamed <- c.Events(streamCtx, id, func(engine.View) error { return nil })
	}()
	scrapeUntil(t, srv.URL, "bullshit_streams_open 1")
	endStream()
	<-streamed
	scrapeUntil(t, srv.URL, `bullshit_http_requests_total{code="200",method="GET",route="/api/v1/games/:id/events"} 1`)

	status, body := get(t, srv.URL+"/metrics")
	if status != 200 {
		t.Fatalf("GET /metrics: got %d, want 200", status)
	}
	for _, want := range []string{
		`bullshit_tables{state="playing"} 1`,
		`bullshit_tables{state="open"} 0`,
		`bullshit_actions_stored_total 1`,
		`bullshit_move_ack_duration_seconds_count 1`,
		`bullshit_commit_duration_seconds_count 1`,
		`bullshit_http_requests_total{code="200",method="POST",route="/api/v1/games/:id/play"} 1`,
		`bullshit_http_requests_total{code="201",method="POST",route="/api/v1/games"} 1`,
		`bullshit_streams_open 0`,
		`bullshit_recovery_duration_seconds `,
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q", want)
		}
	}
	if strings.Contains(body, `request_duration_seconds_count{method="GET",route="/api/v1/games/:id/events"}`) {
		t.Error("the event stream is among the request durations")
	}
	if strings.Contains(body, id) {
		t.Errorf("the scrape names game %s", id)
	}
	problems, err := testutil.GatherAndLint(site.Metrics.Registry())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}

	if status, body := get(t, srv.URL+"/livez"); status != 200 || body != "ok\n" {
		t.Errorf("GET /livez: got %d %q, want 200 \"ok\\n\"", status, body)
	}
	if status, body := get(t, srv.URL+"/readyz"); status != 200 || body != "ok\n" {
		t.Errorf("GET /readyz: got %d %q, want 200 \"ok\\n\"", status, body)
	}
	site.Ready.Drain()
	if status, body := get(t, srv.URL+"/readyz"); status != 503 || body != "not ready: draining\n" {
		t.Errorf("GET /readyz while draining: got %d %q, want 503 \"not ready: draining\\n\"", status, body)
	}
	_, body = get(t, srv.URL+"/metrics")
	for _, path := range []string{"/livez", "/readyz", "/metrics"} {
		if strings.Contains(logs.String(), path) {
			t.Errorf("the log has a line for %s:\n%s", path, logs.String())
		}
		if strings.Contains(body, path) {
			t.Errorf("the requests counted include %s", path)
		}
	}
}

// TestReadyNeedsTheDatabase: with the database closed under it, the node
// is not ready and says which check failed, and is still alive.
func TestReadyNeedsTheDatabase(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := store.Open(ctx, storetest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	site, err := server.Assemble(ctx, st, fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)), nil, server.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler)
	defer func() {
		site.StopStreams()
		srv.Close()
		_ = site.Close(context.Background())
	}()
	if status, _ := get(t, srv.URL+"/readyz"); status != 200 {
		t.Fatalf("GET /readyz: got %d, want 200", status)
	}
	_ = site.Close(ctx)
	st.Close()
	// The last answer stands for up to ops.CacheFor.
	status, body := get(t, srv.URL+"/readyz")
	for deadline := time.Now().Add(10 * time.Second); status == 200 && time.Now().Before(deadline); {
		time.Sleep(250 * time.Millisecond)
		status, body = get(t, srv.URL+"/readyz")
	}
	if status != 503 || body != "not ready: database\n" {
		t.Errorf("GET /readyz, the database closed: got %d %q, want 503 \"not ready: database\\n\"", status, body)
	}
	if status, _ := get(t, srv.URL+"/livez"); status != 200 {
		t.Errorf("GET /livez, the database closed: got %d, want 200", status)
	}
}

// scrapeUntil scrapes until the answer has want, failing after a while.
func scrapeUntil(t *testing.T, base, want string) {
	t.Helper()
	for tries := 0; ; tries++ {
		_, body := get(t, base+"/metrics")
		if strings.Contains(body, want) {
			return
		}
		if tries == 500 {
			t.Fatalf("the scrape never had %q:\n%s", want, body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
