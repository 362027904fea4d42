package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/engine/bot"
)

// process is a `bullshit serve` process.
type process struct {
	cmd  *exec.Cmd
	base string
	logs *logWriter
}

// startServer runs the binary on a free port with the data folder, its
// clocks running fast so a whole game takes seconds, stopping without a
// drain's wait. extra flags go after the others, so they win.
func startServer(t *testing.T, bin, addr, data string, extra ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--data", data, "--speed", "20", "--drain-wait", "0"}, extra...)...)
	logs := &logWriter{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &process{cmd: cmd, base: "http://" + addr, logs: logs}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("the end of the server's log:\n%s", logs.tail())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server didn't come up: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// logWriter keeps the server's log, to show the end of it if the test fails.
type logWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *logWriter) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf.Bytes()
	return string(b[max(0, len(b)-4096):])
}

// freeAddr finds a port nobody is listening on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bullshit")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// acked is a move the server acknowledged.
type acked struct {
	seat int
	a    engine.Action
}

// hostBot is the example bot playing the host's seat over the API, noting
// each move the server acknowledged.
type hostBot struct {
	mu    sync.Mutex
	moves []acked
	// done has Play's end: the last view and its error.
	done chan playEnd
}

type playEnd struct {
	v   engine.View
	err error
}

// playHost starts a medium calling bot on the host's seat, which plays
// until the game ends or ctx does.
func playHost(ctx context.Context, t *testing.T, c *client.Client, id string, seat int) *hostBot {
	t.Helper()
	b, err := bot.New(bot.Medium, bot.Caller, 7)
	if err != nil {
		t.Fatal(err)
	}
	h := &hostBot{done: make(chan playEnd, 1)}
	go func() {
		v, err := c.Play(ctx, id, b, client.PlayOptions{
			Think: func(engine.Think, engine.Pace) time.Duration { return 0 },
			Poll:  200 * time.Millisecond,
			Moved: func(a engine.Action) {
				h.mu.Lock()
				h.moves = append(h.moves, acked{seat: seat, a: a})
				h.mu.Unlock()
			},
		})
		h.done <- playEnd{v, err}
	}()
	return h
}

// acked is every move acknowledged so far.
func (h *hostBot) acked() []acked {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.moves)
}

// await waits until the bot has made n moves, failing if ctx ends first.
func (h *hostBot) await(ctx context.Context, t *testing.T, n int) {
	t.Helper()
	for len(h.acked()) < n {
		if ctx.Err() != nil {
			t.Fatalf("the bot made only %d moves", len(h.acked()))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// inLog reports whether the log holds the acknowledged move.
func inLog(log []engine.Event, m acked) bool {
	return slices.ContainsFunc(log, func(e engine.Event) bool {
		switch m.a.Kind {
		case engine.ActPlay:
			return e.Kind == engine.EventMine && e.Seat == m.seat && e.No == m.a.No+1 && sameCards(e.Cards, m.a.Cards)
		case engine.ActPass:
			return e.Kind == engine.EventPass && e.Seat == m.seat && e.No == m.a.No
		case engine.ActCall:
			return e.Kind == engine.EventCalled && e.Caller != nil && *e.Caller == m.seat && e.No == m.a.No
		case engine.ActGive:
			return e.Kind == engine.EventHanded && e.Caller != nil && *e.Caller == m.seat && e.No == m.a.No && sameCards(e.Cards, m.a.Cards)
		}
		return false
	})
}

func sameCards(a, b []engine.Card) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestRestart kills the server mid-game while the example bot's moves and
// others' reads are in flight, starts it again on the same data and
// address, and checks every move it had acknowledged was kept and the game
// plays on to its end, the bot carrying on across the restart.
func TestRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin, addr, data := buildBinary(t), freeAddr(t), t.TempDir()
	srv := startServer(t, bin, addr, data)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	host, err := client.New(srv.base, nil).Create(ctx, client.CreateBody{
		Seats: 3, Name: "Ann", WindowSeconds: 4,
		Bots: []client.Bot{{Level: "medium", Style: "cautious"}, {Level: "medium", Style: "bold"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	c := client.New(srv.base, nil).WithToken(host.Token)
	if _, err := c.Start(ctx, id); err != nil {
		t.Fatal(err)
	}

	player := playHost(ctx, t, c, id, host.Seat)
	// A spectator reads the table too, so requests are in flight when the
	// server dies.
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	base := srv.base // the same after the restart
	go func() {
		for readCtx.Err() == nil {
			_, _ = client.New(base, nil).View(readCtx, id)
			time.Sleep(50 * time.Millisecond)
		}
	}()
	player.await(ctx, t, 6)
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = srv.cmd.Wait()
	before := player.acked()

	srv = startServer(t, bin, addr, data)
	spectator := client.New(srv.base, nil)
	log, err := c.Log(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range before {
		if !inLog(log, m) {
			t.Errorf("the acknowledged move %+v by seat %d is not in the log after the restart", m.a, m.seat)
		}
	}

	r := <-player.done
	if r.err != nil {
		t.Fatalf("the bot playing on after the restart: %v", r.err)
	}
	if r.v.Phase != engine.PhaseOver {
		t.Fatalf("the game stopped at %s, want it over", r.v.Phase)
	}
	sum, err := spectator.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != client.StatusFinished {
		t.Errorf("after playing on the game is %s, want finished", sum.Status)
	}
	log, err = spectator.Log(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	moves := player.acked()
	for _, m := range moves {
		if !inLog(log, m) {
			t.Errorf("the acknowledged move %+v by seat %d is not in the final log", m.a, m.seat)
		}
	}
	if len(moves) <= len(before) {
		t.Errorf("the bot made no moves after the restart")
	}
	t.Logf("%d moves acknowledged before the kill, %d in all, over %d plays", len(before), len(moves), sum.Plays)
}

// TestServeStopsGracefully stops the server with SIGTERM while a client
// follows a stream: the stream ends, the process exits cleanly, and the game
// is still there on the next start.
func TestServeStopsGracefully(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin, addr, data := buildBinary(t), freeAddr(t), t.TempDir()
	srv := startServer(t, bin, addr, data)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := client.New(srv.base, nil)
	host, err := c.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WithToken(host.Token).Start(ctx, host.Game.ID); err != nil {
		t.Fatal(err)
	}
	streamed := make(chan error, 1)
	first := make(chan struct{})
	go func() {
		once := sync.OnceFunc(func() { close(first) })
		streamed <- c.Events(ctx, host.Game.ID, func(engine.View) error { once(); return nil })
	}()
	<-first
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-streamed; err != nil {
		t.Errorf("the stream ended with %v, want a clean end", err)
	}
	if err := srv.cmd.Wait(); err != nil {
		t.Errorf("the server exited with %v, want success", err)
	}

	srv = startServer(t, bin, addr, data)
	g, err := client.New(srv.base, nil).Get(ctx, host.Game.ID)
	if err != nil || g.Status != client.StatusLive {
		t.Errorf("after the restart the game is %+v, %v; want it live", g.Status, err)
	}
}

// TestServeRefusesBadFlags checks serve refuses settings it can't honour
// before it opens anything.
func TestServeRefusesBadFlags(t *testing.T) {
	tests := [][]string{
		{"--trusted-proxies", "example.com"},
		{"--trusted-proxies", "10.0.0.0/8,10.0.0.0/40"},
		{"--trusted-origins", "game.example"},
		{"--shutdown-http", "0s"},
		{"--shutdown-tables", "-1s"},
		{"--speed", "0"},
		{"--drain-wait", "-1s"},
	}
	for _, args := range tests {
		data := t.TempDir()
		if err := serve(context.Background(), append(args, "--data", data, "--addr", "127.0.0.1:0")); err == nil {
			t.Errorf("serve %v: got no error, want one", args)
		}
	}
}
