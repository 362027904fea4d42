package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"bullshit/api/client"
)

// TestStopWithHalfSentRequests stops the server with SIGTERM while one
// client has sent half a request's headers and another half a request's
// body, and a game is being played: the server cuts the two after its HTTP
// budget, still gives the tables theirs, and exits cleanly, with every move
// it acknowledged stored.
func TestStopWithHalfSentRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	const httpBudget, tablesBudget = time.Second, 10 * time.Second
	bin, addr, data := buildBinary(t), freeAddr(t), t.TempDir()
	srv := startServer(t, bin, addr, data, "--shutdown-http", httpBudget.String(), "--shutdown-tables", tablesBudget.String())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	host, err := client.New(srv.base, nil).Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	c := client.New(srv.base, nil).WithToken(host.Token)
	if _, err := c.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	playCtx, stopPlaying := context.WithCancel(ctx)
	defer stopPlaying()
	player := playHost(playCtx, t, c, id, host.Seat)
	player.await(ctx, t, 4)

	// Half a request's headers, and a request whose handler is reading its
	// body (the server said to continue) when the body stops halfway.
	halfHeaders := dial(t, addr, "POST /api/v1/games HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: appl")
	halfBody := dial(t, addr, "POST /api/v1/games HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/json\r\n"+
		"Content-Length: 40\r\nExpect: 100-continue\r\n\r\n")
	line, err := bufio.NewReader(halfBody).ReadString('\n')
	if err != nil || !strings.Contains(line, "100 Continue") {
		t.Fatalf("got %q, %v from the server, want 100 Continue", line, err)
	}
	if _, err := io.WriteString(halfBody, `{"seats":3,`); err != nil {
		t.Fatal(err)
	}

	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.cmd.Wait() }()
	// A bound on the wait, not a measurement: a server that ignored its
	// budgets would hold the half-sent body for its 30-second read timeout.
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Errorf("the server exited with status %d, want 0", ee.ExitCode())
		} else if err != nil {
			t.Fatal(err)
		}
	case <-time.After(httpBudget + tablesBudget + 10*time.Second):
		t.Fatalf("the server hadn't exited %v after the signal", httpBudget+tablesBudget+10*time.Second)
	}
	for name, conn := range map[string]net.Conn{"half the headers": halfHeaders, "half the body": halfBody} {
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.Copy(io.Discard, conn); err != nil {
			t.Errorf("the connection that sent %s: got %v, want it closed by the server", name, err)
		}
	}
	stopPlaying()
	<-player.done
	before := player.acked()

	srv = startServer(t, bin, addr, data)
	sum, err := client.New(srv.base, nil).Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != client.StatusLive && sum.Status != client.StatusFinished {
		t.Errorf("after the restart the game is %s, want live or finished", sum.Status)
	}
	log, err := c.Log(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range before {
		if !inLog(log, m) {
			t.Errorf("the acknowledged move %+v by seat %d is not in the log after the restart", m.a, m.seat)
		}
	}
	t.Logf("%d moves acknowledged before the stop, %d plays stored", len(before), sum.Plays)
}

// dial opens a raw connection to the server and sends it text.
func dial(t *testing.T, addr, text string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, text); err != nil {
		t.Fatal(err)
	}
	return conn
}
