package main

import (
	"context"
	"slices"
	"syscall"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
)

// The server is down longer than the table's away time, twice: killed on a
// person's turn, then stopped cleanly while a call window is open. Three
// people and no bots, so nothing moves but the clocks. Each time the seat on
// turn must not come back away, and the window must come back with the time
// it had left, open to a shout.
func TestLongOutageCountsAgainstNobody(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	const (
		speed = "8"                     // game seconds to a real one
		away  = 15                      // the shortest away time, in game seconds
		down  = 2500 * time.Millisecond // real time: 20 game seconds
	)
	bin, addr, data := buildBinary(t), freeAddr(t), t.TempDir()
	srv := startServer(t, bin, addr, data, "--speed", speed)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	host, err := client.New(srv.base, nil).Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", WindowSeconds: 10, AwayAfterSeconds: away})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	players := []*client.Client{client.New(srv.base, nil).WithToken(host.Token)}
	for _, name := range []string{"Bob", "Cy"} {
		j, err := client.New(srv.base, nil).Join(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, client.New(srv.base, nil).WithToken(j.Token))
	}
	if _, err := players[0].Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	v, err := players[0].View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	turn := v.Turn

	// Killed on a person's turn, for longer than the away time.
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = srv.cmd.Wait()
	time.Sleep(down)
	srv = startServer(t, bin, addr, data, "--speed", speed)
	resumed := lastResume(ctx, t, players[turn], id)
	if got := resumed.At.Sub(resumed.Since); got < away*time.Second {
		t.Fatalf("got a resume after %v down, want more than the away time %v", got, away*time.Second)
	}
	sum, err := players[0].Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if s := sum.Seats[turn]; s.Away || s.Covered {
		t.Errorf("got seat %+v after the restart, want the person on turn neither away nor covered", s)
	}
	v, err = players[turn].View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase != engine.PhasePlay || v.Turn != turn {
		t.Fatalf("got phase %v, turn %d after the restart, want seat %d still to play", v.Phase, v.Turn, turn)
	}

	// Stopped cleanly while the window of that person's play is open.
	play, _ := v.Fallback()
	played, err := players[turn].Act(ctx, id, play)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := srv.cmd.Wait(); err != nil {
		t.Errorf("the server exited with %v, want success", err)
	}
	time.Sleep(down)
	srv = startServer(t, bin, addr, data, "--speed", speed)
	caller := players[(turn+1)%3]
	resumed = lastResume(ctx, t, caller, id)
	gap := resumed.At.Sub(resumed.Since)
	if gap < away*time.Second {
		t.Fatalf("got a resume after %v down, want more than the away time %v", gap, away*time.Second)
	}
	v, err = caller.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase != engine.PhaseCall || v.Plays != played.Plays {
		t.Fatalf("got phase %v at play %d after the restart, want the window of play %d open", v.Phase, v.Plays, played.Plays)
	}
	if want := played.Closes.Add(gap); !v.Closes.Equal(want) {
		t.Errorf("got the window closing at %v, want %v: %v later, the time the server was down", v.Closes, want, gap)
	}
	if _, err := caller.Act(ctx, id, engine.Action{Kind: engine.ActCall, No: v.Plays}); err != nil {
		t.Errorf("a shout after the restart: got %v, want it accepted", err)
	}
	sum, err = caller.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(sum.Seats, func(s client.Seat) bool { return s.Away || s.Covered }); i >= 0 {
		t.Errorf("got seat %+v away or covered, want every person present", sum.Seats[i])
	}
}

// lastResume is the last resumed line of the game's log as c sees it.
func lastResume(ctx context.Context, t *testing.T, c *client.Client, id string) engine.Event {
	t.Helper()
	log, err := c.Log(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range slices.Backward(log) {
		if e.Kind == engine.EventResumed {
			return e
		}
	}
	t.Fatalf("no resumed line in the log after a restart: %+v", log)
	return engine.Event{}
}
