package main

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/web"
)

// TestStreamsReadThroughTheServersRoutes: a short run with -streams follows
// every seat of every table on the server's own stream route for the format
// (the API's with the seat's bearer token, the pages' with its cookie), and
// every stream is opened, is its seat's (it reads frames stamped as its
// seat's, which a spectator's never are) and has events timed in the window.
func TestStreamsReadThroughTheServersRoutes(t *testing.T) {
	tests := []struct {
		format   string
		followed int // seats followed at each table; 0: every one
		want     int // streams at the three tables of three seats
	}{
		{api.FormatJSON, 0, 9},
		{web.FormatHTML, 0, 9},
		{web.FormatHTML, 1, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.format, tt.followed), func(t *testing.T) {
			o := runOpts{tables: 3, seats: 3, window: 4 * time.Second, warmup: time.Second, duration: 2 * time.Second,
				format: tt.format, followed: tt.followed}
			res, err := run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.actions == 0 {
				t.Error("actions stored: got 0, want some")
			}
			if res.readers == nil {
				t.Fatal("got no readers in this process, want them")
			}
			checkRead(t, res.readers, tt.want)
		})
	}
}

// TestStreamsReadByAnotherProcess: with -listen, the reader (-read) is told
// each game with its seats' tokens on the load test's follow route, and
// reads every seat's stream on the server's route beside it.
func TestStreamsReadByAnotherProcess(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	o := runOpts{tables: 3, seats: 3, window: 4 * time.Second, warmup: time.Second, duration: 2 * time.Second,
		format: web.FormatHTML, listen: addr}
	ran := make(chan error, 1)
	go func() {
		_, err := run(context.Background(), o)
		ran <- err
	}()
	// The load test listens once its server is assembled.
	for wait := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(wait) {
			t.Fatalf("the load test never listened on %s", addr)
		}
	}
	r, err := readRemote(context.Background(), "http://"+addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	checkRead(t, r, o.tables*o.seats)
}

// checkRead checks that r opened every one of streams seats' streams, each
// its seat's, and timed events in the window.
func checkRead(t *testing.T, r *readers, streams int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refused != 0 {
		t.Errorf("streams not opened: got %d (the first: %s), want 0", r.refused, r.why)
	}
	if r.opened != streams {
		t.Errorf("streams opened: got %d, want %d (every seat of every table)", r.opened, streams)
	}
	if r.seated != r.opened {
		t.Errorf("streams that read their seat's frames: got %d of %d, want all", r.seated, r.opened)
	}
	if len(r.latencies) == 0 {
		t.Error("events read in the window: got none, want some")
	}
}
