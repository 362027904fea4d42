package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"bullshit/engine"
	"bullshit/game"
	"bullshit/internal/clocks/fakeclock"
	"bullshit/live"
	"bullshit/naming"
	"bullshit/store"
)

// TestCreateAndJoinAreCheckedByTheRuntime checks the API answers the
// runtime's checks of the settings and names with their statuses.
func TestCreateAndJoinAreCheckedByTheRuntime(t *testing.T) {
	w := newWorld(t, worldOptions{})
	long := strings.Repeat("x", naming.Max+1)
	tests := []struct {
		name, body string
		status     int
		code       string
	}{
		{"two seats", `{"seats":2,"name":"Al"}`, 422, "bad_options"},
		{"away too soon", `{"seats":4,"away_after_seconds":5,"name":"Al"}`, 422, "bad_options"},
		{"away too long to hold", `{"seats":4,"away_after_seconds":99999999999,"name":"Al"}`, 422, "bad_options"},
		{"window too long to hold", `{"seats":4,"window_seconds":99999999999,"name":"Al"}`, 422, "bad_options"},
		{"too many bots", `{"seats":3,"bots":[{"level":"easy","style":"bold"},{"level":"easy","style":"bold"},{"level":"easy","style":"bold"}],"name":"Al"}`, 422, "bad_options"},
		{"no such bot level", `{"seats":3,"bots":[{"level":"genius","style":"bold"}],"name":"Al"}`, 422, "bad_options"},
		{"a simulation-only style", `{"seats":3,"bots":[{"level":"easy","style":"always"}],"name":"Al"}`, 422, "bad_options"},
		{"no name", `{"seats":4}`, 400, "invalid"},
		{"a blank name", `{"seats":4,"name":"   "}`, 400, "invalid"},
		{"a long name", `{"seats":4,"name":"` + long + `"}`, 400, "invalid"},
		{"a two-line name", `{"seats":4,"name":"Al\nBo"}`, 400, "invalid"},
		{"a right-to-left override", `{"seats":4,"name":"Al\u202e"}`, 400, "invalid"},
		{"a zero-width space", `{"seats":4,"name":"\u200bAl"}`, 400, "invalid"},
	}
	for _, tt := range tests {
		a := w.do("POST", "/api/v1/games", "", tt.body)
		if p := a.problem(); a.status != tt.status || p.Code != tt.code {
			t.Errorf("%s: got %d %+v, want %d %s", tt.name, a.status, p, tt.status, tt.code)
		}
	}

	a := w.do("POST", "/api/v1/games", "", `{"seats":4,"name":" Ａl "}`)
	if a.status != 201 {
		t.Fatalf("create: got %d %s", a.status, a.body)
	}
	j := decodeInto[game.Joined](t, a)
	if got := j.Game.Seats[0].Name; got != "Al" {
		t.Errorf("got the host's name %q, want %q", got, "Al")
	}
	path := "/api/v1/games/" + j.Game.ID + "/join"
	if a := w.do("POST", path, "", `{"name":"Bo\u2028"}`); a.status != 400 || a.problem().Code != "invalid" {
		t.Errorf("joining with a line separator: got %d %s, want 400 invalid", a.status, a.body)
	}
	a = w.do("POST", path, "", `{"name":"  Zoe\u0308 "}`)
	if a.status != 201 {
		t.Fatalf("join: got %d %s", a.status, a.body)
	}
	if got := decodeInto[game.Joined](t, a).Game.Seats[1].Name; got != "Zoë" {
		t.Errorf("got the joiner's name %q, want %q", got, "Zoë")
	}
}

func TestOpenTablesAreCapped(t *testing.T) {
	tests := []struct {
		name              string
		o                 worldOptions
		opened            int
		status            int
		code, messagePart string
	}{
		{"per address", worldOptions{maxOpenPerAddress: 2}, 2, 429, "too_many_tables", "You have 2 tables waiting"},
		{"in all", worldOptions{maxOpen: 3}, 3, 409, "lobby_full", "as many tables waiting for players as it can hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.o)
			for i := range tt.opened {
				if a := w.do("POST", "/api/v1/games", "", `{"seats":3,"name":"Al"}`); a.status != 201 {
					t.Fatalf("table %d: got %d %s", i+1, a.status, a.body)
				}
			}
			a := w.do("POST", "/api/v1/games", "", `{"seats":3,"name":"Al"}`)
			if p := a.problem(); a.status != tt.status || p.Code != tt.code || !strings.Contains(p.Error, tt.messagePart) {
				t.Errorf("one more: got %d %+v, want %d %s saying %q", a.status, p, tt.status, tt.code, tt.messagePart)
			}
		})
	}
}

// TestABrokenGameSaysSo checks a game that can't be rebuilt at the start
// answers every request plainly, and the server serves the rest.
func TestABrokenGameSaysSo(t *testing.T) {
	var id, token string
	w := newWorld(t, worldOptions{prepare: func(st *store.Store) {
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		m, err := live.New(ctx, live.Config{Store: st, Clock: fakeclock.New(time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC))})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.StartTables(); err != nil {
			t.Fatal(err)
		}
		j, err := m.Create(ctx, game.CreateRequest{Options: engine.Standard(3), HostName: "Ann", FillBots: true})
		if err != nil {
			t.Fatal(err)
		}
		id, token = j.Game.ID, j.Token
		if err := m.Start(ctx, id, 0); err != nil {
			t.Fatal(err)
		}
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}
		// A log the engine refuses to replay, as a fault would leave it.
		bad := store.Action{GameID: id, Seq: 1, At: time.Date(2026, 3, 1, 11, 0, 1, 0, time.UTC),
			Action: engine.Action{Kind: engine.ActCall, Seat: 0, No: 99}}
		if err := st.AppendAction(ctx, bad); err != nil {
			t.Fatal(err)
		}
	}})
	base := "/api/v1/games/" + id
	a := w.do("GET", base, "", "")
	if a.status != 200 || decodeInto[game.Summary](t, a).Status != game.StatusBroken {
		t.Errorf("get: got %d %s, want the game, broken", a.status, a.body)
	}
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/view", ""},
		{"GET", "/log", ""},
		{"GET", "/events", ""},
		{"POST", "/call", `{"no":0}`},
		{"POST", "/end", ""},
	} {
		a := w.do(r.method, base+r.path, token, r.body)
		if p := a.problem(); a.status != 409 || p.Code != "broken" || !strings.Contains(p.Error, "fault on our side") {
			t.Errorf("%s %s: got %d %+v, want 409 broken with a plain message", r.method, r.path, a.status, p)
		}
	}
	if a := w.do("POST", "/api/v1/games", "", `{"seats":3,"name":"Bo"}`); a.status != 201 {
		t.Errorf("creating another game: got %d %s", a.status, a.body)
	}
}
