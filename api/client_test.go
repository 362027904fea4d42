package api_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"bullshit/api"
	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/game"
	"bullshit/players"
)

// TestClientSpeaksTheServersJSON checks the client's copies of the API's
// JSON (package client imports nothing of the server's) carry every field
// the server's types do, under the same names, both ways. (A move's and a
// join's bodies are the client's own; every game test sends them.)
func TestClientSpeaksTheServersJSON(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	sneak := 2
	tests := []struct {
		name           string
		from, to, back any
	}{
		{"a game joined", &game.Joined{
			Seat: 1, Token: "0123456789abcdef",
			Game: game.Summary{
				ID: "abcdefgh", Status: game.StatusFinished, Options: engine.Standard(4), AwayAfter: 90 * time.Second,
				Seats: []game.SeatInfo{
					{Seat: 0, Kind: game.SeatPerson, Name: "Ann", Away: true, Covered: true},
					{Seat: 1, Kind: game.SeatBot, Name: "Robo", Bot: &game.BotSpec{Level: "hard", Style: "caller"}},
					{Seat: 2, Kind: game.SeatPerson, Name: "Bea", Player: 7},
				},
				Host: 0, Plays: 80, CreatedAt: at, StartedAt: at.Add(time.Minute), EndedAt: at.Add(time.Hour),
				Result: []engine.Place{{Seat: 1, Place: 1, Left: 0}, {Seat: 0, Place: 2, Left: 3}},
			},
		}, &client.Joined{}, &game.Joined{}},
		{"a new table's settings", &client.CreateBody{
			Seats: 4, Sneak: &sneak, WindowSeconds: 8, Pace: engine.Relaxed, AwayAfterSeconds: 120, Name: "Ann",
			Bots: []client.Bot{{Level: "easy", Style: "bold"}}, FillBots: true,
		}, &api.CreateBody{}, &client.CreateBody{}},
		{"an account", &players.Account{ID: 7, Name: "Bea", Bot: true, CreatedAt: at}, &client.Account{}, &players.Account{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := mustJSON(t, tt.from)
			strictDecode(t, want, tt.to)
			strictDecode(t, mustJSON(t, tt.to), tt.back)
			if got := mustJSON(t, tt.back); !bytes.Equal(got, want) {
				t.Errorf("got %s after the round trip, want %s", got, want)
			}
			if !reflect.DeepEqual(tt.back, tt.from) {
				t.Errorf("got %+v after the round trip, want %+v", tt.back, tt.from)
			}
		})
	}
}

// strictDecode decodes b into v, failing on any field v lacks.
func strictDecode(t *testing.T, b []byte, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		t.Fatalf("decoding %s into %T: %v", b, v, err)
	}
}
