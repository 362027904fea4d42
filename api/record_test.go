package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"bullshit/api"
	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/game"
)

// TestNothingHiddenBeforeTheEnd tries every GET route the API describes while
// a game is in play, as a spectator and as a seated player: no answer holds a
// card of another seat's hand, and the record is refused until the end.
func TestNothingHiddenBeforeTheEnd(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	host, err := w.client("").Create(ctx, client.CreateBody{Seats: 4, Name: "Ann", WindowSeconds: 4,
		Bots: []client.Bot{{Level: "hard", Style: "bold"}, {Level: "easy", Style: "caller"}, {Level: "medium", Style: "cautious"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	if _, err := w.client(host.Token).Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	// Nothing has been played or shown yet: every card of a bot's hand is
	// a secret from everyone else.
	var secret []string
	for seat := 1; seat < 4; seat++ {
		v, err := w.mgr.View(ctx, id, seat)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range v.Hand {
			secret = append(secret, `"`+c.String()+`"`)
		}
	}
	spec := loadSpec(t)
	tried := 0
	for _, op := range spec.operations() {
		method, path := op[0], strings.ReplaceAll(op[1], ":id", id)
		if method != http.MethodGet || strings.Contains(path, ":") || strings.HasSuffix(path, "/events") {
			continue
		}
		tried++
		for who, token := range map[string]string{"a spectator": "", "the host": host.Token} {
			a := w.do(method, path, token, "")
			for _, c := range secret {
				if strings.Contains(string(a.body), c) {
					t.Errorf("GET %s as %s: the answer holds another seat's card %s", path, who, c)
				}
			}
		}
	}
	if tried < 6 {
		t.Errorf("tried %d routes, want every GET route of the game (at least 6)", tried)
	}
	if a := w.do(http.MethodGet, "/api/v1/games/"+id+"/record", "", ""); a.status != http.StatusConflict {
		t.Errorf("GET record in play: got %d, want 409", a.status)
	}
}

// TestRecordReplays plays a game to its end and replays its record, as a
// program would download it, through the engine.
func TestRecordReplays(t *testing.T) {
	w := newWorld(t, worldOptions{})
	ctx := context.Background()
	host, err := w.client("").Create(ctx, client.CreateBody{Seats: 3, Name: "Ann", WindowSeconds: 4,
		Bots: []client.Bot{{Level: "medium", Style: "bold"}, {Level: "hard", Style: "caller"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := host.Game.ID
	if _, err := w.client(host.Token).Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	w.playPersons(id, []string{host.Token})

	a := w.do(http.MethodGet, "/api/v1/games/"+id+"/record", "", "")
	if a.status != http.StatusOK {
		t.Fatalf("GET record: got %d %s, want 200", a.status, a.body)
	}
	var rec game.Record
	if err := json.Unmarshal(a.body, &rec); err != nil {
		t.Fatal(err)
	}
	g, err := rec.ReviewGame()
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(g.Options, g.Seed, g.Start)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range rec.Actions {
		if err := s.Apply(act.Action, act.At); err != nil {
			t.Fatalf("action %d: %v", act.Seq, err)
		}
	}
	s.Tick(g.Over.Add(1000))
	var final engine.View
	decodeTo(t, w.do(http.MethodGet, "/api/v1/games/"+id+"/view", "", "").body, &final)
	if got, want := string(mustJSON(t, s.View(engine.Spectator))), string(mustJSON(t, final)); got != want {
		t.Errorf("the replayed record's final view\n%s\nwant\n%s", got, want)
	}
	var log api.EventList
	decodeTo(t, w.do(http.MethodGet, "/api/v1/games/"+id+"/log", "", "").body, &log)
	if got, want := string(mustJSON(t, s.Log(engine.Spectator))), string(mustJSON(t, log.Events)); got != want {
		t.Errorf("the replayed record's log differs from the game's")
	}
	if got, want := string(mustJSON(t, s.Result())), string(mustJSON(t, rec.Game.Result)); got != want {
		t.Errorf("got results %s replayed, want %s as stored", got, want)
	}
}

func decodeTo(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
}
