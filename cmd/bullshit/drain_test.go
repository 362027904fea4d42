package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
)

// probe is a GET's status and body, or the error of a server that no
// longer answers.
func probe(url string) (int, string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// TestServeDrains stops the server with SIGTERM and a drain's wait: it
// reports not ready at once while it still serves the game and its stream,
// stays alive, then stops as without a wait: the stream ends cleanly and the
// process exits with success.
func TestServeDrains(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin, addr, data := buildBinary(t), freeAddr(t), t.TempDir()
	// Long enough to be sure to see the drain on a busy machine; the test
	// stops waiting as soon as it has.
	srv := startServer(t, bin, addr, data, "--drain-wait", "5s")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := client.New(srv.base, nil)
	host, err := c.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	if _, err := c.WithToken(host.Token).Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	if status, body, err := probe(srv.base + "/readyz"); status != 200 || body != "ok\n" {
		t.Fatalf("GET /readyz: got %d %q %v, want 200 \"ok\\n\"", status, body, err)
	}
	streamed := make(chan error, 1)
	first := make(chan struct{})
	go func() {
		once := sync.OnceFunc(func() { close(first) })
		streamed <- c.Events(ctx, id, func(engine.View) error { once(); return nil })
	}()
	<-first
	exited := make(chan error, 1)
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	go func() { exited <- srv.cmd.Wait() }()

	for {
		status, body, err := probe(srv.base + "/readyz")
		if err != nil {
			t.Fatalf("the server stopped answering before /readyz said it drains: %v", err)
		}
		if status == http.StatusServiceUnavailable {
			if body != "not ready: draining\n" {
				t.Errorf("GET /readyz while draining: got %q, want \"not ready: draining\\n\"", body)
			}
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Still serving: alive, and the game answers.
	if status, _, err := probe(srv.base + "/livez"); status != 200 {
		t.Errorf("GET /livez while draining: got %d %v, want 200", status, err)
	}
	if g, err := c.Get(ctx, id); err != nil || g.Status != client.StatusLive {
		t.Errorf("while draining the game is %+v, %v; want it live", g.Status, err)
	}
	if err := <-exited; err != nil {
		t.Errorf("the server exited with %v, want success", err)
	}
	if err := <-streamed; err != nil {
		t.Errorf("the stream ended with %v, want a clean end", err)
	}
	if !strings.Contains(srv.logs.tail(), "draining") {
		t.Errorf("the log doesn't say the server drained:\n%s", srv.logs.tail())
	}
}
