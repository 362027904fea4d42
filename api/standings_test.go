package api_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"bullshit/api/client"
	"bullshit/players"
)

// TestStandingsRoutes plays a rated game with an account's token against
// three bots and reads the leaderboard and the player through the API,
// every answer checked against openapi.yaml.
func TestStandingsRoutes(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	if a := w.do(http.MethodGet, "/api/v1/leaderboard", "", ""); a.status != http.StatusOK {
		t.Fatalf("an empty leaderboard: got %d %s", a.status, a.body)
	}
	_, token, _ := w.account("Ann")
	bots := []client.Bot{{Level: "easy", Style: "bold"}, {Level: "medium", Style: "bold"}, {Level: "hard", Style: "bold"}}
	host, err := w.client(token).Create(ctx, client.CreateBody{Seats: 4, Bots: bots})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.client(host.Token).Start(ctx, host.Game.ID); err != nil {
		t.Fatal(err)
	}
	w.playPersons(host.Game.ID, []string{host.Token})

	b := decodeInto[players.Leaderboard](t, w.do(http.MethodGet, "/api/v1/leaderboard?show=people", "", ""))
	if len(b.Lines) != 1 || b.Lines[0].Name != "Ann" || b.Lines[0].Games != 1 || !b.Lines[0].Provisional || b.More {
		t.Errorf("the leaderboard after one game: got %+v, want Ann alone, provisional", b)
	}
	if b := decodeInto[players.Leaderboard](t, w.do(http.MethodGet, "/api/v1/leaderboard?show=programs", "", "")); len(b.Lines) != 0 {
		t.Errorf("the programs' leaderboard: got %+v, want none", b.Lines)
	}
	p := decodeInto[players.Profile](t, w.do(http.MethodGet, "/api/v1/players/"+url.PathEscape("ann"), "", ""))
	if p.Name != "Ann" || p.Games != 1 || p.RatedGames != 1 || len(p.History) != 1 || len(p.Recent) != 1 || !p.Recent[0].Rated {
		t.Errorf("Ann's page: got %+v, want one rated game", p)
	}
	if p.History[0].Rating != p.Rating || p.Recent[0].After != p.Rating || p.Recent[0].Before != 1500 {
		t.Errorf("Ann's rating %v: history %+v, recent %+v, want them to agree from 1500", p.Rating, p.History, p.Recent)
	}
	for _, tt := range []struct {
		path   string
		status int
		code   string
	}{
		{"/api/v1/players/Nobody", http.StatusNotFound, "not_found"},
		{"/api/v1/leaderboard?show=robots", http.StatusBadRequest, "invalid"},
		{"/api/v1/leaderboard?page=0", http.StatusBadRequest, "invalid"},
		{"/api/v1/leaderboard?per_page=1000", http.StatusBadRequest, "invalid"},
		{"/api/v1/leaderboard?page=x", http.StatusBadRequest, "invalid"},
	} {
		a := w.do(http.MethodGet, tt.path, "", "")
		if a.status != tt.status || a.problem().Code != tt.code {
			t.Errorf("%s: got %d %s, want %d %s", tt.path, a.status, a.body, tt.status, tt.code)
		}
	}
}
