package api_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/engine/bot"
)

// TestWholeGame drives a game with two people and two bots from creation to
// its end over HTTP, while a spectator follows the event stream; every
// answer and every event is checked against openapi.yaml.
func TestWholeGame(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	host, err := w.client("").Create(ctx, client.CreateBody{
		Seats: 4, Name: "Ann", WindowSeconds: 4,
		Bots: []client.Bot{{Level: "medium", Style: "bold"}}, FillBots: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	guest, err := w.client("").Join(ctx, id, "Bo")
	if err != nil {
		t.Fatal(err)
	}
	started, err := w.client(host.Token).Start(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if started.Status != client.StatusLive || started.Seats[3].Kind != client.SeatBot {
		t.Fatalf("after the start: %+v, want live with the empty seat filled by a bot", started)
	}

	spec := loadSpec(t)
	streamCtx, stopStream := context.WithCancel(ctx)
	defer stopStream()
	type streamed struct {
		views []engine.View
		err   error
	}
	got := make(chan streamed, 1)
	go func() {
		var s streamed
		s.err = w.client("").Events(streamCtx, id, func(v engine.View) error {
			s.views = append(s.views, v)
			return nil
		})
		got <- s
	}()

	w.playPersons(id, []string{host.Token, guest.Token})

	s := <-got // the server ends the stream after the final view
	if s.err != nil {
		t.Fatalf("the spectator's stream: %v", s.err)
	}
	if len(s.views) == 0 {
		t.Fatal("the spectator's stream carried no views")
	}
	for i, v := range s.views {
		if v.Seat != engine.Spectator || v.Hand != nil {
			t.Fatalf("view %d on the spectator's stream is seat %d's", i, v.Seat)
		}
		if i > 0 && v.Version < s.views[i-1].Version {
			t.Fatalf("the stream went back from version %d to %d", s.views[i-1].Version, v.Version)
		}
		if err := spec.validate("View", mustJSON(t, v)); err != nil {
			t.Fatalf("view %d on the stream doesn't match openapi.yaml: %v", i, err)
		}
	}
	final := s.views[len(s.views)-1]
	if final.Phase != engine.PhaseOver || len(final.Result) != 4 {
		t.Errorf("the stream's last view is %s with result %v, want the game over with 4 places", final.Phase, final.Result)
	}

	sum, err := w.client("").Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != client.StatusFinished || len(sum.Result) != 4 || sum.EndedAt.IsZero() {
		t.Errorf("the finished game: %+v, want finished with 4 places and an end time", sum)
	}
	// Once it's over, everyone reads the whole log, private lines too.
	log, err := w.client("").Log(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(log, func(e engine.Event) bool { return e.Kind == engine.EventMine }) ||
		log[len(log)-1].Kind != engine.EventOver {
		t.Errorf("the finished game's log (%d lines) lacks the private lines or doesn't end with the end", len(log))
	}
	// A stream opened now is the final view alone.
	var late []engine.View
	if err := w.client(guest.Token).Events(ctx, id, func(v engine.View) error { late = append(late, v); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(late) != 1 || late[0].Phase != engine.PhaseOver || late[0].Seat != guest.Seat {
		t.Errorf("a stream opened after the end carried %d views, want Bo's final view alone", len(late))
	}
	// A browser reconnecting with the final view's id is told nothing more
	// will come.
	req, err := http.NewRequest(http.MethodGet, w.srv.URL+"/api/v1/games/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Last-Event-ID", strconv.Itoa(late[0].Version))
	req.Header.Set("Authorization", "Bearer "+guest.Token)
	resp, err := w.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("reconnecting with the final view's id: %s, want 204", resp.Status)
	}
	if _, err := w.client(guest.Token).Act(ctx, id, engine.Action{Kind: engine.ActPass, No: final.Plays}); client.ErrorCode(err) != "over" {
		t.Errorf("a move after the end: %v, want over", err)
	}
}

// TestBotPlaysWholeGame runs the example bot's Play against the server in
// this process: one seat played over the API, the others by the server's
// bots, to the end.
func TestBotPlaysWholeGame(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	host, err := w.client("").Create(ctx, client.CreateBody{
		Seats: 3, Name: "Remote bot",
		Bots: []client.Bot{{Level: "hard", Style: "caller"}, {Level: "easy", Style: "bold"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := w.client(host.Token)
	if _, err := c.Start(ctx, host.Game.ID); err != nil {
		t.Fatal(err)
	}
	b, err := bot.New(bot.Medium, bot.Cautious, 42)
	if err != nil {
		t.Fatal(err)
	}
	stop := w.ticker(ctx, 50*time.Millisecond)
	final, err := c.Play(ctx, host.Game.ID, b, client.PlayOptions{
		Think: func(engine.Think, engine.Pace) time.Duration { return 0 },
		Poll:  20 * time.Millisecond,
	})
	stop()
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	if final.Phase != engine.PhaseOver || len(final.Result) != 3 {
		t.Fatalf("Play ended on %s with result %v, want the game over", final.Phase, final.Result)
	}
	// The remote seat really played: its own plays are in the log.
	log, err := c.Log(ctx, host.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	plays := 0
	for _, e := range log {
		if e.Kind == engine.EventPlay && e.Seat == host.Seat {
			plays++
		}
	}
	seats, err := c.Get(ctx, host.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if plays == 0 || seats.Seats[host.Seat].Covered {
		t.Errorf("the remote seat made %d plays and covered=%v, want it to have played for itself", plays, seats.Seats[host.Seat].Covered)
	}
}
