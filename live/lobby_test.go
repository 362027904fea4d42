package live

import (
	"strings"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/errcode"
	"bullshit/game"
	"bullshit/naming"
)

func TestCreateRefusesBadRequests(t *testing.T) {
	f := newFixture(t)
	ok := game.CreateRequest{Options: engine.Standard(4), HostName: "Ada"}
	tests := []struct {
		name string
		edit func(r *game.CreateRequest)
		want string
	}{
		{"fine", func(r *game.CreateRequest) {}, ""},
		{"no name", func(r *game.CreateRequest) { r.HostName = "  " }, string(errcode.Invalid)},
		{"long name", func(r *game.CreateRequest) { r.HostName = strings.Repeat("a", naming.Max+1) }, string(errcode.Invalid)},
		{"control in name", func(r *game.CreateRequest) { r.HostName = "a\nb" }, string(errcode.Invalid)},
		{"two seats", func(r *game.CreateRequest) { r.Options.Seats = 2 }, string(engine.CodeBadOptions)},
		{"odd window", func(r *game.CreateRequest) { r.Options.Window = 5 * time.Second }, string(engine.CodeBadOptions)},
		{"too many bots", func(r *game.CreateRequest) { r.Bots = make([]game.BotSpec, 4) }, string(engine.CodeBadOptions)},
		{"bad level", func(r *game.CreateRequest) { r.Bots = []game.BotSpec{{Level: "genius", Style: "bold"}} }, string(engine.CodeBadOptions)},
		{"simulation style", func(r *game.CreateRequest) { r.Bots = []game.BotSpec{{Level: "easy", Style: "always"}} }, string(engine.CodeBadOptions)},
		{"away too soon", func(r *game.CreateRequest) { r.AwayAfter = time.Second }, string(engine.CodeBadOptions)},
		{"away too late", func(r *game.CreateRequest) { r.AwayAfter = MaxAwayAfter + time.Second }, string(engine.CodeBadOptions)},
		{"away negative", func(r *game.CreateRequest) { r.AwayAfter = -time.Second }, string(engine.CodeBadOptions)},
		{"no seats", func(r *game.CreateRequest) { r.Options = engine.Options{} }, string(engine.CodeBadOptions)},
		{"a right-to-left override in the name", func(r *game.CreateRequest) { r.HostName = "Ada\u202e" }, string(errcode.Invalid)},
	}
	for _, tt := range tests {
		r := ok
		tt.edit(&r)
		_, err := f.m.Create(f.ctx, r)
		if got := codeOf(err); got != tt.want {
			t.Errorf("%s: got code %q (%v), want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestCreateSeatsAndDefaults(t *testing.T) {
	f := newFixture(t)
	j, err := f.m.Create(f.ctx, game.CreateRequest{
		Options: engine.Options{Seats: 5}, HostName: " Ada ", Bots: []game.BotSpec{{Level: "hard", Style: "caller"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	g := j.Game
	if len(g.ID) != 8 || strings.Trim(g.ID, "abcdefghijklmnopqrstuvwxyz234567") != "" {
		t.Errorf("got id %q, want 8 lowercase base32 characters", g.ID)
	}
	if len(j.Token) != 32 {
		t.Errorf("got a token of %d characters, want 32 hex", len(j.Token))
	}
	if g.Status != game.StatusOpen || g.AwayAfter != DefaultAwayAfter || g.Options.Window != engine.StandardWindow ||
		g.Options.Pace != engine.Brisk || g.Options.Penalty != engine.StandardPenalty {
		t.Errorf("got game %+v, want open with the standard window, pace, penalty and away time", g)
	}
	want := []game.SeatInfo{
		{Seat: 0, Kind: game.SeatPerson, Name: "Ada"},
		{Seat: 1, Kind: game.SeatBot, Name: "Caller bot (hard)", Bot: &game.BotSpec{Level: "hard", Style: "caller"}},
		{Seat: 2, Kind: game.SeatEmpty}, {Seat: 3, Kind: game.SeatEmpty}, {Seat: 4, Kind: game.SeatEmpty},
	}
	if len(g.Seats) != len(want) {
		t.Fatalf("got %d seats, want %d", len(g.Seats), len(want))
	}
	for i, s := range g.Seats {
		w := want[i]
		if s.Seat != w.Seat || s.Kind != w.Kind || s.Name != w.Name || (s.Bot == nil) != (w.Bot == nil) || s.Bot != nil && *s.Bot != *w.Bot {
			t.Errorf("seat %d: got %+v, want %+v", i, s, w)
		}
	}
	got, err := f.m.Get(f.ctx, g.ID)
	if err != nil || got.ID != g.ID {
		t.Errorf("get: got %+v, %v, want the created game", got, err)
	}
	list, err := f.m.List(f.ctx, game.StatusOpen, 10)
	if err != nil || len(list) != 1 || list[0].ID != g.ID {
		t.Errorf("list: got %+v, %v, want the created game", list, err)
	}
	if _, err := f.m.Get(f.ctx, "nosuchid"); codeOf(err) != string(errcode.NotFound) {
		t.Errorf("get of an unknown game: got %v, want not found", err)
	}
}

func TestJoinLeaveStart(t *testing.T) {
	f := newFixture(t)
	id, tokens := f.create(6, 0, "Bob", "Cy", "Dee")
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"unknown game", func() error { _, err := f.m.Join(f.ctx, "nosuchid", "Eve", 0); return err }, string(errcode.NotFound)},
		{"bad name", func() error { _, err := f.m.Join(f.ctx, id, "", 0); return err }, string(errcode.Invalid)},
		{"the host can't leave", func() error { return f.m.Leave(f.ctx, id, 0) }, string(errcode.Conflict)},
		{"an empty seat can't leave", func() error { return f.m.Leave(f.ctx, id, 5) }, string(errcode.Conflict)},
		{"Bob leaves", func() error { return f.m.Leave(f.ctx, id, 1) }, ""},
		{"not the host", func() error { return f.m.Start(f.ctx, id, 2) }, string(errcode.Forbidden)},
		{"a seat for the view", func() error { _, err := f.m.View(f.ctx, id, 0); return err }, string(errcode.Conflict)},
		{"start", func() error { return f.m.Start(f.ctx, id, 0) }, ""},
		{"start again", func() error { return f.m.Start(f.ctx, id, 0) }, string(errcode.Conflict)},
		{"join once started", func() error { _, err := f.m.Join(f.ctx, id, "Eve", 0); return err }, string(errcode.Conflict)},
	}
	for _, s := range steps {
		if got := codeOf(s.do()); got != s.want {
			t.Fatalf("%s: got code %q, want %q", s.name, got, s.want)
		}
	}
	// The seats are numbered again from 0, and the tokens follow them.
	sum, err := f.m.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sum.Seats {
		names = append(names, s.Name)
	}
	if got, want := strings.Join(names, ","), "Ada,Cy,Dee"; got != want || sum.Options.Seats != 3 {
		t.Errorf("got seats %s of %d, want %s of 3", got, sum.Options.Seats, want)
	}
	for i, want := range []int{0, -1, 1, 2} {
		seat, err := f.m.Authenticate(f.ctx, id, tokens[i])
		if want < 0 {
			if codeOf(err) != string(errcode.Unauthorized) {
				t.Errorf("token %d (left): got seat %d, %v, want unauthorized", i, seat, err)
			}
			continue
		}
		if err != nil || seat != want {
			t.Errorf("token %d: got seat %d, %v, want %d", i, seat, err, want)
		}
	}
	if _, err := f.m.Authenticate(f.ctx, id, ""); codeOf(err) != string(errcode.Unauthorized) {
		t.Errorf("no token: got %v, want unauthorized", err)
	}
	if v := f.view(id, 1); len(v.Seats) != 3 || len(v.Hand) == 0 {
		t.Errorf("got a view of %d seats and %d cards, want 3 seats and a hand", len(v.Seats), len(v.Hand))
	}
}

func TestStartNeedsThreeUnlessFilled(t *testing.T) {
	for _, fill := range []bool{false, true} {
		f := newFixture(t)
		j, err := f.m.Create(f.ctx, game.CreateRequest{Options: engine.Standard(5), HostName: "Ada", FillBots: fill})
		if err != nil {
			t.Fatal(err)
		}
		id := j.Game.ID
		if _, err := f.m.Join(f.ctx, id, "Bob", 0); err != nil {
			t.Fatal(err)
		}
		err = f.m.Start(f.ctx, id, 0)
		if fill {
			if err != nil {
				t.Fatalf("start filled: %v", err)
			}
			sum, _ := f.m.Get(f.ctx, id)
			if len(sum.Seats) != 5 {
				t.Fatalf("got %d seats, want 5", len(sum.Seats))
			}
			for _, s := range sum.Seats[2:] {
				if s.Kind != game.SeatBot || s.Bot == nil || s.Bot.Level != "medium" || !strings.Contains("cautious bold caller", s.Bot.Style) {
					t.Errorf("got seat %+v, want a medium bot of a site style", s)
				}
			}
			continue
		}
		if codeOf(err) != string(errcode.Conflict) {
			t.Errorf("start with two seated: got %v, want a conflict", err)
		}
	}
}

func TestHandToBotAndEnd(t *testing.T) {
	f := newFixture(t)
	id, tokens := f.create(4, 1, "Bob", "Cy")
	if err := f.m.HandToBot(f.ctx, id, 0, 0); codeOf(err) != string(errcode.Conflict) {
		t.Errorf("hand over before the start: got %v, want a conflict", err)
	}
	if err := f.m.Start(f.ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"another's seat", func() error { return f.m.HandToBot(f.ctx, id, 2, 3) }, string(errcode.Forbidden)},
		{"host, someone present", func() error { return f.m.HandToBot(f.ctx, id, 0, 2) }, string(errcode.Forbidden)},
		{"a bot's seat", func() error { return f.m.HandToBot(f.ctx, id, 0, 1) }, string(errcode.Conflict)},
		{"no such seat", func() error { return f.m.HandToBot(f.ctx, id, 0, 7) }, string(errcode.Invalid)},
		{"own seat", func() error { return f.m.HandToBot(f.ctx, id, 2, 2) }, ""},
		{"acting once handed over", func() error {
			_, err := f.m.Act(f.ctx, id, engine.Action{Kind: engine.ActPass, Seat: 2})
			return err
		}, string(errcode.Forbidden)},
		{"Cy leaves", func() error { return f.m.Leave(f.ctx, id, 3) }, ""},
		{"end, not host", func() error { return f.m.End(f.ctx, id, 3) }, string(errcode.Forbidden)},
		{"end", func() error { return f.m.End(f.ctx, id, 0) }, ""},
		{"end again", func() error { return f.m.End(f.ctx, id, 0) }, string(errcode.Conflict)},
		{"act once ended", func() error {
			_, err := f.m.Act(f.ctx, id, engine.Action{Kind: engine.ActPass, Seat: 0})
			return err
		}, string(engine.CodeOver)},
	}
	for _, s := range steps {
		if got := codeOf(s.do()); got != s.want {
			t.Fatalf("%s: got code %q, want %q", s.name, got, s.want)
		}
	}
	if seat, err := f.m.Authenticate(f.ctx, id, tokens[1]); err != nil || seat != 2 {
		t.Errorf("a handed-over seat's token: got %d, %v, want seat 2 still", seat, err)
	}
	sum, err := f.m.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != game.StatusEnded || len(sum.Result) != 4 || !sum.Seats[2].Covered || sum.Seats[2].Kind != game.SeatBot {
		t.Errorf("got %+v, want ended with 4 places and seat 2 covered by a bot", sum)
	}
	results, err := f.st.Results(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Rated {
			t.Errorf("seat %d of an ended game rated", r.Seat)
		}
	}
	if v, err := f.m.View(f.ctx, id, 0); err != nil || len(v.Hand) == 0 || v.Phase != engine.PhaseOver || !v.Ended ||
		len(v.Can) != 0 || len(v.Result) != 4 {
		t.Errorf("view of an ended game: got %d cards, phase %v, ended %v, can %v, %d places, %v: want the hand as it stood, over, ended, no moves, 4 places",
			len(v.Hand), v.Phase, v.Ended, v.Can, len(v.Result), err)
	}
	if err := f.m.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	if got := f.pub.closed[id]; got != 1 {
		t.Errorf("the publisher was told %d times the ended game closed, want once", got)
	}
}
