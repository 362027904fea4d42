package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/api/client"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/players"
	"bullshit/server"
	"bullshit/store"
)

// TestBotCommand runs `bullshit bot --join` in this process against a server
// with the real Manager and SQLite: the bot takes a seat at an open table
// with its account's API token, the host starts it with bots in the other
// seats, and the bot plays its seat, the account's, to the end.
func TestBotCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "bullshit.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	// The clock runs fast, so the bot decides far more often than a real
	// table lets it: no limits here.
	unlimited := api.Rate{PerSecond: 1e6, Burst: 1e6}
	site, err := server.Assemble(ctx, st, clock, nil, server.Settings{PerAddress: unlimited, PerToken: unlimited,
		Passwords: players.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}})
	if err != nil {
		t.Fatal(err)
	}
	accounts := site.Accounts
	robo, err := accounts.SignUp(ctx, "Robo", "a program's password", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	roboToken, _, err := accounts.CreateToken(ctx, robo.Account.ID, "arena")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler)
	defer func() {
		// The streams end first: the test server waits for every request.
		site.StopStreams()
		srv.Close()
		_ = site.Close(context.Background())
	}()

	c := client.New(srv.URL, nil)
	// The longest away time, so the clock running fast doesn't mark the
	// bot away while it reads the stream.
	host, err := c.Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", FillBots: true, AwayAfterSeconds: 600})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	var out, logs bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- playBot(ctx, []string{"--server", srv.URL, "--join", id, "--account-token", roboToken,
			"--level", "hard", "--style", "bold", "--seed", "9", "--think", "0"}, &out, &logs)
	}()
	for {
		g, err := c.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Seats[1].Name == "Robo" {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the bot stopped before the start: %v\n%s", err, logs.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	// The host hands their own seat to a bot, so only bots are left, and
	// the clock runs fast while the game plays out.
	if _, err := c.WithToken(host.Token).Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := site.Manager.HandToBot(ctx, id, host.Seat, host.Seat); err != nil {
		t.Fatal(err)
	}
	ticking := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		for {
			select {
			case <-ticking:
				return
			case <-time.After(time.Millisecond):
				clock.Advance(50 * time.Millisecond)
			}
		}
	})
	err = <-done
	close(ticking)
	if err != nil {
		t.Fatalf("bullshit bot: %v\n%s", err, logs.String())
	}
	g, err := c.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != client.StatusFinished || g.Seats[1].Covered || g.Seats[1].Player != robo.Account.ID {
		t.Errorf("after the bot's game: %s, seat 1 covered %v, account %d; want finished, played by the bot itself as account %d",
			g.Status, g.Seats[1].Covered, g.Seats[1].Player, robo.Account.ID)
	}
	if got := strings.Count(out.String(), "place "); got != 3 || !strings.Contains(out.String(), "<- this bot") {
		t.Errorf("the bot printed\n%s\nwant three places, its own marked", out.String())
	}
}

func TestBotCommandRefusesBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing to play", []string{}, "give --game and --token"},
		{"odd level", []string{"--level", "genius", "--game", "g", "--token", "t"}, "genius"},
		{"odd style", []string{"--style", "sneaky", "--game", "g", "--token", "t"}, "sneaky"},
		{"negative think", []string{"--think", "-1"}, "--think"},
		{"unknown flag", []string{"--colour", "red"}, "colour"},
	}
	for _, tt := range tests {
		var out, logs bytes.Buffer
		err := playBot(context.Background(), tt.args, &out, &logs)
		if err == nil || !strings.Contains(err.Error()+logs.String(), tt.want) {
			t.Errorf("%s: bullshit bot %v = %v, want an error mentioning %q", tt.name, tt.args, err, tt.want)
		}
	}
}
